"""Président's options, declared once in the option space: each option's range, label,
meaning and default; the dataclass and the checks follow from it. Nothing here loads the
rules (numba), so ``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

from presages_env.core.option_space import integers, one_of, option
from presages_env.core.options import options_class

MAX_MANCHES = 60
REWARD_SCHEME_NAMES = ("places", "match", "points")


option_space = {
    "num_manches": option(
        integers(1, MAX_MANCHES),
        "Manches",
        "How many manches (deals) the match lasts. One manche is one short game; 5, scored "
        "as a match, is the usual match of the rules.",
        default=1,
    ),
    "reward_scheme": option(
        one_of(*REWARD_SCHEME_NAMES),
        "Reward scheme",
        'How training rewards are paid: "places" after every manche, from +1 for the '
        'Président down to -1 for the last place (zero-sum); "match" once at the end, the '
        'best total winning and ties sharing (zero-sum); "points" the 2 points for 1st and 1 '
        "for 2nd after each manche (not zero-sum). Play is the same.",
        training_only=True,
        default="places",
    ),
}
# The options' dataclass, derived from the space (core/options.py).
PresidentOptions = Options = options_class("PresidentOptions", option_space, __name__)
