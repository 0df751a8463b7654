"""The contract every game passes, as a library check: ``check_game(game)``.

Built as Gymnasium's ``check_env``: each check is a small function named for what it checks,
run at each seating that matters (the fewest, the usual and the most players), failing with a
:class:`ConformanceError` that names the check, the game, the player count and what was
wrong. What they cover, per game:

- the API: PettingZoo's ``api_test`` (with and without a step cap) and ``seed_test``, infos
  after a truncation, a clear error before ``reset``, every part shipped;
- valid reachable states: random games pass through valid states only and end, every legal
  action leads to a valid state, returns stay within :meth:`Game.reward_bounds` and games
  within :meth:`Game.max_game_length`;
- AEC = vector = replay, step by step, at two batch sizes; a saved game loads and plays on;
- bad input changes nothing: the AEC env, the vector env, every entry point given a
  corrupted state, the checked kernels given bad seats and arrays;
- no leak: a seat observes the same in every world it cannot tell apart, the global state
  is every observation and the slots (RNG and seed aside);
- the pending-decision table covers fresh play (:mod:`presages_env.core.decision_tables`);
- the bounds-checked fuzz of corrupted states and of the heuristic.

The core imports nothing above it, so what a check needs from above is handed in as
:class:`Tools`: a check asked for without the tools it needs is refused before anything runs
(:class:`MissingTools`, naming the checks and the tools), never skipped. A check whose part
the game declares it has none of (no world sampler, no heuristic) is skipped and says so.
:func:`presages_env.fuzzing.conformance.check_game` hands every tool in: that is the call
for a whole game::

    from presages_env.fuzzing.conformance import check_game
    skipped = check_game(presages_env.get_game("my_game"))
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np
from pettingzoo.test import api_test, seed_test

from presages_env.core.aec import CardGameEnv
from presages_env.core.decision_tables import fresh_seed, new_signatures
from presages_env.core.game import STATE_DTYPES, Game
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
from presages_env.core.option_space import random_options
from presages_env.core.rng import derive_seed
from presages_env.core.state_io import apply_actions, deserialize, replay, serialize
from presages_env.core.validation import checked_state
from presages_env.core.vector import VectorEnv

# Longer than any game's longest match played at random: a game still going is stuck.
MAX_RANDOM_STEPS = 20_000
API_CYCLES = 200  # PettingZoo's api_test and seed_test cycles
STEP_CAPS = (3, 40)  # api_test again under each cap
DECISION_TABLE_GAMES = 20  # random games per player count exploring the decision table
# Summed float32 rewards of a zero-sum game cancel to within this (OpenSpiel checks 1e-9).
ZERO_SUM_TOLERANCE = 1e-9


class ConformanceError(AssertionError):
    """A game failed a conformance check: ``check`` names it, the message says what failed."""

    def __init__(self, check: str, game: Game, num_players: int, message: str) -> None:
        super().__init__(f"{game.name} at {num_players} players, check {check}: {message}")
        self.check = check


@dataclasses.dataclass(frozen=True)
class Tools:
    """What the checks need from above the core, given by the caller.

    ``refused_state(game, n)``: a corrupted mid-game ``n``-player state that the game's
    validation refuses while its header still claims ``n`` players (the states fuzz makes
    them). ``search(game, states)``: search agents' moves for ``states`` (a ``[B, S]``
    array), which must refuse an invalid one. ``fuzz(game, kind)``: the bounds-checked fuzz
    of ``kind`` (``"states"`` or ``"heuristics"``) on the game, returning what failed or
    ``None``.
    """

    refused_state: Callable[[Game, int], np.ndarray] | None = None
    search: Callable[[Game, np.ndarray], Any] | None = None
    fuzz: Callable[[Game, str], str | None] | None = None


@dataclasses.dataclass(frozen=True)
class Check:
    """One named check: ``function(game, n, tools)`` raises ``AssertionError`` when the game
    fails it, or :class:`Skipped`; ``per_seating`` runs it at every seating, else once at
    the game's usual player count."""

    name: str
    function: Callable[[Game, int, Tools], None]
    per_seating: bool
    needs: tuple[str, ...] = ()  # the Tools fields it uses


