"""Kuhn poker's events in words (``Game.describe_event``): one sentence per event kind."""

from __future__ import annotations

from presages_env.core.events import Event, seat_name
from presages_env.games.kuhn_poker.cards import CARD_NAMES


def round_title(event: Event) -> str | None:
    """A game is one hand, one round: the antes open it."""
    return "Round 1" if event.kind == "antes" else None


def describe(event: Event) -> str:
    """``event`` in words."""
    a = event.args
    who = seat_name(event.actor)
    kind = event.kind
    if kind == "antes":
        return f"every player antes 1: {a['pot']} chips in the pot"
    if kind == "dealt":
        return f"{seat_name(a['player'])} was dealt the {CARD_NAMES[a['card']]}"
    if kind in ("bet", "call"):
        return f"{who} {kind}s {a['chips']}"
    if kind == "check":
        return f"{who} checks"
    if kind == "fold":
        return f"{who} folds"
    return f"{seat_name(a['winner'])} wins the pot of {a['pot']} with the {CARD_NAMES[a['card']]}"
