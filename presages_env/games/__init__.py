"""Known games, imported lazily so that ``import presages_env`` stays fast."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numba comes with it: a second of start-up
    from presages_env.core.game import Game

GAME_CLASSES = {
    "president": "presages_env.games.president.game:PresidentGame",
    "presages": "presages_env.games.presages.game:PresagesGame",
    "aciliande": "presages_env.games.aciliande.game:AciliandeGame",
    "res_arcana": "presages_env.games.res_arcana.game:ResArcanaGame",
}


def get_game(name: str) -> Game:
    """The :class:`Game` description registered under ``name``."""
    if not isinstance(name, str) or name not in GAME_CLASSES:
        raise ValueError(f"unknown game {name!r}; known games: {sorted(GAME_CLASSES)}")
    module_name, class_name = GAME_CLASSES[name].split(":")
    return getattr(importlib.import_module(module_name), class_name)()
