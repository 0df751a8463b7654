"""Fuzzing of seeds and numbers at every public entry point: refused cleanly, or working.

Each case passes one value to one public constructor or method that takes a seed or a count
(:func:`entry_points`: ``make``, ``make_vec``, the env resets, Gymnasium's views, SB3's,
the agents, ``setup_position``, game options, tournaments): an int at or beyond the
parameter's bounds, a NumPy integer of any width, a bool, a float (NaN and infinities
included), a string, ``None``, a list. The outcome is

- ``refused``: ``TypeError``/``ValueError`` with a message, the object it was called on
  unchanged, and the value one the rule refuses;
- ``accepted``: the value is one the rule allows, and what was built plays a few steps.

Anything else is a failure: another exception, a value accepted that the rule refuses or
refused that it allows, a refusal that changed the object, memory grown by more than
``MAX_GROWTH_MB``.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np

import presages_env
from presages_env.agents import ISMCTSAgent, RandomAgent
from presages_env.agents.search import MAX_SIMULATIONS
from presages_env.core.aec import CardGameEnv
from presages_env.core.state_io import replay
from presages_env.core.validation import (
    MAX_NUM_ENVS,
    MAX_NUM_GAMES,
    MAX_STEP,
    SEED_MAX,
    vector_seed,
)
from presages_env.core.vector import VectorEnv
from presages_env.evaluation.distributed import chunked_round_robin
from presages_env.evaluation.game_stats import game_statistics
from presages_env.evaluation.tournament import head_to_head
from presages_env.fuzzing import FuzzReport, memory_growth, peak_memory_mb
from presages_env.training import LearnerVectorEnv, SingleAgentEnv

# SB3's view, where the ``train`` extra is installed, is fuzzed too (a test requiring the
# extra checks that it is: tests/core/test_seeds_and_numbers.py).
HAS_SB3 = importlib.util.find_spec("stable_baselines3") is not None
if HAS_SB3:
    from presages_env.training.vec_env import SelfPlayVecEnv

    LEARNER_VIEWS: tuple[type, ...] = (LearnerVectorEnv, SelfPlayVecEnv)
else:
    LEARNER_VIEWS = (LearnerVectorEnv,)

# Decisions an accepted value's env, agent or state plays.
PLAY_STEPS = 4
# Accepted values are drawn from [low, low + SMALL_SPAN] where the bound itself is costly.
SMALL_SPAN = 3
VECTOR_ENVS = 2  # games of the vector views whose resets are fuzzed


@dataclass(frozen=True)
class EntryPoint:
    """One public parameter that takes a seed or a number.

    ``call(target, value)`` passes ``value`` to it (``target`` is ``setup()``'s object, for
    a method, else ``None``) and returns what it built; the rule accepts the ints in
    ``[low, high]``, ``None`` if ``none_ok``, and lists of ``list_of`` such ints if set.
    ``fingerprint(target)`` must not change when a value is refused. ``cheap_high`` is
    False where accepting ``high`` itself would be slow (a batch of 65,536 games).
    """

    name: str
    call: Callable[[Any, Any], Any]
    low: int
    high: int
    none_ok: bool = False
    cheap_high: bool = True
    list_of: int | None = None
    setup: Callable[[], Any] | None = None
    fingerprint: Callable[[Any], Any] | None = None

    def accepts(self, value: Any) -> bool:
        """Whether the rule (``check_int``/``check_seed``) accepts ``value``."""
        if value is None:
            return self.none_ok
        if isinstance(value, list) and self.list_of is not None:
            return len(value) == self.list_of and all(self._accepts_int(v) for v in value)
        return self._accepts_int(value)

    def _accepts_int(self, value: Any) -> bool:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            return False
        return self.low <= int(value) <= self.high


# ---- the entry points --------------------------------------------------------------------------
def entry_points(game_name: str) -> list[EntryPoint]:
    """Every public entry point taking a seed or a number, for ``game_name``."""
    game = presages_env.get_game(game_name)
    env_id = f"presages_env/{game_name}-v0"
    return [
        EntryPoint(
            "make(num_players=...)",
            lambda _, v: presages_env.make(game_name, num_players=v),
            game.min_players,
            game.max_players,
            none_ok=True,
        ),
        EntryPoint(
            "make(max_steps=...)",
            lambda _, v: presages_env.make(game_name, max_steps=v),
            1,
            MAX_STEP,
            none_ok=True,
        ),
        EntryPoint(
            "env.reset(seed=...)",
            _reset,
            0,
            SEED_MAX,
            none_ok=True,
            setup=lambda: _reset(presages_env.make(game_name), 0),
            fingerprint=_aec_fingerprint,
        ),
        EntryPoint(
            "make_vec(num_envs=...)",
            lambda _, v: presages_env.make_vec(game_name, v),
            1,
            MAX_NUM_ENVS,
            cheap_high=False,
        ),
        EntryPoint(
            "make_vec(num_players=...)",
            lambda _, v: presages_env.make_vec(game_name, 2, num_players=v),
            game.min_players,
            game.max_players,
            none_ok=True,
        ),
        EntryPoint(
            "make_vec(seed=...)",
            lambda _, v: presages_env.make_vec(game_name, 2, seed=v),
            0,
            SEED_MAX,
        ),
        EntryPoint(
            "make_vec(max_steps=...)",
            lambda _, v: presages_env.make_vec(game_name, 2, max_steps=v),
            0,
            MAX_STEP,
        ),
        EntryPoint(
            "VectorEnv.reset(seed)",
            _reset,
            0,
            SEED_MAX,
            setup=lambda: presages_env.make_vec(game_name, 2),
            fingerprint=lambda vec: (vec.states.tobytes(), vec.obs.tobytes()),
        ),
        EntryPoint(
            "Game.new_state(n, seed)",
            lambda _, v: game.new_state(game.default_players, v),
            0,
            SEED_MAX,
        ),
        EntryPoint(
            "Game.reset(state, seed)",
            lambda state, v: _redeal(game, state, v),
            0,
            SEED_MAX,
            setup=lambda: game.new_state(game.default_players, 0),
            fingerprint=lambda state: state.tobytes(),
        ),
        EntryPoint(
            "Game.sample_world(state, seat, seed)",
            lambda state, v: game.sample_world(state, 0, v),
            0,
            SEED_MAX,
            setup=lambda: game.new_state(game.default_players, 0),
            fingerprint=lambda state: state.tobytes(),
        ),
        EntryPoint(
            "state_io.replay(game, n, seed, actions)",
            lambda _, v: replay(game, game.default_players, v, []),
            0,
            SEED_MAX,
        ),
        EntryPoint(
            "Gymnasium make(...).reset(seed=...)",
            _reset,
            0,
            SEED_MAX,
            none_ok=True,
            setup=lambda: _gymnasium_make(env_id),
            fingerprint=lambda env: (_generator_state(env), env.aec.get_state().tobytes()),
        ),
        EntryPoint(
            "Gymnasium make(max_steps=...)",
            lambda _, v: _gymnasium_make(env_id, max_steps=v),
            1,
            MAX_STEP,
            none_ok=True,
        ),
        EntryPoint(
            "LearnerVectorEnv.reset(seed=...)",
            _reset,
            0,
            SEED_MAX,
            none_ok=True,
            list_of=VECTOR_ENVS,
            setup=lambda: LearnerVectorEnv(game_name, VECTOR_ENVS),
            fingerprint=_learner_vector_fingerprint,
        ),
        EntryPoint(
            "LearnerVectorEnv(num_envs=...)",
            lambda _, v: LearnerVectorEnv(game_name, v),
            1,
            MAX_NUM_ENVS,
            cheap_high=False,
        ),
        EntryPoint(
            "LearnerVectorEnv(max_steps=...)",
            lambda _, v: LearnerVectorEnv(game_name, VECTOR_ENVS, max_steps=v),
            0,
            MAX_STEP,
        ),
        EntryPoint(
            "vector_seed (RLlib's batched reset)",
            lambda _, v: vector_seed(v, VECTOR_ENVS),
            0,
            SEED_MAX,
            none_ok=True,
            list_of=VECTOR_ENVS,
        ),
        EntryPoint("RandomAgent(seed)", lambda _, v: RandomAgent(v), 0, SEED_MAX),
        EntryPoint(
            "ISMCTSAgent(seed=...)",
            lambda _, v: ISMCTSAgent(game_name, simulations=2, seed=v),
            0,
            SEED_MAX,
        ),
        EntryPoint(
            "ISMCTSAgent(simulations=...)",
            lambda _, v: ISMCTSAgent(game_name, simulations=v),
            1,
            MAX_SIMULATIONS,
            cheap_high=False,
        ),
        EntryPoint(
            "head_to_head(num_games=...)",
            lambda _, v: _match(game_name, num_games=v),
            2,
            MAX_NUM_GAMES,
            cheap_high=False,
        ),
        EntryPoint("head_to_head(seed=...)", lambda _, v: _match(game_name, seed=v), 0, SEED_MAX),
        EntryPoint(
            "head_to_head(num_envs=...)",
            lambda _, v: _match(game_name, num_envs=v),
            1,
            MAX_NUM_ENVS,
            cheap_high=False,
        ),
        EntryPoint(
            "game_statistics(num_games=...)",
            lambda _, v: game_statistics(game_name, RandomAgent(1), v, num_envs=2),
            1,
            MAX_NUM_GAMES,
            cheap_high=False,
        ),
        EntryPoint(
            "chunked_round_robin(chunk_games=...)",
            lambda _, v: _chunked(game_name, chunk_games=v),
            1,
            MAX_NUM_GAMES,
            cheap_high=False,
        ),
        EntryPoint(
            "chunked_round_robin(seed=...)",
            lambda _, v: _chunked(game_name, seed=v),
            0,
            SEED_MAX,
        ),
        *_self_play_entries(game_name),
        *_position_entries(game_name),
        *_option_entries(game_name),
    ]


def skipped_views() -> list[str]:
    """The learner views left out of the fuzz here, each with why (the report says so)."""
    return [] if HAS_SB3 else ["SelfPlayVecEnv (stable_baselines3 missing: the train extra)"]


def _self_play_entries(game_name: str) -> list[EntryPoint]:
    """SB3's view, where SB3 is installed (the ``train`` extra)."""
    if not HAS_SB3:
        return []

    def make(seed: Any = 0) -> SelfPlayVecEnv:
        return SelfPlayVecEnv(game_name, VECTOR_ENVS, [RandomAgent(1)], seed=seed)

    def seeded(env: SelfPlayVecEnv, seed: Any) -> SelfPlayVecEnv:
        env.seed(seed)
        return env

    return [
        EntryPoint("SelfPlayVecEnv(seed=...)", lambda _, v: make(v), 0, SEED_MAX),
        EntryPoint(
            "SelfPlayVecEnv.seed(...)",
            seeded,
            0,
            SEED_MAX,
            none_ok=True,
            setup=make,
            fingerprint=lambda env: list(env._seeds),
        ),
    ]


