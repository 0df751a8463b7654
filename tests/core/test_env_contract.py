"""Every registered game through the PettingZoo AEC env and the vector env: determinism from
the seed, bad actions and configurations refused with nothing changed, the end of a game,
step caps and rendering. (Moved from tests/president/, where they checked one game.)"""

from __future__ import annotations

import re

import numpy as np
import pytest

import presages_env
from presages_env.core.header import step_of
from presages_env.core.option_space import random_options
from presages_env.core.state_io import apply_actions

GAMES = presages_env.list_games()
SEATINGS = [
    (name, n)
    for name in GAMES
    for n in range(
        presages_env.get_game(name).min_players, presages_env.get_game(name).max_players + 1
    )
]
WRONGLY_TYPED = [1.0, np.float32(1), "1", None, True, np.bool_(False), [1], np.array([1])]


# ---- helpers ------------------------------------------------------------------------------
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


def is_over(env) -> bool:
    return any(env.terminations.values()) or any(env.truncations.values())


def play_some_steps(env, count: int) -> None:
    """Up to ``count`` random decisions, fewer where the game ends first."""
    rng = np.random.default_rng(0)
    for _ in range(count):
        if is_over(env):
            return
        env.step(random_legal(rng, env.observe(env.agent_selection)["action_mask"]))


def fresh_env(name: str):
    """A default game five decisions in (fewer where it would be over by then)."""
    env = presages_env.make(name)
    for steps in range(5, -1, -1):
        env.reset(seed=4)
        play_some_steps(env, steps)
        if not is_over(env):
            return env
    raise AssertionError(f"{name}'s game is over at reset")


def assert_names_legal_actions(message: str, mask: np.ndarray) -> None:
    """The message lists exactly the legal actions, as ``5 (label), ...`` or ``[5, ...]``."""
    assert "legal actions" in message, message
    listing = message.split("legal actions")[-1]
    named = re.findall(r"(\d+) \(", listing) or re.findall(r"\d+", listing)
    assert sorted(int(a) for a in named) == np.flatnonzero(mask).tolist(), message


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


def make_vector_env(name: str):
    vec = presages_env.make_vec(name, 4, seed=2)
    rng_states = np.arange(4, dtype=np.int64)
    vec.step(vec.random_actions(rng_states))
    return vec, vec.random_actions(rng_states)


def assert_vector_refuses(vec, actions, error) -> str:
    snapshot = [a.copy() for a in (vec.states, vec.obs, vec.masks, vec.current)]
    with pytest.raises(error) as raised:
        vec.step(actions)
    for before, now in zip(snapshot, (vec.states, vec.obs, vec.masks, vec.current), strict=True):
        np.testing.assert_array_equal(before, now)
    return str(raised.value)


# ---- determinism --------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "num_players"), SEATINGS)
def test_same_seed_same_trajectory(name, num_players):
    game = presages_env.get_game(name)
    rng = np.random.default_rng(num_players)
    options = {**random_options(game, num_players, rng), **game.short_options(rng)}

    def run(seed: int) -> list[tuple]:
        env = presages_env.make(name, num_players=num_players, **options)
        env.reset(seed=seed)
        return play_random_game(env, np.random.default_rng(7))

    first = run(123)
    assert first == run(123)
    assert len(first) > num_players, "the trajectory holds no decision"
    assert any(first != run(seed) for seed in (124, 125, 126))


@pytest.mark.parametrize("name", GAMES)
def test_later_resets_follow_the_first_seed(name):
    def deals(seed: int) -> list[np.ndarray]:
        env = presages_env.make(name)
        env.reset(seed=seed)
        first = env.get_state()
        env.reset()
        return [first, env.get_state()]

    a, b = deals(9), deals(9)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[0], a[1])


# ---- bad actions --------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_illegal_and_out_of_range_actions_are_refused_by_the_aec_env(name):
    env = fresh_env(name)
    mask = env.observe(env.agent_selection)["action_mask"]
    num_actions = env.action_space(env.agent_selection).n
    illegal = np.flatnonzero(mask == 0)[:1].tolist()
    for action in (*illegal, *np.int64(illegal), num_actions, -1, 10**20):
        assert_names_legal_actions(assert_refused(env, action, ValueError), mask)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("action", WRONGLY_TYPED, ids=repr)
def test_wrongly_typed_actions_are_refused_by_the_aec_env(name, action):
    assert_refused(fresh_env(name), action, TypeError)


@pytest.mark.parametrize("name", GAMES)
def test_wrongly_typed_action_errors_name_the_legal_actions(name):
    env = fresh_env(name)
    mask = env.observe(env.agent_selection)["action_mask"]
    for action in WRONGLY_TYPED:
        assert_names_legal_actions(assert_refused(env, action, TypeError), mask)


@pytest.mark.parametrize("name", GAMES)
def test_a_zero_dimensional_integer_array_is_a_valid_action(name):
    env = fresh_env(name)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    step_before = step_of(env.get_state())
    env.step(np.array(legal))
    assert step_of(env.get_state()) == step_before + 1


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", ["illegal", "num_actions", 10**6])
def test_vector_env_refuses_an_illegal_action_and_steps_no_game(name, bad):
    vec, actions = make_vector_env(name)
    row = 2
    if bad == "illegal":
        rows = np.flatnonzero(~vec.masks.all(axis=1))
        if not len(rows):
            pytest.skip(f"every action is legal in each of {name}'s games here")
        row = int(rows[-1])
        bad = int(np.flatnonzero(vec.masks[row] == 0)[0])
    elif bad == "num_actions":
        bad = vec.masks.shape[1]
    actions[row] = bad
    message = assert_vector_refuses(vec, actions, ValueError)
    assert f"game {row}" in message
    assert_names_legal_actions(message, vec.masks[row])
    vec.step(vec.random_actions(np.arange(4, dtype=np.int64)))  # still usable


