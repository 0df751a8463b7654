"""An ``int`` subclass that lies about its value never reaches a kernel.

``LyingInt(v)`` is ``v`` to comparisons and arithmetic but reports ``10**6`` through its own
``__int__`` and ``__index__``, so a check that compares the object and then converts it
(the defect: ``env.step(LyingInt(5))`` wrote ``TOP_RANK = -113`` and crashed at exit) lets
``10**6`` through. Every public entry point that takes a seat, an
action, a count, a seed or an integer option must act as it does for the plain value.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import presages_env
from presages_env.core import state_io
from presages_env.core.header import HDR_TERMINAL
from presages_env.core.validation import check_int, check_seed, exact_int
from presages_env.games import get_game

GAMES = presages_env.list_games()
LIE = 10**6


class LyingInt(int):
    def __int__(self) -> int:
        return LIE

    def __index__(self) -> int:
        return LIE


class LyingNumpyInt(np.int64):
    def __index__(self) -> int:
        return LIE


def first_legal(env) -> int:
    return int(np.flatnonzero(env.last()[0]["action_mask"])[0])


def ends_the_game(game, state: np.ndarray, action: int) -> bool:
    after = state.copy()
    game.step(after, action, np.zeros(game.num_players_of(state), dtype=np.float32))
    return bool(after[HDR_TERMINAL])


def played(name: str, wrap) -> tuple[np.ndarray, list[int]]:
    """The state after 12 first-legal moves of ``name`` (each action passed through ``wrap``),
    or before the move that would end a shorter game (the state is played on), and the
    actions played."""
    game = get_game(name)
    env = presages_env.make(name)
    env.reset(seed=wrap(3))
    actions = []
    for _ in range(12):
        action = first_legal(env)
        if ends_the_game(game, env.get_state(), action):
            break
        actions.append(action)
        env.step(wrap(action))
    return env.get_state(), actions


def test_the_checks_return_the_true_value_and_compare_it():
    assert type(exact_int(LyingInt(5), "x")) is int and exact_int(LyingInt(5), "x") == 5
    assert check_int(LyingInt(5), "x", 0, 9) == 5
    with pytest.raises(ValueError, match="x must be"):
        check_int(LyingInt(50), "x", 0, 9)
    assert check_seed(LyingInt(7)) == 7
    with pytest.raises(ValueError, match="got 1000000"):
        check_int(LyingNumpyInt(5), "x", 0, 9)  # its own __index__ is the value checked
    for flag in (True, np.bool_(False)):
        with pytest.raises(TypeError, match="got bool"):
            check_int(flag, "x", 0, 9)


@pytest.mark.parametrize("name", GAMES)
def test_env_step_and_reset_use_the_true_value(name):
    state, _ = played(name, LyingInt)
    np.testing.assert_array_equal(state, played(name, int)[0])


@pytest.mark.parametrize("name", GAMES)
def test_game_entry_points_use_the_true_seat_action_and_seed(name):
    game = get_game(name)
    state, _ = played(name, int)
    n = game.num_players_of(state)
    plain_seat = n - 1
    seat = LyingInt(plain_seat)
    obs, plain_obs = (np.zeros(game.obs_size(n), dtype=game.obs_dtype) for _ in range(2))
    game.observe(state, seat, obs)
    game.observe(state, plain_seat, plain_obs)
    np.testing.assert_array_equal(obs, plain_obs)
    assert game.view(state, seat).text() == game.view(state, plain_seat).text()
    np.testing.assert_array_equal(
        game.sample_world(state, seat, LyingInt(5)), game.sample_world(state, plain_seat, 5)
    )
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    game.legal_mask(state, mask)
    action = int(np.flatnonzero(mask)[0])
    stepped, plain = state.copy(), state.copy()
    rewards = np.zeros(n, dtype=np.float32)
    game.step(stepped, LyingInt(action), rewards)
    game.step(plain, action, rewards)
    np.testing.assert_array_equal(stepped, plain)
    with pytest.raises(ValueError, match="not legal"):
        game.step(state.copy(), LyingNumpyInt(action), rewards)


@pytest.mark.parametrize("name", GAMES)
def test_replay_and_counts_use_the_true_values(name):
    game = get_game(name)
    n = game.num_players_of(played(name, int)[0])
    plain = game.new_state(n, 11)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    actions = []
    for _ in range(12):
        if plain[HDR_TERMINAL]:  # a short game: its whole game is replayed
            break
        game.legal_mask(plain, mask)
        actions.append(int(np.flatnonzero(mask)[0]))
        game.step(plain, actions[-1], np.zeros(n, dtype=np.float32))
    lying = state_io.replay(game, LyingInt(n), LyingInt(11), [LyingInt(a) for a in actions])
    np.testing.assert_array_equal(lying, plain)
    env = presages_env.make(name, num_players=LyingInt(n), max_steps=LyingInt(40))
    assert type(env.num_players) is int and env.num_players == n
    vec = presages_env.make_vec(name, LyingInt(3), num_players=LyingInt(n), seed=LyingInt(2))
    assert vec.num_envs == 3
    np.testing.assert_array_equal(
        vec.reset(seed=LyingInt(4)).obs, presages_env.make_vec(name, 3, n, seed=4).reset(4).obs
    )


@pytest.mark.parametrize("name", GAMES)
def test_integer_options_are_written_as_their_true_values(name):
    game = get_game(name)
    defaults = {
        field.name: field.default
        for field in dataclasses.fields(game.Options)
        if type(field.default) is int
    }
    if not defaults:
        pytest.skip(f"{name} has no integer option")
    lying = presages_env.make(name, **{k: LyingInt(v) for k, v in defaults.items()})
    lying.reset(seed=1)
    plain = presages_env.make(name, **defaults)
    plain.reset(seed=1)
    np.testing.assert_array_equal(lying.get_state(), plain.get_state())
