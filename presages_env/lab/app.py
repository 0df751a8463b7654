"""The lab's ASGI app (FastAPI): the lobby, the table pages, their WebSocket and a seat's
replay page, with every response under a Content-Security-Policy that allows no inline
script (the pages load their script from /static).

Bounds: a request body and a WebSocket message have a size cap, a socket a message rate,
the server a number of open sockets (and a seat a few); a WebSocket from a browser must come
from the server's own origin (or one the config allows). Admin routes need the admin token
given at start-up, as ``Authorization: Bearer TOKEN``.

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
import re
import time
from importlib.resources import files
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnected

from presages_env import records
from presages_env.core.files import parse_json
from presages_env.lab import lobby, study_flow
from presages_env.lab.agents_pool import AgentPool
from presages_env.lab.hub import POLICY_VIOLATION, Hub, MoveRefused
from presages_env.lab.protocol import messages
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
LOG = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class LabConfig:
    db_url: str | None = None  # None: the SQLite file under runs/
    durability: str = "process"  # what a SQLite commit survives: "process" or "power"
    admin_token: str | None = None  # None: admin routes are closed
    idle_seconds: int = 120  # a new table's default for how long a person may think
    allowed_origins: tuple[str, ...] = ()  # besides the server's own
    max_sockets: int = 1000
    max_open_tables: int = 500  # unfinished tables; the lobby refuses more (503)
    lobby_admin_only: bool = False  # True: creating a table needs the admin token
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
    app.state.sockets = 0

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

        return {"games": lobby.games_offered(), "agents": sorted(ALLOWED_AGENTS)}

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        if config.lobby_admin_only and not _is_admin(request, config.admin_token):
            return _refusal("this server's lobby needs the admin token", 403)
        try:
            data = await _body(request, "a table request")
            # in a thread: checking an agent seat loads it (a PPO checkpoint: torch)
            wanted = await asyncio.to_thread(lobby.table_request, data, config.idle_seconds)
        except (ValueError, TypeError, ImportError, OSError) as error:
            return _refused(error)
        open_tables = len(await asyncio.to_thread(store.table_ids, False))
        if open_tables >= config.max_open_tables:
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
        return JSONResponse({"finished": done, "unfinished": going})

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

    @app.get("/api/study/{study_id}/{participant}")
    async def study_stage(study_id: str, participant: str) -> JSONResponse:
        return await _study_call(study_flow.where, study_id, participant)

    @app.post("/api/study/{study_id}/{participant}/play")
    async def study_play(study_id: str, participant: str) -> JSONResponse:
        return await _study_call(study_flow.advance, study_id, participant)

    @app.post("/api/study/{study_id}/{participant}/consent")
    async def study_consent(study_id: str, participant: str) -> JSONResponse:
        return await _study_call(study_flow.consent, study_id, participant)

    @app.post("/api/study/{study_id}/{participant}/answers")
    async def study_answers(request: Request, study_id: str, participant: str) -> JSONResponse:
        try:
            data = await _body(request, "the answers")
        except ValueError as error:
            return _refusal(str(error), 413 if isinstance(error, _TooLarge) else 400)
        return await _study_call(study_flow.answer, study_id, participant, data)

    async def _study_call(step, *args: Any) -> JSONResponse:
        try:
            now = await asyncio.to_thread(step, store, *args)
        except LookupError as error:
            return _refusal(str(error), 404)
        except (ValueError, TypeError) as error:
            return _refusal(str(error))
        if "link" in now:  # a fresh link: the old one's sockets are closed
            await app.state.hub.revoke(now.pop("table"), now.pop("seat"))
        return JSONResponse(now)

    @app.websocket("/ws/{table_id}/{token}")
    async def table_socket(socket: WebSocket, table_id: str, token: str) -> None:
        origin = socket.headers.get("origin")
        if origin is not None and not _same_origin(origin, socket, config.allowed_origins):
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

    async def _seat(table_id: str, token: str) -> int | None:
        if len(table_id) > 32 or len(token) > 64:
            return None
        return await asyncio.to_thread(store.seat_of, table_id, token)

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


def _is_admin(request: Request, admin_token: str | None) -> bool:
    given = request.headers.get("authorization", "")
    expected = f"Bearer {admin_token}"
    return admin_token is not None and hmac.compare_digest(given.encode(), expected.encode())


def _same_origin(origin: str, socket: WebSocket, allowed: tuple[str, ...]) -> bool:
    host = socket.headers.get("host", "")
    return origin in allowed or origin in (f"http://{host}", f"https://{host}")


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
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
