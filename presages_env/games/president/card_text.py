"""Président's cards and rules in words, for people (``Game.card_help`` ...).

The one place a card's text lives, read from ``cards.py``: suits have no effect, so a card
is its rank, and its only power is where that rank stands (3 weakest, 2 strongest). A card is
found by its label (``"K"``), its English or French name (``"King"``, ``"Roi"``), any case.
"""

from __future__ import annotations

from presages_env.core.view import name_key
from presages_env.games.president import cards as c

_ENGLISH = dict(zip(("J", "Q", "K", "A"), ("Jack", "Queen", "King", "Ace"), strict=True))

LEGEND = (
    ("3 ... 10 J Q K A 2", "the ranks, weakest to strongest: the 2 beats the Ace"),
    ("single pair triple quad", "1, 2, 3 or 4 cards of one rank played together"),
    ("to beat", "the play on the table: beat it with as many cards of a higher rank"),
    ("#1 Président", "finishing places of the last manche (#2 Vice-président, ...)"),
    ("+1, +2", "the players after you in turn order, once the seating has changed"),
    ("P1, P2", "the players by seat, counted from 1"),
)

RULES_SUMMARY = "\n".join(
    (
        "Président: 3 to 6 players, 52 cards (suits do not matter); be the first to empty "
        "your hand.",
        f"Ranks, weakest to strongest: {' '.join(c.RANK_NAMES)}.",
        "A trick: the leader plays 1 to 4 cards of one rank (a single, pair, triple or quad) "
        "and may not pass. Clockwise, each player passes or plays as many cards of a strictly"
        " higher rank; a player who passed may play again after a new play. When everyone "
        "else has passed in a row, the last player to play leads the next trick. Emptying "
        "your hand takes the next place.",
        "A manche ends when one player still holds cards (the last place). Next manche: seats"
        " follow the finishing order; the last player gives their strongest card to the "
        "Président, who gives back a card of their choice; the Président leads.",
        "Score: 2 points for the Président, 1 for the Vice-président each manche; the highest"
        " total after the last manche wins (ties share).",
    )
)

CARD_NAMES = c.RANK_NAMES


def _help(rank: int) -> str:
    label = c.RANK_NAMES[rank]
    names = [_ENGLISH.get(label), c.RANK_NAMES_FR[rank]]
    shown = ", ".join(dict.fromkeys(n for n in names if n and n != label))
    beats = " ".join(c.RANK_NAMES[:rank]) or "nothing"
    return f"{label}" + (f" ({shown})" if shown else "") + f": {_summary(rank)}; beats {beats}."


def _summary(rank: int) -> str:
    place = {0: ", the weakest", c.NUM_RANKS - 1: ", the strongest"}.get(rank, "")
    return f"rank {rank + 1} of {c.NUM_RANKS}{place}"


_RANKS = {
    name_key(key): rank
    for rank in range(c.NUM_RANKS)
    for key in (c.RANK_NAMES[rank], c.RANK_NAMES_FR[rank], _ENGLISH.get(c.RANK_NAMES[rank], ""))
    if key
}


def card_help(name: str) -> str | None:
    """``name`` in words: its rank's place and what it beats; None for no rank."""
    rank = _RANKS.get(name_key(name))
    return None if rank is None else _help(rank)


def card_summary(name: str) -> str | None:
    """One line: the rank's place among the 13."""
    rank = _RANKS.get(name_key(name))
    return None if rank is None else _summary(rank)