def _position_entries(game_name: str) -> list[EntryPoint]:
    """The numbers of the game's position set-up (``Game.position_counts``)."""
    return [
        EntryPoint(count.name, lambda _, v, build=count.build: build(v), count.low, count.high)
        for count in presages_env.get_game(game_name).position_counts()
    ]


def _option_entries(game_name: str) -> list[EntryPoint]:
    """The game's int options (those its option space draws from a range of ints, at the
    default player count), through ``make``."""
    game = presages_env.get_game(game_name)
    entries = []
    for option, draw in game.option_space.items():
        bounds = draw.int_range(game.default_players)
        if bounds is not None:
            entries.append(
                EntryPoint(
                    f"make({option}=...)",
                    lambda _, v, option=option: presages_env.make(game_name, **{option: v}),
                    *bounds,
                    none_ok=draw.none_ok,
                )
            )
    return entries


def _redeal(game: Any, state: np.ndarray, seed: Any) -> np.ndarray:
    game.reset(state, seed)
    return state


def _reset(env: Any, seed: Any) -> Any:
    env.reset(seed=seed)
    return env


def _gymnasium_make(env_id: str, **kwargs: Any) -> Any:
    return gymnasium.make(env_id, disable_env_checker=True, **kwargs).unwrapped


def _match(game_name: str, num_games: Any = 2, seed: Any = 0, num_envs: Any = 2) -> Any:
    return head_to_head(
        game_name, RandomAgent(1), RandomAgent(2), num_games, seed=seed, num_envs=num_envs
    )


