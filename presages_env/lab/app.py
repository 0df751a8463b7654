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

import contextlib
import logging
from collections.abc import AsyncIterator
from importlib.resources import files

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError
from starlette.middleware.trustedhost import TrustedHostMiddleware

from presages_env.lab.agents_pool import AgentPool
from presages_env.lab.hub import Hub
from presages_env.lab.routes import admin, pages, socket, study, tables
from presages_env.lab.state import LOOPBACK_HOSTS, MAX_OPEN_TABLES, LabConfig, LabState
from presages_env.lab.store import Store
from presages_env.lab.web import RETRY_AFTER, Limiter, retry_later

__all__ = ["CSP", "LOOPBACK_HOSTS", "MAX_OPEN_TABLES", "RETRY_AFTER", "LabConfig", "create_app"]
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
LOG = logging.getLogger(__name__)


def create_app(config: LabConfig | None = None, store: Store | None = None) -> FastAPI:
    """The lab's app on ``store`` (migrated first; by default the one ``config`` names):
    its routers, its shared :class:`~presages_env.lab.state.LabState` at ``app.state.lab``,
    its hub of tables started and stopped with the app's lifespan."""
    config = config or LabConfig()
    store = store or Store(config.db_url, config.durability)
    store.migrate()
    lab = LabState(
        config,
        store,
        files("presages_env.lab") / "static",
        Limiter(config.tables_per_minute / 60, config.table_burst),
    )
    app = FastAPI(
        title="presages_env lab",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=_lifespan,
    )
    app.state.lab = lab
    app.mount("/static", StaticFiles(directory=str(lab.static)), name="static")
    for area in (pages, tables, admin, study, socket):
        app.include_router(area.router)
    app.add_exception_handler(OperationalError, _database_unavailable)
    app.add_exception_handler(admin.NotAdmin, admin.not_admin)
    app.middleware("http")(_headers)
    # the outermost layer: a request on a host not allowed (a DNS-rebinding page's: its own
    # name) is refused, a WebSocket's handshake included, before any route sees it
    app.add_middleware(
        TrustedHostMiddleware, allowed_hosts=list(config.allowed_hosts), www_redirect=False
    )
    return app


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    lab: LabState = app.state.lab
    pool = AgentPool(lab.config.agent_threads)
    lab.hub = Hub(lab.store, pool, lab.config.send_seconds)
    yield
    await lab.hub.close()
    pool.close()


async def _database_unavailable(request: Request, error: Exception) -> JSONResponse:
    """A page or call that met the database busy or gone: logged, and a retry (503 with
    ``Retry-After``), as a WebSocket's handshake is, never a server error."""
    LOG.error("%s %s: the database is unavailable: %s", request.method, request.url.path, error)
    return retry_later("the database is unavailable now")


async def _headers(request: Request, call_next):
    response = await call_next(request)
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"  # the URL holds a seat's token
    response.headers["Cache-Control"] = "no-store"
    return response