class MissingTools(ValueError):
    """Checks were asked for without the :class:`Tools` they need: nothing ran."""


class Skipped(Exception):  # noqa: N818 (a check's outcome, not an error)
    """A check that cannot run on this game or without a tool, with the reason."""


CHECKS: dict[str, Check] = {}


def check(per_seating: bool = True, needs: tuple[str, ...] = ()) -> Callable:
    """Register ``check_<name>`` as the check ``<name>``, using the tools named in ``needs``."""
    unknown = set(needs) - {field.name for field in dataclasses.fields(Tools)}
    if unknown:
        raise ValueError(f"no such tools: {sorted(unknown)}")

    def register(function: Callable[[Game, int, Tools], None]) -> Callable:
        name = function.__name__.removeprefix("check_")
        CHECKS[name] = Check(name, function, per_seating, needs)
        return function

    return register


def seatings(game: Game) -> list[int]:
    """The player counts every per-seating check runs at: fewest, usual and most."""
    return sorted({game.min_players, game.default_players, game.max_players})


def cases(game: Game) -> Iterator[tuple[str, int]]:
    """Every ``(check, num_players)`` that :func:`check_game` runs for ``game``."""
    for name, each in CHECKS.items():
        for n in seatings(game) if each.per_seating else [game.default_players]:
            yield name, n


def refuse_missing_tools(names: Iterable[str], tools: Tools) -> None:
    """Raise :class:`MissingTools` if any check of ``names`` needs a tool ``tools`` lacks."""
    missing = {
        name: [need for need in CHECKS[name].needs if getattr(tools, need) is None]
        for name in names
    }
    missing = {name: needs for name, needs in missing.items() if needs}
    if missing:
        listed = "; ".join(f"{name} (Tools.{', Tools.'.join(n)})" for name, n in missing.items())
        raise MissingTools(
            f"{len(missing)} check(s) cannot run without tools from above the core: {listed}. "
            "presages_env.fuzzing.conformance.check_game(game) hands every tool in; or name "
            "the checks to run with checks=[...]"
        )


def run_check(game: Game, name: str, num_players: int, tools: Tools = Tools()) -> str | None:
    """Run check ``name`` at ``num_players``: ``None`` when it passed, the reason when the
    game declares it does not apply; :class:`ConformanceError` when the game fails it,
    :class:`MissingTools` (before running anything) when ``tools`` lacks what it needs."""
    refuse_missing_tools([name], tools)
    try:
        CHECKS[name].function(game, num_players, tools)
    except Skipped as reason:
        return str(reason)
    except AssertionError as failure:
        raise ConformanceError(name, game, num_players, str(failure)) from failure
    return None