@pytest.mark.parametrize("name", GAMES)
def test_vector_env_action_minus_one_skips_that_game_only(name):
    vec, actions = make_vector_env(name)
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


@pytest.mark.parametrize("name", GAMES)
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
def test_vector_env_refuses_wrongly_typed_actions(name, convert):
    vec, actions = make_vector_env(name)
    assert_vector_refuses(vec, convert(actions), TypeError)


# ---- the end of a game and step caps ------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_stepping_after_the_end(name):
    game = presages_env.get_game(name)
    options = game.short_options(np.random.default_rng(8))
    env = presages_env.make(name, num_players=game.min_players, **options)
    env.reset(seed=8)
    rng = np.random.default_rng(1)
    while not is_over(env):
        env.step(random_legal(rng, env.observe(env.agent_selection)["action_mask"]))
    assert all(env.terminations.values()) or all(env.truncations.values())
    final_state = env.get_state()
    assert not env.observe(env.agent_selection)["action_mask"].any()
    with pytest.raises(ValueError, match="None"):
        env.step(0)
    for _ in range(game.min_players):
        env.step(None)
    assert env.agents == []
    with pytest.raises(ValueError, match="reset"):
        env.step(None)
    np.testing.assert_array_equal(env.get_state(), final_state)
    if game.is_over(final_state):
        with pytest.raises(ValueError, match="after the end"):
            apply_actions(game, final_state, [0])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("cap", [1, 6])
def test_max_steps_truncates_the_game(name, cap):
    uncapped = presages_env.make(name)
    uncapped.reset(seed=3)
    play_some_steps(uncapped, cap)
    if is_over(uncapped):
        pytest.skip(f"{name}'s game of seed 3 ends within {cap} decisions")
    env = presages_env.make(name, max_steps=cap)
    env.reset(seed=3)
    play_some_steps(env, cap - 1)
    assert not any(env.truncations.values())
    play_some_steps(env, 1)
    assert all(env.truncations.values())
    assert not any(env.terminations.values())


# ---- configuration errors -----------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_player_counts_outside_the_game_s_range_are_refused(name):
    game = presages_env.get_game(name)
    allowed = f"{game.min_players} to {game.max_players}"
    for num_players in (game.min_players - 1, game.max_players + 1, 0, -4):
        with pytest.raises(ValueError, match=allowed):
            presages_env.make(name, num_players=num_players)
        with pytest.raises(ValueError, match=allowed):
            presages_env.make_vec(name, 2, num_players=num_players)


@pytest.mark.parametrize("name", GAMES)
def test_non_integer_player_counts_are_refused(name):
    default = presages_env.get_game(name).default_players
    for num_players in (float(default), str(default), True):
        with pytest.raises(TypeError):
            presages_env.make(name, num_players=num_players)
        with pytest.raises(TypeError):
            presages_env.make_vec(name, 2, num_players=num_players)


@pytest.mark.parametrize("name", GAMES)
def test_the_default_player_count_is_the_game_s(name):
    default = presages_env.get_game(name).default_players
    assert presages_env.make(name).num_players == default
    assert presages_env.make_vec(name, 2).num_players == default


@pytest.mark.parametrize("name", GAMES)
def test_unknown_options_are_refused(name):
    for build in (
        lambda: presages_env.make(name, no_such_option=3),
        lambda: presages_env.make_vec(name, 2, no_such_option="places"),
    ):
        with pytest.raises(TypeError, match="unknown option"):
            build()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("max_steps", [2.5, True, "3", None])
def test_a_step_cap_that_is_not_an_int_is_refused_by_both_envs(name, max_steps):
    with pytest.raises(TypeError, match="max_steps"):
        presages_env.make_vec(name, 2, max_steps=max_steps)
    if max_steps is not None:  # the AEC env's "no cap" is None
        with pytest.raises(TypeError, match="max_steps"):
            presages_env.make(name, max_steps=max_steps)


@pytest.mark.parametrize("name", GAMES)
def test_bad_batch_sizes_are_refused(name):
    with pytest.raises(ValueError):
        presages_env.make_vec(name, 0)
    with pytest.raises(TypeError):
        presages_env.make_vec(name, 2.0)


def test_an_unknown_game_is_refused():
    with pytest.raises(ValueError, match="unknown game"):
        presages_env.make("belote")


@pytest.mark.parametrize("name", GAMES)
def test_set_state_refuses_a_state_of_another_shape_or_player_count(name):
    game = presages_env.get_game(name)
    env = presages_env.make(name)
    env.reset(seed=1)
    other = game.max_players if env.num_players == game.min_players else game.min_players
    with pytest.raises(ValueError):
        env.set_state(np.zeros(5, dtype=game.state_dtype))
    with pytest.raises(ValueError):
        env.set_state(game.new_state(other, 1))
    wider = np.int64 if np.dtype(game.state_dtype) != np.int64 else np.int32
    with pytest.raises(TypeError, match="never cast"):
        env.set_state(env.get_state().astype(wider))


# ---- rendering ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_human_render_prints_the_ansi_text(name, capsys):
    shown = {}
    for mode in ("ansi", "human"):
        env = presages_env.make(name, render_mode=mode)
        env.reset(seed=2)
        shown[mode] = env.render()
    assert shown["human"] is None
    printed = capsys.readouterr().out
    assert printed == shown["ansi"] + "\n" and shown["ansi"].strip()
