"""Kuhn poker as a PettingZoo AEC environment."""

from __future__ import annotations

from typing import Any

from presages_env.core.aec import CardGameEnv
from presages_env.games.kuhn_poker.game import KuhnPokerGame


def env(num_players: int = 2, render_mode: str | None = None, **kwargs: Any) -> CardGameEnv:
    """A hand of Kuhn poker; ``kwargs`` are ``max_steps`` and :class:`KuhnPokerOptions`."""
    return CardGameEnv(KuhnPokerGame(), num_players, render_mode=render_mode, **kwargs)
