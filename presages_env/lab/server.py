"""``python -m presages_env serve``: the lab on uvicorn, its database migrated first."""

from __future__ import annotations

import ipaddress
import re
import secrets
import threading
from collections.abc import Sequence

import presages_env
from presages_env.core.compiling import compiling_notice
from presages_env.core.validation import check_int
from presages_env.lab.app import LOOPBACK_HOSTS, MAX_OPEN_TABLES, LabConfig, create_app
from presages_env.lab.lobby import MAX_IDLE, MIN_IDLE, games_offered

LOBBIES = ("admin", "open")  # who may open a table: the admin token's holder, or anyone
MAX_TABLES_BOUND = 1_000_000  # the largest --max-open-tables taken
LABEL = r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?"
HOST_NAME = re.compile(rf"(\*\.)?{LABEL}(\.{LABEL})*")  # a name, or *.domain
BRACKETED = re.compile(r"\[([0-9a-f:.]+)\](:[0-9]+)?")  # an IPv6 address as a Host has it

WS_MAX_SIZE = 4096  # bytes of a WebSocket message uvicorn takes (a move is at most 512)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    admin_token: str | None = None,
    idle_seconds: int = 120,
    durability: str = "process",
    *,
    lobby: str | None = None,
    max_open_tables: int | None = None,
    tables_per_minute: int | None = None,
    allowed_hosts: Sequence[str] = (),
) -> None:
    """Serve until interrupted; prints the lobby's address and the admin token (a fresh one
    unless given: admin routes always need one). ``lobby``: who may open a table, "admin"
    or "open" (default: open on a loopback address only, so a server others can reach asks
    for the admin token); ``tables_per_minute``: the new tables one client may open at once
    and then each minute (``LabConfig``'s burst and rate). The server answers to the bound
    address, the loopback names and ``allowed_hosts`` only (the ``Host`` header of every
    request, WebSockets included). A bad setting or database URL raises ``ValueError``
    before anything is served."""
    import uvicorn

    check_int(idle_seconds, "idle seconds", MIN_IDLE, MAX_IDLE)
    lobby = lobby or ("open" if _loopback(host) else "admin")
    if lobby not in LOBBIES:
        raise ValueError(f"the lobby is one of {LOBBIES}, not {lobby!r:.40}")
    max_open_tables = MAX_OPEN_TABLES if max_open_tables is None else max_open_tables
    check_int(max_open_tables, "max open tables", 1, MAX_TABLES_BOUND)
    rate = int(LabConfig.tables_per_minute) if tables_per_minute is None else tables_per_minute
    check_int(rate, "tables per minute", 1, MAX_TABLES_BOUND)
    if isinstance(allowed_hosts, str):
        raise TypeError("allowed_hosts is a list of hosts, not one string")
    hosts = [*LOOPBACK_HOSTS, *map(allowed_host, allowed_hosts)]
    if host and not _unspecified(host):
        hosts.insert(0, allowed_host(host))
    token = admin_token or secrets.token_urlsafe(24)
    config = LabConfig(
        allowed_hosts=tuple(dict.fromkeys(hosts)),
        db_url=db_url,
        durability=durability,
        admin_token=token,
        idle_seconds=idle_seconds,
        max_open_tables=max_open_tables,
        tables_per_minute=float(rate),
        table_burst=rate,
        lobby_admin_only=lobby == "admin",
    )
    app = create_app(config)
    # the lobby's list checks every shipped checkpoint once (seconds): begun now, it is
    # ready by the time a person opens the lobby
    threading.Thread(target=games_offered, name="lobby-games", daemon=True).start()
    print(f"lab lobby: http://{host}:{port}/  (database {app.state.lab.store.engine.url!r})")
    print(f"allowed hosts: {', '.join(config.allowed_hosts)}; lobby: {lobby}")
    if admin_token is None:  # a given one stays out of the logs
        print(f"admin token: {token}")
    notice = compiling_notice(presages_env.get_game(name) for name in presages_env.list_games())
    if notice:  # each game compiles when its first table opens
        print(f"{notice}, as each game's first table opens", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=WS_MAX_SIZE)


def _loopback(host: str) -> bool:
    """Whether ``host`` (the address bound) is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name: it may resolve to anywhere
        return False


def _unspecified(host: str) -> bool:
    """Whether binding ``host`` listens on every address (0.0.0.0, ::)."""
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def allowed_host(entry: str) -> str:
    """``entry`` as a ``Host`` header's host is compared with it: lower case, its port
    dropped, an IPv6 address in brackets; ``ValueError`` unless it is a host name, an
    address or ``*.domain``."""
    text = entry.strip().lower()
    bracketed = BRACKETED.fullmatch(text)
    try:
        address = ipaddress.ip_address(bracketed.group(1) if bracketed else text)
        return f"[{address.compressed}]" if address.version == 6 else address.compressed
    except ValueError:
        pass
    name = re.sub(r":[0-9]+$", "", text)
    if not HOST_NAME.fullmatch(name) or len(name) > 253:
        raise ValueError(f"an allowed host is a name, an address or *.domain, not {entry!r:.60}")
    return name
