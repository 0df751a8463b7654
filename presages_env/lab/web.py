"""What the lab's routes share: their refusals (a JSON ``{"error": reason}`` with its HTTP
status), a request body read within its caps, the admin and participant credentials a
request carries, the origin check of a browser's WebSocket, and the token buckets that
bound a client's rate."""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import math
import re
import time
from collections import OrderedDict
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request, WebSocket
from fastapi.responses import JSONResponse

from presages_env.core.files import parse_json

MAX_BODY = 4096  # bytes of a request to create a table
MAX_DEPTH = 4  # how deep a request's JSON may nest
RETRY_AFTER = 2  # seconds a refused WebSocket is told to wait (HTTP 503 Retry-After)
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)
LOG = logging.getLogger(__name__)


class TooLarge(ValueError):
    """A request's body past its size cap."""


async def raw_body(request: Request, limit: int) -> bytes:
    """The request's body, refused past ``limit`` bytes."""
    body = await request.body()
    if len(body) > limit:
        raise TooLarge(f"a request is at most {limit} bytes")
    return body


async def json_body(request: Request, what: str) -> Any:
    """The request's JSON body, ``what``, parsed within the size and depth caps
    (``ValueError`` naming what was wrong, never a RecursionError)."""
    return parse_json(await raw_body(request, MAX_BODY), what, MAX_BODY, MAX_DEPTH)


def refusal(reason: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


def refused(error: Exception) -> JSONResponse:
    """The refusal of a request whose input failed its checks: a ``ValueError``'s or
    ``TypeError``'s own words; an ``OSError``'s or ``ImportError``'s only logged, since its
    text may name a path of the server."""
    if isinstance(error, (OSError, ImportError)):
        LOG.warning("a request named an agent that cannot be loaded: %r", error)
        return refusal("an agent this asks for cannot be loaded on this server")
    return refusal(str(error), 413 if isinstance(error, TooLarge) else 400)


def retry_later(reason: str) -> JSONResponse:
    """HTTP 503 with ``Retry-After``: what the client may try again."""
    answer = refusal(f"{reason}: try again later", 503)
    answer.headers["Retry-After"] = str(RETRY_AFTER)
    return answer


async def unavailable(socket: WebSocket, reason: str) -> None:
    """Refuse the WebSocket's handshake with HTTP 503: try again after ``RETRY_AFTER``."""
    await socket.send_denial_response(retry_later(reason))


def bearer(request: Request) -> str | None:
    """The ``Authorization: Bearer`` credential the request carries, if any."""
    scheme, _, credential = request.headers.get("authorization", "").partition(" ")
    return credential if scheme == "Bearer" and credential else None


def is_admin(request: Request, admin_token: str | None) -> bool:
    given = request.headers.get("authorization", "")
    expected = f"Bearer {admin_token}"
    return admin_token is not None and hmac.compare_digest(given.encode(), expected.encode())


def origin_allowed(origin: str, host: str | None, allowed_origins: tuple[str, ...]) -> bool:
    """Whether a page at ``origin`` may open a WebSocket: one of the allowed origins, or an
    http(s) page of the server's own origin, its host and port those the request was sent
    to (``host``, the Host header, which TrustedHostMiddleware has checked against the
    allowed hosts): a page of another port of an allowed host is another origin."""
    if origin in allowed_origins:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:  # a malformed address
        return False
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host.lower()


def replay_csp(html: str) -> str:
    """The replay page's policy: its own inline scripts only, by their hashes."""
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
        for body in INLINE_SCRIPT.findall(html)
    )
    return f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; img-src data:"


class Bucket:
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


class Limiter:
    """A token bucket per client (``rate`` a second, ``burst`` at once), kept for the
    ``clients`` clients seen last: past them the least recent is forgotten (it comes back
    with a full bucket), so the memory is bounded whatever the number of addresses."""

    def __init__(self, rate: float, burst: int, clients: int = 10_000) -> None:
        self.rate, self.burst, self.clients = rate, burst, clients
        self.buckets: OrderedDict[str, Bucket] = OrderedDict()

    def wait(self, client: str) -> float:
        """0 if ``client`` may go on now, else the seconds it should wait."""
        bucket = self.buckets.pop(client, None) or Bucket(self.rate, self.burst)
        self.buckets[client] = bucket  # the newest last
        if len(self.buckets) > self.clients:
            self.buckets.popitem(last=False)
        return bucket.wait()

    def refusal(self, request: Request) -> JSONResponse | None:
        """HTTP 429 with ``Retry-After`` if the request's client is past its rate."""
        wait = self.wait(request.client.host if request.client else "")
        if not wait:
            return None
        answer = refusal("too many tables from this client: try again later", 429)
        answer.headers["Retry-After"] = str(math.ceil(wait))
        return answer
