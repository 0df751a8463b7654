"""The ``heuristics`` kind: the heuristic kernels read observation values as indices, so
random observations anywhere in the declared observation space, with random non-empty masks,
must give legal actions (or a clean refusal); see :mod:`presages_env.fuzzing`."""

from __future__ import annotations

import numpy as np

from presages_env.agents.heuristic import HeuristicAgent, observation_bounds
from presages_env.core.game import Game
from presages_env.fuzzing import FuzzReport
from presages_env.games import get_game


def fuzz_heuristic(game: Game, cases: int, seed: int = 0) -> FuzzReport:
    """Random in-space observations and masks through the game's heuristic agent."""
    report = FuzzReport(f"{game.name} heuristic")
    agent = HeuristicAgent(game.name)
    low, high = observation_bounds(game)
    rng = np.random.default_rng(seed)
    n = game.max_players
    batch = 8  # small batches, so one contradictory row does not hide the others
    for start in range(0, cases, batch):
        size = min(batch, cases - start)
        obs = rng.integers(low, high + 1, size=(size, low.size)).astype(game.obs_dtype)
        masks = (rng.random((size, game.num_actions(n))) < rng.random((size, 1))).astype(np.int8)
        masks[np.arange(size), rng.integers(masks.shape[1], size=size)] = 1
        report.cases += size
        try:
            agent.act_batch(obs, masks)  # never returns an illegal action: it raises
            report.outcomes["acted"] += size
        except ValueError:
            report.outcomes["refused"] += size
        except Exception as error:  # collected with its batch, like every fuzz failure
            report.outcomes["failed"] += size
            report.failures.append(f"batch at {start}: {type(error).__name__}: {error}")
    return report


def fuzz_heuristics(game_name: str, cases: int, seed: int = 0) -> FuzzReport:
    return fuzz_heuristic(get_game(game_name), cases, seed)
