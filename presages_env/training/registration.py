"""Every game's single-agent view in Gymnasium's registry, as ``presages_env/<game>-v0``.

``gymnasium.make(id, opponents=...)`` builds a
:class:`~presages_env.training.single_env.SingleAgentEnv`; ``gymnasium.make_vec(id,
num_envs, vectorization_mode="vector_entry_point", opponents=...)`` the batched
:class:`~presages_env.training.gym_vector.LearnerVectorEnv`. Entry points are strings, so
registering imports nothing.
"""

from __future__ import annotations

import gymnasium

from presages_env.games import GAME_CLASSES


def env_id(game: str) -> str:
    return f"presages_env/{game}-v0"


def register_gymnasium_envs() -> None:
    """Register every game once (later calls do nothing)."""
    for game in GAME_CLASSES:
        if env_id(game) not in gymnasium.registry:
            gymnasium.register(
                env_id(game),
                entry_point="presages_env.training.single_env:SingleAgentEnv",
                vector_entry_point="presages_env.training.gym_vector:LearnerVectorEnv",
                kwargs={"game": game},
            )
