"""Res Arcana's options, declared once in the option space: each option's range, label,
meaning and default; the dataclass and the checks follow from it. Nothing here loads the
rules (numba), so ``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

from presages_env.core.option_space import integers, one_of, option
from presages_env.core.options import options_class

PLACE_FACES = ("sun", "moon", "random")
DEFAULT_STEP_CAP = 5000
MAX_STEP_CAP = 30000


option_space = {
    "places_of_power": option(
        one_of(*PLACE_FACES),
        "Places of Power",
        'Which face of each Place of Power tile is used: "sun" (the first game), "moon", or '
        '"random" for each tile (later games).',
        default="sun",
        type="str",
    ),
    "starter_sets": option(
        one_of(False, True),
        "Starter sets",
        "The discovery-game variant: each player gets a random starter set (its mage in play "
        "and 3 artifacts in hand) and 5 random artifacts as their deck; nobody chooses a "
        "mage.",
        default=False,
    ),
    "step_cap": option(
        integers(1, MAX_STEP_CAP),
        "Decision cap",
        "After this many decisions a game still going stops with no winner and zero rewards "
        "(a guard for training; games end far sooner, see docs/res_arcana.md).",
        training_only=True,
        default=DEFAULT_STEP_CAP,
    ),
}
# The options' dataclass, derived from the space (core/options.py).
ResArcanaOptions = Options = options_class("ResArcanaOptions", option_space, __name__)
