"""The text never names what its seat may not see: at every decision of whole games of every
game, the prompts of the three tiers, the names of the moves not legal now and the tools'
answers are the same when the rest of the table is redealt to any world the seat cannot
tell from the real one (``Game.sample_world``), with the events the seat saw."""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.agents import RandomAgent
from presages_env.text import TIERS, Decision, prompt, run_tool


def seen(decision: Decision) -> tuple:
    """Everything the text interfaces show the seat at ``decision``."""
    prompts = tuple(prompt(decision, tier) for tier in TIERS)
    tools = (run_tool(decision, {"name": "legal_moves"}),)
    return prompts, tools, decision.actions, decision.other_names


@pytest.mark.parametrize("name", presages_env.list_games())
def test_the_text_is_the_same_in_every_world_the_seat_cannot_tell_apart(name):
    game = presages_env.get_game(name)
    env = presages_env.make(name, **game.short_options(np.random.default_rng(1)))
    env.reset(seed=3)
    agent = RandomAgent(4)
    decisions = redealt = 0
    while not game.is_over(state := env.get_state()):
        decision = Decision.at(game, state, env.events(int(env.agent_selection[7:])))
        world = game.sample_world(state, decision.seat, seed=decisions)
        redealt += not np.array_equal(world, state)
        other = Decision.at(game, world, env.events(decision.seat))
        assert seen(other) == seen(decision), f"decision {decisions}: the text tells worlds apart"
        decisions += 1
        env.step(agent.act(decision.observation, decision.mask))
    assert redealt > decisions // 2  # the worlds did differ: the test could fail
