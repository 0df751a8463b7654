"""Aciliande's options, declared once: each field's type and default, its label,
meaning and range in the option space. Nothing here loads the rules (numba), so
``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

import dataclasses
from typing import Literal

from presages_env.core.option_space import (
    distinct,
    either,
    integers,
    one_of,
    option,
    per_seat,
)
from presages_env.games.aciliande.cards import DEFAULT_GODDESSES, NUM_CARDS

MAX_LIVES = 99
MAX_STAKE = 1000
TIEBREAK_NAMES = ("lives", "share")


@dataclasses.dataclass(frozen=True)
class AciliandeOptions:
    """Options of an Aciliande game (defaults from the rules specification). Each option's
    label and meaning are in :data:`option_space` below."""

    goddesses: tuple[int, int, int] = DEFAULT_GODDESSES
    lives: int | tuple[int, ...] = 3
    stake: int = 1
    fixed_hand_size: int | None = None
    teams: bool = False
    duel_tiebreak: Literal["lives", "share"] = "lives"


Options = AciliandeOptions  # the names describe_options reads, as on the Game
option_space = {
    "goddesses": option(
        distinct(len(DEFAULT_GODDESSES), 0, NUM_CARDS - 1),
        "Goddesses",
        "The three major arcana (by number, 0 to 21) that are Goddesses; by default II La "
        "Papesse, III L'Impératrice and XVII L'Étoile.",
    ),
    "lives": option(
        either(integers(1, MAX_LIVES), per_seat(integers(1, MAX_LIVES))),
        "Lives",
        "Life cards each player starts with: one number for everybody (2 for a quick game, "
        "5 for a long one), or one number per player as a handicap.",
    ),
    "stake": option(
        integers(1, MAX_STAKE),
        "Stake",
        "Coins each player puts in the pot; the pot is the players times the stake.",
    ),
    "fixed_hand_size": option(
        either(
            one_of(None),
            integers(1, lambda n: NUM_CARDS // n, high_text=f"{NUM_CARDS} // players"),
        ),
        "Fixed hand size",
        "Empty (the default): the dealer chooses how many cards each player gets in every "
        "ordinary manche. A number fixes the hand size for the whole game (3 is usual).",
    ),
    "teams": option(  # 4 or 6 players only: redrawn at other counts
        one_of(False, True),
        "Teams",
        "The team variant, with 4 or 6 players: the even seats play against the odd seats, "
        "and a team must make the sum of its members' bids.",
    ),
    "duel_tiebreak": option(
        one_of(*TIEBREAK_NAMES),
        "Duel tiebreak",
        'When both duellists are still in after the third duel manche: "lives" (the default) '
        'the one with more life cards wins and equal lives share the pot; "share" they '
        "always share it.",
    ),
}
