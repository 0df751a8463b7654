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


def test_an_agent_that_acts_on_full_states_is_refused():
    from presages_env.agents import ISMCTSAgent

    search = ISMCTSAgent("president", simulations=2)
    with pytest.raises(ValueError, match="full states"):
        DecisionSplit("president", search, HeuristicAgent("president"), {0}, "split")
