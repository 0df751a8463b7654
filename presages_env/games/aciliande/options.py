"""Aciliande's options, declared once: each field's type and default, its meaning in the
class docstring and its range in the option space. Nothing here loads the rules (numba), so
``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

import dataclasses
from typing import Literal

from presages_env.core.option_space import distinct, either, integers, one_of, per_seat
from presages_env.games.aciliande.cards import DEFAULT_GODDESSES, NUM_CARDS

MAX_LIVES = 99
MAX_STAKE = 1000
TIEBREAK_NAMES = ("lives", "share")


@dataclasses.dataclass(frozen=True)
class AciliandeOptions:
    """Options of an Aciliande game (defaults from the rules specification).

    goddesses: the three major arcana that are Goddesses (default II La Papesse, III
        L'Impératrice, XVII L'Étoile).
    lives: life cards each player starts with: one int for everybody or one int per player
        (a handicap).
    stake: coins each player puts in the pot; the pot is players × stake.
    fixed_hand_size: ``None`` (default) lets the dealer choose the hand size of every
        ordinary manche; an int fixes it for the whole game (the seed's usual value is 3).
    teams: team variant (4 or 6 players; partners are the even seats and the odd seats):
        a team must make the sum of its members' bids. Default ``False``.
    duel_tiebreak: both duellists still in after the third duel manche: ``"lives"``
        (default: more life cards wins, equal lives share) or ``"share"`` (always share).
    """

    goddesses: tuple[int, int, int] = DEFAULT_GODDESSES
    lives: int | tuple[int, ...] = 3
    stake: int = 1
    fixed_hand_size: int | None = None
    teams: bool = False
    duel_tiebreak: Literal["lives", "share"] = "lives"


Options = AciliandeOptions  # the names describe_options reads, as on the Game
option_space = {
    "goddesses": distinct(len(DEFAULT_GODDESSES), 0, NUM_CARDS - 1),
    "lives": either(integers(1, MAX_LIVES), per_seat(integers(1, MAX_LIVES))),
    "stake": integers(1, MAX_STAKE),
    "fixed_hand_size": either(
        one_of(None), integers(1, lambda n: NUM_CARDS // n, high_text=f"{NUM_CARDS} // players")
    ),
    "teams": one_of(False, True),  # 4 or 6 players only: redrawn at other counts
    "duel_tiebreak": one_of(*TIEBREAK_NAMES),
}
