"""What every registered game must pass; a new game runs all of it by being registered.

PettingZoo's api_test and seed_test (with and without a step cap), random games through
valid states only, masks that lead to valid states, the AEC env, the vector env (any batch
size) and replay agreeing step by step, bad input refused with nothing changed, every entry
point validating states, no leak through the observation, and the state fuzz under numba's
bounds checks. Per-game folders keep the rules.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

import presages_env
from presages_env.agents.search import ISMCTSAgent
from presages_env.core import fuzz
from presages_env.core.game import STATE_DTYPES
from presages_env.core.header import (
    GLOBAL_HEADER_SLOTS,
    HDR_CURRENT,
    HDR_RNG,
    HDR_TERMINAL,
    HEADER_SIZE,
    RNG_SLOTS,
    SEED_SLOTS,
    step_of,
)
from presages_env.core.rng import derive_seed
from presages_env.core.state_io import apply_actions, deserialize, replay, serialize
from presages_env.core.validation import checked_state
from presages_env.fuzzing import run_in_child

GAMES = presages_env.list_games()


def player_counts(name: str) -> list[int]:
    game = presages_env.get_game(name)
    return sorted({game.min_players, game.default_players, game.max_players})


SEATINGS = [(name, n) for name in GAMES for n in player_counts(name)]
seating = pytest.mark.parametrize(("name", "n"), SEATINGS)
every_game = pytest.mark.parametrize("name", GAMES)


def random_trajectory(game, n: int, seed: int, max_steps: int = 20_000) -> list[np.ndarray]:
    """Every state of one random game (kernels only), checked to end within ``max_steps``."""
    rng = np.random.default_rng(seed)
    state = game.new_state(n, seed)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    states = [state.copy()]
    while not state[HDR_TERMINAL]:
        assert len(states) < max_steps, "a random game did not end"
        game.kernel.legal_mask(state, mask)
        game.kernel.step(state, np.int64(rng.choice(np.flatnonzero(mask))), rewards)
        states.append(state.copy())
    return states


# ---- the game is whole ---------------------------------------------------------------------
@every_game
def test_every_registered_game_ships_every_part(name):
    game = presages_env.get_game(name)
    for kernel in ("reset", "legal_mask", "step", "observe", "sample_world", "global_state"):
        assert callable(getattr(game.kernel, kernel)), kernel
    assert callable(game.validate_state)
    assert np.issubdtype(game.state_dtype, np.signedinteger)
    heuristic = importlib.import_module(f"presages_env.games.{name}.heuristic")
    assert callable(heuristic.heuristic_actions)
    checkpoint = Path(presages_env.__file__).parent / "checkpoints" / f"{name}.pt"
    assert checkpoint.is_file(), f"no shipped checkpoint for {name}"
    presages_env.register_envs()
    env = pettingzoo.make("aec", f"presages_env/{name}-v0")
    env.reset(seed=0)
    assert env.agents


def test_a_game_whose_kernel_has_no_global_state_is_refused_at_definition():
    import types

    from presages_env.core.game import Game

    kernel = types.SimpleNamespace(**vars(presages_env.get_game("president").kernel))
    del kernel.global_state
    with pytest.raises(TypeError, match="global_state"):
        type(
            "NoGlobalState",
            (Game,),
            {
                "kernel": kernel,
                "validator": presages_env.get_game("president").validator,
                "state_dtype": np.int8,
                "layout_version": 2,
                "title": "No global state",
            },
        )


# ---- PettingZoo -----------------------------------------------------------------------------
@seating
def test_pettingzoo_api_test(name, n):
    api_test(presages_env.make(name, num_players=n), num_cycles=200)


@seating
@pytest.mark.parametrize("max_steps", [3, 40])
def test_pettingzoo_api_test_with_a_step_cap(name, n, max_steps):
    api_test(presages_env.make(name, num_players=n, max_steps=max_steps), num_cycles=200)


@seating
def test_pettingzoo_seed_test(name, n):
    seed_test(functools.partial(presages_env.make, name, num_players=n), 200)


@every_game
def test_every_episode_after_a_truncation_has_infos_for_every_agent(name):
    env = presages_env.make(name, max_steps=3)
    env.reset(seed=1)
    for episode in range(3):
        for agent in env.agent_iter():
            _obs, _reward, terminated, truncated, info = env.last()
            assert isinstance(info, dict)
            env.step(
                None
                if terminated or truncated
                else int(env.action_space(agent).sample(env.observe(agent)["action_mask"]))
            )
        assert not env.agents
        env.reset(seed=episode)
        assert set(env.infos) == set(env.possible_agents)


@every_game
def test_using_the_env_before_reset_is_a_clear_error(name):
    env = presages_env.make(name)
    for call in (env.last, lambda: env.step(0), lambda: env.observe("player_0"), env.state):
        with pytest.raises(ValueError, match="reset"):
            call()


# ---- random play through valid states ------------------------------------------------------
@seating
def test_random_games_only_reach_valid_states(name, n):
    """The validator accepts every reachable state and play always ends."""
    game = presages_env.get_game(name)
    for seed in range(3):
        for state in random_trajectory(game, n, seed):
            checked_state(game, state)
            assert (state[HDR_CURRENT] == -1) == bool(state[HDR_TERMINAL])


@seating
def test_every_legal_action_leads_to_a_valid_state(name, n):
    game = presages_env.get_game(name)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    trajectory = random_trajectory(game, n, seed=11)
    for state in trajectory[:: max(1, len(trajectory) // 25)]:
        if state[HDR_TERMINAL]:
            continue
        game.kernel.legal_mask(state, mask)
        assert mask.any()
        for action in np.flatnonzero(mask):
            after = state.copy()
            game.step(after, int(action), rewards)  # the checked step: validates before
            checked_state(game, after)
            assert np.isfinite(rewards).all()


# ---- one game, every path ------------------------------------------------------------------
@seating
def test_aec_vector_and_replay_agree_step_by_step(name, n):
    game = presages_env.get_game(name)
    seed, index = 5, 3
    vecs = [presages_env.make_vec(name, b, num_players=n, seed=seed) for b in (4, 300)]
    dealt = game.new_state(n, derive_seed(seed, index))
    env = presages_env.make(name, num_players=n)
    env.reset(options={"state": dealt})
    rng_states = [np.arange(v.num_envs, dtype=np.int64) for v in vecs]
    actions_played = []
    for _ in range(20_000):
        for vec in vecs:
            np.testing.assert_array_equal(vec.states[index], env.get_state())
        agent = env.agent_selection
        seen = env.observe(agent)
        for vec in vecs:
            np.testing.assert_array_equal(seen["observation"], vec.obs[index])
            np.testing.assert_array_equal(seen["action_mask"], vec.masks[index])
        action = int(vecs[0].random_actions(rng_states[0])[index])
        actions_played.append(action)
        for vec, rng in zip(vecs, rng_states, strict=True):
            actions = vec.random_actions(rng)
            actions[index] = action
            vec.step(actions)
        env.step(action)
        for vec in vecs:
            np.testing.assert_array_equal([env.rewards[a] for a in env.agents], vec.rewards[index])
        if vecs[0].done[index]:
            assert all(env.terminations.values())
            final = replay(game, n, derive_seed(seed, index), actions_played)
            np.testing.assert_array_equal(final, env.get_state())
            return
    pytest.fail("the game did not end")


# ---- bad input changes nothing -------------------------------------------------------------
def a_refused_state(game, n: int) -> np.ndarray:
    """A corrupted mid-game ``n``-player state that validation refuses."""
    trajectory = random_trajectory(game, n, seed=n)
    original = trajectory[len(trajectory) // 2]
    rng = np.random.default_rng(n)
    for case in range(1000):
        _description, state = fuzz.corrupt(original, fuzz.KINDS[case % len(fuzz.KINDS)], rng)
        if state[0] == n:  # still claims n players: the env's own check will not catch it
            try:
                checked_state(game, state)
            except ValueError:
                return state
    raise AssertionError(f"no corruption of a {game.name} state was refused")


@seating
def test_bad_input_to_the_aec_env_changes_nothing(name, n):
    game = presages_env.get_game(name)
    env = presages_env.make(name, num_players=n)
    env.reset(seed=3)
    before = env.get_state()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    bad_actions = [-1, len(mask), 10**9, 1.0, "0", None, True]
    bad_actions += [int(illegal[0])] if illegal.size else []
    for action in bad_actions:
        with pytest.raises((TypeError, ValueError)):
            env.step(action)
    bad_states = [
        (a_refused_state(game, n), ValueError),
        (before[:-1], ValueError),
        (before.tolist(), TypeError),
        (np.zeros_like(before), ValueError),
    ]
    # the same slots in any other dtype: refused, never cast (int64 was the layout-1 dtype)
    other_dtypes = [d for d in (*STATE_DTYPES, np.float64) if d != game.state_dtype]
    bad_states += [(before.astype(dtype), TypeError) for dtype in other_dtypes]
    for state, error in bad_states:
        with pytest.raises(error):
            env.set_state(state)
        with pytest.raises(error):
            env.reset(options={"state": state})
    np.testing.assert_array_equal(env.get_state(), before)
    env.last()  # still usable


@seating
def test_bad_input_to_the_vector_env_changes_nothing(name, n):
    vec = presages_env.make_vec(name, 8, num_players=n, seed=1)
    snapshot = [a.copy() for a in (vec.states, vec.obs, vec.masks, vec.current)]
    rng_states = np.arange(8, dtype=np.int64)
    good = vec.random_actions(rng_states)
    wrapped = good.astype(np.uint64)
    wrapped[0] = np.uint64(2**64 - 1)  # would wrap to -1, skipping the game
    bad_actions = [good[:-1], good.astype(np.float64), np.full(8, np.nan), wrapped, good + 10**6]
    for actions in bad_actions:
        with pytest.raises((TypeError, ValueError)):
            vec.step(actions)
    for rng in (np.arange(7, dtype=np.int64), np.arange(9, dtype=np.int64), rng_states[::1] * 1.0):
        with pytest.raises((TypeError, ValueError)):
            vec.random_actions(rng)
    for array, before in zip((vec.states, vec.obs, vec.masks, vec.current), snapshot, strict=True):
        np.testing.assert_array_equal(array, before)
    for seed in (None, "1", 1.5, -1, 2**64, True):
        with pytest.raises((TypeError, ValueError)):
            presages_env.make_vec(name, 2, num_players=n, seed=seed)
        with pytest.raises((TypeError, ValueError)):
            vec.reset(seed)
    vec.reset(np.int64(3))  # NumPy integers are seeds too


@seating
def test_every_entry_point_refuses_a_corrupted_state_and_changes_nothing(name, n):
    game = presages_env.get_game(name)
    bad = a_refused_state(game, n)
    kept = bad.copy()
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    rewards = np.zeros(n, dtype=np.float32)
    calls = {
        "checked legal_mask": lambda: game.legal_mask(bad, mask),
        "checked step": lambda: game.step(bad, 0, rewards),
        "checked observe": lambda: game.observe(bad, 0, obs),
        "apply_actions": lambda: apply_actions(game, bad, []),
        "serialize": lambda: serialize(bad, game),
        "search": lambda: ISMCTSAgent(name, simulations=2).act_states(bad[None, :]),
    }
    for what, call in calls.items():
        with pytest.raises(ValueError):
            call()
        np.testing.assert_array_equal(bad, kept, err_msg=what)


@seating
def test_the_checked_kernels_refuse_bad_seats_and_arrays(name, n):
    game = presages_env.get_game(name)
    state = game.new_state(n, 2)
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    for seat in (-1, n, 7, 1.0):
        with pytest.raises((TypeError, ValueError)):
            game.observe(state, seat, obs)
    with pytest.raises((TypeError, ValueError)):
        game.observe(state, 0, obs[:-1])
    with pytest.raises((TypeError, ValueError)):
        game.legal_mask(state, np.zeros(game.num_actions(n), dtype=np.int64))
    before = state.copy()
    with pytest.raises((TypeError, ValueError)):
        game.step(state, 0, np.zeros(n, dtype=np.float64))
    np.testing.assert_array_equal(state, before)


@seating
def test_a_saved_game_loads_and_plays_on_identically(name, n):
    game = presages_env.get_game(name)
    trajectory = random_trajectory(game, n, seed=4)
    middle = trajectory[len(trajectory) // 2]
    loaded = deserialize(serialize(middle), game)
    np.testing.assert_array_equal(loaded, middle)
    assert loaded.dtype == game.state_dtype
    final = deserialize(serialize(trajectory[-1]))
    assert step_of(final) == step_of(trajectory[-1]) == len(trajectory) - 1


# ---- no leak -------------------------------------------------------------------------------
@seating
def test_a_seat_sees_the_same_in_every_world_it_cannot_tell_apart(name, n):
    """Each game's sample_world re-deals what a seat cannot see; the seat's observation must
    not change, while the hidden part does (else the check would prove nothing)."""
    game = presages_env.get_game(name)
    obs_real = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    obs_world = np.zeros_like(obs_real)
    world = np.zeros(game.state_size(n), dtype=game.state_dtype)
    hidden_changed = 0
    for seed in range(2):
        for state in random_trajectory(game, n, seed)[::3]:
            if state[HDR_TERMINAL]:
                continue
            for seat in range(n):
                game.kernel.sample_world(state, np.int64(seat), np.int64(seed * 1000 + seat), world)
                game.kernel.observe(state, np.int64(seat), obs_real)
                game.kernel.observe(world, np.int64(seat), obs_world)
                np.testing.assert_array_equal(obs_real, obs_world)
                checked_state(game, world)
                hidden_changed += not np.array_equal(world, state)
    assert hidden_changed > 0


# ---- global state (docs/research.md) -------------------------------------------------------
def global_of(game, state: np.ndarray) -> np.ndarray:
    out = np.full(game.global_size(game.num_players_of(state)), 99, dtype=game.global_dtype)
    game.kernel.global_state(state, out)
    return out


def kept_slots(game, state: np.ndarray) -> np.ndarray:
    """The state slots a global state copies: all but the header's RNG and seed and the
    game's scratch beyond GLOBAL_SLOTS_END."""
    end = game.kernel.GLOBAL_SLOTS_END
    return np.concatenate([state[:GLOBAL_HEADER_SLOTS], state[HEADER_SIZE:end]])


