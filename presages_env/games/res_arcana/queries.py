"""Reads of a Res Arcana state for people and tests (hands, decks, pools, the pending
decision...) and the whole state in words (``render_text``, every hand shown)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from presages_env.core.events import seat_name
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_NUM_PLAYERS,
    HDR_TERMINAL,
    TRUNCATED,
    seed_of,
    step_of,
)
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import kernel as k
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.card_text import DECISION_TEXT
from presages_env.games.res_arcana.cards import ESSENCES, NAMES, cid_of
from presages_env.games.res_arcana.event_text import TARGET_KIND_NAMES

NODE_NAMES = (
    "ACTION",
    "PAY",
    "PAY_X",
    "GAIN",
    "TARGET",
    "REACT",
    "STATUE",
    "FORGE",
    "LOOK",
    "REORDER",
    "RIVAL",
    "OVER",
)
PHASE_NAMES = ("setup: mages", "setup: magic items", "collect", "actions", "over")


def _n(state: np.ndarray) -> int:
    return int(state[HDR_NUM_PLAYERS])


def _names_at(state: np.ndarray, seat: int, loc: int, first: int = 0, last: int = 78) -> list[str]:
    return [
        NAMES[c]
        for c in range(first, last)
        if state[lay.LOC + c] == loc and state[lay.OWNER + c] == seat
    ]


def hand(state: np.ndarray, seat: int) -> list[str]:
    return _names_at(state, seat, lay.LOC_HAND, 0, cd.NUM_ARTIFACTS)


def deck(state: np.ndarray, seat: int) -> list[str]:
    """``seat``'s deck, top first."""
    size = int(state[lay.DECK_SIZE + seat])
    base = lay.DECK + seat * lay.DECK_CAP
    return [NAMES[int(state[base + i])] for i in range(size - 1, -1, -1)]


def discard_pile(state: np.ndarray, seat: int) -> list[str]:
    return _names_at(state, seat, lay.LOC_DISCARD, 0, cd.NUM_ARTIFACTS)


def in_play(state: np.ndarray, seat: int) -> list[str]:
    """Every component of ``seat`` in play: mage, magic item, artifacts, monuments, places."""
    return _names_at(state, seat, lay.LOC_PLAY)


def pool(state: np.ndarray, seat: int) -> dict[str, int]:
    base = lay.POOL + seat * cd.NUM_ESSENCES
    return {ESSENCES[e]: int(state[base + e]) for e in range(cd.NUM_ESSENCES)}


def essences_on(state: np.ndarray, name: str) -> dict[str, int]:
    """Essences lying on component ``name``."""
    base = lay.STORED + cid_of(name) * cd.NUM_ESSENCES
    return {ESSENCES[e]: int(state[base + e]) for e in range(cd.NUM_ESSENCES)}


def is_turned(state: np.ndarray, name: str) -> bool:
    return bool(state[lay.TURNED + cid_of(name)])


def public_summary(state: np.ndarray) -> np.ndarray:
    """Every seat's VP, then pools, the round and the end (the kernel's public summary)."""
    out = np.empty(k.SUMMARY_SIZE, dtype=np.int64)
    k.public_summary(state, out)
    return out


def victory_points(state: np.ndarray, seat: int) -> int:
    return int(public_summary(state)[seat])


def winners(state: np.ndarray) -> list[int]:
    return [s for s in range(_n(state)) if state[lay.WINNER + s]]


def display(state: np.ndarray) -> list[str]:
    return [NAMES[int(c)] for c in state[lay.DISPLAY : lay.DISPLAY + 2] if c >= 0]


def monument_deck(state: np.ndarray) -> list[str]:
    """The monument deck, top first."""
    size = int(state[lay.MON_DECK_SIZE])
    return [NAMES[int(state[lay.MON_DECK + i])] for i in range(size - 1, -1, -1)]


def places_available(state: np.ndarray) -> list[str]:
    return [
        NAMES[c]
        for c in range(cd.FIRST_PLACE, cd.NUM_COMPONENTS)
        if state[lay.LOC + c] == lay.LOC_CENTER
    ]


def supply_items(state: np.ndarray) -> list[str]:
    return [
        NAMES[c]
        for c in range(cd.FIRST_ITEM, cd.FIRST_ITEM + cd.NUM_ITEMS)
        if state[lay.LOC + c] == lay.LOC_SUPPLY
    ]


