"""The Présages heuristic: legal at every decision node, and clearly stronger than random."""

import numpy as np
import pytest

import presages_env
from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.evaluation.tournament import head_to_head
from presages_env.games.presages import kernel as k

GAMES_PER_COUNT = 300
ENVS = 128


@pytest.mark.parametrize("num_players", [4, 5, 6])
def test_heuristic_actions_are_legal_at_every_node_in_mixed_games(num_players):
    """Heuristic and random agents alternate seats (by game and seat parity)."""
    heuristic, rand = HeuristicAgent("presages"), RandomAgent(7)
    vec = presages_env.make_vec("presages", ENVS, num_players=num_players, seed=num_players)
    step = vec.reset(num_players)
    nodes_seen = set()
    finished = 0
    while finished < GAMES_PER_COUNT:
        by_heuristic = (np.arange(ENVS) + step.current) % 2 == 0
        chosen = heuristic.act_batch(step.obs, step.masks)
        legal = step.masks[np.arange(ENVS), chosen] == 1
        assert legal[by_heuristic].all(), step.obs[by_heuristic & ~legal, k.OBS_NODE]
        nodes_seen.update(step.obs[by_heuristic, k.OBS_NODE].tolist())
        actions = np.where(by_heuristic, chosen, rand.act_batch(step.obs, step.masks))
        step = vec.step(actions)
        finished += int(step.done.sum())
    assert nodes_seen == set(range(k.NODE_GAME_OVER))


def test_heuristic_team_beats_a_random_team_at_four_players():
    result = head_to_head(
        "presages", HeuristicAgent("presages"), RandomAgent(0), 512, num_players=4, seed=0
    )
    assert result.win_rate_ci().low > 0.5
