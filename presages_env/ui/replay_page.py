"""One self-contained HTML page that steps through a game record (no network, no files).

Every frame carries the table as each view sees it (``Game.view``: a seat's from its
observation alone), the events of the transition that led to it with who saw them, and the
move as each view may read it (``Game.action_label_for``: a seat never reads a card it did
not see). The referee's page has every view: every hand and each seat's. A seat's page
(``seat=k``) has that seat's only: its table, the events it saw and the moves as it read
them, so nothing hidden from it is anywhere in the file. The page's script draws with
``textContent`` only, and the embedded JSON has ``<``, ``>`` and ``&`` escaped, so a string
from a record (an agent's name) can never become markup.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from presages_env import records
from presages_env.core.events import Event
from presages_env.core.files import write_text_atomically
from presages_env.core.game import Game
from presages_env.core.validation import check_int
from presages_env.games import get_game

PLACEHOLDER = "__REPLAY_DATA__"
EVERY_HAND = "all"  # the referee's view


def page_data(rec: records.GameRecord, seat: int | None = None) -> dict[str, Any]:
    """What the page shows, frame by frame (checked by replaying the record): every view,
    or ``seat``'s only."""
    game = get_game(rec.game)
    if seat is not None:
        seat = check_int(seat, "seat", 0, rec.num_players - 1)
    views = [str(seat)] if seat is not None else [EVERY_HAND, *map(str, range(rec.num_players))]
    states, transitions = records.transitions(rec)
    frames, rounds = [], []
    for t, (state, events) in enumerate(zip(states, transitions, strict=True)):
        shown = [e for e in events if seat is None or e.seen_by(seat)]
        move = _move(game, states[t - 1], rec.actions[t - 1], views) if t else None
        frames.append(
            {
                "views": {view: _table(game, state, view) for view in views},
                "events": [_event(e) for e in shown],
                "move": move,
            }
        )
        starts = [e for e in shown if e.kind.endswith("_start")]
        if starts or t == 0:
            name = str(starts[0]) if starts else "the deal"
            rounds.append({"frame": t, "name": f"step {t}: {name}"})
    return {
        "game": rec.game,
        "agents": rec.agents,
        "result": rec.result,
        "views": views,
        "frames": frames,
        "rounds": rounds,
    }


def replay_page(rec: records.GameRecord, seat: int | None = None) -> str:
    """The HTML page of ``rec``: every view, or ``seat``'s only."""
    payload = json.dumps(page_data(rec, seat), ensure_ascii=False)
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        payload = payload.replace(char, escape)
    template = files("presages_env.ui").joinpath("replay.html").read_text(encoding="utf-8")
    return template.replace(PLACEHOLDER, payload)


def write_replay_page(rec: records.GameRecord, path: str | Path, seat: int | None = None) -> None:
    """Write the page of ``rec`` to ``path`` once it is whole: nothing is written if it
    cannot be built or encoded, and an existing file is replaced in one rename."""
    write_text_atomically(path, replay_page(rec, seat))


def _table(game: Game, state: np.ndarray, view: str) -> dict[str, Any]:
    """``view``'s table: the state comes from the checked replay and the seat was checked."""
    return game.unchecked_view(state, None if view == EVERY_HAND else int(view)).to_json()


def _move(game: Game, before: np.ndarray, move: dict[str, Any], views: list[str]) -> dict:
    """Who moved, and the move's label as each view may read it."""
    label = {
        view: move["label"]
        if view == EVERY_HAND
        else game.action_label_for(before, move["action"], int(view))
        for view in views
    }
    return {"seat": move["seat"], "label": label}


def _event(event: Event) -> dict[str, Any]:
    visible = event.visible_to if event.visible_to == "all" else list(event.visible_to)
    return {"text": event.text, "kind": event.kind, "visible": visible}
