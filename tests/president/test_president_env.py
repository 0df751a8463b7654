"""Président through the PettingZoo AEC env and the vector env: its options under the API
test, no-leak, its configuration errors, rendering and labels (what every game shares is in
tests/core/test_env_contract.py)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from pettingzoo.test import api_test

import presages_env
from presages_env.core.header import HDR_CURRENT
from presages_env.core.state_io import apply_actions
from presages_env.games.president import kernel as k
from presages_env.games.president.game import PresidentGame, action_for, setup_position

GAME = PresidentGame()
PLAYER_COUNTS = [3, 4, 5, 6]


# ---- helpers ------------------------------------------------------------------------------
def agent(player: int) -> str:
    return f"player_{player}"


def observation_of(env, state: np.ndarray, player: int) -> np.ndarray:
    env.set_state(state)
    return env.observe(agent(player))["observation"]


def mid_game_states(num_players: int, num_manches: int = 1, seed: int = 5) -> list[np.ndarray]:
    """Snapshots of random vector-env games at many points of play."""
    vec = presages_env.make_vec(
        "president", 16, num_players=num_players, seed=seed, num_manches=num_manches
    )
    rng_states = np.arange(16, dtype=np.int64)
    snapshots = []
    for step in range(240):
        vec.step(vec.random_actions(rng_states))
        if step % 12 == 0:
            snapshots.extend(vec.states.copy())
    return snapshots


def give_back_state(num_players: int) -> np.ndarray:
    """A position where the Président is about to give a card back to the last player."""
    vec = presages_env.make_vec("president", 8, num_players=num_players, seed=11, num_manches=2)
    rng_states = np.arange(8, dtype=np.int64)
    while not (vec.states[:, k.PHASE] == k.PHASE_GIVE_BACK).any():
        vec.step(vec.random_actions(rng_states))
    return vec.states[np.argmax(vec.states[:, k.PHASE] == k.PHASE_GIVE_BACK)].copy()


def swap_between(state: np.ndarray, a: int, b: int) -> np.ndarray | None:
    """``state`` with one card of a's weakest rank and one of b's strongest rank swapped
    between a and b (hand sizes kept), or None when the two ranks coincide."""
    hand_a = state[k.HAND + a * 13 : k.HAND + a * 13 + 13]
    hand_b = state[k.HAND + b * 13 : k.HAND + b * 13 + 13]
    rank_a, rank_b = np.flatnonzero(hand_a)[0], np.flatnonzero(hand_b)[-1]
    if rank_a == rank_b:
        return None
    swapped = state.copy()
    for giver, taker, rank in ((a, b, rank_a), (b, a, rank_b)):
        swapped[k.HAND + giver * 13 + rank] -= 1
        swapped[k.HAND + taker * 13 + rank] += 1
    return swapped


# ---- PettingZoo conformance ---------------------------------------------------------------
def test_pettingzoo_api_test_multi_manche_with_step_cap():
    env = presages_env.make("president", num_players=5, num_manches=3, max_steps=150)
    api_test(env, num_cycles=300)


# ---- no leak ------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_moving_cards_between_two_opponents_is_invisible(num_players):
    env = presages_env.make("president", num_players=num_players, num_manches=2)
    compared = 0
    for state in mid_game_states(num_players, num_manches=2):
        holders = [
            p for p in range(num_players) if state[k.HAND + p * 13 : k.HAND + p * 13 + 13].any()
        ]
        exchanged = {int(state[k.EXCH_FROM]), int(state[k.EXCH_TO])}
        for a, b in itertools.combinations(holders, 2):
            if state[k.EXCH_RECEIVED] >= 0 and exchanged & {a, b}:
                continue  # the exchange binds these hands: a swap could make them impossible
            swapped = swap_between(state, a, b)
            if swapped is None:
                continue
            for observer in set(range(num_players)) - {a, b}:
                before = observation_of(env, state, observer)
                np.testing.assert_array_equal(before, observation_of(env, swapped, observer))
                compared += 1
            # control: the players involved do see the difference
            assert not np.array_equal(
                observation_of(env, state, a), observation_of(env, swapped, a)
            )
    assert compared > 100


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_exchange_is_seen_only_by_its_two_parties(num_players):
    env = presages_env.make("president", num_players=num_players, num_manches=2)
    state = give_back_state(num_players)
    president, last = int(state[k.EXCH_TO]), int(state[k.EXCH_FROM])
    assert int(state[HDR_CURRENT]) == president
    received = int(state[k.EXCH_RECEIVED])
    exchange_slots = slice(k.OBS_RECEIVED, k.OBS_GIVEN + 13)
    for party in (president, last):
        seen = observation_of(env, state, party)[exchange_slots]
        assert seen.tolist() == [int(r == received) for r in range(13)] + [0] * 13
    held = np.flatnonzero(state[k.HAND + president * 13 : k.HAND + president * 13 + 13])
    after = {}
    for given in held[:2]:
        after[int(given)] = state.copy()
        apply_actions(GAME, after[int(given)], [action_for(int(given))])
    assert len(after) == 2, "the Président holds two different ranks"
    (g1, s1), (g2, s2) = after.items()
    for observer in range(num_players):
        seen1, seen2 = observation_of(env, s1, observer), observation_of(env, s2, observer)
        if observer in (president, last):
            assert seen1[k.OBS_GIVEN + g1] == 1 and seen2[k.OBS_GIVEN + g2] == 1
            assert not np.array_equal(seen1, seen2)
        else:
            assert not seen1[exchange_slots].any()
            np.testing.assert_array_equal(seen1, seen2)


def test_the_observation_is_seen_from_the_observer_seat():
    hands = [["3", "3", "9"], ["5", "Q"], ["4", "4", "K", "2"], ["7"]]
    env = presages_env.make("president", num_players=4, num_manches=3)
    env.reset(options={"state": setup_position(4, hands, leader=1, num_manches=3)})
    env.step(action_for("5"))  # player_1 plays a 5
    env.step(0)  # player_2 passes
    env.step(action_for("7"))  # player_3 goes out
    obs = env.observe("player_2")["observation"]

    def block(offset: int, size: int = 6) -> list[int]:
        return obs[offset : offset + size].tolist()

    assert block(k.OBS_HAND, 13) == [0, 2] + [0] * 8 + [1, 0, 1]
    assert block(k.OBS_HAND_SIZE) == [4, 0, 3, 1, 0, 0]  # from player_2 clockwise
    assert block(k.OBS_IN_PLAY) == [1, 0, 1, 1, 0, 0]
    assert block(k.OBS_PASSED) == [0, 0, 0, 0, 0, 0]
    assert block(k.OBS_PLACE) == [0, 1, 0, 0, 0, 0]
    assert block(k.OBS_TOP_RANK, 13) == [int(r == 4) for r in range(13)]
    assert block(k.OBS_TOP_COUNT, 4) == [1, 0, 0, 0]
    assert block(k.OBS_TOP_PLAYER) == [0, 1, 0, 0, 0, 0]
    assert block(k.OBS_PHASE, 2) == [1, 0]
    assert obs[k.OBS_MY_TURN] == 0
    assert obs[k.OBS_MANCHES_LEFT] == 3
    assert env.observe("player_0")["observation"][k.OBS_MY_TURN] == 1


# ---- configuration errors -----------------------------------------------------------------
@pytest.mark.parametrize("num_players", [2, 7, 0, -4])
def test_player_counts_outside_three_to_six_are_refused(num_players):
    """The envs' refusal is tested for every game in tests/core/test_env_contract.py."""
    with pytest.raises(ValueError, match="3 to 6"):
        presages_env.make("president", num_players=num_players)
    with pytest.raises(ValueError, match="3 to 6"):
        setup_position(num_players, [["3"]] * max(num_players, 0), leader=0)


