"""Présages through the PettingZoo AEC env and the vector env: API, seeds, rendering, labels."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

import presages_env
from presages_env.core.header import HDR_TERMINAL
from presages_env.games.presages import kernel as k
from presages_env.games.presages.env import env as presages_aec_env
from presages_env.games.presages.game import (
    LAW_ABOVE,
    SECRET_ASK,
    PresagesGame,
    card_action,
    play,
    render_text,
    seat_action,
    setup_position,
)

PLAYER_COUNTS = (4, 5, 6)
TEAMS_4P = [0, 1, 0, 1]


def test_api_test_with_options_and_a_step_cap():
    env = presages_aec_env(5, pride_carries_into_next_round=True, round_reward=0.5, max_steps=80)
    api_test(env, num_cycles=200)


def test_aec_game_rewards_the_winning_team():
    env = presages_env.make("presages", num_players=6)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.get_state()
    team = int(state[k.WINNING_TEAM])
    assert state[HDR_TERMINAL] and team in (0, 1, 2)
    assert info["winning_team"] == team
    expected = {f"player_{s}": 1.0 if state[k.TEAM + s] == team else -1.0 for s in range(6)}
    assert totals == expected


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_vector_env_plays_whole_games_with_team_rewards(n):
    vec = presages_env.make_vec("presages", 32, num_players=n, seed=1)
    rng_states = np.arange(32, dtype=np.int64) * 31 + 5
    finished = 0
    for _ in range(3000):
        result = vec.step(vec.random_actions(rng_states))
        assert result.obs.shape == (32, k.OBS_SIZE) and result.masks.any(axis=1).all()
        for i in np.flatnonzero(result.done):
            rewards = result.rewards[i]
            assert sorted(set(rewards.tolist())) == [-1.0, 1.0]
            assert (rewards == 1.0).sum() in (2, 3)
            finished += 1
    assert finished > 20


def test_render_names_cards_colours_timings_and_placements():
    state = setup_position(
        4, [[21, 1, 2], [15, 3, 4], [19, 7, 8], [5, 9, 10]], 0, teams=[0, 1, 0, 1]
    )
    play(state, card_action(21), seat_action(2), card_action(19))
    text = PresagesGame().render(state)
    assert "Le Rêve (dream, 21, red ⚡)" in text and "\x1b[31m" in text
    assert "L'Automne (autumn, 19, red ⏳)" in text
    assert "P1 sent Le Rêve in front of P3" in text
    assert "P3 placed" in text and "in front of P1" in text
    assert "P1 placed \x1b[31mLe Rêve" in text
    plain = render_text(state, colour=False)
    assert "\x1b[" not in plain and "now: P2 to choose a card to place" in plain


def test_render_of_a_finished_game_and_through_the_env():
    env = presages_env.make("presages", num_players=4, render_mode="ansi")
    env.reset(seed=2)
    assert "Présages — 4 players" in env.render()
    state = setup_position(
        4, [[22, 1], [2, 3, 4], [5, 7, 8], [25, 9, 10]], 0, teams=[0, 1, 0, 1], rounds_won=[1, 0]
    )
    play(state, card_action(22), card_action(2), card_action(5), card_action(25))
    assert "game over: team 0 wins" in render_text(state, colour=False)


def test_action_labels_follow_the_node():
    game = PresagesGame()
    state = setup_position(
        4, [[15, 1, 2], [24, 3, 4], [19, 7, 8], [5, 9, 10]], 0, teams=[0, 1, 0, 1]
    )
    assert game.action_label(state, card_action(15)) == "place La Loi (law, 15, yellow ⚡)"
    play(state, card_action(15))
    assert game.action_label(state, LAW_ABOVE) == "Law: ABOVE 15"
    play(state, LAW_ABOVE, card_action(24))
    assert game.action_label(state, SECRET_ASK) == "Secret: ask to see one of theirs"
    play(state, SECRET_ASK)
    assert game.action_label(state, seat_action(3)) == "Secret with P4"
