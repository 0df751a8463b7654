"""The lobby's calls: the games offered (each with the agents that can sit at each player
count) and a new table, within the lobby's bounds (who may open one, a client's rate, the
server's open tables)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from presages_env.lab import lobby
from presages_env.lab.state import Lab
from presages_env.lab.web import is_admin, json_body, refusal, refused

router = APIRouter(prefix="/api")


@router.get("/games")
async def games() -> dict[str, Any]:
    # in a thread: the first call checks the shipped checkpoints of every game and count
    offered = await asyncio.to_thread(lobby.games_offered)
    unavailable = await asyncio.to_thread(lobby.games_unavailable)
    return {"games": offered, "unavailable": unavailable}


@router.post("/tables")
async def create_table(lab: Lab, request: Request) -> JSONResponse:
    config = lab.config
    admin = is_admin(request, config.admin_token)
    if config.lobby_admin_only and not admin:
        return refusal("this server's lobby needs the admin token", 403)
    if not admin and (too_fast := lab.table_rate.refusal(request)):
        return too_fast
    try:
        data = await json_body(request, "a table request")
        # in a thread: checking an agent seat loads it (a PPO checkpoint: torch)
        wanted = await asyncio.to_thread(lobby.table_request, data, config.idle_seconds)
    except (ValueError, TypeError, ImportError, OSError) as error:
        return refused(error)
    if await asyncio.to_thread(lab.store.open_tables) >= config.max_open_tables:
        reason = f"the server has its limit of {config.max_open_tables} open tables"
        return refusal(f"{reason}: try again later", 503)
    table_id, tokens = await asyncio.to_thread(
        lab.store.create_table,
        wanted.game,
        wanted.num_players,
        wanted.options,
        wanted.seed,
        wanted.seats,
        wanted.idle_seconds,
    )
    links = {str(seat): f"/t/{table_id}/{token}" for seat, token in tokens.items()}
    return JSONResponse({"table": table_id, "links": links})
