"""Président's options, declared once: each field's type and default, its meaning in the
class docstring and its range in the option space. Nothing here loads the rules (numba), so
``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

import dataclasses
from typing import Literal

from presages_env.core.option_space import integers, one_of

MAX_MANCHES = 60
REWARD_SCHEME_NAMES = ("places", "match", "points")


@dataclasses.dataclass(frozen=True)
class PresidentOptions:
    """Options of a Président match.

    num_manches: manches in the match. Default 1: one manche is one episode, which keeps
        credit assignment short; 5 with ``reward_scheme="match"`` is the seed's Pagat match.
    reward_scheme: ``"places"`` (default; zero-sum after every manche, linear in the
        finishing place from +1 for the Président to -1 for the last), ``"match"``
        (zero-sum at the end of the match: the best seed score wins, ties share), or
        ``"points"`` (the seed's 2 points for 1st and 1 for 2nd after each manche; not
        zero-sum).
    """

    num_manches: int = 1
    reward_scheme: Literal["places", "match", "points"] = "places"


Options = PresidentOptions  # the names describe_options reads, as on the Game
option_space = {
    "num_manches": integers(1, MAX_MANCHES),
    "reward_scheme": one_of(*REWARD_SCHEME_NAMES),
}