def check_game(
    game: Game, tools: Tools = Tools(), checks: Iterable[str] | None = None
) -> dict[tuple[str, int], str]:
    """Run every check (or those named in ``checks``) on ``game`` at each seating; raises
    :class:`ConformanceError` at the first failure and returns those the game declares do
    not apply to it, with why. Every check run needs its tools: :class:`MissingTools`,
    before anything runs, names the checks that lack some (the default ``Tools()`` has none;
    :func:`presages_env.fuzzing.conformance.check_game` hands them all in)."""
    wanted = set(CHECKS if checks is None else checks)
    unknown = sorted(wanted - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown check(s) {unknown}; checks: {sorted(CHECKS)}")
    refuse_missing_tools([name for name in CHECKS if name in wanted], tools)
    skipped = {}
    for name, n in cases(game):
        if name in wanted:
            reason = run_check(game, name, n, tools)
            if reason is not None:
                skipped[name, n] = reason
    return skipped


# ---- helpers ---------------------------------------------------------------------------------
def expect(condition: Any, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def expect_refused(
    errors: type | tuple[type, ...], what: str, call: Callable, *args: Any, **kwargs: Any
) -> None:
    """``call(*args, **kwargs)`` raises one of ``errors``."""
    try:
        call(*args, **kwargs)
    except errors:
        return
    raise AssertionError(f"{what} was not refused with {errors}")


def random_trajectory(game: Game, n: int, seed: int, **options: Any) -> list[np.ndarray]:
    """Every state of one random game (kernels only), checked to end within
    ``MAX_RANDOM_STEPS``."""
    rng = np.random.default_rng(seed)
    state = game.new_state(n, seed, **options)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    states = [state.copy()]
    while not state[HDR_TERMINAL]:
        expect(len(states) < MAX_RANDOM_STEPS, "a random game did not end")
        game.kernel.legal_mask(state, mask)
        game.kernel.step(state, np.int64(rng.choice(np.flatnonzero(mask))), rewards)
        states.append(state.copy())
    return states


def global_of(game: Game, state: np.ndarray) -> np.ndarray:
    out = np.full(game.global_size(game.num_players_of(state)), 99, dtype=game.global_dtype)
    game.kernel.global_state(state, out)
    return out


def kept_slots(game: Game, state: np.ndarray) -> np.ndarray:
    """The state slots a global state copies: all but the header's RNG and seed and the
    game's scratch beyond GLOBAL_SLOTS_END."""
    end = game.kernel.GLOBAL_SLOTS_END
    return np.concatenate([state[:GLOBAL_HEADER_SLOTS], state[HEADER_SIZE:end]])


def world_sampler(game: Game) -> Callable:
    if game.world_sampler is None:
        raise Skipped(f"{game.name} declares no world_sampler")
    return game.world_sampler


# ---- the API -------------------------------------------------------------------------------
@check(per_seating=False)
def check_ships_every_part(game: Game, n: int, tools: Tools) -> None:
    """The kernels, the validator, a signed state dtype, the declared heuristic, and event
    kinds named as the event log names them (a world-diverging kind compared by another
    name would never stop the no-leak comparison of tests/core/test_events.py)."""
    for name in ("reset", "legal_mask", "step", "observe", "global_state"):
        expect(callable(getattr(game.kernel, name, None)), f"its kernel has no {name}")
    kinds = {kind for kind, _ in game.kernel.EVENT_KINDS.values()}
    unknown = [kind for kind in game.kernel.WORLD_DIVERGING_EVENTS if kind not in kinds]
    expect(not unknown, f"WORLD_DIVERGING_EVENTS {unknown} are not names of its EVENT_KINDS")
    expect(callable(game.validate_state), "it has no validate_state")
    expect(np.issubdtype(game.state_dtype, np.signedinteger), "its state dtype is unsigned")
    if game.heuristic is not None:
        expect(callable(game.heuristic.heuristic_actions), "its heuristic has no kernel")


@check()
def check_pettingzoo_api(game: Game, n: int, tools: Tools) -> None:
    api_test(CardGameEnv(game, n), num_cycles=API_CYCLES)


@check()
def check_pettingzoo_api_with_a_step_cap(game: Game, n: int, tools: Tools) -> None:
    for cap in STEP_CAPS:
        api_test(CardGameEnv(game, n, max_steps=cap), num_cycles=API_CYCLES)


@check()
def check_pettingzoo_seed(game: Game, n: int, tools: Tools) -> None:
    seed_test(functools.partial(CardGameEnv, game, n), API_CYCLES)


@check(per_seating=False)
def check_infos_after_a_truncation(game: Game, n: int, tools: Tools) -> None:
    """Every episode after a truncated one has infos for every agent."""
    env = CardGameEnv(game, n, max_steps=3)
    env.reset(seed=1)
    for episode in range(3):
        for agent in env.agent_iter():
            _obs, _reward, terminated, truncated, info = env.last()
            expect(isinstance(info, dict), f"infos of {agent} are a {type(info).__name__}")
            env.step(
                None
                if terminated or truncated
                else int(env.action_space(agent).sample(env.observe(agent)["action_mask"]))
            )
        expect(not env.agents, "agents are left after the episode")
        env.reset(seed=episode)
        expect(set(env.infos) == set(env.possible_agents), "infos miss an agent after reset")


@check(per_seating=False)
def check_use_before_reset_is_a_clear_error(game: Game, n: int, tools: Tools) -> None:
    env = CardGameEnv(game, n)
    calls = {
        "last": env.last,
        "step": lambda: env.step(0),
        "observe": lambda: env.observe("player_0"),
        "state": env.state,
    }
    for what, call in calls.items():
        try:
            call()
        except ValueError as error:
            expect("reset" in str(error), f"{what} before reset: {error} does not say reset")
        else:
            raise AssertionError(f"{what} before reset was not refused")


# ---- valid reachable states ------------------------------------------------------------------
@check()
def check_random_games_only_reach_valid_states(game: Game, n: int, tools: Tools) -> None:
    """The validator accepts every reachable state and play always ends."""
    for seed in range(3):
        for state in random_trajectory(game, n, seed):
            checked_state(game, state)
            expect(
                (state[HDR_CURRENT] == -1) == bool(state[HDR_TERMINAL]),
                "a seat is to act in a finished game, or none in a game going on",
            )


@check()
def check_every_legal_action_leads_to_a_valid_state(game: Game, n: int, tools: Tools) -> None:
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    trajectory = random_trajectory(game, n, seed=11)
    for state in trajectory[:: max(1, len(trajectory) // 25)]:
        if state[HDR_TERMINAL]:
            continue
        game.kernel.legal_mask(state, mask)
        expect(mask.any(), "no legal action in a game going on")
        for action in np.flatnonzero(mask):
            after = state.copy()
            game.step(after, int(action), rewards)  # the checked step: validates before
            checked_state(game, after)
            expect(np.isfinite(rewards).all(), f"action {action} gave rewards {rewards}")


@check()
def check_returns_and_lengths_within_the_declared_bounds(game: Game, n: int, tools: Tools) -> None:
    """Random games, with the default options then options drawn from the option space,
    return within ``reward_bounds`` (summing to zero where declared zero-sum) and end
    within ``max_game_length``."""
    rng = np.random.default_rng(n)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    for index in range(5):
        options = random_options(game, n, rng) if index else {}
        made = game.make_options(n, **options)
        low, high, zero_sum = game.reward_bounds(n, made)
        longest = game.max_game_length(n, made)
        state = game.new_state(n, index, **options)
        totals, steps = np.zeros(n), 0
        while not state[HDR_TERMINAL]:
            expect(steps < longest, f"a game with {options} outlasted max_game_length {longest}")
            game.kernel.legal_mask(state, mask)
            game.kernel.step(state, np.int64(rng.choice(np.flatnonzero(mask))), rewards)
            totals += rewards
            steps += 1
        expect(
            ((low <= totals) & (totals <= high)).all(),
            f"returns {totals} with {options} outside reward_bounds [{low}, {high}]",
        )
        expect(
            not zero_sum or abs(totals.sum()) <= ZERO_SUM_TOLERANCE,
            f"returns {totals} with {options} do not sum to zero, yet it is declared zero-sum",
        )


# ---- one game, every path --------------------------------------------------------------------
@check()
def check_aec_vector_and_replay_agree_step_by_step(game: Game, n: int, tools: Tools) -> None:
    seed, index = 5, 3
    vecs = [VectorEnv(game, b, n, seed=seed) for b in (4, 300)]
    dealt = game.new_state(n, derive_seed(seed, index))
    env = CardGameEnv(game, n)
    env.reset(options={"state": dealt})
    rng_states = [np.arange(v.num_envs, dtype=np.int64) for v in vecs]
    actions_played = []
    for _ in range(MAX_RANDOM_STEPS):
        for vec in vecs:
            np.testing.assert_array_equal(vec.states[index], env.get_state())
        seen = env.observe(env.agent_selection)
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
            expect(all(env.terminations.values()), "the vector env ended a game the AEC did not")
            final = replay(game, n, derive_seed(seed, index), actions_played)
            np.testing.assert_array_equal(final, env.get_state())
            return
    raise AssertionError("the game did not end")


@check()
def check_a_saved_game_loads_and_plays_on_identically(game: Game, n: int, tools: Tools) -> None:
    trajectory = random_trajectory(game, n, seed=4)
    middle = trajectory[len(trajectory) // 2]
    loaded = deserialize(serialize(middle, game), game)
    np.testing.assert_array_equal(loaded, middle)
    expect(loaded.dtype == game.state_dtype, f"a loaded state is {loaded.dtype}")
    final = deserialize(serialize(trajectory[-1], game), game)
    expect(
        step_of(final) == step_of(trajectory[-1]) == len(trajectory) - 1,
        "a loaded final state does not count the game's steps",
    )


# ---- bad input changes nothing ---------------------------------------------------------------
@check(needs=("refused_state",))
def check_bad_input_to_the_aec_env_changes_nothing(game: Game, n: int, tools: Tools) -> None:
    refused_state = tools.refused_state
    env = CardGameEnv(game, n)
    env.reset(seed=3)
    before = env.get_state()
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    bad_actions = [-1, len(mask), 10**9, 1.0, "0", None, True]
    bad_actions += [int(illegal[0])] if illegal.size else []
    for action in bad_actions:
        expect_refused((TypeError, ValueError), f"action {action!r}", env.step, action)
    bad_states = [
        ("a corrupted state", refused_state(game, n), ValueError),
        ("a state one slot short", before[:-1], ValueError),
        ("a list", before.tolist(), TypeError),
        ("zeros", np.zeros_like(before), ValueError),
    ]
    # the same slots in any other dtype: refused, never cast
    other_dtypes = [d for d in (*STATE_DTYPES, np.float64) if d != game.state_dtype]
    bad_states += [(f"{np.dtype(d).name} slots", before.astype(d), TypeError) for d in other_dtypes]
    for what, state, error in bad_states:
        expect_refused(error, f"set_state({what})", env.set_state, state)
        expect_refused(error, f"reset({what})", env.reset, options={"state": state})
    np.testing.assert_array_equal(env.get_state(), before)
    env.last()  # still usable


@check()
def check_bad_input_to_the_vector_env_changes_nothing(game: Game, n: int, tools: Tools) -> None:
    vec = VectorEnv(game, 8, n, seed=1)
    snapshot = [a.copy() for a in (vec.states, vec.obs, vec.masks, vec.current)]
    rng_states = np.arange(8, dtype=np.int64)
    good = vec.random_actions(rng_states)
    wrapped = good.astype(np.uint64)
    wrapped[0] = np.uint64(2**64 - 1)  # would wrap to -1, skipping the game
    bad_actions = [good[:-1], good.astype(np.float64), np.full(8, np.nan), wrapped, good + 10**6]
    for actions in bad_actions:
        expect_refused((TypeError, ValueError), f"actions {actions}", vec.step, actions)
    for rng in (np.arange(7, dtype=np.int64), np.arange(9, dtype=np.int64), rng_states * 1.0):
        expect_refused((TypeError, ValueError), f"rng {rng}", vec.random_actions, rng)
    for array, before in zip((vec.states, vec.obs, vec.masks, vec.current), snapshot, strict=True):
        np.testing.assert_array_equal(array, before)
    for seed in (None, "1", 1.5, -1, 2**64, True):
        refused = (TypeError, ValueError)
        expect_refused(refused, f"seed {seed!r}", VectorEnv, game, 2, n, seed=seed)
        expect_refused(refused, f"reset({seed!r})", vec.reset, seed)
    vec.reset(np.int64(3))  # NumPy integers are seeds too


@check(needs=("refused_state", "search"))
def check_every_entry_point_refuses_a_corrupted_state(game: Game, n: int, tools: Tools) -> None:
    """And changes nothing: the checked kernels, replaying, saving and searching."""
    bad = tools.refused_state(game, n)
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
        "search": lambda: tools.search(game, bad[None, :]),
    }
    for what, call in calls.items():
        expect_refused(ValueError, what, call)
        np.testing.assert_array_equal(bad, kept, err_msg=what)


@check()
def check_the_checked_kernels_refuse_bad_seats_and_arrays(game: Game, n: int, tools: Tools) -> None:
    state = game.new_state(n, 2)
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    refused = (TypeError, ValueError)
    for seat in (-1, n, 7, 1.0):
        expect_refused(refused, f"seat {seat!r}", game.observe, state, seat, obs)
    expect_refused(refused, "a short obs", game.observe, state, 0, obs[:-1])
    wide = np.zeros(game.num_actions(n), dtype=np.int64)
    expect_refused(refused, "an int64 mask", game.legal_mask, state, wide)
    before = state.copy()
    floats = np.zeros(n, dtype=np.float64)
    expect_refused(refused, "float64 rewards", game.step, state, 0, floats)
    np.testing.assert_array_equal(state, before)


# ---- no leak ---------------------------------------------------------------------------------
@check()
def check_a_seat_sees_the_same_in_every_world_it_cannot_tell_apart(
    game: Game, n: int, tools: Tools
) -> None:
    """The world sampler re-deals what a seat cannot see; the seat's observation must not
    change, while the hidden part does (else the check would prove nothing)."""
    sample_world = world_sampler(game)
    obs_real = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    obs_world = np.zeros_like(obs_real)
    world = np.zeros(game.state_size(n), dtype=game.state_dtype)
    hidden_changed = 0
    for seed in range(2):
        for state in random_trajectory(game, n, seed)[::3]:
            if state[HDR_TERMINAL]:
                continue
            for seat in range(n):
                sample_world(state, np.int64(seat), np.int64(seed * 1000 + seat), world)
                game.kernel.observe(state, np.int64(seat), obs_real)
                game.kernel.observe(world, np.int64(seat), obs_world)
                np.testing.assert_array_equal(obs_real, obs_world)
                checked_state(game, world)
                hidden_changed += not np.array_equal(world, state)
    expect(hidden_changed > 0, "no world differed from the real state: the check proves nothing")


@check()
def check_global_state_is_every_observation_and_the_slots(game: Game, n: int, tools: Tools) -> None:
    """Fixed length for every player count, the declared dtype, inside ``state_space`` over
    random play; seat p's block is observe(p) (empty seats' blocks are 0), then the state's
    slots but RNG and seed: observe(p) is a projection of the global state."""
    k = game.kernel
    size = game.global_size(n)
    expect(size == k.GLOBAL_SIZE == game.global_size(game.min_players), "global size varies")
    expect(
        size == k.GLOBAL_SLOTS + GLOBAL_HEADER_SLOTS + k.GLOBAL_SLOTS_END - HEADER_SIZE,
        "GLOBAL_SIZE is not the observations, the header and the slots",
    )
    expect(
        game.max_players == k.GLOBAL_SEATS and k.GLOBAL_SLOTS == k.GLOBAL_SEATS * k.OBS_SIZE,
        "GLOBAL_SEATS/GLOBAL_SLOTS do not hold one observation per seat",
    )
    space = CardGameEnv(game, n).state_space
    low, high = game.global_bounds(n)
    np.testing.assert_array_equal(space.low, low)
    np.testing.assert_array_equal(space.high, high)
    expect(space.dtype == game.global_dtype and space.shape == (size,), "state_space differs")
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    for seed in range(2):
        for state in random_trajectory(game, n, seed):
            g = global_of(game, state)
            outside = np.flatnonzero((g < low) | (g > high))
            expect(outside.size == 0, f"entries {outside[:5]} = {g[outside[:5]]} out of bounds")
            expect(space.contains(g), "a global state outside state_space")
            for p in range(game.max_players):
                block = g[game.global_obs_slice(p)]
                if p < n:
                    game.kernel.observe(state, np.int64(p), obs)
                    np.testing.assert_array_equal(block, obs)
                else:
                    expect(not block.any(), f"empty seat {p}'s block is not 0")
            np.testing.assert_array_equal(g[k.GLOBAL_SLOTS :], kept_slots(game, state))


@check()
def check_global_state_ignores_the_rng_and_the_seed(game: Game, n: int, tools: Tools) -> None:
    rng = np.random.default_rng(5)
    for state in random_trajectory(game, n, seed=4)[::5]:
        other = state.copy()
        other[HDR_RNG : HDR_RNG + RNG_SLOTS + SEED_SLOTS] = rng.integers(
            -128, 128, RNG_SLOTS + SEED_SLOTS
        )
        expect(not np.array_equal(other, state), "the RNG change changed nothing")
        np.testing.assert_array_equal(global_of(game, other), global_of(game, state))


@check()
def check_global_state_changes_with_the_hidden_cards(game: Game, n: int, tools: Tools) -> None:
    """A world re-dealt for a seat (same observation for that seat, other hidden cards) has
    another global state, in which the seat's block is unchanged."""
    sample_world = world_sampler(game)
    world = np.zeros(game.state_size(n), dtype=game.state_dtype)
    differing = 0
    for state in random_trajectory(game, n, seed=2)[::4]:
        if state[HDR_TERMINAL]:
            continue
        g = global_of(game, state)
        for seat in range(n):
            sample_world(state, np.int64(seat), np.int64(77 + seat), world)
            w = global_of(game, world)
            block = game.global_obs_slice(seat)
            np.testing.assert_array_equal(w[block], g[block])
            if not np.array_equal(kept_slots(game, world), kept_slots(game, state)):
                differing += 1
                expect(not np.array_equal(w, g), "hidden cards changed, the global state not")
    expect(differing > 0, "no world differed in its slots: the check proves nothing")


@check(needs=("refused_state",))
def check_aec_and_vector_global_states_agree_with_the_kernel(
    game: Game, n: int, tools: Tools
) -> None:
    env = CardGameEnv(game, n)
    env.reset(seed=3)
    first = env.state()
    np.testing.assert_array_equal(first, global_of(game, env.get_state()))
    first[:] = 0  # a copy: the env's own is untouched
    np.testing.assert_array_equal(env.state(), global_of(game, env.get_state()))
    for played in range(10):  # a short game ends on the way: the next is dealt
        if env.get_state()[HDR_TERMINAL]:
            env.reset(seed=4 + played)
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        expect(env.state_space.contains(env.state()), "env.state() outside state_space")
        np.testing.assert_array_equal(env.state(), global_of(game, env.get_state()))
    vec = VectorEnv(game, 5, n, seed=1)
    rng_states = np.arange(5, dtype=np.int64)
    for _ in range(20):
        vec.step(vec.random_actions(rng_states))
    states = vec.states.copy()
    out = vec.global_states()
    expect(
        out.shape == (5, game.global_size(n)) and out.dtype == game.global_dtype,
        f"vector global states are {out.dtype}{list(out.shape)}",
    )
    for i in range(5):
        np.testing.assert_array_equal(out[i], global_of(game, states[i]))
    np.testing.assert_array_equal(vec.global_states(np.zeros_like(out)), out)
    np.testing.assert_array_equal(vec.states, states)  # reading it moves no game
    short = np.zeros((4, out.shape[1]), dtype=out.dtype)
    expect_refused(ValueError, "a short output", vec.global_states, short)
    floats = np.zeros(out.shape, dtype=np.float32)
    expect_refused(TypeError, "a float32 output", vec.global_states, floats)
    checked = np.zeros(game.global_size(n), dtype=game.global_dtype)
    game.global_state(states[0], checked)  # the checked kernel
    np.testing.assert_array_equal(checked, out[0])
    bad = tools.refused_state(game, n)
    expect_refused(ValueError, "a corrupted state", game.global_state, bad, checked)


# ---- decision tables and the bounds-checked fuzz ---------------------------------------------
@check(per_seating=False)
def check_fresh_play_meets_no_pending_decision_outside_the_table(
    game: Game, n: int, tools: Tools
) -> None:
    """``decision_tables --check`` at a small budget: games of a seed drawn for this run, each
    with random options, every legal action of every visited state tried, at every count."""
    seed = fresh_seed()
    new = new_signatures(game, DECISION_TABLE_GAMES, seed)
    expect(
        new == set(),
        f"seed {seed}: {len(new)} reachable signatures missing from the table, e.g. "
        f"{sorted(new)[:3]}; replay: python -m presages_env.games.decision_tables --check "
        f"--names {game.name} --games {DECISION_TABLE_GAMES} --seed {seed}",
    )


@check(per_seating=False, needs=("fuzz",))
def check_corrupted_states_are_refused_or_play_out_under_bounds_checks(
    game: Game, n: int, tools: Tools
) -> None:
    failure = tools.fuzz(game, "states")
    expect(failure is None, failure)


@check(per_seating=False, needs=("fuzz",))
def check_the_heuristic_reads_any_observation_within_bounds(
    game: Game, n: int, tools: Tools
) -> None:
    """Observations come from users too: anywhere in the declared space, the heuristic
    kernel must act legally or refuse, never index out of bounds."""
    if game.heuristic is None:
        raise Skipped(f"{game.name} declares no heuristic")
    failure = tools.fuzz(game, "heuristics")
    expect(failure is None, failure)
