"""Kuhn poker's cards and rules in words, for people (``Game.card_help`` ...)."""

from __future__ import annotations

from presages_env.core.view import name_key
from presages_env.games.kuhn_poker.cards import CARD_NAMES, LONG_NAMES

LEGEND = (
    ("J Q K A", "the cards, weakest to strongest; two players play J Q K, three J Q K A"),
    ("pot", "the chips put in: every seat's ante of 1, plus each bet and call"),
    ("P1, P2", "the players by seat, counted from 1; P1 acts first"),
)

RULES_SUMMARY = "\n".join(
    (
        "Kuhn poker: 2 or 3 players, one card each from the n + 1 lowest of J Q K A; every "
        "player antes 1 chip.",
        "In turn from P1, each player checks or bets (the bet option, 1 chip by default). "
        "Once someone bets, each other player answers once, in turn: call (put the bet in) "
        "or fold.",
        "When everyone checked, or everyone answered the bet, the highest card among the "
        "players who did not fold takes the pot.",
    )
)


def _help(card: int) -> str:
    beats = " ".join(CARD_NAMES[:card]) or "nothing"
    return f"{CARD_NAMES[card]} ({LONG_NAMES[card]}): {_summary(card)}; beats {beats}."


def _summary(card: int) -> str:
    return f"card {card + 1} of the {len(CARD_NAMES)}; the Ace plays with three players only"


_CARDS = {
    name_key(key): c for c in range(len(CARD_NAMES)) for key in (CARD_NAMES[c], LONG_NAMES[c])
}


def card_help(name: str) -> str | None:
    """``name`` in words: its place and what it beats; None for no card."""
    card = _CARDS.get(name_key(name))
    return None if card is None else _help(card)


def card_summary(name: str) -> str | None:
    """One line: the card's place among the four."""
    card = _CARDS.get(name_key(name))
    return None if card is None else _summary(card)
