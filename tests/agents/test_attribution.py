"""Decision attribution: hybrids hand exactly one kind of decision to the other agent."""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.evaluation.attribution import (
    DecisionSplit,
    attribute_decisions,
    attribution_table,
)
from presages_env.games import get_game


def observations(name: str, moves: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks met in random play of ``name``."""
    env = presages_env.make(name)
    env.reset(seed=4)
    obs, masks, rng = [], [], np.random.default_rng(0)
    for _ in env.agent_iter(moves):
        o, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        obs.append(o["observation"])
        masks.append(o["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    return np.array(obs), np.array(masks)


def test_presages_names_the_kind_of_every_decision_from_the_observation():
    game = get_game("presages")
    obs, _ = observations("presages")
    kinds = game.decision_kind(obs)
    assert kinds.min() >= 0 and kinds.max() < len(game.decision_kinds)
    assert {game.decision_kinds[i] for i in kinds} >= {"place a card", "Absolu (target)"}


def test_a_split_agent_hands_only_its_kinds_to_the_other_agent():
    game = get_game("presages")
    obs, masks = observations("presages")
    base, other = HeuristicAgent("presages"), RandomAgent(seed=3)
    placing = game.decision_kinds.index("place a card")
    split = DecisionSplit("presages", base, other, {placing}, "split")
    actions = split.act_batch(obs, masks)
    kinds = game.decision_kind(obs)
    np.testing.assert_array_equal(
        actions[kinds != placing], base.act_batch(obs, masks)[kinds != placing]
    )
    assert masks[np.arange(len(actions)), actions].all()
    assert split.counts.sum() == len(obs) and split.counts[placing] == (kinds == placing).sum()


@pytest.mark.parametrize("name", ["presages", "president"])
def test_attribution_table_has_a_row_per_kind_met(name):
    result = attribute_decisions(name, RandomAgent(seed=1), HeuristicAgent(name), 8, seed=2)
    assert result.rows and all(0 < row.share <= 1 for row in result.rows)
    assert abs(sum(row.share for row in result.rows) - 1) < 1e-9
    table = attribution_table(result)
    assert table.count("\n| ") == len(result.rows) + 1


class LowestOnStates:
    """Acts on full states (as the search does): the lowest legal action."""

    needs_state, name = True, "lowest"

    def __init__(self, game: str) -> None:
        self.game = get_game(game)

    def act_states(self, states: np.ndarray) -> np.ndarray:
        mask = np.zeros(self.game.num_actions(self.game.num_players_of(states[0])), np.int8)
        actions = []
        for state in states:
            self.game.legal_mask(state, mask)
            actions.append(np.flatnonzero(mask)[0])
        return np.array(actions, dtype=np.int64)


def test_a_split_with_an_agent_on_full_states_acts_on_states_and_hands_the_kinds_by_view():
    game = get_game("presages")
    vec = presages_env.make_vec("presages", 32, seed=5)
    rng = np.random.default_rng(1).integers(1, 2**62, size=32).astype(np.int64)
    states, obs, masks = [], [], []
    for _ in range(12):
        states.append(vec.states.copy())
        obs.append(vec.obs.copy())
        masks.append(vec.masks.copy())
        vec.step(vec.random_actions(rng))
    states, obs, masks = (np.concatenate(a) for a in (states, obs, masks))
    base, other = LowestOnStates("presages"), HeuristicAgent("presages")
    placing = game.decision_kinds.index("place a card")
    split = DecisionSplit("presages", base, other, {placing}, "split")
    assert split.needs_state
    actions = split.act_states(states)
    handed = game.decision_kind(obs) == placing
    assert 0 < handed.sum() < len(obs)
    np.testing.assert_array_equal(actions[handed], other.act_batch(obs, masks)[handed])
    np.testing.assert_array_equal(actions[~handed], base.act_states(states)[~handed])
    assert split.counts.sum() == len(obs) and split.counts[placing] == handed.sum()
