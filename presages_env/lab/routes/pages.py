"""The pages: the lobby, a seat's table, a study's page, the card parts they link and a
finished game's replay page for one of its seats."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from presages_env import records
from presages_env.lab.state import Lab
from presages_env.lab.web import refusal, replay_csp
from presages_env.ui.card_parts import card_part
from presages_env.ui.replay_page import replay_page

router = APIRouter()
MEDIA = {"css": "text/css", "js": "text/javascript"}


@router.get("/")
async def lobby_page(lab: Lab) -> HTMLResponse:
    return lab.page("lobby.html")


@router.get("/cards.{kind}")
async def card_part_file(kind: str) -> Response:
    """The card stylesheet and script the replay page inlines (the lab's pages link them)."""
    if kind not in MEDIA:
        return refusal("no such file", 404)
    return Response(card_part(f"cards.{kind}"), media_type=MEDIA[kind])


@router.get("/t/{table_id}/{token}")
async def table_page(lab: Lab, table_id: str, token: str) -> Response:
    if await lab.seat(table_id, token) is None:
        return refusal("no such seat", 404)
    return lab.page("table.html")


@router.get("/study/{study_id}")
async def study_page(lab: Lab, study_id: str) -> HTMLResponse:
    return lab.page("study.html")


@router.get("/replay/{table_id}/{token}")
async def seat_replay(lab: Lab, table_id: str, token: str) -> Response:
    seat = await lab.seat(table_id, token)
    table = await lab.hub.table(table_id) if seat is not None else None
    if table is None or not table.live.over:
        return refusal("no finished game at this seat", 404)
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
    return HTMLResponse(html, headers={"Content-Security-Policy": replay_csp(html)})
