"""A study participant's calls (:mod:`presages_env.lab.study_flow`), each carrying their key
as ``Authorization: Bearer KEY`` (study.js): where they stand, their consent, their next
game and their answers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from presages_env.lab import study_flow
from presages_env.lab.state import Lab, LabState
from presages_env.lab.web import TooLarge, bearer, json_body, refusal

router = APIRouter(prefix="/api/study/{study_id}/{participant}")


@router.get("")
async def study_stage(lab: Lab, request: Request, study_id: str, participant: str) -> JSONResponse:
    return await _study_call(lab, study_flow.where, request, study_id, participant)


@router.post("/play")
async def study_play(lab: Lab, request: Request, study_id: str, participant: str) -> JSONResponse:
    return await _study_call(lab, study_flow.advance, request, study_id, participant)


@router.post("/consent")
async def study_consent(
    lab: Lab, request: Request, study_id: str, participant: str
) -> JSONResponse:
    """An enrolment deals a table, so a consent takes the client's rate of new tables."""
    if too_fast := lab.table_rate.refusal(request):
        return too_fast
    return await _study_call(lab, study_flow.consent, request, study_id, participant)


@router.post("/answers")
async def study_answers(
    lab: Lab, request: Request, study_id: str, participant: str
) -> JSONResponse:
    try:
        data = await json_body(request, "the answers")
    except ValueError as error:
        return refusal(str(error), 413 if isinstance(error, TooLarge) else 400)
    return await _study_call(lab, study_flow.answer, request, study_id, participant, data)


async def _study_call(
    lab: LabState,
    step: Callable[..., dict[str, Any]],
    request: Request,
    study_id: str,
    participant: str,
    *data: Any,
) -> JSONResponse:
    """``step`` of the participant's study, its refusals answered with their status: 404 for
    no such study, 403 for a key that is not theirs, 400 for what they sent."""
    key = bearer(request)
    try:
        now = await asyncio.to_thread(step, lab.store, study_id, participant, key, *data)
    except LookupError as error:
        return refusal(str(error), 404)
    except PermissionError as error:
        return refusal(str(error), 403)
    except (ValueError, TypeError) as error:
        return refusal(str(error))
    if "link" in now:  # a fresh link: the old one's sockets are closed
        await lab.hub.revoke(now.pop("table"), now.pop("seat"))
    return JSONResponse(now)