def _chunked(game_name: str, chunk_games: Any = 2, seed: Any = 0) -> Any:
    agents = {"a": RandomAgent(1), "b": RandomAgent(2)}
    return chunked_round_robin(game_name, agents, 2, seed=seed, chunk_games=chunk_games)


def _generator_state(env: Any) -> Any:
    return repr(env.np_random.bit_generator.state)


def _aec_fingerprint(env: CardGameEnv) -> Any:
    return env.get_state().tobytes(), env.agent_selection, repr(env._seed_rng.bit_generator.state)


def _learner_vector_fingerprint(env: LearnerVectorEnv) -> Any:
    batch = env.batch
    return _generator_state(env), repr(batch._rng.bit_generator.state), batch.vec.states.tobytes()


# ---- values ------------------------------------------------------------------------------------
INT_DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
HUGE = (2**31, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 10**30, -(2**63), -(2**63) - 1, -(10**30))
ODD = (
    True,
    False,
    np.True_,
    1.5,
    0.0,
    float("nan"),
    float("inf"),
    -float("inf"),
    np.float64(2),
    "3",
    "",
    "nan",
    b"3",
    [],
    [[1]],
    {},
    object(),
)


def random_value(entry: EntryPoint, rng: np.random.Generator) -> Any:
    """A good or bad value for ``entry``: an int at, inside or beyond its bounds, as a Python
    or NumPy integer, or a value of another type; a list where the entry takes lists."""
    kind = rng.integers(6 if entry.list_of else 5)
    if kind == 0:
        return _good_int(entry, rng)
    if kind == 1:
        return _as_numpy(_edge_int(entry, rng), rng)
    if kind == 2:
        return _edge_int(entry, rng)
    if kind == 3:
        return ODD[rng.integers(len(ODD))] if rng.random() < 0.9 else None
    if kind == 4:
        return float(_good_int(entry, rng))
    size = entry.list_of + int(rng.integers(-1, 2))
    return [
        random_value(entry, rng) if rng.random() < 0.2 else _good_int(entry, rng)
        for _ in range(max(size, 0))
    ]