def test_the_default_is_four_players():
    assert presages_env.make("president").num_players == 4
    assert presages_env.make_vec("president", 2).num_players == 4


def test_setup_position_refuses_unknown_options():
    with pytest.raises(TypeError, match="unknown option"):
        setup_position(3, [["3"], ["4"], ["5"]], leader=0, jokers=True)


@pytest.mark.parametrize(
    "options",
    [
        {"num_manches": 0},
        {"num_manches": 61},
        {"num_manches": -1},
        {"num_manches": 2.5},
        {"num_manches": "3"},
        {"num_manches": True},
        {"reward_scheme": "elo"},
        {"reward_scheme": None},
        {"reward_scheme": 1},
        {"max_steps": 0},
        {"render_mode": "rgb_array"},
    ],
    ids=repr,
)
def test_bad_option_values_are_refused(options):
    with pytest.raises(ValueError):
        presages_env.make("president", num_players=4, **options)


@pytest.mark.parametrize(
    "options",
    [
        {"num_manches": 0},
        {"reward_scheme": "elo"},
        {"num_manches": 61},
        {"max_steps": -3},
    ],
    ids=repr,
)
def test_bad_option_values_are_refused_by_the_vector_env(options):
    with pytest.raises(ValueError):
        presages_env.make_vec("president", 2, num_players=4, **options)


# ---- rendering ----------------------------------------------------------------------------
def test_ansi_render_shows_every_hand_and_the_table():
    env = presages_env.make("president", num_players=3, render_mode="ansi")
    env.reset(options={"state": setup_position(3, [["3", "3", "K"], ["4", "2"], ["A"]], 1)})
    text = env.render()
    assert "  P1 (score 0): 3 3 K" in text
    assert "> P2 (score 0): 4 2" in text
    assert "  P3 (score 0): A" in text
    env.step(action_for("4"))
    text = env.render()
    assert "to beat: 4 (single, by P2)" in text
    assert "> P3 (score 0): A" in text


def test_action_labels_name_the_play():
    state = setup_position(3, [["10", "10", "3"], ["K"], ["4"]], leader=0)
    assert GAME.action_label(state, 0) == "pass"
    assert GAME.action_label(state, action_for("10", 2)) == "pair of 10"
    assert GAME.action_label(state, action_for("2", 4)) == "quad of 2"
    env = presages_env.make("president", num_players=3)
    env.reset(options={"state": state})
    with pytest.raises(ValueError, match=r"action 0 \(pass\) is not legal"):
        env.step(0)
    give_back = give_back_state(3)
    assert GAME.action_label(give_back, action_for("K")) == "give back a K"
