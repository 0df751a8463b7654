"""presages_env: fast, rule-exact multi-agent RL environments for card games.

``make(name, ...)`` builds a PettingZoo AEC environment, ``make_vec(name, num_envs, ...)``
a batched numba environment; both run the same rules kernels.
"""

from __future__ import annotations

import os
from typing import Any

# numba's OpenMP threads otherwise spin after every batched step, starving PyTorch (and any
# other busy thread) on small machines: 5-100x slower training under load. A user's own
# setting wins: OMP_WAIT_POLICY=ACTIVE gives ~1.4x more vector-env throughput on an idle
# machine with nothing else running.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from presages_env.games import GAME_CLASSES, get_game  # noqa: E402

__version__ = "0.1.0"
__all__ = ["make", "make_vec", "list_games", "get_game", "register_envs"]


def list_games() -> list[str]:
    """Names accepted by :func:`make` and :func:`make_vec`."""
    return sorted(GAME_CLASSES)


def make(name: str, num_players: int | None = None, render_mode: str | None = None, **kwargs: Any):
    """A PettingZoo AEC env of game ``name``; ``kwargs`` are ``max_steps`` and game options."""
    from presages_env.core.aec import CardGameEnv

    return CardGameEnv(get_game(name), num_players, render_mode=render_mode, **kwargs)


def make_vec(
    name: str, num_envs: int, num_players: int | None = None, seed: int = 0, **kwargs: Any
):
    """A :class:`~presages_env.core.vector.VectorEnv` of ``num_envs`` games of ``name``."""
    from presages_env.core.vector import VectorEnv

    return VectorEnv(get_game(name), num_envs, num_players, seed=seed, **kwargs)


def register_envs() -> None:
    """Register every game as ``presages_env/<name>-v0`` in PettingZoo's AEC registry and,
    as a single-agent view (:mod:`presages_env.training`), in Gymnasium's."""
    import pettingzoo

    from presages_env.training.registration import register_gymnasium_envs

    register_gymnasium_envs()
    for name in GAME_CLASSES:
        env_id = f"presages_env/{name}-v0"
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=_entry_point(name))


def _entry_point(name: str):
    def create(**kwargs: Any):
        return make(name, **kwargs)

    create.__name__ = f"make_{name}"
    return create