@seating
def test_global_state_is_every_observation_and_the_slots_within_its_space(name, n):
    """Fixed length for every player count, the declared dtype, inside ``state_space`` over
    random play; seat p's block is observe(p) (empty seats' blocks are 0), then the state's
    slots but RNG and seed: observe(p) is a projection of the global state."""
    game = presages_env.get_game(name)
    k = game.kernel
    size = game.global_size(n)
    assert size == k.GLOBAL_SIZE == game.global_size(game.min_players)
    assert size == k.GLOBAL_SLOTS + GLOBAL_HEADER_SLOTS + k.GLOBAL_SLOTS_END - HEADER_SIZE
    assert game.max_players == k.GLOBAL_SEATS and k.GLOBAL_SLOTS == k.GLOBAL_SEATS * k.OBS_SIZE
    space = presages_env.make(name, num_players=n).state_space
    low, high = game.global_bounds(n)
    np.testing.assert_array_equal(space.low, low)
    np.testing.assert_array_equal(space.high, high)
    assert space.dtype == game.global_dtype and space.shape == (size,)
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    for seed in range(2):
        for state in random_trajectory(game, n, seed):
            g = global_of(game, state)
            outside = np.flatnonzero((g < low) | (g > high))
            assert outside.size == 0, f"entries {outside[:5]} = {g[outside[:5]]} out of bounds"
            assert space.contains(g)
            for p in range(game.max_players):
                block = g[game.global_obs_slice(p)]
                if p < n:
                    game.kernel.observe(state, np.int64(p), obs)
                    np.testing.assert_array_equal(block, obs)
                else:
                    assert not block.any()
            np.testing.assert_array_equal(g[k.GLOBAL_SLOTS :], kept_slots(game, state))


