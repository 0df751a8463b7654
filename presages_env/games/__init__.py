"""Known games, imported lazily so that ``import presages_env`` stays fast."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from presages_env.core.option_space import OptionTable, describe_options

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
    module_name, class_name = GAME_CLASSES[_known(name)].split(":")
    return getattr(importlib.import_module(module_name), class_name)()


def game_options(name: str) -> OptionTable:
    """Every option of game ``name`` with its type, default, range and meaning, read from the
    game's ``options.py`` alone: its rules (numba) are not loaded."""
    package = GAME_CLASSES[_known(name)].split(":")[0].rpartition(".")[0]
    module = importlib.import_module(f"{package}.options")
    return describe_options(module.Options, module.option_space)


def _known(name: str) -> str:
    if not isinstance(name, str) or name not in GAME_CLASSES:
        raise ValueError(f"unknown game {name!r}; known games: {sorted(GAME_CLASSES)}")
    return name
