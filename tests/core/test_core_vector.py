"""The RNG and the vector env of the shared core (checked on Président)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

import presages_env
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL, HEADER_SIZE, seed_of, step_of
from presages_env.core.rng import derive_seed, rng_below, rng_next, rng_seed, rng_shuffle
from presages_env.games.president.game import PresidentGame

GAME = PresidentGame()


def rng_state(seed: int) -> np.ndarray:
    """A state array holding only an RNG seeded with ``seed``."""
    state = np.zeros(HEADER_SIZE, dtype=np.int8)
    rng_seed(state, seed)
    return state


def draws(seed: int, count: int) -> list[int]:
    state = rng_state(seed)
    return [int(rng_next(state)) for _ in range(count)]


def run(vec, steps: int, rng_seed_base: int = 0) -> list[tuple[np.ndarray, ...]]:
    """Step ``vec`` with its own random legal actions; every step's outputs, copied."""
    rng_states = np.arange(vec.num_envs, dtype=np.int64) + rng_seed_base
    history = []
    for _ in range(steps):
        actions = vec.random_actions(rng_states)
        out = vec.step(actions)
        history.append((actions.copy(), vec.states.copy(), *(a.copy() for a in out)))
    return history


# ---- RNG ----------------------------------------------------------------------------------
def test_rng_is_a_pure_function_of_its_seed():
    assert draws(42, 100) == draws(42, 100)
    assert draws(42, 100) != draws(43, 100)
    assert len(set(draws(42, 1000))) == 1000


def test_rng_below_stays_in_range_and_covers_it():
    state = rng_state(1)
    values = np.array([rng_below(state, 7) for _ in range(7000)])
    assert values.min() == 0 and values.max() == 6
    counts = np.bincount(values, minlength=7)
    assert (np.abs(counts - 1000) < 150).all(), counts


def test_rng_shuffle_permutes_and_depends_on_the_seed():
    def shuffled(seed: int) -> list[int]:
        values = np.arange(52, dtype=np.int64)
        rng_shuffle(rng_state(seed), values, 52)
        return values.tolist()

    assert sorted(shuffled(3)) == list(range(52))
    assert shuffled(3) == shuffled(3)
    assert shuffled(3) != shuffled(4)
    assert shuffled(3) != list(range(52))


def test_rng_shuffle_leaves_the_tail_alone():
    values = np.arange(10, dtype=np.int64)
    rng_shuffle(rng_state(5), values, 4)
    assert sorted(values[:4].tolist()) == [0, 1, 2, 3]
    assert values[4:].tolist() == list(range(4, 10))


def test_derive_seed_is_deterministic_distinct_and_non_negative():
    seeds = [int(derive_seed(7, i)) for i in range(5000)]
    assert seeds == [int(derive_seed(7, i)) for i in range(5000)]
    assert len(set(seeds)) == 5000
    assert min(seeds) >= 0 and max(seeds) < 2**63
    assert seeds[:100] != [int(derive_seed(8, i)) for i in range(100)]


def test_a_game_is_dealt_from_its_seed_alone():
    a, b = GAME.new_state(4, 1234), GAME.new_state(4, 1234)
    np.testing.assert_array_equal(a, b)
    assert seed_of(a) == 1234
    assert not np.array_equal(a, GAME.new_state(4, 1235))


# ---- vector env ---------------------------------------------------------------------------
def test_game_i_does_not_depend_on_the_batch_size():
    small = presages_env.make_vec("president", 8, num_players=3, seed=77, num_manches=2)
    large = presages_env.make_vec("president", 64, num_players=3, seed=77, num_manches=2)
    np.testing.assert_array_equal(small.states, large.states[:8])
    rng_states = np.arange(64, dtype=np.int64)
    finished = 0
    for _ in range(400):
        actions = large.random_actions(rng_states)
        small_out = small.step(actions[:8])
        large_out = large.step(actions)
        np.testing.assert_array_equal(small.states, large.states[:8])
        for mine, theirs in zip(small_out, large_out, strict=True):
            np.testing.assert_array_equal(mine, theirs[:8])
        finished += int(small.done.sum())
    assert finished >= 8, "the comparison went through automatic resets"


def test_game_i_is_the_game_dealt_from_the_derived_seed():
    vec = presages_env.make_vec("president", 5, num_players=3, seed=2024, reward_scheme="match")
    for i in range(5):
        expected = GAME.new_state(3, derive_seed(2024, i), reward_scheme="match")
        np.testing.assert_array_equal(vec.states[i], expected)


def test_reset_with_the_same_seed_replays_the_same_run():
    vec = presages_env.make_vec("president", 16, num_players=4, seed=5)
    first = run(vec, 150)
    vec.reset(5)
    again = run(vec, 150)
    for a, b in zip(first, again, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)
    vec.reset(6)
    assert not np.array_equal(run(vec, 1)[0][1], first[0][1])