def _good_int(entry: EntryPoint, rng: np.random.Generator) -> int:
    high = entry.high if entry.cheap_high else min(entry.high, entry.low + SMALL_SPAN)
    if entry.cheap_high and rng.random() < 0.3:
        return entry.high
    return int(rng.integers(entry.low, high + 1))


def _edge_int(entry: EntryPoint, rng: np.random.Generator) -> int:
    edges = [entry.low - 1, entry.high + 1, -1, *HUGE]
    if entry.cheap_high:
        edges += [entry.low, entry.high]
    return edges[rng.integers(len(edges))]


def _as_numpy(value: int, rng: np.random.Generator) -> Any:
    dtype = INT_DTYPES[rng.integers(len(INT_DTYPES))]
    info = np.iinfo(dtype)
    return dtype(value) if info.min <= value <= info.max else value


# ---- running cases -----------------------------------------------------------------------------
def fuzz_numbers(game_name: str, cases: int, seed: int = 0) -> FuzzReport:
    """``cases`` random values through the entry points of ``game_name`` (deterministic in
    ``seed``); see the module's docstring for what passes."""
    rng = np.random.default_rng(seed)
    entries = entry_points(game_name)
    for entry in entries:  # compiles what they need first: compiling is no case's growth
        run_case(entry, entry.low, game_name)
    report = FuzzReport(game_name, skipped=skipped_views())
    for case in range(cases):
        entry = entries[rng.integers(len(entries))]
        value = random_value(entry, rng)
        outcome, problem = run_case(entry, value, game_name)
        report.cases += 1
        report.outcomes[outcome] += 1
        if problem:
            report.failures.append(f"case {case}: {entry.name} with {_describe(value)}: {problem}")
    return report


