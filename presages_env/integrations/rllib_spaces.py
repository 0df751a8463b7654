"""What RLlib sees of a game: agent ids, and observations in its action-masking convention.

RLlib's action-masking modules read ``{"observations": ..., "action_mask": ...}``; its
default networks need ``float32``, so both parts are ``float32``. Agent ids are seats
(``player_<i>``) or, with ``agent_ids="team"``, team roles (``team_<t>_<k>``: the k-th seat of
team t in this deal), so a policy mapping can share one policy per team whatever seats the
deal gave it (:func:`team_of`).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from presages_env.core.game import Game

OBS_KEY, MASK_KEY = "observations", "action_mask"
AGENT_IDS = ("seat", "team")


def observation_space(game: Game, num_players: int) -> spaces.Dict:
    low = game.obs_low(num_players).astype(np.float32)
    high = game.obs_high(num_players).astype(np.float32)
    return spaces.Dict(
        {
            OBS_KEY: spaces.Box(low, high, dtype=np.float32),
            MASK_KEY: spaces.Box(0.0, 1.0, (game.num_actions(num_players),), np.float32),
        }
    )


def observation(obs: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
    return {OBS_KEY: obs.astype(np.float32), MASK_KEY: mask.astype(np.float32)}


def possible_agents(num_players: int, agent_ids: str) -> list[str]:
    """Every id an agent can have: seats, or every (team, rank) pair a deal can make."""
    if agent_ids not in AGENT_IDS:
        raise ValueError(f"agent_ids must be one of {AGENT_IDS}, got {agent_ids!r}")
    if agent_ids == "seat":
        return [f"player_{i}" for i in range(num_players)]
    return [f"team_{t}_{k}" for t in range(num_players) for k in range(num_players)]


def agents_of_seats(teams: np.ndarray, agent_ids: str) -> list[str]:
    """The id of each seat in a deal whose seats have teams ``teams``."""
    if agent_ids == "seat":
        return [f"player_{i}" for i in range(len(teams))]
    rank = [int(np.count_nonzero(teams[:i] == teams[i])) for i in range(len(teams))]
    return [f"team_{int(t)}_{k}" for t, k in zip(teams, rank, strict=True)]


def team_of(agent_id: str) -> int:
    """The team (or, for seat ids, the seat) an agent id stands for: the side it plays."""
    kind, _, rest = agent_id.partition("_")
    if kind == "team":
        return int(rest.split("_")[0])
    if kind == "player":
        return int(rest)
    raise ValueError(f"not an agent id of presages_env: {agent_id!r}")
