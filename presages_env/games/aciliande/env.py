"""Aciliande as a PettingZoo AEC environment."""

from __future__ import annotations

from typing import Any

from presages_env.core.aec import CardGameEnv
from presages_env.games.aciliande.game import AciliandeGame


def env(num_players: int = 4, render_mode: str | None = None, **kwargs: Any) -> CardGameEnv:
    """An Aciliande game; ``kwargs`` are ``max_steps`` and :class:`AciliandeOptions`."""
    return CardGameEnv(AciliandeGame(), num_players, render_mode=render_mode, **kwargs)
