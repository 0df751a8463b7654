"""``illegal_action="terminate"``: PettingZoo classic's convention, so generic checkers run."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import presages_env
from presages_env.core.aec import ILLEGAL_ACTION_PENALTY
from presages_env.games import GAME_CLASSES

GAMES = ["president", "presages", "aciliande"]


def an_illegal_action(env) -> int:
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_ends_the_game_with_a_penalty_for_the_offender(game):
    env = presages_env.make(game, illegal_action="terminate")
    env.reset(seed=0)
    offender = env.agent_selection
    before = env.get_state()
    env.step(an_illegal_action(env))
    np.testing.assert_array_equal(env.get_state(), before)  # the rules never saw it
    assert all(env.terminations.values())
    assert env.rewards[offender] == ILLEGAL_ACTION_PENALTY
    assert all(r == 0.0 for a, r in env.rewards.items() if a != offender)
    assert env.infos[offender]["illegal_action"] is True
    for agent in env.possible_agents:
        assert not env.observe(agent)["action_mask"].any()
    seen = {}
    for agent in env.agent_iter():
        seen[agent] = env.last()[1]
        env.step(None)
    assert seen[offender] == ILLEGAL_ACTION_PENALTY and not env.agents
    env.reset(seed=1)  # a new game starts normally
    assert env.observe(env.agent_selection)["action_mask"].any()
    assert "illegal_action" not in env.infos[env.agent_selection]


@pytest.mark.parametrize("game", list(GAME_CLASSES))
def test_every_illegal_action_is_refused_with_a_value_error_naming_it(game):
    """Res Arcana's label of an ordering action beyond the cards looked at raised IndexError."""
    env = presages_env.make(game)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    for action in np.flatnonzero(mask == 0):
        with pytest.raises(ValueError, match=f"action {action} .* is not legal now"):
            env.step(int(action))


def test_raise_stays_the_default_and_changes_nothing():
    env = presages_env.make("president")
    env.reset(seed=0)
    before = env.get_state()
    with pytest.raises(ValueError, match="not legal"):
        env.step(an_illegal_action(env))
    np.testing.assert_array_equal(env.get_state(), before)
    assert not any(env.terminations.values())


def test_type_errors_are_not_illegal_actions_but_bad_input():
    env = presages_env.make("president", illegal_action="terminate")
    env.reset(seed=0)
    with pytest.raises(TypeError):
        env.step("3")
    assert not any(env.terminations.values())


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="illegal_action"):
        presages_env.make("president", illegal_action="ignore")


def test_pettingzoo_api_test_passes_in_terminate_mode():
    api_test(presages_env.make("president", illegal_action="terminate"), num_cycles=200)
