"""Aciliande's options, declared once in the option space: each option's range, label,
meaning and default; the dataclass and the checks follow from it. Nothing here loads the
rules (numba), so ``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

from presages_env.core.option_space import (
    distinct,
    either,
    integers,
    one_of,
    option,
    per_seat,
)
from presages_env.core.options import options_class
from presages_env.games.aciliande.cards import DEFAULT_GODDESSES, NUM_CARDS

MAX_LIVES = 99
MAX_STAKE = 1000
TIEBREAK_NAMES = ("lives", "share")


option_space = {
    "goddesses": option(
        distinct(len(DEFAULT_GODDESSES), 0, NUM_CARDS - 1),
        "Goddesses",
        "The three major arcana (by number, 0 to 21) that are Goddesses; by default II La "
        "Papesse, III L'Impératrice and XVII L'Étoile.",
        default=DEFAULT_GODDESSES,
    ),
    "lives": option(
        either(integers(1, MAX_LIVES), per_seat(integers(1, MAX_LIVES))),
        "Lives",
        "Life cards each player starts with: one number for everybody (2 for a quick game, "
        "5 for a long one), or one number per player as a handicap.",
        default=3,
    ),
    "stake": option(
        integers(1, MAX_STAKE),
        "Stake",
        "Coins each player puts in the pot; the pot is the players times the stake.",
        default=1,
    ),
    "fixed_hand_size": option(
        either(
            one_of(None),
            integers(1, lambda n: NUM_CARDS // n, high_text=f"{NUM_CARDS} // players"),
        ),
        "Fixed hand size",
        "Empty (the default): the dealer chooses how many cards each player gets in every "
        "ordinary manche. A number fixes the hand size for the whole game (3 is usual).",
        default=None,
        type="int | None",
    ),
    "teams": option(  # 4 or 6 players only: redrawn at other counts
        one_of(False, True),
        "Teams",
        "The team variant, with 4 or 6 players: the even seats play against the odd seats, "
        "and a team must make the sum of its members' bids.",
        default=False,
    ),
    "duel_tiebreak": option(
        one_of(*TIEBREAK_NAMES),
        "Duel tiebreak",
        'When both duellists are still in after the third duel manche: "lives" (the default) '
        'the one with more life cards wins and equal lives share the pot; "share" they '
        "always share it.",
        default="lives",
    ),
}
# The options' dataclass, derived from the space (core/options.py).
AciliandeOptions = Options = options_class("AciliandeOptions", option_space, __name__)
