"""The agents a table may seat (an allow-list: the web names a kind, never a path or code)
and the thread pool they think in, so that a slow search never stalls the event loop."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from presages_env.agents.base import Agent
from presages_env.agents.specs import make_agent
from presages_env.core.validation import offset_seed

# kind offered in the lobby -> the agent spec (presages_env.agents.specs) it stands for
ALLOWED_AGENTS = {
    "random": "random",
    "heuristic": "heuristic",
    "ppo": "ppo",  # the checkpoint shipped for the game and player count
    "search": "search:200",
    "dmc": "dmc",  # the action scorers shipped for the game: offered where they fit
}
HUMAN = "human"
REMOTE = "remote"  # a program elsewhere, seated through its link as a person is (lab/remote.py)
LINKED = (HUMAN, REMOTE)  # the kinds of seat a link opens (the others the server plays)
TIMEOUT_AGENT = "heuristic"  # who plays for a person who let their time run out


def seat_agent(kind: str, game: str, seed: int, seat: int, num_players: int) -> Agent:
    """The allow-listed agent ``kind`` for ``seat`` (``ValueError`` for any other kind)."""
    if kind not in ALLOWED_AGENTS:
        raise ValueError(f"unknown agent {kind!r:.40}; choose one of {sorted(ALLOWED_AGENTS)}")
    _, agent = make_agent(
        ALLOWED_AGENTS[kind], game, seed=offset_seed(seed, seat), num_players=num_players
    )
    return agent


def choose(agent: Agent, game: Any, state: np.ndarray, seat: int) -> int:
    """``agent``'s action at ``state`` (a copy: the table's state is not touched), from the
    seat's observation unless the agent searches over whole states."""
    if agent.needs_state:
        return int(agent.act_states(state[None, :])[0])
    n = game.num_players_of(state)
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    game.kernel.observe(state, np.int64(seat), obs)
    game.kernel.legal_mask(state, mask)
    return int(agent.act(obs, mask))


class AgentPool:
    """Threads for agents' decisions: the event loop goes on serving other tables while an
    agent thinks."""

    def __init__(self, workers: int = 2) -> None:
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lab-agent")

    async def choose(self, agent: Agent, game: Any, state: np.ndarray, seat: int) -> int:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, choose, agent, game, state.copy(), seat)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
