"""One self-contained HTML page that steps through a game record (no network, no files).

Every frame carries the table as each view sees it (``Game.view``: a seat's from its
observation alone), the events of the transition that led to it with who saw them, and the
move as each view may read it (``Game.action_label_for``: a seat never reads a card it did
not see). The referee's page has every view: every hand and each seat's. A seat's page
(``seat=k``) has that seat's only: its table, the events it saw and the moves as it read
them, so nothing hidden from it is anywhere in the file. The page's script draws with
``textContent`` and DOM calls only (symbols are clones of the page's own inline SVG, so
they show without an emoji font), and the embedded JSON has ``<``, ``>`` and ``&``
escaped, so a string from a record (an agent's name) can never become markup.

The title names the game as people write it (``Game.title``) and each seat by its badge as
the view shown reads it (``Game.seat_badges``: ``P1 · you``, ``P2 · heuristic · opponent``),
the one name the lab and the terminal give it too; the result banner says who won and each
seat's place and score in the game's terms (``Game.result_words``), or, for an unfinished
record (a game left before its end), ``unfinished: left after N moves`` and no result.

Cards are drawn as cards: their value, colour and symbols (``Game.card_face``).
The round list comes from the game's ``event_texts.round_title`` (and, where a round has
bouts, ``bout_title``): game knowledge, worded once. Card help comes from ``Game.card_help``
for the cards the page names, so a seat's page explains only cards that seat has seen.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from presages_env import records
from presages_env.core.card_face import face_name
from presages_env.core.events import Event
from presages_env.core.files import write_text_atomically
from presages_env.core.game import Game
from presages_env.core.seats import as_seen_by, row_names
from presages_env.core.validation import check_int
from presages_env.games import get_game
from presages_env.ui.card_parts import with_card_parts

PLACEHOLDER = "__REPLAY_DATA__"
EVERY_HAND = "all"  # the referee's view
SHORTEST_MARKED_NAME = 3  # a shorter card name (a rank, "A") is an ordinary word too


def page_data(rec: records.GameRecord, seat: int | None = None) -> dict[str, Any]:
    """What the page shows, frame by frame (checked by replaying the record): every view,
    or ``seat``'s only."""
    game = get_game(rec.game)
    if seat is not None:
        seat = check_int(seat, "seat", 0, rec.num_players - 1)
    views = [str(seat)] if seat is not None else [EVERY_HAND, *map(str, range(rec.num_players))]
    states, transitions = records.transitions(rec)
    shown = [[e for e in events if seat is None or e.seen_by(seat)] for events in transitions]
    badges = {view: _badges(game, states[0], rec.agents, view) for view in views}
    frames = [
        {
            "views": {view: _table(game, state, view, badges[view]) for view in views},
            "events": [_event(e) for e in events],
            "move": _move(game, states[t - 1], rec.actions[t - 1], views) if t else None,
        }
        for t, (state, events) in enumerate(zip(states, shown, strict=True))
    ]
    return {
        "game": rec.game,
        "title": game.title,
        "agents": rec.agents,
        "seats": game.seat_badges(states[0], rec.agents),  # "P2 · heuristic"
        "badges": badges,  # each view's: "P1 · you", "P2 · heuristic · opponent"
        "result": _result(game, states[-1], rec, seat),
        "unfinished": None if rec.finished else f"unfinished: left after {len(rec.actions)} moves",
        "views": views,
        "frames": frames,
        "rounds": _rounds_played(game, shown),
        **_card_help(game, frames),
        "faces": {label: game.card_face(label) for label in sorted(_chip_labels(frames))},
        "legend": [list(pair) for pair in game.legend()],
    }


def _result(
    game: Game, end: np.ndarray, rec: records.GameRecord, seat: int | None
) -> dict[str, Any] | None:
    """Who won and each seat's place, as ``seat`` reads them; None for an unfinished game."""
    if rec.result is None:
        return None
    words = game.result_words(end, rec.result, as_seen_by(rec.agents, seat))
    return {"headline": words.headline, "lines": list(words.lines)}


def _rounds_played(game: Game, shown: list[list[Event]]) -> list[dict[str, Any]]:
    """``[{"title", "frame", "bouts": [{"title", "frame"}]}]``: each round in order, the frame
    whose events open it, and its bouts (a game whose texts have ``bout_title``)."""
    texts = game.event_texts
    bout_title = getattr(texts, "bout_title", None)
    rounds: list[dict[str, Any]] = []
    opener = None
    for frame, events in enumerate(shown):
        for event in events:
            title = texts.round_title(event)
            if title is not None:
                rounds.append({"title": title, "frame": frame, "bouts": []})
                opener = event
            elif bout_title is not None and opener is not None:
                bout = bout_title(event, opener)
                if bout is not None:
                    rounds[-1]["bouts"].append({"title": bout, "frame": frame})
    return rounds


