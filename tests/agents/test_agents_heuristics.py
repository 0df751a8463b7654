"""Every game's heuristic agent: legal moves at every player count, and better than random."""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.evaluation.tournament import head_to_head

GAMES_WITH_HEURISTICS = presages_env.list_games()  # every registered game ships one


def player_counts(name: str) -> list[int]:
    """The fewest, the usual and the most players of a game."""
    game = presages_env.get_game(name)
    return sorted({game.min_players, game.default_players, game.max_players})


SEATINGS = [(name, players) for name in GAMES_WITH_HEURISTICS for players in player_counts(name)]
NUM_ENVS = 64
GAMES_PER_SEATING = 256
# Far more steps than GAMES_PER_SEATING games take, so a game that never ends fails the test.
STEP_LIMIT = 20_000


def test_the_expected_games_have_heuristics():
    assert {"president", "aciliande"} <= set(GAMES_WITH_HEURISTICS)


@pytest.mark.parametrize("name", GAMES_WITH_HEURISTICS)
def test_every_heuristic_documents_its_strategy(name):
    assert len(HeuristicAgent(name).strategy.splitlines()) >= 2


@pytest.mark.parametrize(("name", "num_players"), SEATINGS)
def test_heuristic_and_random_agents_pick_only_legal_actions_and_games_end(name, num_players):
    vec = presages_env.make_vec(name, NUM_ENVS, num_players, seed=7)
    agents = [HeuristicAgent(name), RandomAgent(3)]
    # seats alternate between the two agents, shifted from one game to the next
    seat_agent = (np.arange(NUM_ENVS)[:, None] + np.arange(num_players)) % 2
    finished = 0
    for _ in range(STEP_LIMIT):
        to_act = seat_agent[np.arange(NUM_ENVS), vec.current]
        actions = np.empty(NUM_ENVS, dtype=np.int64)
        for index, agent in enumerate(agents):
            envs = np.flatnonzero(to_act == index)
            actions[envs] = agent.act_batch(vec.obs[envs], vec.masks[envs])
        assert np.all(vec.masks[np.arange(NUM_ENVS), actions] == 1)
        out = vec.step(actions)
        assert not out.truncated.any()
        finished += int(out.done.sum())
        if finished >= GAMES_PER_SEATING:
            break
    assert finished >= GAMES_PER_SEATING


def test_aciliande_heuristic_beats_random_with_a_significant_margin():
    result = head_to_head(
        "aciliande", HeuristicAgent("aciliande"), RandomAgent(0), 600, num_players=4, seed=0
    )
    assert result.win_rate_ci().low > result.chance
    assert result.mean_reward_ci().low > 0
