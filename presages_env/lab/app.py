"""The lab's ASGI app (FastAPI): the lobby, the table pages, their WebSocket and a seat's
replay page, with every response under a Content-Security-Policy that allows no inline
script (the pages load their script from /static).

Bounds: a request body and a WebSocket message have a size cap, a socket a message rate,
a client a rate of new tables, the server a number of open sockets (and a seat a few) and
of open tables (an unjoined one stops counting after its idle time); a WebSocket from a
browser must come from one of the allowed hosts (or an origin the config allows). Every
request, a WebSocket's included, names an allowed host in its ``Host`` header (HTTP 400
otherwise): a page on another name, DNS-rebinding one included, reaches nothing. Admin
routes need the admin token given at start-up, as ``Authorization: Bearer TOKEN``.

A WebSocket is refused before its handshake with HTTP 403 for what retrying cannot mend (no
such seat, a foreign origin) and HTTP 503 with ``Retry-After`` for what it may: the server's
or the seat's sockets at their bound, or a table that cannot be opened now (its database
busy or gone, its game failing to load: logged with the cause). Nothing a connection meets
before its handshake becomes a server error (HTTP 500)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import hashlib
import hmac
import logging
import math
import re
import time
from collections import OrderedDict
from importlib.resources import files
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.websockets import WebSocketDisconnected

from presages_env import records
from presages_env.core.files import parse_json
from presages_env.lab import lobby, study_flow
from presages_env.lab.agents_pool import AgentPool
from presages_env.lab.hub import POLICY_VIOLATION, Hub, MoveRefused
from presages_env.lab.protocol import messages
from presages_env.lab.remote import UNKNOWN_PROTOCOL, protocol_refusal, remote_link
from presages_env.lab.store import LinkReplaced, Store, hash_token
from presages_env.lab.study import MAX_STUDY_BYTES, load_study
from presages_env.ui.card_parts import card_part, with_card_parts
from presages_env.ui.replay_page import replay_page

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
MAX_BODY = 4096  # bytes of a request to create a table
MAX_DEPTH = 4  # how deep a request's JSON may nest
UNSUPPORTED_DATA = 1003  # the WebSocket close code for a binary frame
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)
RETRY_AFTER = 2  # seconds a refused WebSocket is told to wait (HTTP 503 Retry-After)
MAX_OPEN_TABLES = 500  # the lobby's default bound
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")  # as a Host header names them, no port
LOG = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class LabConfig:
    db_url: str | None = None  # None: the SQLite file under runs/
    durability: str = "process"  # what a SQLite commit survives: "process" or "power"
    admin_token: str | None = None  # None: admin routes are closed
    idle_seconds: int = 120  # a new table's default for how long a person may think
    # the Host header's names (``*.domain`` for its subdomains), its port aside; a
    # browser's WebSocket must come from a page on one of them (or from allowed_origins)
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    allowed_origins: tuple[str, ...] = ()  # full origins, as "https://lab.example.org"
    max_sockets: int = 1000
    max_open_tables: int = MAX_OPEN_TABLES  # unfinished, unexpired tables; more: 503
    lobby_admin_only: bool = False  # True: creating a table needs the admin token
    tables_per_minute: float = 10.0  # a client's sustained rate of new tables (then 429)
    table_burst: int = 10  # new tables a client may open at once
    max_sockets_per_seat: int = 3
    messages_per_second: float = 5.0  # a socket's sustained rate
    burst: int = 20  # messages a socket may send at once
    agent_threads: int = 2
    send_seconds: float = 10.0  # a socket whose message waits longer for its client is dropped


def create_app(config: LabConfig | None = None, store: Store | None = None) -> FastAPI:
    config = config or LabConfig()
    store = store or Store(config.db_url, config.durability)
    store.migrate()
    static = files("presages_env.lab") / "static"
    app = FastAPI(title="presages_env lab", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.store = store
    app.state.config = config
    app.state.sockets = 0
    table_rate = _Limiter(config.tables_per_minute / 60, config.table_burst)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        pool = AgentPool(config.agent_threads)
        app.state.hub = Hub(store, pool, config.send_seconds)
        yield
        await app.state.hub.close()
        pool.close()

    app.router.lifespan_context = lifespan
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.exception_handler(OperationalError)
    async def database_unavailable(request: Request, error: OperationalError) -> JSONResponse:
        """A page or call that met the database busy or gone: logged, and a retry (503 with
        ``Retry-After``), as a WebSocket's handshake is, never a server error."""
        LOG.error("%s %s: the database is unavailable: %s", request.method, request.url.path, error)
        return _retry_later("the database is unavailable now")

    @app.get("/cards.{kind}")
    async def card_part_file(kind: str) -> Response:
        """The card stylesheet and script the replay page inlines (the lab's pages link them)."""
        media = {"css": "text/css", "js": "text/javascript"}
        if kind not in media:
            return _refusal("no such file", 404)
        return Response(card_part(f"cards.{kind}"), media_type=media[kind])

    @app.middleware("http")
    async def headers(request: Request, call_next):
        response = await call_next(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"  # the URL holds a seat's token
        response.headers["Cache-Control"] = "no-store"
        return response

    def page(name: str) -> HTMLResponse:
        return HTMLResponse(with_card_parts((static / name).read_text(encoding="utf-8")))

    @app.get("/")
    async def lobby_page() -> HTMLResponse:
        return page("lobby.html")

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        from presages_env.lab.agents_pool import ALLOWED_AGENTS

        # in a thread: the first call checks the shipped checkpoints of every game and count
        offered = await asyncio.to_thread(lobby.games_offered)
        unavailable = await asyncio.to_thread(lobby.games_unavailable)
        return {"games": offered, "unavailable": unavailable, "agents": sorted(ALLOWED_AGENTS)}

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        admin = _is_admin(request, config.admin_token)
        if config.lobby_admin_only and not admin:
            return _refusal("this server's lobby needs the admin token", 403)
        if not admin and (refusal := _too_fast(request)):
            return refusal
        try:
            data = await _body(request, "a table request")
            # in a thread: checking an agent seat loads it (a PPO checkpoint: torch)
            wanted = await asyncio.to_thread(lobby.table_request, data, config.idle_seconds)
        except (ValueError, TypeError, ImportError, OSError) as error:
            return _refused(error)
        if await asyncio.to_thread(store.open_tables) >= config.max_open_tables:
            reason = f"the server has its limit of {config.max_open_tables} open tables"
            return _refusal(f"{reason}: try again later", 503)
        table_id, tokens = await asyncio.to_thread(
            store.create_table,
            wanted.game,
            wanted.num_players,
            wanted.options,
            wanted.seed,
            wanted.seats,
            wanted.idle_seconds,
        )
        links = {str(seat): f"/t/{table_id}/{token}" for seat, token in tokens.items()}
        return JSONResponse({"table": table_id, "links": links})

    @app.get("/t/{table_id}/{token}")
    async def table_page(table_id: str, token: str) -> Response:
        if await _seat(table_id, token) is None:
            return _refusal("no such seat", 404)
        return page("table.html")

    @app.get("/replay/{table_id}/{token}")
    async def seat_replay(table_id: str, token: str) -> Response:
        seat = await _seat(table_id, token)
        table = await app.state.hub.table(table_id) if seat is not None else None
        if table is None or not table.live.over:
            return _refusal("no finished game at this seat", 404)
        data = table.data
        rec = records.record(
            data.game,
            data.num_players,
            data.seed,
            table.live.actions,
            table.names,
            **table.live.options,
        )
        html = await asyncio.to_thread(replay_page, rec, seat)
        return HTMLResponse(html, headers={"Content-Security-Policy": _replay_csp(html)})

    @app.get("/api/admin/tables")
    async def admin_tables(request: Request) -> JSONResponse:
        if not _is_admin(request, config.admin_token):
            return _refusal("this needs the admin token", 403)
        done = await asyncio.to_thread(store.table_ids, True)
        going = await asyncio.to_thread(store.table_ids, False)
        abandoned = await asyncio.to_thread(store.abandoned_table_ids)  # among the unfinished
        return JSONResponse({"finished": done, "unfinished": going, "abandoned": abandoned})

    @app.post("/api/admin/tables/{table_id}/{seat}/link")
    async def remote_seat_link(request: Request, table_id: str, seat: int) -> JSONResponse:
        """A remote agent's seat's new link (the old one stops working): how the program at
        a study's remote seat is given its link (docs/agents_anywhere.md)."""
        if not _is_admin(request, config.admin_token):
            return _refusal("this needs the admin token", 403)
        try:
            link = await asyncio.to_thread(remote_link, store, table_id, seat)
        except LookupError as error:
            return _refusal(str(error), 404)
        await app.state.hub.revoke(table_id, seat)
        return JSONResponse({"link": link})

    @app.post("/api/admin/studies")
    async def create_study(request: Request) -> JSONResponse:
        if not _is_admin(request, config.admin_token):
            return _refusal("this needs the admin token", 403)
        try:
            study = await asyncio.to_thread(load_study, await _raw_body(request, MAX_STUDY_BYTES))
        except (ValueError, TypeError, ImportError, OSError) as error:
            return _refused(error)
        study_id = await asyncio.to_thread(store.create_study, study.to_json())
        return JSONResponse({"study": study_id, "link": f"/study/{study_id}?participant=ID"})

    @app.get("/study/{study_id}")
    async def study_page(study_id: str) -> HTMLResponse:
        return page("study.html")

    @app.post("/api/admin/studies/{study_id}/{participant}/key")
    async def reissue_participant_key(
        request: Request, study_id: str, participant: str
    ) -> JSONResponse:
        """A participant's new key (the old one stops working), as their study link."""
        if not _is_admin(request, config.admin_token):
            return _refusal("this needs the admin token", 403)
        if len(study_id) > 32 or len(participant) > 64:
            return _refusal("no such participant", 404)
        try:
            key = await asyncio.to_thread(store.reissue_key, study_id, participant)
        except LookupError as error:
            return _refusal(str(error), 404)
        link = f"/study/{quote(study_id)}?participant={quote(participant)}#key={key}"
        return JSONResponse({"key": key, "link": link})

    # A participant's calls carry their key as ``Authorization: Bearer KEY`` (study.js)
    @app.get("/api/study/{study_id}/{participant}")
    async def study_stage(request: Request, study_id: str, participant: str) -> JSONResponse:
        return await _study_call(study_flow.where, request, study_id, participant)

    @app.post("/api/study/{study_id}/{participant}/play")
    async def study_play(request: Request, study_id: str, participant: str) -> JSONResponse:
        return await _study_call(study_flow.advance, request, study_id, participant)

    @app.post("/api/study/{study_id}/{participant}/consent")
    async def study_consent(request: Request, study_id: str, participant: str) -> JSONResponse:
        """An enrolment deals a table, so a consent takes the client's rate of new tables."""
        if refusal := _too_fast(request):
            return refusal
        return await _study_call(study_flow.consent, request, study_id, participant)

    @app.post("/api/study/{study_id}/{participant}/answers")
    async def study_answers(request: Request, study_id: str, participant: str) -> JSONResponse:
        try:
            data = await _body(request, "the answers")
        except ValueError as error:
            return _refusal(str(error), 413 if isinstance(error, _TooLarge) else 400)
        return await _study_call(study_flow.answer, request, study_id, participant, data)

    async def _study_call(
        step, request: Request, study_id: str, participant: str, *data: Any
    ) -> JSONResponse:
        key = _bearer(request)
        try:
            now = await asyncio.to_thread(step, store, study_id, participant, key, *data)
        except LookupError as error:
            return _refusal(str(error), 404)
        except PermissionError as error:
            return _refusal(str(error), 403)
        except (ValueError, TypeError) as error:
            return _refusal(str(error))
        if "link" in now:  # a fresh link: the old one's sockets are closed
            await app.state.hub.revoke(now.pop("table"), now.pop("seat"))
        return JSONResponse(now)

    @app.websocket("/ws/{table_id}/{token}")
    async def table_socket(socket: WebSocket, table_id: str, token: str) -> None:
        origin = socket.headers.get("origin")
        if origin is not None and not _origin_allowed(origin, socket.headers.get("host"), config):
            await socket.close(POLICY_VIOLATION, "origin not allowed")
            return
        try:
            seat = await _seat(table_id, token)
            table = await app.state.hub.table(table_id) if seat is not None else None
        except Exception:  # the database, or the table's game failing to load: logged, and
            # refused as a retry, never answered with a server error
            LOG.exception("table %.32r: a connection could not open it", table_id)
            await _unavailable(socket, "the table cannot be opened now")
            return
        if table is None:
            await socket.close(POLICY_VIOLATION, "no such seat")
            return
        if (
            app.state.sockets >= config.max_sockets
            or len(table.sockets.get(seat, ())) >= config.max_sockets_per_seat
        ):
            await _unavailable(socket, "too many connections")
            return
        await socket.accept()
        if refusal := protocol_refusal(socket.query_params.get("protocol")):
            await socket.close(UNKNOWN_PROTOCOL, refusal)
            return
        app.state.sockets += 1
        hub: Hub = app.state.hub
        try:
            hub.join(table, seat, socket)
            bucket = _Bucket(config.messages_per_second, config.burst)
            token_hash = hash_token(token)  # each move's link, checked as it is stored
            while True:
                frame = await socket.receive()
                if frame["type"] == "websocket.disconnect":
                    return
                text = frame.get("text")
                if text is None:
                    await socket.close(UNSUPPORTED_DATA, "moves are text frames")
                    return
                if not bucket.take():
                    await socket.close(POLICY_VIOLATION, "too many messages")
                    return
                try:
                    move = messages.parse_move(text)
                    await hub.human_move(table, seat, move, token_hash)
                except (ValueError, TypeError) as error:  # MoveRefused among them
                    refused = "refused" if isinstance(error, MoveRefused) else "error"
                    hub.tell(table, seat, socket, {"type": refused, "reason": str(error)})
                    continue
                except LinkReplaced:  # its seat's token was reissued meanwhile
                    await socket.close(POLICY_VIOLATION, "this link was replaced")
                    return
                hub.tell(table, seat, socket, {"type": "ack", "step": move["step"]})
        except (WebSocketDisconnect, WebSocketDisconnected):  # the latter: a send after the
            pass  # socket was closed meanwhile (a broadcast found it gone, or it was revoked)
        finally:
            app.state.sockets -= 1
            hub.leave(table, seat, socket)

    def _too_fast(request: Request) -> JSONResponse | None:
        """HTTP 429 with ``Retry-After`` if the client is past its rate of new tables."""
        wait = table_rate.wait(request.client.host if request.client else "")
        if not wait:
            return None
        refusal = _refusal("too many tables from this client: try again later", 429)
        refusal.headers["Retry-After"] = str(math.ceil(wait))
        return refusal

    async def _seat(table_id: str, token: str) -> int | None:
        if len(table_id) > 32 or len(token) > 64:
            return None
        return await asyncio.to_thread(store.seat_of, table_id, token)

    # the outermost layer: a request on a host not allowed (a DNS-rebinding page's: its own
    # name) is refused, a WebSocket's handshake included, before any route sees it
    app.add_middleware(
        TrustedHostMiddleware, allowed_hosts=list(config.allowed_hosts), www_redirect=False
    )
    return app


class _TooLarge(ValueError):
    """A request's body past its size cap."""


async def _raw_body(request: Request, limit: int) -> bytes:
    """The request's body, refused past ``limit`` bytes."""
    body = await request.body()
    if len(body) > limit:
        raise _TooLarge(f"a request is at most {limit} bytes")
    return body


async def _body(request: Request, what: str) -> Any:
    """The request's JSON body, ``what``, parsed within the size and depth caps
    (``ValueError`` naming what was wrong, never a RecursionError)."""
    return parse_json(await _raw_body(request, MAX_BODY), what, MAX_BODY, MAX_DEPTH)


def _refusal(reason: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


def _refused(error: Exception) -> JSONResponse:
    """The refusal of a request whose input failed its checks: a ``ValueError``'s or
    ``TypeError``'s own words; an ``OSError``'s or ``ImportError``'s only logged, since its
    text may name a path of the server."""
    if isinstance(error, (OSError, ImportError)):
        LOG.warning("a request named an agent that cannot be loaded: %r", error)
        return _refusal("an agent this asks for cannot be loaded on this server")
    return _refusal(str(error), 413 if isinstance(error, _TooLarge) else 400)


def _retry_later(reason: str) -> JSONResponse:
    """HTTP 503 with ``Retry-After``: what the client may try again."""
    refusal = _refusal(f"{reason}: try again later", 503)
    refusal.headers["Retry-After"] = str(RETRY_AFTER)
    return refusal


async def _unavailable(socket: WebSocket, reason: str) -> None:
    """Refuse the WebSocket's handshake with HTTP 503: try again after ``RETRY_AFTER``."""
    await socket.send_denial_response(_retry_later(reason))


def _bearer(request: Request) -> str | None:
    """The ``Authorization: Bearer`` credential the request carries, if any."""
    scheme, _, credential = request.headers.get("authorization", "").partition(" ")
    return credential if scheme == "Bearer" and credential else None


def _is_admin(request: Request, admin_token: str | None) -> bool:
    given = request.headers.get("authorization", "")
    expected = f"Bearer {admin_token}"
    return admin_token is not None and hmac.compare_digest(given.encode(), expected.encode())


def _origin_allowed(origin: str, host: str | None, config: LabConfig) -> bool:
    """Whether a page at ``origin`` may open a WebSocket: one of the allowed origins, or an
    http(s) page of the server's own origin, its host and port those the request was sent
    to (``host``, the Host header, which TrustedHostMiddleware has checked against the
    allowed hosts): a page of another port of an allowed host is another origin."""
    if origin in config.allowed_origins:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:  # a malformed address
        return False
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host.lower()


def _replay_csp(html: str) -> str:
    """The replay page's policy: its own inline scripts only, by their hashes."""
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
        for body in INLINE_SCRIPT.findall(html)
    )
    return f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; img-src data:"


class _Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.last = float(burst), time.monotonic()

    def take(self) -> bool:
        return self.wait() == 0

    def wait(self) -> float:
        """Take a message's token: 0, or the seconds until one is there (none taken)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return (1 - self.tokens) / self.rate
        self.tokens -= 1
        return 0.0


class _Limiter:
    """A token bucket per client (``rate`` a second, ``burst`` at once), kept for the
    ``clients`` clients seen last: past them the least recent is forgotten (it comes back
    with a full bucket), so the memory is bounded whatever the number of addresses."""

    def __init__(self, rate: float, burst: int, clients: int = 10_000) -> None:
        self.rate, self.burst, self.clients = rate, burst, clients
        self.buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def wait(self, client: str) -> float:
        """0 if ``client`` may go on now, else the seconds it should wait."""
        bucket = self.buckets.pop(client, None) or _Bucket(self.rate, self.burst)
        self.buckets[client] = bucket  # the newest last
        if len(self.buckets) > self.clients:
            self.buckets.popitem(last=False)
        return bucket.wait()
