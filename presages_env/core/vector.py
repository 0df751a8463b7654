"""A batch of B games stepped together in numba, with automatic reset.

Arrays, not dicts: ``obs[B, D]`` (observation of the seat to act in each game),
``masks[B, A]`` (its legal actions), ``rewards[B, P]`` (this step's reward of every seat),
``current[B]`` (seat to act), ``done[B]`` (the game ended or was truncated on this step and
has been replaced by a new deal, whose first observation is already in ``obs``).
With ``events=True`` each game's events of the last call are kept too (``step_events``).
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

import numba
import numpy as np

from presages_env.core import events as ev
from presages_env.core.actions import legal_actions
from presages_env.core.batched import random_actions, random_actions_serial, specialise
from presages_env.core.game import Game
from presages_env.core.rng import derive_seed
from presages_env.core.validation import (
    MAX_NUM_ENVS,
    MAX_STEP,
    check_actions,
    check_array,
    check_int,
    check_seed,
)

_kernel_cache: dict[str, Any] = {}

# Below this many games a batch is always stepped on one thread, on the plain loop: waking
# threads, or even running the threaded loop on one thread, costs more than it saves.
PARALLEL_MIN_ENVS = 256


def _thread_count_access():
    """(get, set) of numba's thread count for the calling thread.

    The ctypes entry points numba's ``get_num_threads``/``set_num_threads`` end in (about
    0.5 us a call instead of 2), when this numba version has them; else the public ones.
    """
    numba.get_num_threads()  # launches numba's thread pool, which binds the entry points
    from numba.np.ufunc import parallel

    get, set_ = (getattr(parallel, n, None) for n in ("_get_num_threads", "_set_num_threads"))
    if callable(get) and callable(set_):
        return get, set_
    return numba.get_num_threads, numba.set_num_threads


class OnCallingThread:
    """A threaded batched loop run on the calling thread alone.

    numba compiles a parallel loop into faster code than the same plain loop (1.15-1.4x
    per game, measured on all three games), so from ``PARALLEL_MIN_ENVS`` games on, the
    one-thread way to step a batch is the threaded loop with numba's thread count set to 1
    for the call (two cheap calls), not the plain loop.
    """

    def __init__(self, loop) -> None:
        self.loop = loop
        self._get, self._set = _thread_count_access()

    def __call__(self, *args):
        threads = self._get()
        if threads == 1:
            return self.loop(*args)
        self._set(1)
        try:
            return self.loop(*args)
        finally:
            self._set(threads)


class FastestLoop:
    """Calls whichever of two equivalent batched loops has lately been the faster.

    Run on the calling thread (``serial``) or on numba's threads (``threaded``), a batched
    loop gives identical results (game i depends only on its seed and actions); which way
    is faster depends on the game, the batch size,
    the thread count and whatever else the machine runs: waking numba's threads costs tens
    of microseconds, and a thread whose core is busy with another process holds the whole
    step back. So the loops are compared as they run: during the first calls they take
    turns, two calls each, then the other loop gets two calls every ``EXPLORE`` calls. The
    second call of a turn (its caches warm) is timed per game processed (callers that step
    a few games of the batch make light calls) and compared with the other loop's last such
    call, two calls earlier, when the machine's load was about the same; the threaded loop
    is used while the median of the last ``WINDOW`` ratios favours it (with one numba
    thread the two are alike).
    """

    EXPLORE = 100
    WINDOW = 9

    def __init__(self, serial, threaded) -> None:
        self.serial, self.threaded = serial, threaded
        self._ratios: list[float] = []  # threaded time / serial time
        self._calls = 0
        self._previous: bool | None = None  # loop of the previous call (None: not timed)
        self._warm: list[tuple[int, float] | None] = [None, None]  # (call, seconds per game)
        self._use_threads = False

    def __call__(self, work: int, *args):
        """Run one of the loops on ``args``; ``work`` is how many games it processes."""
        call = self._calls
        self._calls += 1
        if call < 4 * self.WINDOW:
            threads = (call // 2) % 2 == 1  # first calls: turns of two
        else:
            phase = call % self.EXPLORE
            threads = self._use_threads != (phase < 2)
            if 4 <= phase < self.EXPLORE - 1:  # away from a turn of the other loop: no timing
                self._previous = threads
                return (self.threaded if threads else self.serial)(*args)
        start = time.perf_counter()
        result = (self.threaded if threads else self.serial)(*args)
        elapsed = time.perf_counter() - start
        if work > 0 and self._previous is threads:
            per_game = elapsed / work
            self._warm[threads] = (call, per_game)
            other = self._warm[not threads]
            if other is not None and call - other[0] <= 3:
                ratio = per_game / other[1] if threads else other[1] / per_game
                self._ratios.append(ratio)
                if len(self._ratios) > self.WINDOW:
                    del self._ratios[0]
                self._use_threads = sorted(self._ratios)[len(self._ratios) // 2] < 1.0
        self._previous = threads if work > 0 else None
        return result

    @property
    def uses_threads(self) -> bool:
        """Whether the threaded loop is the current choice."""
        return self._use_threads and numba.get_num_threads() > 1


def batched_kernels(game: Game):
    """The batched kernels of ``game``, compiled (or loaded from cache) once per process."""
    if game.name not in _kernel_cache:
        _kernel_cache[game.name] = specialise(game)
    return _kernel_cache[game.name]


class VectorStep(NamedTuple):
    obs: np.ndarray
    masks: np.ndarray
    rewards: np.ndarray
    current: np.ndarray
    done: np.ndarray
    truncated: np.ndarray


class VectorEnv:
    """B independent games of one kind; game i is seeded from ``(seed, i)`` alone.

    The returned arrays are owned by the env and overwritten by the next call; copy them to
    keep them. ``truncated[i]`` marks games cut by ``max_steps`` (0 = no cap).

    ``parallel``: ``None`` (default) steps batches of ``PARALLEL_MIN_ENVS`` games or more on
    numba's threads or on the calling thread, whichever is measured faster (see
    :class:`FastestLoop`), and smaller ones on the calling thread; ``True``/``False``
    forces one. The results are the same.

    ``events=True`` keeps every game's events of the last ``reset``/``step`` (a finished
    game's last events, then its successor's deal): see :meth:`step_events`. Off by default,
    where the loops run the plain kernels' code.
    """

    def __init__(
        self,
        game: Game,
        num_envs: int,
        num_players: int | None = None,
        seed: int = 0,
        max_steps: int = 0,
        parallel: bool | None = None,
        events: bool = False,
        **options: Any,
    ) -> None:
        num_envs = check_int(num_envs, "num_envs", 1, MAX_NUM_ENVS)
        if parallel is not None and not isinstance(parallel, bool):
            raise TypeError(f"parallel must be None, True or False, got {parallel!r}")
        max_steps = check_int(max_steps, "max_steps (0 = no cap)", 0, MAX_STEP)
        seed = check_seed(seed)
        self.game = game
        self.num_players = game.check_num_players(
            game.default_players if num_players is None else num_players
        )
        self.options = game.make_options(self.num_players, **options)
        self.num_envs = int(num_envs)
        self.num_actions = game.num_actions(self.num_players)
        self.obs_size = game.obs_size(self.num_players)
        self.max_steps = int(max_steps)
        template = game.blank_state(self.num_players, self.options)
        self.states = np.repeat(template[None, :], self.num_envs, axis=0)
        b = self.num_envs
        self.obs = np.zeros((b, self.obs_size), dtype=game.obs_dtype)
        self.masks = np.zeros((b, self.num_actions), dtype=np.int8)
        self.rewards = np.zeros((b, self.num_players), dtype=np.float32)
        self.current = np.zeros(b, dtype=np.int64)
        self.done = np.zeros(b, dtype=np.bool_)
        self.truncated = np.zeros(b, dtype=np.bool_)
        if not isinstance(events, bool):
            raise TypeError(f"events must be True or False, got {events!r}")
        # room for a step's events and the next game's deal after it
        capacity = 2 * game.kernel.MAX_STEP_EVENTS
        self._events = (
            np.zeros((b, capacity + 1, ev.EVENT_WIDTH), ev.EVENT_DTYPE) if events else None
        )
        kernels = batched_kernels(game)
        small = self.num_envs < PARALLEL_MIN_ENVS
        if parallel is None and small:
            parallel = False
        self._parallel = parallel
        threaded = (kernels.reset_all, kernels.step_all, random_actions)
        if parallel:
            loops = threaded
        elif small:
            loops = (kernels.reset_all_serial, kernels.step_all_serial, random_actions_serial)
        else:
            loops = tuple(OnCallingThread(loop) for loop in threaded)
        self._reset_all, self._step_all, self._random_actions = loops
        # with a choice to make, a FastestLoop picks the one-thread or the threaded way
        self._step_chooser = self._random_chooser = None
        if parallel is None:
            self._reset_all = kernels.reset_all
            self._step_chooser = FastestLoop(loops[1], kernels.step_all)
            self._random_chooser = FastestLoop(loops[2], random_actions)
        self.reset(seed)

    @property
    def uses_threads(self) -> bool:
        """Whether steps currently run on numba's threads."""
        if self._step_chooser is not None:
            return self._step_chooser.uses_threads
        return bool(self._parallel)

    def _result(self) -> VectorStep:
        return VectorStep(
            self.obs, self.masks, self.rewards, self.current, self.done, self.truncated
        )

    def reset(self, seed: int = 0) -> VectorStep:
        """Deal every game anew; game i gets a seed derived from ``(seed, i)``."""
        seed = check_seed(seed)
        seeds = np.array([derive_seed(seed, i) for i in range(self.num_envs)], dtype=np.int64)
        self.rewards[:] = 0
        self.done[:] = False
        self.truncated[:] = False
        self._reset_all(self.states, seeds, self.obs, self.masks, self.current, self._events)
        return self._result()

    def step(self, actions: np.ndarray) -> VectorStep:
        """Apply one action per game; a negative one (say -1) skips that game: no reward,
        not done, same observation. An out-of-range or illegal action raises ``ValueError``
        (a non-integer array ``TypeError``); no game moves.
        """
        # the kernel checks every action's range and legality before any game moves
        actions = np.ascontiguousarray(check_actions(actions, self.num_envs))
        args = (
            self.states,
            actions,
            self.obs,
            self.masks,
            self.rewards,
            self.current,
            self.done,
            self.truncated,
            self.max_steps,
            self._events,
        )
        if self._step_chooser is None:
            bad = self._step_all(*args)
        else:  # judged by the games stepped: some callers step a few games of the batch
            bad = self._step_chooser(int(np.count_nonzero(actions >= 0)), *args)
        if bad >= 0:
            action = int(actions[bad])
            legal = legal_actions(self.masks[bad])
            if not -1 <= action < self.num_actions:
                raise ValueError(
                    f"action {action} of game {bad} is out of range [-1, {self.num_actions}) "
                    f"(-1 skips a game); legal actions there: {legal} (no game was stepped)"
                )
            raise ValueError(
                f"action {action} is not legal in game {bad}; legal actions there: "
                f"{legal} (no game was stepped)"
            )
        return self._result()

    def step_events(self, game: int, seat: int | None = None) -> np.ndarray:
        """The event records (core/events.py) game ``game`` wrote during the last call, all
        of them or those ``seat`` may see; decode one with ``events.decode``."""
        if self._events is None:
            raise ValueError("this VectorEnv keeps no events: create it with events=True")
        game = check_int(game, "game", 0, self.num_envs - 1)
        records = ev.drain(self._events[game].copy())
        if seat is None:
            return records
        return ev.visible_to(records, check_int(seat, "seat", 0, self.num_players - 1))

    def global_states(self, out: np.ndarray | None = None) -> np.ndarray:
        """The global state of every game, ``[B, game.global_size]`` of ``game.global_dtype``:
        the whole game as a referee sees it (every hand, no RNG), for centralised critics
        (docs/research.md). Computed on request only; ``out`` (C-contiguous, of that shape and
        dtype) is filled and returned instead of a new array."""
        shape = (self.num_envs, self.game.global_size(self.num_players))
        if out is None:
            out = np.empty(shape, dtype=self.game.global_dtype)
        else:
            check_array(out, "out", shape, self.game.global_dtype)
        kernels = batched_kernels(self.game)
        threads = (
            self._parallel if self._parallel is not None else self.num_envs >= PARALLEL_MIN_ENVS
        )
        if threads:
            kernels.global_state_all(self.states, out)
        else:
            kernels.global_state_all_serial(self.states, out)
        return out

    def observe_seats(self, envs: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """``obs[k]``: what seat ``seats[k]`` of game ``envs[k]`` sees now, whether or not it
        is to act (a learner's value of a position it waits in). Indices are checked first."""
        envs, seats = np.asarray(envs), np.asarray(seats)
        if (
            envs.shape != seats.shape
            or envs.ndim != 1
            or not (
                np.issubdtype(envs.dtype, np.integer) and np.issubdtype(seats.dtype, np.integer)
            )
        ):
            raise TypeError("envs and seats must be 1-d integer arrays of the same length")
        if envs.size and not (
            0 <= envs.min() <= envs.max() < self.num_envs
            and 0 <= seats.min() <= seats.max() < self.num_players
        ):
            raise ValueError(
                f"envs must lie in [0, {self.num_envs}) and seats in [0, {self.num_players})"
            )
        obs = np.zeros((envs.size, self.obs_size), dtype=self.obs.dtype)
        for row, (env, seat) in enumerate(zip(envs.tolist(), seats.tolist(), strict=True)):
            self.game.kernel.observe(self.states[env], np.int64(seat), obs[row])
        return obs

    def random_actions(self, rng_states: np.ndarray) -> np.ndarray:
        """A uniformly random legal action per game, drawn from per-game RNG states.

        ``rng_states`` (``int64[num_envs]``, C-contiguous) is advanced in place.
        """
        check_array(rng_states, "rng_states", (self.num_envs,), np.int64)
        actions = np.empty(self.num_envs, dtype=np.int64)
        if self._random_chooser is None:
            self._random_actions(self.masks, rng_states, actions)
        else:
            self._random_chooser(self.num_envs, self.masks, rng_states, actions)
        return actions

    def reset_games(self, envs: np.ndarray, seeds: np.ndarray) -> VectorStep:
        """Deal the games ``envs`` anew from ``seeds`` now, whatever their state: for a caller
        that cuts games short at a point of its choosing (the others are untouched)."""
        if not isinstance(envs, np.ndarray) or envs.dtype != np.int64 or envs.ndim != 1:
            raise TypeError(f"envs must be a 1-d int64 array, got {getattr(envs, 'dtype', envs)}")
        check_array(seeds, "seeds", envs.shape, np.int64)
        if np.unique(envs).size != envs.size or (
            envs.size and not (envs.min() >= 0 and envs.max() < self.num_envs)
        ):
            raise ValueError(f"envs must be distinct indices in [0, {self.num_envs}): {envs}")
        if (seeds < 0).any():
            raise ValueError(f"seeds must be in [0, 2**63 - 1], got {seeds}")
        states, obs, masks = self.states[envs], self.obs[envs], self.masks[envs]
        current = self.current[envs]
        events = None if self._events is None else self._events[envs]
        kernels = batched_kernels(self.game)
        kernels.reset_all_serial(states, seeds, obs, masks, current, events)
        self.states[envs], self.obs[envs], self.masks[envs] = states, obs, masks
        if events is not None:
            self._events[envs] = events
        self.current[envs] = current
        self.rewards[envs] = 0
        self.done[envs] = False
        self.truncated[envs] = False
        return self._result()
