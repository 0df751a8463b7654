"""Messages to a seat, each built from that seat's view only: its table
(``Game.unchecked_view`` from its observation), the events it saw, and the legal actions
when it is its turn (its own choices, which it may read); each card it shows comes with its
face (``Game.card_face`` of the label) and its help, and each action the seat's own cards it
names (so the page plays a card when it is clicked). Nothing else of the state is read
here, so no message can name a card the seat cannot know (tests/lab/test_no_leak.py).

Messages from a seat are parsed by :func:`parse_move`: one JSON object of bounded size with
exactly the fields of a move, each of its exact type."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from typing import Any

from presages_env.core.card_face import face_name
from presages_env.core.game import Game
from presages_env.core.seats import as_seen_by, row_names, seat_badge
from presages_env.lab.live import LiveGame
from presages_env.lab.remote import PROTOCOL_VERSION

MAX_MESSAGE_BYTES = 512  # a move is about 60
MAX_LOG = 300  # the newest event lines a message carries
MAX_REACTION_MS = 24 * 3600 * 1000
MOVE_FIELDS = {"type", "step", "action", "reaction_ms"}


def hello(game: Game, seat: int, names: list[str], kinds: list[str], rule: str) -> dict:
    """What does not change during the table: the protocol's version, the game (its registry
    name too, for a program's agent), who sits where, the rules, the legend and the idle rule."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "game": game.name,
        "players": len(names),
        "title": game.title,
        "seat": seat,
        "badge": seat_badge(seat, names[seat]),  # "P3 · Ada": who this seat is
        "names": names,
        "kinds": kinds,
        "rules": game.rules_summary(),
        "legend": [list(pair) for pair in game.legend()],
        "idle_rule": rule,
    }


def seat_state(live: LiveGame, seat: int, names: list[str]) -> dict:
    """The table as ``seat`` sees it now, each seat named by its badge as ``seat`` reads it
    (``Game.seat_badges``: ``P2 · heuristic · partner``), the view's player rows too (once
    the game is over, with its result: the page then links the seat's replay page)."""
    game = live.game
    badges = game.seat_badges(live.state, names, seat)
    view = game.unchecked_view(live.state, seat).to_json()
    rows = row_names([player["name"] for player in view["players"]], badges)
    for player, name in zip(view["players"], rows, strict=True):
        player["name"] = name
    log = [e.text for e in live.events(seat, MAX_LOG)]
    actions = []
    if live.current == seat:
        own = view["players"][seat]
        mine = [*(own["hand"] or ()), *own["area"]]
        for a in live.legal():
            label = live.label(a)
            actions.append({"action": a, "label": label, "cards": named_cards(label, mine)})
    drawn = _labels_of(view)
    cards = drawn | {a["label"] for a in actions}
    message: dict[str, Any] = {
        "type": "state",
        "step": live.step,
        "to_act": live.current,
        "badges": badges,
        "view": view,
        "log": log,
        "actions": actions,
        "help": {label: text for label in cards if (text := card_help(game, label))},
        "faces": {label: card_face(game, label) for label in drawn},
        "result": None,
    }
    if live.over:
        words = game.result_words(live.state, live.totals.tolist(), as_seen_by(names, seat))
        message["result"] = {"headline": words.headline, "lines": list(words.lines)}
    return message


@functools.lru_cache(maxsize=4096)  # card texts never change; every message looks them up
def card_help(game: Game, label: str) -> str | None:
    """The text of the card a label names, as the replay page finds it: by the label, else
    by its name without what a view adds after it."""
    return game.card_help(label) or game.card_help(face_name(label))


@functools.lru_cache(maxsize=4096)
def card_face(game: Game, label: str) -> dict[str, Any]:
    """How the page draws the card a label names (``Game.card_face``): its value, colour
    and symbols, read from the label alone."""
    return game.card_face(label)


def named_cards(action_label: str, cards: list[str]) -> list[str]:
    """The labels in ``cards`` that ``action_label`` names, by the whole label or the card's
    name (``face_name``) as whole words: ``place La Loi (law, 15, yellow ⚡)`` names ``La Loi
    (law, 15, yellow ⚡)``, ``use Seer power 1`` names ``Seer (turned)``, ``pair of Q`` names
    ``Q``. Where two names overlap, only the longer counts (``Sea Hawk``, not ``Hawk``)."""
    spans: dict[str, tuple[int, int]] = {}
    for label in dict.fromkeys(cards):
        found = _name_span(action_label, label)
        if found:
            spans[label] = found
    return [
        label
        for label, (start, end) in spans.items()
        if not any(s <= start and end <= e and e - s > end - start for s, e in spans.values())
    ]


def _name_span(action_label: str, label: str) -> tuple[int, int] | None:
    """Where ``label`` or its card's name first stands as whole words in ``action_label``."""
    for name in dict.fromkeys((label, face_name(label))):
        found = _word_pattern(name).search(action_label)
        if found:
            return found.span()
    return None


@functools.lru_cache(maxsize=4096)
def _word_pattern(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")


def _labels_of(view: dict[str, Any]) -> set[str]:
    labels = set(view["table"])
    for player in view["players"]:
        labels.update(player["hand"] or ())
        labels.update(player["area"])
    return labels


@dataclasses.dataclass(frozen=True)
class SeatMove:
    """A person's move as their seat sent it: the step it answers, the action and the
    milliseconds from the moves shown to the click (None if the browser did not say)."""

    step: int
    action: int
    reaction_ms: int | None


def parse_move(text: str) -> SeatMove:
    """The move in a seat's message ``{"type": "move", "step": int, "action": int,
    "reaction_ms": int | null}``, or ``ValueError``/``TypeError`` saying what is wrong."""
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise ValueError(f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    data = json.loads(text)
    if not isinstance(data, dict) or set(data) != MOVE_FIELDS or data["type"] != "move":
        raise ValueError(f"a move has exactly the fields {sorted(MOVE_FIELDS)}")
    for field in ("step", "action"):
        if type(data[field]) is not int or data[field] < 0:
            raise TypeError(f"{field} must be a whole number")
    reaction = data["reaction_ms"]
    if reaction is not None and (type(reaction) is not int or not 0 <= reaction <= MAX_REACTION_MS):
        raise TypeError(f"reaction_ms must be null or a whole number up to {MAX_REACTION_MS}")
    return SeatMove(data["step"], data["action"], reaction)
