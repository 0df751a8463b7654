"""Where a study's participant stands and what comes next: consent, then each game (a new
table in their condition), then the questions after it, until their games are played.
Everything is read from the store, so a participant who comes back resumes where they left
(a game in progress, by a fresh link to the same seat). Consent issues the participant a key
(``key`` below), and every later call must carry it: the id, which their links show, opens
nothing (``PermissionError``)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from presages_env.core.validation import check_int, check_text
from presages_env.lab.agents_pool import HUMAN
from presages_env.lab.store import Store
from presages_env.lab.study import MAX_ANSWER, Study, assign, check_participant, load_study


def where(store: Store, study_id: str, participant: str, key: str | None) -> dict[str, Any]:
    """Where the participant stands, read only: ``{"stage": "consent" | "play" |
    "questionnaire" | "done", ...}``; ``LookupError`` for no such study, ``PermissionError``
    for a participant who consented and ``key`` that is not theirs. A "play" stage has no
    link: :func:`advance` deals the game if it is due and issues one."""
    study = _study(store, study_id)
    check_participant(participant)
    mine = store.participant(study_id, participant)
    if mine is None:
        return {"stage": "consent", "name": study.name, "consent": study.consent}
    if not store.holds_key(study_id, participant, key):
        raise PermissionError("this participant has consented: only their own link goes on")
    games, total = mine["games"], study.games_per_participant
    progress = {"name": study.name, "game": len(games), "games": total}
    if games:
        index = len(games) - 1
        table_id, _ = games[index]
        if not store.table(table_id).finished:
            return {"stage": "play", **progress}
        if study.questions and index not in mine["answered"]:
            return {"stage": "questionnaire", **progress, "questions": study.questions}
    if len(games) >= total:
        return {"stage": "done", **progress}
    return {"stage": "play", **progress, "game": len(games) + 1}


def advance(store: Store, study_id: str, participant: str, key: str | None) -> dict[str, Any]:
    """:func:`where`, with the step a "play" stage needs: the next game's table, dealt if it
    is due, and a fresh link to the seat, which ends any older one (a POST's work). The
    answer then also names ``table`` and ``seat``, for the server to close the old link's
    sockets."""
    now = where(store, study_id, participant, key)
    if now["stage"] != "play":
        return now
    mine = store.participant(study_id, participant)
    games = mine["games"]
    if len(games) < now["game"]:
        study = _study(store, study_id)
        request = study.conditions[mine["condition"]]
        seat = [s.kind for s in request.seats].index(HUMAN)
        table_id, _ = store.create_table(
            request.game,
            request.num_players,
            request.options,
            request.seed,
            request.seats,
            request.idle_seconds,
        )
        store.add_study_game(study_id, participant, len(games), table_id, seat)
        games = store.participant(study_id, participant)["games"]  # a racing request's table
    table_id, seat = games[now["game"] - 1]
    token = store.reissue_token(table_id, seat)
    back = f"study={quote(study_id)}&participant={quote(participant)}"
    link = f"/t/{table_id}/{token}?{back}"
    return {**now, "link": link, "table": table_id, "seat": seat}


def consent(store: Store, study_id: str, participant: str, key: str | None) -> dict[str, Any]:
    """Record consent with a condition from the balanced assignment, then the next stage,
    with the participant's new ``key`` (given only here). Once they are in, a consent is
    theirs only with their key, and changes nothing."""
    study = _study(store, study_id)
    check_participant(participant)
    condition = assign(study, store.condition_counts(study_id), participant)
    issued = store.add_participant(study_id, participant, condition)
    now = advance(store, study_id, participant, issued or key)
    return {**now, "key": issued} if issued else now


def answer(
    store: Store, study_id: str, participant: str, key: str | None, data: Any
) -> dict[str, Any]:
    """Store the answers to the questions after the game the participant just finished
    (checked before anything is written), then the next stage."""
    now = where(store, study_id, participant, key)
    if now["stage"] != "questionnaire":
        raise ValueError("no questions are waiting for answers")
    if not isinstance(data, dict) or set(data) != {"game", "answers"}:
        raise ValueError("answers are {'game': int, 'answers': [str per question]}")
    index = check_int(data["game"], "game", now["game"] - 1, now["game"] - 1)
    answers = data["answers"]
    if not isinstance(answers, list) or len(answers) != len(now["questions"]):
        raise ValueError(f"answer each of the {len(now['questions'])} questions")
    texts = [check_text(a, f"answers[{i}]", MAX_ANSWER) for i, a in enumerate(answers)]
    store.add_answers(study_id, participant, index, texts)
    return advance(store, study_id, participant, key)


def _study(store: Store, study_id: str) -> Study:
    spec = store.study(study_id) if len(study_id) <= 32 else None
    if spec is None:
        raise LookupError("no such study")
    return load_study(json.dumps(spec))  # each game's table gets a deal of its own