@seating
def test_global_state_ignores_the_rng_and_the_seed(name, n):
    game = presages_env.get_game(name)
    rng = np.random.default_rng(5)
    for state in random_trajectory(game, n, seed=4)[::5]:
        other = state.copy()
        other[HDR_RNG : HDR_RNG + RNG_SLOTS + SEED_SLOTS] = rng.integers(
            -128, 128, RNG_SLOTS + SEED_SLOTS
        )
        assert not np.array_equal(other, state)
        np.testing.assert_array_equal(global_of(game, other), global_of(game, state))


@seating
def test_global_state_changes_with_the_hidden_cards(name, n):
    """A world sample_world re-dealt for a seat (same observation for that seat, other
    hidden cards) has another global state, in which the seat's block is unchanged."""
    game = presages_env.get_game(name)
    world = np.zeros(game.state_size(n), dtype=game.state_dtype)
    differing = 0
    for state in random_trajectory(game, n, seed=2)[::4]:
        if state[HDR_TERMINAL]:
            continue
        g = global_of(game, state)
        for seat in range(n):
            game.kernel.sample_world(state, np.int64(seat), np.int64(77 + seat), world)
            w = global_of(game, world)
            block = game.global_obs_slice(seat)
            np.testing.assert_array_equal(w[block], g[block])
            if not np.array_equal(kept_slots(game, world), kept_slots(game, state)):
                differing += 1
                assert not np.array_equal(w, g)
    assert differing > 0


