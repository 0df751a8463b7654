"""Throughput of random legal play: AEC env, vector env batch sweep, and public anchors.

Usage::

    python benchmarks/throughput.py                      # everything below, one run
    python benchmarks/throughput.py --sweep-only --games presages --repeats 3
    python benchmarks/throughput.py --aec-only --seconds 5    # the AEC rows alone
    python benchmarks/throughput.py --plot docs/throughput.png   # also draw the sweep

A "step" is one decision applied. Every AEC step reads the observation and the mask through
``last()``; every vector step draws a random legal action per game from the masks and
produces the observation and mask of every game (the sweep: B = 1 ... 16384 games, at 1 and
2 numba threads; batches under 256 always run on one thread). Each game's row also gives an
estimate of the bytes a vector step may stream per game: its whole state, read and written,
plus the observation and mask it writes and the action, rewards and flags around them.

Anchors run when installed (``pip install -e .[bench]``), stepped the same way: PettingZoo
classic ``leduc_holdem_v4`` and OpenSpiel ``oh_hell`` (AEC-style, one game), and Pgx
``leduc_holdem`` on CPU (jax, ``vmap``ed with auto-reset, one jitted call per step, the
action drawn from the legal mask inside it) at the sweep's batch sizes, in a subprocess
pinned to 1 or 2 cores. Results go to stdout and to ``benchmarks/results/throughput.json``;
compare within one run, since the machine's speed drifts between runs. Every measurement
records how many cores other processes used meanwhile (from ``/proc/stat``); on a shared
machine ``--patience S`` waits for quiet moments. ``benchmarks/compare.py`` measures two
source trees interleaved (before/after a change).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from machine import busy_seconds, process_seconds, wait_until_quiet

import presages_env
from presages_env.evaluation.report import new_figure, save_figure, wrapped_title
from presages_env.games import benchmarked_games

if TYPE_CHECKING:
    from matplotlib.figure import Figure

BATCH_SIZES = (1, 64, 256, 1024, 4096, 16384)
THREADS = (1, 2)
RESULTS = Path(__file__).parent / "results" / "throughput.json"


# ---- AEC ------------------------------------------------------------------------------------
def aec_loop(env, seconds: float, seed: int = 0, clock=time.perf_counter) -> float:
    """Decisions per second of a PettingZoo AEC env under uniform random legal play
    (seconds of ``clock``: wall time, or ``time.process_time`` on a shared machine)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    decisions = 0
    start = clock()
    while clock() - start < seconds:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            decisions += 1
        env.reset()
    return decisions / (clock() - start)


def openspiel_loop(seconds: float, seed: int = 0) -> float:
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": 4})
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            state.information_state_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def aec_anchors(seconds: float, clock=time.perf_counter) -> dict[str, float]:
    results = {}
    try:
        from pettingzoo.classic import leduc_holdem_v4

        env = leduc_holdem_v4.env()
        results["pettingzoo leduc_holdem_v4 AEC"] = aec_loop(env, seconds, clock=clock)
    except ImportError:
        print("(pettingzoo[classic] not installed: no leduc anchor)")
    try:
        results["openspiel oh_hell (4p) python"] = openspiel_loop(seconds)
    except ImportError:
        print("(open_spiel not installed: no oh_hell anchor)")
    return results


# ---- vector env sweep -----------------------------------------------------------------------
def make_stepper(game: str, num_envs: int, num_players: int):
    """A warmed-up vector env and a function running ``k`` random legal steps of it."""
    env = presages_env.make_vec(game, num_envs, num_players=num_players, seed=0)
    rng_states = np.arange(num_envs, dtype=np.int64) * 7919 + 1

    def run(k: int) -> None:
        for _ in range(k):
            env.step(env.random_actions(rng_states))

    run(8)  # compile / warm up (the serial and the threaded loops both run in the first steps)
    return run


