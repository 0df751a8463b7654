"""The lab's settings (:class:`LabConfig`) and what its routes share while it serves
(:class:`LabState`, at ``app.state.lab``; a route takes it as the :data:`Lab` dependency)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends
from fastapi.responses import HTMLResponse
from starlette.requests import HTTPConnection

from presages_env.lab.hub import Hub
from presages_env.lab.store import Store
from presages_env.lab.web import Limiter
from presages_env.ui.card_parts import with_card_parts

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

MAX_OPEN_TABLES = 500  # the lobby's default bound
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")  # as a Host header names them, no port


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


@dataclasses.dataclass
class LabState:
    """One server's shared state: its settings, its store, its pages' folder, the clients'
    rate of new tables, its open sockets and (once it serves: the app's lifespan starts it)
    its hub of open tables."""

    config: LabConfig
    store: Store
    static: Traversable  # the pages, their scripts and stylesheet
    table_rate: Limiter
    sockets: int = 0
    hub: Hub = dataclasses.field(init=False, repr=False)

    def page(self, name: str) -> HTMLResponse:
        """The static page ``name`` with the card stylesheet and script it links."""
        return HTMLResponse(with_card_parts((self.static / name).read_text(encoding="utf-8")))

    async def seat(self, table_id: str, token: str) -> int | None:
        """The seat ``token`` opens at ``table_id``; None for none (or an overlong link)."""
        if len(table_id) > 32 or len(token) > 64:
            return None
        return await asyncio.to_thread(self.store.seat_of, table_id, token)


def lab_state(connection: HTTPConnection) -> LabState:
    return connection.app.state.lab


Lab = Annotated[LabState, Depends(lab_state)]
