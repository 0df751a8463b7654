"""Président through the PettingZoo AEC env and the vector env: API, determinism, no-leak,
bad input, configuration errors, rendering and registration."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from pettingzoo.test import api_test

import presages_env
from presages_env.core.header import HDR_CURRENT, step_of
from presages_env.core.state_io import apply_actions
from presages_env.games.president import kernel as k
from presages_env.games.president.game import PresidentGame, action_for, setup_position

GAME = PresidentGame()
PLAYER_COUNTS = [3, 4, 5, 6]


# ---- helpers ------------------------------------------------------------------------------
def agent(player: int) -> str:
    return f"player_{player}"


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def play_random_game(env, rng: np.random.Generator) -> list[tuple]:
    """Play ``env`` (already reset) to the end; the trajectory as comparable tuples."""
    trajectory = []
    for name in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        done = terminated or truncated
        action = None if done else random_legal(rng, observation["action_mask"])
        trajectory.append((name, observation["observation"].tobytes(), reward, action))
        env.step(action)
    return trajectory


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


def assert_names_legal_actions(message: str, mask: np.ndarray) -> None:
    """The message lists exactly the legal actions, as ``5 (label), ...`` or ``[5, ...]``."""
    assert "legal actions" in message, message
    listing = message.split("legal actions")[-1]
    named = re.findall(r"(\d+) \(", listing) or re.findall(r"\d+", listing)
    assert sorted(int(a) for a in named) == np.flatnonzero(mask).tolist(), message


# ---- PettingZoo conformance ---------------------------------------------------------------
def test_pettingzoo_api_test_multi_manche_with_step_cap():
    env = presages_env.make("president", num_players=5, num_manches=3, max_steps=150)
    api_test(env, num_cycles=300)


# ---- determinism --------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_same_seed_same_trajectory(num_players):
    def run(seed: int) -> list[tuple]:
        env = presages_env.make("president", num_players=num_players, num_manches=2)
        env.reset(seed=seed)
        return play_random_game(env, np.random.default_rng(7))

    first = run(123)
    assert first == run(123)
    assert len(first) > 2 * 52 // num_players
    assert first != run(124)


def test_later_resets_follow_the_first_seed():
    def deals(seed: int) -> list[np.ndarray]:
        env = presages_env.make("president", num_players=4)
        env.reset(seed=seed)
        first = env.get_state()
        env.reset()
        return [first, env.get_state()]

    a, b = deals(9), deals(9)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[0], a[1])


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


# ---- bad input ----------------------------------------------------------------------------
WRONGLY_TYPED = [1.0, np.float32(1), "1", None, True, np.bool_(False), [1], np.array([1])]


def fresh_env(num_players: int = 4):
    env = presages_env.make("president", num_players=num_players)
    env.reset(seed=4)
    play_some_steps(env, 5)
    return env


def play_some_steps(env, count: int) -> None:
    rng = np.random.default_rng(0)
    for _ in range(count):
        env.step(random_legal(rng, env.observe(env.agent_selection)["action_mask"]))


def assert_refused(env, action, error) -> str:
    """Step ``action``, expect ``error``, check nothing changed; returns the message."""
    state, selected = env.get_state(), env.agent_selection
    mask = env.observe(selected)["action_mask"]
    with pytest.raises(error) as raised:
        env.step(action)
    np.testing.assert_array_equal(env.get_state(), state)
    assert env.agent_selection == selected
    np.testing.assert_array_equal(env.observe(selected)["action_mask"], mask)
    return str(raised.value)


def test_illegal_and_out_of_range_actions_are_refused_by_the_aec_env():
    env = fresh_env()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    for action in (illegal, np.int64(illegal), k.NUM_ACTIONS, -1, 10**20):
        assert_names_legal_actions(assert_refused(env, action, ValueError), mask)


@pytest.mark.parametrize("action", WRONGLY_TYPED, ids=repr)
def test_wrongly_typed_actions_are_refused_by_the_aec_env(action):
    assert_refused(fresh_env(), action, TypeError)


def test_wrongly_typed_action_errors_name_the_legal_actions():
    env = fresh_env()
    mask = env.observe(env.agent_selection)["action_mask"]
    for action in WRONGLY_TYPED:
        assert_names_legal_actions(assert_refused(env, action, TypeError), mask)


def test_a_zero_dimensional_integer_array_is_a_valid_action():
    env = fresh_env()
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    step_before = step_of(env.get_state())
    env.step(np.array(legal))
    assert step_of(env.get_state()) == step_before + 1


def make_vector_env():
    vec = presages_env.make_vec("president", 4, num_players=4, seed=2)
    rng_states = np.arange(4, dtype=np.int64)
    for _ in range(3):
        vec.step(vec.random_actions(rng_states))
    return vec, vec.random_actions(rng_states)


def assert_vector_refuses(vec, actions, error) -> str:
    snapshot = [a.copy() for a in (vec.states, vec.obs, vec.masks, vec.current)]
    with pytest.raises(error) as raised:
        vec.step(actions)
    for before, now in zip(snapshot, (vec.states, vec.obs, vec.masks, vec.current), strict=True):
        np.testing.assert_array_equal(before, now)
    return str(raised.value)


@pytest.mark.parametrize("bad", ["illegal", k.NUM_ACTIONS, 10**6])
def test_vector_env_refuses_an_illegal_action_and_steps_no_game(bad):
    vec, actions = make_vector_env()
    if bad == "illegal":
        bad = int(np.flatnonzero(vec.masks[2] == 0)[0])
    actions[2] = bad
    message = assert_vector_refuses(vec, actions, ValueError)
    assert "game 2" in message
    assert_names_legal_actions(message, vec.masks[2])
    vec.step(vec.random_actions(np.arange(4, dtype=np.int64)))  # still usable


def test_vector_env_action_minus_one_skips_that_game_only():
    vec, actions = make_vector_env()
    before = vec.states.copy()
    skipped_obs, skipped_mask = vec.obs[1].copy(), vec.masks[1].copy()
    actions[1] = -1
    vec.step(actions)
    np.testing.assert_array_equal(vec.states[1], before[1])
    np.testing.assert_array_equal(vec.obs[1], skipped_obs)
    np.testing.assert_array_equal(vec.masks[1], skipped_mask)
    assert not vec.rewards[1].any() and not vec.done[1]
    for game in (0, 2, 3):
        assert step_of(vec.states[game]) == step_of(before[game]) + 1 or vec.done[game]


@pytest.mark.parametrize(
    "convert",
    [
        lambda a: a.astype(np.float64),
        lambda a: a.astype(bool),
        lambda a: a.astype(str),
        lambda a: np.array([None] * len(a)),
        lambda a: a[:2],
        lambda a: a[:, None],
    ],
    ids=["float", "bool", "str", "None", "too-short", "2-d"],
)
def test_vector_env_refuses_wrongly_typed_actions(convert):
    vec, actions = make_vector_env()
    assert_vector_refuses(vec, convert(actions), TypeError)


def test_stepping_after_the_end():
    env = presages_env.make("president", num_players=3)
    env.reset(seed=8)
    rng = np.random.default_rng(1)
    while not any(env.terminations.values()):
        env.step(random_legal(rng, env.observe(env.agent_selection)["action_mask"]))
    assert all(env.terminations.values())
    final_state = env.get_state()
    assert not env.observe(env.agent_selection)["action_mask"].any()
    with pytest.raises(ValueError, match="None"):
        env.step(0)
    for _ in range(3):
        env.step(None)
    assert env.agents == []
    with pytest.raises(ValueError, match="reset"):
        env.step(None)
    np.testing.assert_array_equal(env.get_state(), final_state)
    with pytest.raises(ValueError, match="after the end"):
        apply_actions(GAME, final_state, [0])


def test_max_steps_truncates_the_game():
    env = presages_env.make("president", num_players=4, max_steps=6)
    env.reset(seed=3)
    play_some_steps(env, 5)
    assert not any(env.truncations.values())
    play_some_steps(env, 1)
    assert all(env.truncations.values())
    assert not any(env.terminations.values())


# ---- configuration errors -----------------------------------------------------------------
@pytest.mark.parametrize("num_players", [2, 7, 0, -4])
def test_player_counts_outside_three_to_six_are_refused(num_players):
    with pytest.raises(ValueError, match="3 to 6"):
        presages_env.make("president", num_players=num_players)
    with pytest.raises(ValueError, match="3 to 6"):
        presages_env.make_vec("president", 2, num_players=num_players)
    with pytest.raises(ValueError, match="3 to 6"):
        setup_position(num_players, [["3"]] * max(num_players, 0), leader=0)


@pytest.mark.parametrize("num_players", [4.0, "4", True])
def test_non_integer_player_counts_are_refused(num_players):
    with pytest.raises(TypeError):
        presages_env.make("president", num_players=num_players)
    with pytest.raises(TypeError):
        presages_env.make_vec("president", 2, num_players=num_players)


def test_the_default_is_four_players():
    assert presages_env.make("president").num_players == 4
    assert presages_env.make_vec("president", 2).num_players == 4


def test_unknown_options_are_refused():
    for build in (
        lambda: presages_env.make("president", num_players=4, manches=3),
        lambda: presages_env.make_vec("president", 2, num_players=4, reward="places"),
        lambda: setup_position(3, [["3"], ["4"], ["5"]], leader=0, jokers=True),
    ):
        with pytest.raises(TypeError, match="unknown option"):
            build()


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


@pytest.mark.parametrize("max_steps", [2.5, True, "3", None])
def test_a_step_cap_that_is_not_an_int_is_refused_by_both_envs(max_steps):
    with pytest.raises(TypeError, match="max_steps"):
        presages_env.make_vec("president", 2, num_players=4, max_steps=max_steps)
    if max_steps is not None:  # the AEC env's "no cap" is None
        with pytest.raises(TypeError, match="max_steps"):
            presages_env.make("president", num_players=4, max_steps=max_steps)


def test_unknown_game_and_bad_batch_sizes_are_refused():
    with pytest.raises(ValueError, match="unknown game"):
        presages_env.make("belote")
    with pytest.raises(ValueError):
        presages_env.make_vec("president", 0)
    with pytest.raises(TypeError):
        presages_env.make_vec("president", 2.0)


def test_set_state_refuses_a_state_of_another_shape_or_player_count():
    env = presages_env.make("president", num_players=4)
    env.reset(seed=1)
    with pytest.raises(ValueError):
        env.set_state(np.zeros(5, dtype=GAME.state_dtype))
    with pytest.raises(ValueError):
        env.set_state(GAME.new_state(3, 1))
    with pytest.raises(TypeError, match="never cast"):
        env.set_state(env.get_state().astype(np.int64))


# ---- rendering ----------------------------------------------------------------------------
def test_ansi_render_shows_every_hand_and_the_table():
    env = presages_env.make("president", num_players=3, render_mode="ansi")
    env.reset(options={"state": setup_position(3, [["3", "3", "K"], ["4", "2"], ["A"]], 1)})
    text = env.render()
    assert "  player_0 (score 0): 3 3 K" in text
    assert "> player_1 (score 0): 4 2" in text
    assert "  player_2 (score 0): A" in text
    env.step(action_for("4"))
    text = env.render()
    assert "to beat: 4 (single, by player_1)" in text
    assert "> player_2 (score 0): A" in text


def test_human_render_prints(capsys):
    env = presages_env.make("president", num_players=4, render_mode="human")
    env.reset(seed=2)
    assert env.render() is None
    printed = capsys.readouterr().out
    for p in range(4):
        assert f"player_{p} (score 0):" in printed


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
