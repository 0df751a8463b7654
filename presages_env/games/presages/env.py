"""Présages as a PettingZoo AEC environment."""

from __future__ import annotations

from typing import Any

from presages_env.core.aec import CardGameEnv
from presages_env.games.presages.game import PresagesGame


def env(num_players: int = 4, render_mode: str | None = None, **kwargs: Any) -> CardGameEnv:
    """A Présages game; ``kwargs`` are ``max_steps`` and :class:`PresagesOptions` fields."""
    return CardGameEnv(PresagesGame(), num_players, render_mode=render_mode, **kwargs)
