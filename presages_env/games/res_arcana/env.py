"""Res Arcana as a PettingZoo AEC environment."""

from __future__ import annotations

from typing import Any

from presages_env.core.aec import CardGameEnv
from presages_env.games.res_arcana.game import ResArcanaGame


def env(num_players: int = 4, render_mode: str | None = None, **kwargs: Any) -> CardGameEnv:
    """A Res Arcana game; ``kwargs`` are ``max_steps`` and :class:`ResArcanaOptions` fields."""
    return CardGameEnv(ResArcanaGame(), num_players, render_mode=render_mode, **kwargs)