def timed(run, num_envs: int, seconds: float) -> float:
    """Steps per second of ``run`` (``run(k)`` does ``k`` batched steps) over ``seconds``."""
    chunk = max(1, min(100, 20_000 // num_envs))
    steps = 0
    start = time.perf_counter()
    while True:
        run(chunk)
        steps += chunk * num_envs
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def bytes_per_step(game: str, num_players: int) -> dict[str, int]:
    """What one vector step may stream per game, in bytes (an upper bound for the state).

    ``state``: every slot, read and written; ``outputs``: the observation and mask written
    (and the mask read again for the random action), rewards, seat, flags, action and the
    agent's RNG state.
    """
    g = presages_env.get_game(game)
    state = g.state_size(num_players) * np.dtype(g.state_dtype).itemsize
    obs = g.obs_size(num_players) * np.dtype(g.obs_dtype).itemsize
    mask = g.num_actions(num_players)
    small = 4 * num_players + 8 + 2 + 8 + 8
    return {
        "state": 2 * state,
        "outputs": obs + 2 * mask + small,
        "total": 2 * state + obs + 2 * mask + small,
    }


def measured(run, num_envs: int, seconds: float, quiet: float, patience: float):
    """``(steps/s, cores other processes used meanwhile)``; with ``patience`` > 0, waits for
    a quiet machine first and measures again (up to 3 times) if others got busy."""
    for _attempt in range(4 if patience > 0 else 1):
        if patience > 0:
            wait_until_quiet(quiet, patience)
        busy, own, start = busy_seconds(), process_seconds(), time.perf_counter()
        rate = timed(run, num_envs, seconds)
        elapsed = time.perf_counter() - start
        others = max(0.0, (busy_seconds() - busy - (process_seconds() - own)) / elapsed)
        if others < quiet:
            break
    return rate, others


def sweep(
    games: list[str],
    batch_sizes: list[int],
    threads: list[int],
    seconds: float,
    repeats: int,
    quiet: float = 0.3,
    patience: float = 0.0,
) -> tuple[dict[str, dict[str, list[float]]], dict[str, dict[str, list[float]]]]:
    """``{game: {"B/threads": [steps/s of each repeat]}}`` and the cores other processes used
    during each; repeats interleave the points."""
    import numba

    results: dict[str, dict[str, list[float]]] = {}
    others: dict[str, dict[str, list[float]]] = {}
    steppers = {}
    for game in games:
        n = presages_env.get_game(game).default_players
        for b in batch_sizes:
            steppers[game, b] = make_stepper(game, b, n)
        results[game], others[game] = {}, {}
    for _ in range(repeats):
        for game in games:
            for b in batch_sizes:
                for t in threads:
                    if t > numba.config.NUMBA_NUM_THREADS:
                        continue
                    numba.set_num_threads(t)
                    rate, busy = measured(steppers[game, b], b, seconds, quiet, patience)
                    results[game].setdefault(f"{b}/{t}", []).append(rate)
                    others[game].setdefault(f"{b}/{t}", []).append(busy)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return results, others


# ---- Pgx anchor -----------------------------------------------------------------------------
def pgx_worker(
    batch_sizes: list[int], seconds: float, threads: int, quiet: float, patience: float
) -> dict[str, list[float]]:
    """Pgx leduc_holdem on CPU, random legal play with auto-reset; runs in its own process.

    ``{B: [steps/s, cores other processes used meanwhile]}``."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[:threads]))
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make("leduc_holdem")
    results = {}
    for b in batch_sizes:
        step = jax.vmap(auto_reset(env.step, env.init))

        @jax.jit
        def one(state, key, step=step, b=b):
            key, pick, reset = jax.random.split(key, 3)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(pick, logits, axis=-1)
            return step(state, action, jax.random.split(reset, b)), key

        key = jax.random.PRNGKey(0)
        state = jax.jit(jax.vmap(env.init))(jax.random.split(key, b))
        for _ in range(3):  # compile / warm up
            state, key = one(state, key)
        jax.block_until_ready(state)

        def run(k: int, box=[state, key], one=one) -> None:  # noqa: B006
            for _ in range(k):
                box[0], box[1] = one(box[0], box[1])
                jax.block_until_ready(box[0].observation)

        results[str(b)] = list(measured(run, b, seconds, quiet, patience))
    return results


def pgx_sweep(
    batch_sizes: list[int],
    threads: list[int],
    seconds: float,
    repeats: int,
    quiet: float = 0.3,
    patience: float = 0.0,
):
    """``({"B/threads": [steps/s]}, {"B/threads": [others' cores]})``, or None when pgx/jax
    are not installed."""
    try:
        import jax  # noqa: F401
        import pgx  # noqa: F401
    except ImportError:
        print("(pgx/jax not installed: no Pgx anchor)")
        return None
    out: dict[str, list[float]] = {}
    others: dict[str, list[float]] = {}
    for _ in range(repeats):
        for t in threads:
            cmd = [sys.executable, __file__, "--pgx-worker", str(t), "--seconds", str(seconds)]
            cmd += ["--batch-sizes", *map(str, batch_sizes)]
            cmd += ["--quiet", str(quiet), "--patience", str(patience)]
            env = dict(os.environ, JAX_PLATFORMS="cpu")
            done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
            for b, (rate, busy) in json.loads(done.stdout.strip().splitlines()[-1]).items():
                out.setdefault(f"{b}/{t}", []).append(rate)
                others.setdefault(f"{b}/{t}", []).append(busy)
    return out, others


# ---- report ---------------------------------------------------------------------------------
def median_table(points: dict[str, list[float]]) -> dict[str, float]:
    return {key: statistics.median(rates) for key, rates in points.items()}


def print_sweep(name: str, medians: dict[str, float], batch_sizes, threads) -> None:
    print(f"\n{name}: steps/s (median)")
    print("threads " + "".join(f"{f'B={b}':>12}" for b in batch_sizes))
    for t in threads:
        cells = [medians.get(f"{b}/{t}") for b in batch_sizes]
        print(f"{t:>7} " + "".join(f"{c:>12,.0f}" if c else f"{'-':>12}" for c in cells))


METHOD = "random legal play through the vector env (observation and mask every step)"


def plot(
    path: Path,
    sweeps: dict[str, dict[str, float]],
    batch_sizes,
    threads,
    *,
    samples: dict[str, dict[str, list[float]]] | None = None,
) -> Path:
    """Save :func:`throughput_figure` as a PNG at ``path``; returns the path."""
    path = save_figure(throughput_figure(sweeps, batch_sizes, threads, samples=samples), path)
    print(f"wrote {path}")
    return path


def throughput_figure(
    sweeps: dict[str, dict[str, float]],
    batch_sizes,
    threads,
    *,
    samples: dict[str, dict[str, list[float]]] | None = None,
) -> Figure:
    """One panel per thread count: the median steps/s of each sweep (``{"game (Np)":
    {"B/threads": median}}``) over the batch size and, from ``samples`` (the measurements of
    each point), bars from the slowest to the fastest. The title names the games, their
    player counts and the method, and says what the points and bars are."""
    figure = new_figure(5.5 * len(threads), 4.6)
    axes = np.atleast_1d(figure.subplots(1, len(threads), sharey=True))
    for ax, t in zip(axes, threads, strict=True):
        for name, medians in sweeps.items():
            xs = [b for b in batch_sizes if f"{b}/{t}" in medians]
            ys = [medians[f"{b}/{t}"] / 1e6 for b in xs]
            style = "--" if name.startswith("pgx") else "-"
            (line,) = ax.plot(xs, ys, style, marker="o", label=name)
            measured = (samples or {}).get(name)
            if measured:
                lows = [min(measured[f"{b}/{t}"]) / 1e6 for b in xs]
                highs = [max(measured[f"{b}/{t}"]) / 1e6 for b in xs]
                ax.vlines(xs, lows, highs, color=line.get_color(), linewidth=2, alpha=0.6)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(list(batch_sizes), [str(b) for b in batch_sizes])
        ax.set_xlabel("batch size B (games stepped together)")
        ax.set_title(f"{t} thread{'s' if t > 1 else ''}")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("million steps/s")
    axes[0].legend(fontsize=8)
    lines = (", ".join(sweeps), METHOD, _spread_note(samples))
    figure.suptitle(wrapped_title(figure, *lines), fontsize=10)
    return figure


def _spread_note(samples: dict[str, dict[str, list[float]]] | None) -> str:
    """What the points and bars are: medians of how many measurements, and their range."""
    counts = {len(v) for table in (samples or {}).values() for v in table.values()}
    if not counts:
        return "points: medians; no bars: the measurements were not given"
    repeats = f"{counts.pop()}" if len(counts) == 1 else f"{min(counts)}-{max(counts)}"
    return f"points: median of {repeats} measurements each; bars: slowest to fastest of them"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument(
        "--games", nargs="*", default=None, help="games (default: the benchmarked ones)"
    )
    parser.add_argument("--batch-sizes", nargs="*", type=int, default=list(BATCH_SIZES))
    parser.add_argument("--threads", nargs="*", type=int, default=list(THREADS))
    parser.add_argument("--repeats", type=int, default=1, help="interleaved sweep repeats")
    parser.add_argument("--sweep-only", action="store_true", help="no AEC, no AEC anchors")
    parser.add_argument(
        "--aec-only", action="store_true", help="the AEC rows only (printed, no results file)"
    )
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="AEC rows in steps per CPU second of this process, not per wall second: on a "
        "busy machine they change less with the load (OpenSpiel's row stays wall time)",
    )
    parser.add_argument("--no-pgx", action="store_true", help="skip the Pgx anchor")
    parser.add_argument("--plot", type=Path, default=None, help="draw the sweep into a PNG")
    parser.add_argument("--json", type=Path, default=RESULTS, help="where results go")
    parser.add_argument(
        "--patience",
        type=float,
        default=0.0,
        help="on a shared machine: before each measurement wait up to this many seconds for "
        "the machine to be quiet, and measure again (up to 3 times) if it was not",
    )
    parser.add_argument(
        "--quiet", type=float, default=0.3, help="quiet: other processes use fewer cores"
    )
    parser.add_argument("--pgx-worker", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pgx_worker is not None:
        results = pgx_worker(
            args.batch_sizes, args.seconds, args.pgx_worker, args.quiet, args.patience
        )
        print(json.dumps(results))
        return
    if args.sweep_only and args.aec_only:
        parser.error("--sweep-only and --aec-only leave nothing to measure")
    games = args.games or benchmarked_games()

    rows: dict[str, float] = {}
    if not args.sweep_only:
        clock = time.process_time if args.cpu_time else time.perf_counter
        rows.update(aec_anchors(args.seconds, clock))
        for game in games:
            n = presages_env.get_game(game).default_players
            env = presages_env.make(game, num_players=n)
            aec_loop(env, 0.2)  # compile / warm up
            if args.patience > 0:
                wait_until_quiet(args.quiet, args.patience)
            rows[f"{game} ({n}p) AEC"] = aec_loop(env, args.seconds, clock=clock)
        width = max(len(name) for name in rows)
        print(f"\n{'AEC benchmark':<{width}}  {'steps/s':>12}")
        for name, rate in rows.items():
            print(f"{name:<{width}}  {rate:>12,.0f}")
    if args.aec_only:  # printed only: the results file keeps the last full run
        return

    raw, others = sweep(
        games,
        args.batch_sizes,
        args.threads,
        args.seconds,
        args.repeats,
        args.quiet,
        args.patience,
    )
    sweeps, samples = {}, {}
    for game in games:
        n = presages_env.get_game(game).default_players
        name = f"{game} ({n}p)"
        sweeps[name], samples[name] = median_table(raw[game]), raw[game]
        traffic = bytes_per_step(game, n)
        print_sweep(name, sweeps[name], args.batch_sizes, args.threads)
        print(
            f"  bytes per game-step (estimate): state {traffic['state']:,} (read + written), "
            f"obs/mask/rest {traffic['outputs']:,}, total {traffic['total']:,}"
        )
    pgx = None
    if not args.no_pgx:
        pgx = pgx_sweep(
            args.batch_sizes, args.threads, args.seconds, args.repeats, args.quiet, args.patience
        )
    pgx_raw = None
    if pgx:
        pgx_raw, others["pgx"] = pgx
        sweeps["pgx leduc_holdem (CPU)"] = median_table(pgx_raw)
        samples["pgx leduc_holdem (CPU)"] = pgx_raw
        print_sweep(
            "pgx leduc_holdem (CPU)",
            sweeps["pgx leduc_holdem (CPU)"],
            args.batch_sizes,
            args.threads,
        )
    every = [o for table in others.values() for values in table.values() for o in values]
    if every:
        print(
            f"\nother processes' CPU during the measurements: median "
            f"{statistics.median(every):.2f} cores, max {max(every):.2f}; "
            f"{sum(o < args.quiet for o in every)} of {len(every)} below {args.quiet}"
        )

    if args.plot:
        plot(args.plot, sweeps, args.batch_sizes, args.threads, samples=samples)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "machine": platform.machine(),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "loadavg_at_end": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "seconds": args.seconds,
        "repeats": args.repeats,
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
    }
    payload = {
        "meta": meta,
        "aec_steps_per_s": rows,
        "sweep_median_steps_per_s": sweeps,
        "sweep_raw": {**raw, **({"pgx": pgx_raw} if pgx_raw else {})},
        "others_cores": others,
        "bytes_per_step": {
            g: bytes_per_step(g, presages_env.get_game(g).default_players) for g in games
        },
    }
    args.json.write_text(json.dumps(payload, indent=2))
    print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
