"""Gymnasium: registered single-agent views pass the env checkers; the batched vector view."""

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import presages_env
from presages_env.core.aec import ILLEGAL_ACTION_PENALTY
from presages_env.games import GAME_CLASSES
from presages_env.training import LearnerVectorEnv, SingleAgentEnv
from presages_env.training.registration import env_id

GAMES = list(GAME_CLASSES)
# Gymnasium notes a Box whose bounds are equal somewhere: Présages' observation keeps slots
# for six seats, 0 at fewer, and the player count; exact bounds, so this note is expected.
CONSTANT_ENTRIES = "A Box observation space maximum and minimum values are equal"


def first_legal(masks: np.ndarray) -> np.ndarray:
    return np.argmax(masks, axis=1)


def warnings_of(check) -> list[str]:
    """The warnings ``check()`` emits, but the note on constant entries."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    return [str(w.message) for w in caught if CONSTANT_ENTRIES not in str(w.message)]


@pytest.mark.parametrize("game", GAMES)
def test_the_registered_view_passes_gymnasiums_check_env_with_its_defaults(game):
    def make_and_check():
        env = gymnasium.make(env_id(game))
        assert isinstance(env.unwrapped, SingleAgentEnv)
        check_env(env.unwrapped)  # the checker wants the env without make's wrappers

    assert warnings_of(make_and_check) == []


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_ends_the_episode_with_a_penalty_by_default(game):
    """PettingZoo's TerminateIllegalWrapper convention, so random-action checkers run."""
    env = gymnasium.make(env_id(game))
    _obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (ILLEGAL_ACTION_PENALTY, True, False)
    assert info["illegal_action"] is True and env.observation_space.contains(obs)
    _obs, info = env.reset(seed=1)
    assert "illegal_action" not in info and info["action_mask"].any()


def test_raise_stays_available_and_changes_nothing():
    env = gymnasium.make(env_id("president"), illegal_action="raise")
    _obs, info = env.reset(seed=0)
    before = env.unwrapped.aec.get_state()
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    np.testing.assert_array_equal(env.unwrapped.aec.get_state(), before)


def test_in_team_play_an_illegal_action_for_a_partner_costs_the_learner():
    env = SingleAgentEnv("presages", "random", team_play=True)
    _obs, info = env.reset(seed=0)
    while env.aec.agent_selection == env.learner:  # until the learner acts for its partner
        _obs, _reward, _terminated, _truncated, info = env.step(int(np.argmax(info["action_mask"])))
    _obs, reward, terminated, _truncated, info = env.step(
        int(np.flatnonzero(info["action_mask"] == 0)[0])
    )
    assert (reward, terminated, info.get("illegal_action")) == (ILLEGAL_ACTION_PENALTY, True, True)


def test_gymnasium_registration_comes_with_the_training_package():
    """``presages_env.register_envs`` registers PettingZoo's envs alone: the package does not
    import training, which registers Gymnasium's views and is imported by naming it."""
    presages_env.register_envs()  # idempotent
    assert "presages_env/president-v0" in gymnasium.registry  # this module imported training
    env = gymnasium.make("presages_env.training:presages_env/kuhn_poker-v0")
    assert env.reset(seed=0)


@pytest.mark.parametrize("team_play", [False, True])
def test_team_play_acts_for_every_seat_of_the_team(team_play):
    env = SingleAgentEnv("presages", "heuristic", team_play=team_play)
    for seed in range(3):
        env.reset(seed=seed)
        teams = env.aec.game.teams(env.aec.get_state())
        seat = env.aec.possible_agents.index(env.learner)
        partners = {env.aec.possible_agents[i] for i in np.flatnonzero(teams == teams[seat])}
        assert env._team == (partners if team_play else {env.learner})
        done = False
        while not done:
            assert env.aec.agent_selection in env._team
            mask = env.action_masks()
            _obs, _r, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
            np.testing.assert_array_equal(info["action_mask"] > 0, env.action_masks())
            done = terminated or truncated


def test_a_seeded_reset_replays_the_episode_opponents_included():
    def episode(env, seed):
        obs, info = env.reset(seed=seed)
        trace = [obs]
        for _ in range(30):
            obs, reward, terminated, truncated, info = env.step(
                first_legal(info["action_mask"][None])[0]
            )
            trace += [obs, reward]
            if terminated or truncated:
                break
        return trace

    env = SingleAgentEnv("president", ["random", "heuristic"])
    a, b = episode(env, 5), episode(env, 5)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_max_steps_truncates_with_the_learners_observation():
    env = SingleAgentEnv("president", "random", max_steps=6)
    obs, info = env.reset(seed=0)
    truncated = terminated = False
    while not (truncated or terminated):
        obs, _r, terminated, truncated, info = env.step(first_legal(info["action_mask"][None])[0])
    assert truncated and not terminated
    assert env.observation_space.contains(obs)


def test_vector_env_from_gymnasium_make_vec():
    env = gymnasium.make_vec(
        "presages_env/president-v0",
        num_envs=16,
        vectorization_mode="vector_entry_point",
        opponents="heuristic",
    )
    assert isinstance(env, LearnerVectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert env.single_action_space.n == info["action_mask"].shape[1]
    with pytest.raises(ValueError, match="not legal"):
        env.step(np.argmin(info["action_mask"], axis=1))


def until_a_game_ends(env, seed=0):
    """Step with the first legal actions until some game ends; returns that step."""
    _obs, info = env.reset(seed=seed)
    while True:
        obs, reward, terminated, truncated, info = env.step(first_legal(info["action_mask"]))
        if (terminated | truncated).any():
            return env, obs, reward, terminated | truncated, info


@pytest.mark.parametrize("max_steps", [0, 12])
def test_next_step_and_same_step_autoreset_tell_the_same_games(max_steps):
    """Same seed, same actions: next-step shows the final observation, then the new deal one
    step later; same-step shows the new deal at once and the final one in the infos."""
    kwargs = dict(game="president", num_envs=8, opponents="random", max_steps=max_steps)
    nxt, n_obs, n_reward, n_done, n_info = until_a_game_ends(
        LearnerVectorEnv(autoreset_mode="next_step", **kwargs)
    )
    _, s_obs, s_reward, s_done, s_info = until_a_game_ends(
        LearnerVectorEnv(autoreset_mode="same_step", **kwargs)
    )
    np.testing.assert_array_equal(n_done, s_done)
    np.testing.assert_array_equal(n_reward, s_reward)
    np.testing.assert_array_equal(n_obs[~n_done], s_obs[~n_done])
    for i in np.flatnonzero(n_done):
        np.testing.assert_array_equal(n_obs[i], s_info["final_obs"][i])
    obs, reward, terminated, truncated, _ = nxt.step(first_legal(n_info["action_mask"]))
    assert (reward[n_done] == 0).all() and not (terminated | truncated)[n_done].any()
    np.testing.assert_array_equal(obs[n_done], s_obs[n_done])  # the new deals
