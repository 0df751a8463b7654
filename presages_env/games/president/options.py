"""Président's options, declared once: each field's type and default, its label,
meaning and range in the option space. Nothing here loads the rules (numba), so
``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

import dataclasses
from typing import Literal

from presages_env.core.option_space import integers, one_of, option

MAX_MANCHES = 60
REWARD_SCHEME_NAMES = ("places", "match", "points")


@dataclasses.dataclass(frozen=True)
class PresidentOptions:
    """Options of a Président match. Each option's label and meaning are in
    :data:`option_space` below."""

    num_manches: int = 1
    reward_scheme: Literal["places", "match", "points"] = "places"


Options = PresidentOptions  # the names describe_options reads, as on the Game
option_space = {
    "num_manches": option(
        integers(1, MAX_MANCHES),
        "Manches",
        "How many manches (deals) the match lasts. One manche is one short game; 5, scored "
        "as a match, is the usual match of the rules.",
    ),
    "reward_scheme": option(
        one_of(*REWARD_SCHEME_NAMES),
        "Reward scheme",
        'How training rewards are paid: "places" after every manche, from +1 for the '
        'Président down to -1 for the last place (zero-sum); "match" once at the end, the '
        'best total winning and ties sharing (zero-sum); "points" the 2 points for 1st and 1 '
        "for 2nd after each manche (not zero-sum). Play is the same.",
        training_only=True,
    ),
}
