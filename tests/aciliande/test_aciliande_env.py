"""Aciliande through the PettingZoo AEC env, the vector env and ``make``."""

import numpy as np
from pettingzoo.test import api_test

import presages_env
from presages_env.games.aciliande import env as aciliande_env
from presages_env.games.aciliande.game import TAKE, AciliandeGame, card_action, setup_position


def test_team_variant_through_make():
    api_test(presages_env.make("aciliande", num_players=6, teams=True), num_cycles=200)


def play_out(env, seed):
    """Random legal play to the end; returns final rewards and the last infos."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals, info


def test_rewards_are_coins_received_minus_stake_and_zero_sum():
    env = presages_env.make("aciliande", num_players=4, stake=2)
    for seed in range(20):
        totals, info = play_out(env, seed)
        assert sum(totals.values()) == 0
        assert all(value >= -2 for value in totals.values())
        assert info["end_reason"] and "coins" in info and "lives_lost_last_manche" in info


def test_env_module_and_ansi_render():
    env = aciliande_env.env(num_players=3, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "Aciliande" in text and "pot 3 coin(s)" in text and "lives 3" in text
    obs = env.observe(env.agent_selection)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))  # the dealer's hand size
    assert "bid ?" in env.render()
    env.set_state(setup_position(3, [[17, 4], [21, 5], [10, 6]], dealer=2, bids=[1, 0, 2]))
    env.step(card_action(17))
    env.step(TAKE)
    text = env.render()
    assert "bid 1, tricks 0" in text and "trick 1: P1 XVII L'Étoile" in text
    assert "first Goddess declared: take" in text
    assert "to act: P2, to choose a card to play" in text


def test_vector_env_runs_and_games_end_zero_sum():
    vec = presages_env.make_vec("aciliande", 64, num_players=5, seed=1)
    rng_states = np.arange(1, 65, dtype=np.int64)
    finished = 0
    totals = np.zeros((64, 5))
    for _ in range(3000):
        step = vec.step(vec.random_actions(rng_states))
        totals += step.rewards
        for i in np.flatnonzero(step.done):
            assert abs(totals[i].sum()) < 1e-6
            totals[i] = 0
            finished += 1
    assert finished > 64
    assert step.obs.shape == (64, AciliandeGame().obs_size(5))
