"""Shared helpers of the Res Arcana rules tests: positions and actions by card name."""

from __future__ import annotations

from typing import Any

import numpy as np

from presages_env.games.res_arcana.game import (
    ResArcanaGame,
    essence,
    legal_actions,
    setup_position,
)

GAME = ResArcanaGame()
E, L, C, D, G = (essence(x) for x in "ELCDG")


def position(
    mages: tuple[str, ...] = ("Scholar", "Transmuter"),
    items: tuple[str, ...] = ("Research", "Alchemy"),
    **kwargs: Any,
) -> np.ndarray:
    """A position of ``len(mages)`` players; mages and items without collects or reactions
    by default, so that only the cards a test names act."""
    return setup_position(len(mages), mages=list(mages), items=list(items), **kwargs)


def legal(state: np.ndarray) -> set[int]:
    return set(legal_actions(state))
