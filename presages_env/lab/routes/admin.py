"""The admin's calls, each needing the admin token (``Authorization: Bearer TOKEN``): the
tables by state, a remote seat's new link, a new study, and a participant's new key."""

from __future__ import annotations

import asyncio
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from presages_env.lab.remote import remote_link
from presages_env.lab.state import Lab
from presages_env.lab.study import MAX_STUDY_BYTES, load_study
from presages_env.lab.web import is_admin, raw_body, refusal, refused


class NotAdmin(Exception):
    """A call to an admin route without the admin token (answered with HTTP 403)."""


def admin_only(request: Request, lab: Lab) -> None:
    if not is_admin(request, lab.config.admin_token):
        raise NotAdmin


router = APIRouter(prefix="/api/admin", dependencies=[Depends(admin_only)])


async def not_admin(request: Request, error: NotAdmin) -> JSONResponse:
    return refusal("this needs the admin token", 403)


@router.get("/tables")
async def admin_tables(lab: Lab) -> JSONResponse:
    done = await asyncio.to_thread(lab.store.table_ids, True)
    going = await asyncio.to_thread(lab.store.table_ids, False)
    abandoned = await asyncio.to_thread(lab.store.abandoned_table_ids)  # among the unfinished
    return JSONResponse({"finished": done, "unfinished": going, "abandoned": abandoned})


@router.post("/tables/{table_id}/{seat}/link")
async def remote_seat_link(lab: Lab, table_id: str, seat: int) -> JSONResponse:
    """A remote agent's seat's new link (the old one stops working): how the program at
    a study's remote seat is given its link (docs/agents_anywhere.md)."""
    try:
        link = await asyncio.to_thread(remote_link, lab.store, table_id, seat)
    except LookupError as error:
        return refusal(str(error), 404)
    await lab.hub.revoke(table_id, seat)
    return JSONResponse({"link": link})


@router.post("/studies")
async def create_study(lab: Lab, request: Request) -> JSONResponse:
    try:
        study = await asyncio.to_thread(load_study, await raw_body(request, MAX_STUDY_BYTES))
    except (ValueError, TypeError, ImportError, OSError) as error:
        return refused(error)
    study_id = await asyncio.to_thread(lab.store.create_study, study.to_json())
    return JSONResponse({"study": study_id, "link": f"/study/{study_id}?participant=ID"})


@router.post("/studies/{study_id}/{participant}/key")
async def reissue_participant_key(lab: Lab, study_id: str, participant: str) -> JSONResponse:
    """A participant's new key (the old one stops working), as their study link."""
    if len(study_id) > 32 or len(participant) > 64:
        return refusal("no such participant", 404)
    try:
        key = await asyncio.to_thread(lab.store.reissue_key, study_id, participant)
    except LookupError as error:
        return refusal(str(error), 404)
    link = f"/study/{quote(study_id)}?participant={quote(participant)}#key={key}"
    return JSONResponse({"key": key, "link": link})
