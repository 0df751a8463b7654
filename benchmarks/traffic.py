"""What one batched vector step reads and writes per game: a memory-traffic profile.

Usage: ``python benchmarks/traffic.py [--steps 2000] [--games presages ...]``.

Runs each game's kernels as plain Python (``NUMBA_DISABLE_JIT=1``, set by this script before
numba is imported) on a state whose every access is recorded, under random legal play, and
reports per vector step (``step``, then ``reset`` if the game ended, then ``legal_mask`` and
``observe`` of the next seat, as ``VectorEnv.step`` does): the state slots read and written,
the 64-byte cache lines they fall in (at the game's dtype, and as they were with ``int64``
slots), and the observation and mask entries written (each write counted, so entries
written twice show). The kernels are the compiled ones' source, so the counts are theirs.
"""

from __future__ import annotations

import os

os.environ["NUMBA_DISABLE_JIT"] = "1"

import argparse  # noqa: E402
import warnings  # noqa: E402
from collections import defaultdict  # noqa: E402

import numpy as np  # noqa: E402

warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)  # splitmix64 wraps

import presages_env  # noqa: E402
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL  # noqa: E402
from presages_env.core.rng import derive_seed, rng_get  # noqa: E402
from presages_env.games import benchmarked_games  # noqa: E402

LINE = 64


class Log:
    def __init__(self) -> None:
        self.reads: set[int] = set()
        self.writes: set[int] = set()
        self.write_count = 0

    def clear(self) -> None:
        self.reads.clear()
        self.writes.clear()
        self.write_count = 0


class Traced(np.ndarray):
    """A 1-d array recording the absolute index of every element read or written.

    Element reads return Python ints, so arithmetic on them never wraps (numba promotes
    small integers to int64 the same way).
    """

    def __new__(cls, array: np.ndarray, log: Log):
        obj = np.asarray(array).view(cls)
        obj._log, obj._offset = log, 0
        return obj

    def __array_finalize__(self, obj) -> None:
        self._log = getattr(obj, "_log", None)
        self._offset = getattr(obj, "_offset", 0)

    def _span(self, index) -> range:
        if isinstance(index, slice):
            start, stop, step = index.indices(self.shape[0])
        else:
            start = int(index) % self.shape[0]
            stop, step = start + 1, 1
        return range(self._offset + start, self._offset + stop, step)

    def __getitem__(self, index):
        if isinstance(index, slice):
            view = np.ndarray.__getitem__(self, index)
            start, _, step = index.indices(self.shape[0])
            assert step == 1
            view._offset = self._offset + start
            return view
        self._log.reads.update(self._span(index))
        return int(np.ndarray.__getitem__(self.view(np.ndarray), index))

    def __setitem__(self, index, value) -> None:
        span = self._span(index)
        if isinstance(value, Traced):  # world[:] = state: a whole-array read
            value._log.reads.update(range(value._offset, value._offset + value.shape[0]))
            value = value.view(np.ndarray)
        self._log.writes.update(span)
        self._log.write_count += len(span)
        np.ndarray.__setitem__(self.view(np.ndarray), index, value)


def lines(slots: set[int], itemsize: int) -> int:
    return len({slot * itemsize // LINE for slot in slots})


def profile(name: str, steps: int, seed: int = 0) -> dict[str, float]:
    game = presages_env.get_game(name)
    k = game.kernel
    n = game.default_players
    state_log, obs_log, mask_log = Log(), Log(), Log()
    raw = game.blank_state(n, game.make_options(n))
    state = Traced(raw, state_log)
    k.reset(state, np.int64(derive_seed(seed, 0)))
    obs = Traced(np.zeros(game.obs_size(n), game.obs_dtype), obs_log)
    mask = Traced(np.zeros(game.num_actions(n), np.int8), mask_log)
    rewards = np.zeros(n, np.float32)
    rng = np.random.default_rng(seed)
    itemsize = np.dtype(game.state_dtype).itemsize
    totals: dict[str, float] = defaultdict(float)
    resets = 0
    k.legal_mask(state, mask)
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(mask.view(np.ndarray))))
        for log in (state_log, obs_log, mask_log):
            log.clear()
        k.step(state, np.int64(action), rewards)
        if state.view(np.ndarray)[HDR_TERMINAL]:
            k.reset(state, derive_seed(rng_get(state.view(np.ndarray)), 0))
            resets += 1
        k.legal_mask(state, mask)
        k.observe(state, int(state.view(np.ndarray)[HDR_CURRENT]), obs)
        touched = state_log.reads | state_log.writes
        totals["slots read"] += len(state_log.reads)
        totals["slots written"] += len(state_log.writes)
        totals["lines touched"] += lines(touched, itemsize)
        totals["lines touched (int64)"] += lines(touched, 8)
        totals["obs writes"] += obs_log.write_count
        totals["obs entries"] += len(obs_log.writes)
        totals["mask writes"] += mask_log.write_count
    out = {key: value / steps for key, value in totals.items()}
    out["state slots"] = raw.size
    out["state lines"] = -(-raw.size * itemsize // LINE)
    out["state lines (int64)"] = -(-raw.size * 8 // LINE)
    out["obs size"] = game.obs_size(n)
    out["obs bytes"] = game.obs_size(n) * np.dtype(game.obs_dtype).itemsize
    out["resets per step"] = resets / steps
    out["state bytes touched"] = out["lines touched"] * LINE
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--games", nargs="*", default=None)
    args = parser.parse_args()
    names = args.games or benchmarked_games()
    results = {name: profile(name, args.steps) for name in names}
    headers = []
    for name in names:
        game = presages_env.get_game(name)
        headers.append(f"{name} {game.default_players}p {np.dtype(game.state_dtype).name}")
    width = max(len(h) for h in headers) + 2
    print(f"\nper vector step (mean over {args.steps} random legal steps)")
    print(" " * 26 + "".join(f"{h:>{width}}" for h in headers))
    for key in results[names[0]]:
        digits = 4 if key == "resets per step" else 1
        cells = "".join(f"{results[n][key]:>{width}.{digits}f}" for n in names)
        print(f"  {key:<24}{cells}")


if __name__ == "__main__":
    main()
