"""Res Arcana's options, declared once: each field's type and default, its meaning in the
class docstring and its range in the option space. Nothing here loads the rules (numba), so
``presages_env.options`` and ``help(presages_env.make)`` read it at once."""

from __future__ import annotations

import dataclasses

from presages_env.core.option_space import integers, one_of

PLACE_FACES = ("sun", "moon", "random")
DEFAULT_STEP_CAP = 5000
MAX_STEP_CAP = 30000


@dataclasses.dataclass(frozen=True)
class ResArcanaOptions:
    """Options of a Res Arcana game; the defaults are the first game of the rules.

    places_of_power: which face of each Place of Power tile is used: "sun" (the first
        game), "moon", or "random" per tile (later games).
    starter_sets: the first-game variant: each seat gets a random starter set (its
        mage in play and 3 cards in hand) and 5 unseen random artifacts as its deck; no
        mage is chosen.
    step_cap: decisions after which a game still going is truncated (no winner, zero
        rewards); random play ends far sooner (see docs/res_arcana.md).
    """

    places_of_power: str = "sun"
    starter_sets: bool = False
    step_cap: int = DEFAULT_STEP_CAP


Options = ResArcanaOptions  # the names describe_options reads, as on the Game
option_space = {
    "places_of_power": one_of(*PLACE_FACES),
    "starter_sets": one_of(False, True),
    "step_cap": integers(1, MAX_STEP_CAP),
}
