"""Président as a PettingZoo AEC environment."""

from __future__ import annotations

from typing import Any

from presages_env.core.aec import CardGameEnv
from presages_env.games.president.game import PresidentGame


def env(num_players: int = 4, render_mode: str | None = None, **kwargs: Any) -> CardGameEnv:
    """A Président match; ``kwargs`` are ``max_steps`` and :class:`PresidentOptions`."""
    return CardGameEnv(PresidentGame(), num_players, render_mode=render_mode, **kwargs)