def test_results_do_not_depend_on_the_thread_count():
    def history(threads: int) -> list[tuple[np.ndarray, ...]]:
        numba.set_num_threads(threads)
        return run(presages_env.make_vec("president", 32, num_players=6, seed=3), 200)

    saved = numba.get_num_threads()
    try:
        one, many = history(1), history(saved)
    finally:
        numba.set_num_threads(saved)
    for a, b in zip(one, many, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


def test_outputs_match_the_game_kernels_row_by_row():
    vec = presages_env.make_vec("president", 12, num_players=4, seed=9, num_manches=2)
    obs = np.zeros(vec.obs_size, dtype=GAME.obs_dtype)
    mask = np.zeros(vec.num_actions, dtype=np.int8)
    for _, states, obs_b, masks_b, _, current_b, _, _ in run(vec, 300):
        for i, state in enumerate(states):
            assert current_b[i] == state[HDR_CURRENT]
            GAME.observe(state, int(state[HDR_CURRENT]), obs)
            GAME.legal_mask(state, mask)
            np.testing.assert_array_equal(obs_b[i], obs)
            np.testing.assert_array_equal(masks_b[i], mask)


def test_finished_games_are_replaced_by_a_fresh_deal():
    vec = presages_env.make_vec("president", 32, num_players=3, seed=1)
    resets = 0
    for _, states, _, _, rewards, _, done, truncated in run(vec, 200):
        assert not truncated.any()
        assert all(step_of(state) == 0 for state in states[done])
        assert (states[done, HDR_TERMINAL] == 0).all()
        assert (rewards[done] != 0).any(axis=1).all(), "a finished game pays its rewards"
        assert (states[:, HDR_TERMINAL] == 0).all()
        resets += int(done.sum())
    assert resets > 32


def test_max_steps_truncates_and_resets():
    vec = presages_env.make_vec("president", 4, num_players=4, seed=0, max_steps=10)
    history = run(vec, 25)
    for step, (_, states, _, _, rewards, _, done, truncated) in enumerate(history, start=1):
        cut = step % 10 == 0
        assert truncated.tolist() == [cut] * 4
        assert done.tolist() == [cut] * 4
        assert not rewards.any()
        assert [step_of(state) for state in states] == [step % 10] * 4


def test_random_actions_are_legal_deterministic_and_spread():
    vec = presages_env.make_vec("president", 64, num_players=4, seed=12)
    first = vec.random_actions(np.arange(64, dtype=np.int64))
    assert (vec.masks[np.arange(64), first] == 1).all()
    np.testing.assert_array_equal(first, vec.random_actions(np.arange(64, dtype=np.int64)))
    rng_states = np.arange(64, dtype=np.int64)
    picks = np.stack([vec.random_actions(rng_states) for _ in range(400)])
    legal_counts = vec.masks.sum(axis=1)
    distinct = np.array([len(np.unique(picks[:, i])) for i in range(64)])
    np.testing.assert_array_equal(distinct, legal_counts)


@pytest.mark.parametrize("num_envs", [1, 3])
def test_small_batches_work(num_envs):
    vec = presages_env.make_vec("president", num_envs, num_players=6, seed=4)
    history = run(vec, 400)
    assert sum(int(h[-2].sum()) for h in history) >= num_envs
    assert history[-1][2].shape == (num_envs, vec.obs_size)
    assert history[-1][3].shape == (num_envs, vec.num_actions)
    assert history[-1][4].shape == (num_envs, 6)


# ---- serial or threaded loop ----------------------------------------------------------------
@pytest.mark.parametrize("faster", ["serial", "threaded"])
def test_the_faster_loop_is_chosen_by_timing_both(faster):
    import time

    from presages_env.core.vector import FastestLoop

    calls = {"serial": 0, "threaded": 0}

    def loop(name: str, seconds: float):
        def run(x):
            calls[name] += 1
            time.sleep(seconds)
            return x

        return run

    slow, fast = 0.004, 0.001
    chooser = FastestLoop(
        loop("serial", fast if faster == "serial" else slow),
        loop("threaded", fast if faster == "threaded" else slow),
    )
    for i in range(300):
        assert chooser(10, i) == i
    assert chooser.uses_threads == (faster == "threaded") or numba.get_num_threads() == 1
    slow_calls = calls["threaded" if faster == "serial" else "serial"]
    assert slow_calls < 300 * 0.15, "the slower loop only runs in the first calls and probes"


@pytest.mark.parametrize("parallel", [False, True, None])
def test_serial_threaded_and_chosen_loops_give_the_same_games(parallel):
    def history(p):
        return run(presages_env.make_vec("president", 300, num_players=5, seed=4, parallel=p), 60)

    reference = history(False)
    for a, b in zip(reference, history(parallel), strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


def test_parallel_must_be_a_bool_or_none():
    with pytest.raises(TypeError, match="parallel"):
        presages_env.make_vec("president", 4, parallel="yes")


def test_observe_seats_is_each_seats_observation_and_refuses_bad_indices():
    vec = presages_env.make_vec("president", 3, num_players=4, seed=2)
    envs, seats = np.array([0, 2, 2]), np.array([3, 0, 1])
    obs = vec.observe_seats(envs, seats)
    for row, (env, seat) in enumerate(zip(envs, seats, strict=True)):
        expected = np.zeros(vec.obs_size, dtype=vec.obs.dtype)
        vec.game.observe(vec.states[env], int(seat), expected)
        np.testing.assert_array_equal(obs[row], expected)
    before = vec.states.copy()
    for bad_envs, bad_seats, error in (
        (np.array([3]), np.array([0]), ValueError),
        (np.array([-1]), np.array([0]), ValueError),
        (np.array([0]), np.array([4]), ValueError),
        (np.array([0, 1]), np.array([0]), TypeError),
        (np.array([0.0]), np.array([0]), TypeError),
        ([[0]], [[0]], TypeError),
    ):
        with pytest.raises(error):
            vec.observe_seats(bad_envs, bad_seats)
    np.testing.assert_array_equal(vec.states, before)