@seating
def test_aec_and_vector_global_states_agree_with_the_kernel(name, n):
    env = presages_env.make(name, num_players=n)
    env.reset(seed=3)
    game = env.game
    first = env.state()
    np.testing.assert_array_equal(first, global_of(game, env.get_state()))
    first[:] = 0  # a copy: the env's own is untouched
    np.testing.assert_array_equal(env.state(), global_of(game, env.get_state()))
    for _ in range(10):
        agent = env.agent_selection
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
        assert env.state_space.contains(env.state())
        np.testing.assert_array_equal(env.state(), global_of(game, env.get_state()))
    vec = presages_env.make_vec(name, 5, num_players=n, seed=1)
    rng_states = np.arange(5, dtype=np.int64)
    for _ in range(20):
        vec.step(vec.random_actions(rng_states))
    states = vec.states.copy()
    out = vec.global_states()
    assert out.shape == (5, game.global_size(n)) and out.dtype == game.global_dtype
    for i in range(5):
        np.testing.assert_array_equal(out[i], global_of(game, states[i]))
    np.testing.assert_array_equal(vec.global_states(np.zeros_like(out)), out)
    np.testing.assert_array_equal(vec.states, states)  # reading it moves no game
    with pytest.raises(ValueError, match="shape"):
        vec.global_states(np.zeros((4, out.shape[1]), dtype=out.dtype))
    with pytest.raises(TypeError, match="dtype"):
        vec.global_states(np.zeros(out.shape, dtype=np.float32))
    checked = np.zeros(game.global_size(n), dtype=game.global_dtype)
    game.global_state(states[0], checked)  # the checked kernel
    np.testing.assert_array_equal(checked, out[0])
    with pytest.raises(ValueError):
        game.global_state(a_refused_state(game, n), checked)


# ---- fuzz ----------------------------------------------------------------------------------
@every_game
def test_corrupted_states_are_refused_or_play_out_under_bounds_checks(name):
    """A few hundred cases here; ``python -m presages_env.fuzzing`` runs the full budget."""
    result = run_in_child(["states"], [name], cases=300, seed=7)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 failures" in result.stdout, result.stdout


@every_game
def test_the_heuristic_reads_any_observation_of_the_space_within_bounds(name):
    """Observations come from users too: anywhere in the declared space, the heuristic
    kernel must act legally or refuse, never index out of bounds."""
    result = run_in_child(["heuristics"], [name], cases=400, seed=7)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 failures" in result.stdout, result.stdout