def run_case(entry: EntryPoint, value: Any, game_name: str) -> tuple[str, str | None]:
    """``(outcome, problem)``: ``"refused"``, ``"accepted"`` or ``"failed"``, and what went
    wrong, if anything."""
    target = entry.setup() if entry.setup else None
    before = entry.fingerprint(target) if entry.fingerprint else None
    peak = peak_memory_mb()
    try:
        built = entry.call(target, value)
    except (TypeError, ValueError) as error:
        if not str(error):
            return "failed", f"refused without a message ({type(error).__name__})"
        if entry.fingerprint and entry.fingerprint(target) != before:
            return "failed", f"refused ({error}) but changed the object"
        if entry.accepts(value):
            return "failed", f"refused a value the rule allows: {error}"
        return "refused", memory_growth(peak)
    except Exception as error:  # every other exception is what the fuzz looks for
        return "failed", f"{type(error).__name__}: {error}"
    if not entry.accepts(value):
        return "failed", "accepted a value the rule refuses"
    try:
        play(built, game_name)
    except Exception as error:  # an accepted value must leave something that works
        return "failed", f"accepted, then playing raised {type(error).__name__}: {error}"
    return "accepted", memory_growth(peak)


def play(built: Any, game_name: str) -> None:
    """A few decisions of whatever an accepted value built (an env, an agent, a state)."""
    if isinstance(built, CardGameEnv):
        _play_aec(built)
    elif isinstance(built, VectorEnv):
        rng_states = np.arange(built.num_envs, dtype=np.int64)
        for _ in range(PLAY_STEPS):
            built.step(built.random_actions(rng_states))
    elif isinstance(built, SingleAgentEnv):
        _play_single(built)
    elif isinstance(built, LEARNER_VIEWS):
        _play_learner_batch(built)
    elif isinstance(built, np.ndarray):
        _play_state(presages_env.get_game(game_name), built)
    elif isinstance(built, ISMCTSAgent):
        built.act_states(built.game.new_state(built.game.default_players, 0)[None])
    elif isinstance(built, RandomAgent):
        vec = presages_env.make_vec(game_name, VECTOR_ENVS)
        built.act_batch(vec.obs, vec.masks)


def _play_aec(env: CardGameEnv) -> None:
    if not hasattr(env, "agent_selection"):
        env.reset(seed=0)
    for _ in range(PLAY_STEPS):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
        env.step(int(np.argmax(env.observe(env.agent_selection)["action_mask"])))


def _play_single(env: SingleAgentEnv) -> None:
    env.reset(seed=0)
    for _ in range(PLAY_STEPS):
        _, _, terminated, truncated, _ = env.step(int(np.argmax(env.action_masks())))
        if terminated or truncated:
            env.reset()


def _play_learner_batch(env: Any) -> None:
    """Gymnasium's or SB3's batched view: every game's first legal learner action."""
    env.reset()
    for _ in range(PLAY_STEPS):
        env.step(np.argmax(env.action_masks(), axis=1))


def _play_state(game: Any, state: np.ndarray) -> None:
    """The first legal action, a few times, through the checked kernels."""
    n = game.num_players_of(state)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    for _ in range(PLAY_STEPS):
        if game.is_over(state):
            return
        game.legal_mask(state, mask)
        game.step(state, int(np.argmax(mask)), rewards)


def _describe(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return f"float {value}"
    return f"{type(value).__name__} {value!r}"[:200]
