"""Before/after throughput of two source trees, measured interleaved on a noisy machine.

Usage::

    git archive <old-commit> | tar -x -C /tmp/before
    python benchmarks/compare.py /tmp/before . --rounds 7 --json before_after.json

Two worker processes, one per tree (``PYTHONPATH`` set to it), keep a vector env per game
and batch size; the controller asks them in turn to run random legal play (as
``throughput.py`` does) for ``--seconds`` at one point (game, batch size, threads), so the
two trees are measured seconds apart, under the same load, and each point gets ``--rounds``
samples per tree, in a shuffled order every round. Every sample also records how much CPU
other processes used while it ran (from ``/proc``: the machine's busy time minus the
worker's own), so that a shared machine's noise shows: reported are the median steps/s of
each tree and the after/before ratio of the medians, over all samples and over the "quiet"
ones (others below ``--quiet`` cores), with their count.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from machine import busy_seconds, process_seconds, wait_until_quiet

HERE = Path(__file__).resolve().parent


def worker() -> None:
    """Answer ``{"game", "batch", "threads", "seconds"}`` lines with steps/s lines."""
    import numba
    from throughput import make_stepper, timed

    import presages_env

    steppers = {}
    for line in sys.stdin:
        point = json.loads(line)
        key = (point["game"], point["batch"])
        if key not in steppers:
            n = presages_env.get_game(point["game"]).default_players
            steppers[key] = make_stepper(point["game"], point["batch"], n)
        numba.set_num_threads(min(point["threads"], numba.config.NUMBA_NUM_THREADS))
        rate = timed(steppers[key], point["batch"], point["seconds"])
        print(json.dumps({"rate": rate, "file": presages_env.__file__}), flush=True)


def start(tree: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()))
    return subprocess.Popen(
        [sys.executable, str(HERE / "compare.py"), "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=str(tree),
    )


def ask(proc: subprocess.Popen, point: dict) -> dict:
    """Run ``point`` in ``proc``; adds ``others``: cores used by other processes meanwhile."""
    start_busy, start_own = busy_seconds(), process_seconds(proc.pid)
    start = time.perf_counter()
    proc.stdin.write(json.dumps(point) + "\n")
    proc.stdin.flush()
    answer = json.loads(proc.stdout.readline())
    elapsed = time.perf_counter() - start
    own = process_seconds(proc.pid) - start_own
    answer["others"] = max(0.0, (busy_seconds() - start_busy - own) / elapsed)
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, nargs="?")
    parser.add_argument("after", type=Path, nargs="?")
    parser.add_argument("--games", nargs="*", default=["president", "presages", "aciliande"])
    parser.add_argument(
        "--batch-sizes", nargs="*", type=int, default=[1, 64, 256, 1024, 4096, 16384]
    )
    parser.add_argument("--threads", nargs="*", type=int, default=[1, 2])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0, help="shuffles the order of points")
    parser.add_argument(
        "--quiet", type=float, default=0.3, help="a sample is quiet below this many busy cores"
    )
    parser.add_argument(
        "--patience",
        type=float,
        default=0.0,
        help="before each pair of samples, wait up to this long for a quiet machine, and "
        "measure a pair again (up to --attempts in all) if it was not quiet",
    )
    parser.add_argument("--attempts", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    trees = {"before": args.before, "after": args.after}
    procs = {name: start(tree) for name, tree in trees.items()}
    points = [
        {"game": g, "batch": b, "threads": t, "seconds": args.seconds}
        for g in args.games
        for b in args.batch_sizes
        for t in args.threads
    ]
    samples: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    others: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    loads = []
    order = random.Random(args.seed)
    files = {}
    for r in range(args.rounds):
        order.shuffle(points)
        for i, point in enumerate(points):
            names = ["before", "after"] if (r + i) % 2 == 0 else ["after", "before"]
            for _attempt in range(args.attempts if args.patience > 0 else 1):
                if args.patience > 0:
                    wait_until_quiet(args.quiet, args.patience)
                answers = {name: ask(procs[name], point) for name in names}
                if all(a["others"] < args.quiet for a in answers.values()):
                    break
            key = f"{point['game']}/{point['batch']}/{point['threads']}"
            for name, answer in answers.items():
                files[name] = answer["file"]
                samples[name].setdefault(key, []).append(answer["rate"])
                others[name].setdefault(key, []).append(answer["others"])
            loads.append(os.getloadavg()[0])
        print(f"round {r + 1}/{args.rounds} done, load {os.getloadavg()[0]:.2f}", flush=True)
    for proc in procs.values():
        proc.stdin.close()
        proc.wait()

    medians = {n: {k: statistics.median(v) for k, v in s.items()} for n, s in samples.items()}
    quiet: dict[str, dict[str, float]] = {name: {} for name in trees}
    quiet_counts: dict[str, dict[str, int]] = {name: {} for name in trees}
    for name in trees:
        for key, rates in samples[name].items():
            kept = [r for r, o in zip(rates, others[name][key], strict=True) if o < args.quiet]
            quiet_counts[name][key] = len(kept)
            if kept:
                quiet[name][key] = statistics.median(kept)
    every = [o for name in trees for values in others[name].values() for o in values]
    print(f"\ntrees: {files}")
    print(
        f"load average (1 min) while measuring: median {statistics.median(loads):.2f}, "
        f"min {min(loads):.2f}, max {max(loads):.2f}; other processes' CPU during a sample: "
        f"median {statistics.median(every):.2f} cores, {sum(o < args.quiet for o in every)} "
        f"of {len(every)} samples quiet (< {args.quiet} cores)"
    )
    for label, table in (("all samples", medians), ("quiet samples", quiet)):
        for game in args.games:
            print(f"\n{game}, {label}: median steps/s, before -> after (ratio) [samples]")
            print("threads " + "".join(f"{f'B={b}':>34}" for b in args.batch_sizes))
            for t in args.threads:
                cells = []
                for b in args.batch_sizes:
                    key = f"{game}/{b}/{t}"
                    before, after = table["before"].get(key), table["after"].get(key)
                    if before is None or after is None:
                        cells.append("-")
                        continue
                    count = min(quiet_counts["before"][key], quiet_counts["after"][key])
                    tail = f" [{count}]" if table is quiet else ""
                    cells.append(
                        f"{before / 1e6:.2f}M -> {after / 1e6:.2f}M ({after / before:.2f}x){tail}"
                    )
                print(f"{t:>7} " + "".join(f"{c:>34}" for c in cells))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "trees": {k: str(v) for k, v in trees.items()},
                    "seconds": args.seconds,
                    "rounds": args.rounds,
                    "load": {
                        "median": statistics.median(loads),
                        "min": min(loads),
                        "max": max(loads),
                    },
                    "median_steps_per_s": medians,
                    "quiet_median_steps_per_s": quiet,
                    "quiet_below_cores": args.quiet,
                    "samples": samples,
                    "others_cores": others,
                },
                indent=1,
            )
        )
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
