"""Res Arcana's options, declared once: each field's type and default, its label,
meaning and range in the option space. Nothing here loads the rules (numba), so
``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

import dataclasses

from presages_env.core.option_space import integers, one_of, option

PLACE_FACES = ("sun", "moon", "random")
DEFAULT_STEP_CAP = 5000
MAX_STEP_CAP = 30000


@dataclasses.dataclass(frozen=True)
class ResArcanaOptions:
    """Options of a Res Arcana game; the defaults are the first game of the rules. Each
    option's label and meaning are in :data:`option_space` below."""

    places_of_power: str = "sun"
    starter_sets: bool = False
    step_cap: int = DEFAULT_STEP_CAP


Options = ResArcanaOptions  # the names describe_options reads, as on the Game
option_space = {
    "places_of_power": option(
        one_of(*PLACE_FACES),
        "Places of Power",
        'Which face of each Place of Power tile is used: "sun" (the first game), "moon", or '
        '"random" for each tile (later games).',
    ),
    "starter_sets": option(
        one_of(False, True),
        "Starter sets",
        "The discovery-game variant: each player gets a random starter set (its mage in play "
        "and 3 artifacts in hand) and 5 random artifacts as their deck; nobody chooses a "
        "mage.",
    ),
    "step_cap": option(
        integers(1, MAX_STEP_CAP),
        "Decision cap",
        "After this many decisions a game still going stops with no winner and zero rewards "
        "(a guard for training; games end far sooner, see docs/res_arcana.md).",
        training_only=True,
    ),
}
