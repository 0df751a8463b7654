"""Known games, imported lazily so that ``import presages_env`` stays fast."""

import importlib
import importlib.util

from presages_env.core.game import Game

GAME_CLASSES = {
    "president": "presages_env.games.president.game:PresidentGame",
    "presages": "presages_env.games.presages.game:PresagesGame",
    "aciliande": "presages_env.games.aciliande.game:AciliandeGame",
}


def available_games() -> list[str]:
    """Names of the games whose package is installed."""
    return [
        name
        for name in GAME_CLASSES
        if importlib.util.find_spec(GAME_CLASSES[name].split(":")[0].rsplit(".", 1)[0])
    ]


def get_game(name: str) -> Game:
    """The :class:`Game` description registered under ``name``."""
    if not isinstance(name, str) or name not in GAME_CLASSES:
        raise ValueError(f"unknown game {name!r}; known games: {sorted(GAME_CLASSES)}")
    module_name, class_name = GAME_CLASSES[name].split(":")
    return getattr(importlib.import_module(module_name), class_name)()
