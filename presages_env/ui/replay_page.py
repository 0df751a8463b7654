"""One self-contained HTML page that steps through a game record (no network, no files).

Every frame carries the referee's view and each seat's view (``Game.view``: a seat's from
its observation alone) and the events of the transition that led to it, with who saw them;
the page's script draws them with ``textContent`` only, and the embedded JSON has ``<``,
``>`` and ``&`` escaped, so a string from a record (an agent's name) can never become markup.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

from presages_env import records
from presages_env.games import get_game

PLACEHOLDER = "__REPLAY_DATA__"


def page_data(rec: records.GameRecord) -> dict[str, Any]:
    """What the page shows, frame by frame (checked by replaying the record)."""
    game = get_game(rec.game)
    states, transitions = records.transitions(rec)
    frames, rounds = [], []
    for t, (state, events) in enumerate(zip(states, transitions, strict=True)):
        views = {"all": game.view(state).to_json()}
        views.update({str(p): game.view(state, p).to_json() for p in range(rec.num_players)})
        shown = [
            {
                "text": str(e),
                "kind": e.kind,
                "visible": e.visible_to if e.visible_to == "all" else list(e.visible_to),
            }
            for e in events
        ]
        frames.append({"views": views, "events": shown, "move": rec.actions[t - 1] if t else None})
        starts = [e for e in events if e.kind.endswith("_start")]
        if starts or t == 0:
            name = str(starts[0]) if starts else "the deal"
            rounds.append({"frame": t, "name": f"step {t}: {name}"})
    return {
        "game": rec.game,
        "agents": rec.agents,
        "result": rec.result,
        "frames": frames,
        "rounds": rounds,
    }


def replay_page(rec: records.GameRecord) -> str:
    """The HTML page of ``rec``."""
    payload = json.dumps(page_data(rec), ensure_ascii=False)
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        payload = payload.replace(char, escape)
    template = files("presages_env.ui").joinpath("replay.html").read_text(encoding="utf-8")
    return template.replace(PLACEHOLDER, payload)


def _seats(event) -> str | list[int]:
    return event.visible_to if event.visible_to == "all" else list(event.visible_to)
