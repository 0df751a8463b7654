"""``python -m presages_env serve``: the lab on uvicorn, its database migrated first."""

from __future__ import annotations

import secrets

from presages_env.core.validation import check_int
from presages_env.lab.app import LabConfig, create_app
from presages_env.lab.lobby import MAX_IDLE, MIN_IDLE

WS_MAX_SIZE = 4096  # bytes of a WebSocket message uvicorn takes (a move is at most 512)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    admin_token: str | None = None,
    idle_seconds: int = 120,
    durability: str = "process",
) -> None:
    """Serve until interrupted; prints the lobby's address and the admin token (a fresh one
    unless given: admin routes always need one). A bad setting or database URL raises
    ``ValueError`` before anything is served."""
    import uvicorn

    check_int(idle_seconds, "idle seconds", MIN_IDLE, MAX_IDLE)
    token = admin_token or secrets.token_urlsafe(24)
    config = LabConfig(
        db_url=db_url, durability=durability, admin_token=token, idle_seconds=idle_seconds
    )
    app = create_app(config)
    print(f"lab lobby: http://{host}:{port}/  (database {app.state.store.engine.url!r})")
    if admin_token is None:  # a given one stays out of the logs
        print(f"admin token: {token}")
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=WS_MAX_SIZE)