def owner(state: np.ndarray, name: str) -> int:
    return int(state[lay.OWNER + cid_of(name)])


def node_name(state: np.ndarray) -> str:
    return NODE_NAMES[int(state[lay.NODE])]


def phase_name(state: np.ndarray) -> str:
    return PHASE_NAMES[int(state[lay.PHASE])]


def current_seat(state: np.ndarray) -> int:
    return int(state[HDR_CURRENT])


def first_player(state: np.ndarray) -> int:
    return int(state[lay.FIRST_PLAYER])


def passed(state: np.ndarray) -> list[bool]:
    return [bool(state[lay.PASSED + s]) for s in range(_n(state))]


def round_number(state: np.ndarray) -> int:
    return int(state[lay.ROUND])


def target_kind(state: np.ndarray) -> str:
    return TARGET_KIND_NAMES[int(state[lay.TGT_KIND])]


# ---- the whole state in words ----------------------------------------------------------
_ANSI = {"E": "31", "L": "32", "C": "34", "D": "35", "G": "33"}


def essences_line(values: Mapping[str, int] | Sequence[int], colour: bool = True) -> str:
    """Essence counts as people read them (``2E 1G``), in colour on a terminal."""
    items = values.items() if isinstance(values, Mapping) else zip(ESSENCES, values, strict=True)
    parts = []
    for letter, count in items:
        if count:
            text = f"{count}{letter}"
            parts.append(f"\x1b[{_ANSI[letter]}m{text}\x1b[0m" if colour else text)
    return " ".join(parts) or "-"


def _tableau_entry(state: np.ndarray, c: int, colour: bool) -> str:
    text = NAMES[c]
    if state[lay.TURNED + c]:
        text += " (turned)"
    on = [int(x) for x in state[lay.STORED + c * 5 : lay.STORED + c * 5 + 5]]
    if any(on):
        text += f" [{essences_line(on, colour)}]"
    return text


def render_text(state: np.ndarray, colour: bool = True) -> str:
    """A picture of the whole state for people (it shows every hand and deck)."""
    n = _n(state)
    lines = [
        f"Res Arcana — {n} players, seed {seed_of(state)}, round {round_number(state)}, "
        f"{phase_name(state)}, decision {step_of(state)}",
        f"  first player {seat_name(first_player(state))}"
        + (" (token taken this round)" if state[lay.TOKEN_TAKEN] else ""),
    ]
    for s in range(n):
        marker = ">" if s == current_seat(state) else " "
        flags = " passed" if state[lay.PASSED + s] else ""
        flags += " WINNER" if state[lay.WINNER + s] else ""
        tableau = ", ".join(
            _tableau_entry(state, c, colour)
            for c in range(cd.NUM_COMPONENTS)
            if state[lay.LOC + c] == lay.LOC_PLAY and state[lay.OWNER + c] == s
        )
        cards = [
            ", ".join(x) or "-" for x in (hand(state, s), deck(state, s), discard_pile(state, s))
        ]
        lines.append(
            f"{marker} {seat_name(s)}: {victory_points(state, s)} VP, pool "
            f"{essences_line(pool(state, s), colour)}{flags}\n      in play: {tableau or '-'}\n"
            f"      hand: {cards[0]} | deck (top first): {cards[1]} | discard: {cards[2]}"
        )
    lines.append(
        f"  monuments: display {', '.join(display(state)) or '-'}; deck "
        f"{len(monument_deck(state))} left"
    )
    lines.append(f"  places of power: {', '.join(places_available(state)) or '-'}")
    lines.append(f"  magic items: {', '.join(supply_items(state))}")
    if state[HDR_TERMINAL] == TRUNCATED:
        lines.append("  truncated at the step cap: no winner")
    elif state[HDR_TERMINAL]:
        lines.append(f"  game over: {', '.join(seat_name(s) for s in winners(state))} won")
    else:
        node = int(state[lay.NODE])
        asked = target_kind(state) if node == lay.NODE_TARGET else DECISION_TEXT[node]
        lines.append(f"  now: {seat_name(current_seat(state))} to {asked}")
    return "\n".join(lines)