def replay_page(rec: records.GameRecord, seat: int | None = None) -> str:
    """The HTML page of ``rec``: every view, or ``seat``'s only."""
    payload = json.dumps(page_data(rec, seat), ensure_ascii=False)
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        payload = payload.replace(char, escape)
    template = files("presages_env.ui").joinpath("replay.html").read_text(encoding="utf-8")
    return with_card_parts(template).replace(PLACEHOLDER, payload)


def write_replay_page(rec: records.GameRecord, path: str | Path, seat: int | None = None) -> None:
    """Write the page of ``rec`` to ``path`` once it is whole: nothing is written if it
    cannot be built or encoded, and an existing file is replaced in one rename."""
    write_text_atomically(path, replay_page(rec, seat))


def _badges(game: Game, dealt: np.ndarray, names: list[str], view: str) -> list[str]:
    """Each seat's one name as ``view`` reads it (``Game.seat_badges``: its own seat is
    ``you``, the others partners or opponents; the referee's, names alone)."""
    return game.seat_badges(dealt, names, None if view == EVERY_HAND else int(view))


def _table(game: Game, state: np.ndarray, view: str, badges: list[str]) -> dict[str, Any]:
    """``view``'s table, its player rows named by their badges: the state comes from the
    checked replay and the seat was checked."""
    table = game.unchecked_view(state, None if view == EVERY_HAND else int(view)).to_json()
    rows = row_names([player["name"] for player in table["players"]], badges)
    for player, name in zip(table["players"], rows, strict=True):
        player["name"] = name
    return table


def _move(game: Game, before: np.ndarray, move: dict[str, Any], views: list[str]) -> dict:
    """Who moved, and the move's label as each view may read it."""
    label = {
        view: move["label"]
        if view == EVERY_HAND
        else game.action_label_for(before, move["action"], int(view))
        for view in views
    }
    return {"seat": move["seat"], "label": label}


def _card_help(game: Game, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """``{"cards": {card label or name: its text}, "names": [names to mark in lines]}`` for
    the cards the page shows: the labels of card chips, and the names of the game's cards
    found in the page's lines. Only what is in ``frames`` (what the page's views may see)
    is looked up, so no hidden card is named."""
    lines = set()
    for frame in frames:
        for table in frame["views"].values():
            for player in table["players"]:
                lines.update(player["notes"])
            lines.update(table["status"])
        lines.update(e["text"] for e in frame["events"])
        if frame["move"]:
            lines.update(frame["move"]["label"].values())
    names = _names_in(game.card_texts.CARD_NAMES, lines)
    helps = {label: _help(game, label) for label in _chip_labels(frames) | names}
    cards = {label: text for label, text in helps.items() if text}
    return {"cards": cards, "names": sorted(names & cards.keys())}


def _chip_labels(frames: list[dict[str, Any]]) -> set[str]:
    """The labels of the card chips ``frames`` show: hands, areas and the middle."""
    labels = set()
    for frame in frames:
        for table in frame["views"].values():
            for player in table["players"]:
                labels.update(player["hand"] or ())
                labels.update(player["area"])
            labels.update(table["table"])
    return labels


def _names_in(card_names: tuple[str, ...], lines: set[str]) -> set[str]:
    """The card names that appear as words in ``lines``, from ``SHORTEST_MARKED_NAME`` long."""
    long_names = [n for n in card_names if len(n) >= SHORTEST_MARKED_NAME]
    long_names.sort(key=len, reverse=True)
    if not long_names:
        return set()
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, long_names)) + r")(?!\w)")
    return {match for line in lines for match in pattern.findall(line)}


def _help(game: Game, label: str) -> str | None:
    """The text of the card a chip shows: by its label, else by its name without the
    decorations a view adds (``"Vault (turned) [1G]"``, ``"La Loi (law, 15, yellow ⚡)"``)."""
    return game.card_help(label) or game.card_help(face_name(label))


def _event(event: Event) -> dict[str, Any]:
    visible = event.visible_to if event.visible_to == "all" else list(event.visible_to)
    return {"text": event.text, "kind": event.kind, "visible": visible}
