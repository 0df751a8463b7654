"""The event log, information states and the public observation, for every game whose kernel
writes events: what a seat receives it may see, what it may not see changes nothing it
receives, the bounds hold over random play, and the default kernels are untouched."""

from __future__ import annotations

import types

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import presages_env
from presages_env.core import events as ev
from presages_env.core.game import EVENT_NAMES, Game
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL, rng_of

EVENT_GAMES = presages_env.list_games()
SEATINGS = [
    (name, n)
    for name in EVENT_GAMES
    for n in sorted(
        {presages_env.get_game(name).min_players, presages_env.get_game(name).max_players}
    )
]
seating = pytest.mark.parametrize(("name", "n"), SEATINGS)


def play_randomly(env, seed: int, decisions: int | None = None) -> None:
    """Reset and play to the end, or only ``decisions`` steps."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(5_000 if decisions is None else decisions):
        if not env.agents:
            return
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    if decisions is None:
        raise AssertionError("a random game did not end")


def test_a_game_without_an_event_log_a_view_or_event_texts_is_refused_at_definition():
    president = presages_env.get_game("president")

    def define(kernel, **extra):
        body = {
            "kernel": kernel,
            "validator": president.validator,
            "state_dtype": np.int8,
            "layout_version": 2,
            "viewer": president.viewer,
            "event_texts": president.event_texts,
            "card_texts": president.card_texts,
            "title": "Test game",
            "action_features": president.action_features,
            "max_visible_events": lambda self, n, options: 1,
            "reward_bounds": type(president).reward_bounds,
            "heuristic": None,
            "world_sampler": None,
            "ships_checkpoint": False,
            "benchmarked": True,
        }
        return type("Incomplete", (Game,), {**body, **extra})

    define(president.kernel)  # complete: accepted
    for name in EVENT_NAMES:
        kernel = types.SimpleNamespace(**vars(president.kernel))
        delattr(kernel, name)
        with pytest.raises(TypeError, match=name):
            define(kernel)
    with pytest.raises(TypeError, match="max_visible_events"):
        define(president.kernel, max_visible_events=Game.max_visible_events)
    with pytest.raises(TypeError, match="viewer"):
        define(president.kernel, viewer=types.SimpleNamespace())
    with pytest.raises(TypeError, match="event_texts"):
        define(president.kernel, event_texts=types.SimpleNamespace())
    words_only = types.SimpleNamespace(describe=president.event_texts.describe)
    with pytest.raises(TypeError, match="round_title"):  # the replay page's round list
        define(president.kernel, event_texts=words_only)


def test_unknown_observation_mode_is_refused():
    with pytest.raises(ValueError, match="observation_mode"):
        presages_env.make(EVENT_GAMES[0], observation_mode="beliefs")


# Res Arcana's default step cap bounds the information state at 2.4M entries, which PettingZoo's
# tests compare and check against the space at every step; a lower cap keeps the same code paths.
SHORTER_GAMES = {"res_arcana": {"step_cap": 400}}


@seating
def test_information_state_env_passes_pettingzoo_tests(name, n):
    def make():
        options = SHORTER_GAMES.get(name, {})
        return presages_env.make(
            name, num_players=n, observation_mode="information_state", **options
        )

    api_test(make(), 50)
    seed_test(make)


@seating
def test_random_play_stays_within_the_bounds_and_every_seat_sees_its_own(name, n):
    for seed in range(4):
        env = presages_env.make(name, num_players=n, observation_mode="information_state")
        play_randomly(env, seed)  # drain() and encode_history() raise past their bounds
        every = env.events()
        assert every and all(0 <= e.actor < n or e.actor == -1 for e in every)
        for seat in range(n):
            seen = env.events(seat)
            assert all(e.visible_to == "all" or seat in e.visible_to for e in seen)
            assert len(seen) < len(every) or n == 1
            history = env.observe(f"player_{seat}")["observation"]
            assert env.observation_space(f"player_{seat}")["observation"].contains(history)
        public = env.observe_public()
        count = sum(e.visible_to == "all" for e in every)
        assert np.count_nonzero(public[1:].reshape(-1, ev.EVENT_WIDTH)[:, ev.KIND]) == count


MAX_POSITIONS = 200


@seating
def test_what_a_seat_cannot_see_changes_nothing_it_receives(name, n):
    """From a position and a world sample_world deals for a seat (the same to that seat),
    the same actions give that seat the same events and the same information state until
    the next draw from the RNG (a shuffle, a drawn card), which the world re-seeds, or the
    next event of the kernel's WORLD_DIVERGING_EVENTS (a card drawn from a deck whose order
    the world re-dealt, a committed card the world redrew, shown to the seat)."""
    game = presages_env.get_game(name)
    compared = 0
    # 12 positions, more while fewer than 21 steps were compared (a short game compares a
    # step or two per position)
    for seed in range(MAX_POSITIONS):
        if seed >= 12 and compared > 20:
            break
        real = presages_env.make(name, num_players=n, observation_mode="information_state")
        # a few decisions into the game, not past its end (past the 12 positions, reached
        # only by a short game, 0 to 5 decisions in: its positions before its last decision)
        for decisions in range(5 if seed < 12 else seed % 6, -1, -1):
            play_randomly(real, 100 + seed, decisions=decisions)
            if real.agents and not real.get_state()[HDR_TERMINAL]:
                break
        state = real.get_state()
        seat = (seed + 1) % n
        twin = presages_env.make(name, num_players=n, observation_mode="information_state")
        twin.reset(options={"state": game.sample_world(state, seat, seed)})
        real.set_state(state)
        rng = np.random.default_rng(seed)
        mask = np.zeros(game.num_actions(n), dtype=np.int8)
        diverging = set(game.kernel.WORLD_DIVERGING_EVENTS)
        while real.agents and not real.get_state()[HDR_TERMINAL]:
            world = twin.get_state()
            game.kernel.legal_mask(world, mask)
            legal = np.flatnonzero(real.observe(real.agent_selection)["action_mask"] & mask)
            if world[HDR_CURRENT] != real.get_state()[HDR_CURRENT] or not len(legal):
                break
            action = int(rng.choice(legal))
            chance = rng_of(real.get_state())
            before = len(real.events())
            real.step(action)
            twin.step(action)
            new = real.events()[before:]
            seen = {e.kind for e in new if e.visible_to == "all" or seat in e.visible_to}
            # chance moved, or the seat saw what its world may have drawn differently
            if rng_of(real.get_state()) != chance or seen & diverging:
                break
            assert real.events(seat) == twin.events(seat)
            agent = f"player_{seat}"
            assert np.array_equal(
                real.observe(agent)["observation"], twin.observe(agent)["observation"]
            )
            assert np.array_equal(real.observe_public(), twin.observe_public())
            compared += 1
    assert compared > 20


@pytest.mark.parametrize("name", EVENT_GAMES)
def test_a_zero_event_step_is_the_default_step(name):
    """The logged kernels change the state exactly as the default ones."""
    game = presages_env.get_game(name)
    n = game.default_players
    rng = np.random.default_rng(0)
    plain, logged = game.new_state(n, 5), game.new_state(n, 5)
    buffer = ev.new_buffer(game.kernel.MAX_STEP_EVENTS)
    game.kernel.reset_logged(logged, np.int64(5), buffer)
    ev.drain(buffer)
    assert np.array_equal(plain, logged)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards_a, rewards_b = np.zeros(n, np.float32), np.zeros(n, np.float32)
    while not plain[HDR_TERMINAL]:
        game.kernel.legal_mask(plain, mask)
        action = np.int64(rng.choice(np.flatnonzero(mask)))
        game.kernel.step(plain, action, rewards_a)
        game.kernel.step_logged(logged, action, rewards_b, buffer)
        assert len(ev.drain(buffer)) > 0
        assert np.array_equal(plain, logged) and np.array_equal(rewards_a, rewards_b)


@pytest.mark.parametrize("name", EVENT_GAMES)
@pytest.mark.parametrize("position_at", [None, 1])
def test_the_env_logs_on_demand_exactly_what_the_logging_kernels_write(name, position_at):
    """The AEC env steps without events and logs them when first read, by replaying its
    actions: read after every step, only at the end, or logged at every step (information
    states), from a deal or from a position (``position_at`` decisions in, where nothing
    before is logged), they are what the logging kernels write."""
    game = presages_env.get_game(name)
    n = game.default_players
    every_step, at_the_end, eager = envs = [
        presages_env.make(name, num_players=n, observation_mode=mode)
        for mode in ("observation", "observation", "information_state")
    ]
    for env in envs:
        env.reset(seed=7)
    state = game.blank_state(n, every_step.game_options)
    buffer = ev.new_buffer(game.kernel.MAX_STEP_EVENTS)
    game.kernel.reset_logged(state, np.int64(every_step.game_seed), buffer)
    expected = [ev.drain(buffer)]
    rewards = np.zeros(n, np.float32)
    rng = np.random.default_rng(7)
    decisions = 0
    while not state[HDR_TERMINAL] and decisions < 300:
        if decisions == position_at:
            for env in envs:
                env.set_state(state)
            expected = []
        mask = every_step.observe(every_step.agent_selection)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        for env in envs:
            env.step(action)
        game.kernel.step_logged(state, np.int64(action), rewards, buffer)
        expected.append(ev.drain(buffer))
        assert every_step.events() == game.decode_events(np.concatenate(expected), n)
        decisions += 1
    assert decisions > 1 and np.array_equal(every_step.get_state(), state)
    assert at_the_end.events() == eager.events() == every_step.events()
    for seat in range(n):
        assert at_the_end.events(seat) == eager.events(seat)
    assert np.array_equal(at_the_end.observe_public(), eager.observe_public())


@seating
def test_vector_event_stream_matches_the_kernel_and_leaves_the_games_unchanged(name, n):
    game = presages_env.get_game(name)
    logged = presages_env.make_vec(name, 8, num_players=n, seed=4, events=True)
    plain = presages_env.make_vec(name, 8, num_players=n, seed=4)
    buffer = ev.new_buffer(2 * game.kernel.MAX_STEP_EVENTS)
    rewards = np.zeros(n, dtype=np.float32)
    rng_a, rng_b = np.arange(8, dtype=np.int64), np.arange(8, dtype=np.int64)
    for _ in range(300):
        before = logged.states.copy()
        actions = logged.random_actions(rng_a)
        logged.step(actions)
        plain.step(plain.random_actions(rng_b))
        assert np.array_equal(logged.states, plain.states)
        for i in range(8):
            state = before[i].copy()
            game.kernel.step_logged(state, np.int64(actions[i]), rewards, buffer)
            expected = ev.drain(buffer)
            got = logged.step_events(i)
            assert np.array_equal(got[: len(expected)], expected)
            assert len(got) == len(expected) or logged.done[i]  # then the next deal follows
            seat = int(before[i][HDR_CURRENT])
            assert np.array_equal(logged.step_events(i, seat), ev.visible_to(got, seat))
    with pytest.raises(ValueError, match="events=True"):
        plain.step_events(0)


@pytest.mark.parametrize("name", EVENT_GAMES)
def test_the_new_entry_points_refuse_bad_input_and_change_nothing(name):
    game = presages_env.get_game(name)
    state = game.new_state(game.default_players, 3)
    before = state.copy()
    for seat, seed in ((99, 0), (-1, 0), (0, -5), ("0", 0)):
        with pytest.raises((TypeError, ValueError)):
            game.sample_world(state, seat, seed)
    with pytest.raises(TypeError):
        game.sample_world(state.astype(np.float64), 0, 0)
    corrupt = state.copy()
    corrupt[HDR_CURRENT] = 99
    with pytest.raises(ValueError):
        game.sample_world(corrupt, 0, 0)
    assert np.array_equal(state, before)
    env = presages_env.make(name)
    env.reset(seed=1)
    for seat in (99, -1, "x"):
        with pytest.raises((TypeError, ValueError)):
            env.events(seat)
    vec = presages_env.make_vec(name, 2, events=True)
    for game_index in (2, -1):
        with pytest.raises(ValueError):
            vec.step_events(game_index)
    with pytest.raises(TypeError):
        presages_env.make_vec(name, 2, events="yes")


@pytest.mark.parametrize("eager", [True, False])
def test_a_transition_changes_nothing_until_applied_and_then_is_the_step(eager):
    """``Episode.transition`` steps a copy (the lab stores a move before playing it): the
    episode and its state are unchanged until ``apply``, which then leaves what ``step``
    would have, events included; a transition made before another action is refused."""
    game = presages_env.get_game("president")
    options = game.make_options(4)
    stepped, proposed = game.blank_state(4, options), game.blank_state(4, options)
    by_step, by_transition = (ev.Episode(game.kernel, s, 4, eager) for s in (stepped, proposed))
    by_step.deal(stepped, 7)
    by_transition.deal(proposed, 7)
    mask, rewards = np.zeros(game.num_actions(4), dtype=np.int8), np.zeros(4, np.float32)
    for _ in range(6):
        game.kernel.legal_mask(stepped, mask)
        action = int(np.flatnonzero(mask)[-1])
        before, logged = proposed.copy(), by_transition.records.copy()
        transition = by_transition.transition(proposed, action)
        assert np.array_equal(proposed, before) and len(by_transition.actions) == len(
            by_step.actions
        )
        assert np.array_equal(by_transition.records, logged)
        by_step.step(stepped, action, rewards)
        by_transition.apply(proposed, transition)
        assert np.array_equal(proposed, stepped) and np.array_equal(transition.rewards, rewards)
        assert by_transition.actions == by_step.actions
        assert np.array_equal(by_transition.records, by_step.records)
    game.kernel.legal_mask(proposed, mask)
    stale = by_transition.transition(proposed, int(np.flatnonzero(mask)[0]))
    by_transition.step(proposed, int(np.flatnonzero(mask)[0]), rewards)
    with pytest.raises(ValueError, match="stale"):
        by_transition.apply(proposed, stale)
