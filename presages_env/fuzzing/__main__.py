"""``python -m presages_env.fuzzing``: every input kind for every game, under bounds checks.

python -m presages_env.fuzzing --cases 10000                       # everything
python -m presages_env.fuzzing --kinds records numbers --games president --cases 500
python -m presages_env.fuzzing --kinds lab --games kuhn_poker --cases 10000   # the lab's server
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable

from presages_env.fuzzing import FuzzReport, run_in_child
from presages_env.games import GAME_CLASSES

# kind -> (module, function(game_name, cases, seed) -> FuzzReport)
KINDS = {
    "states": ("presages_env.fuzzing.states", "fuzz_states"),
    "heuristics": ("presages_env.fuzzing.heuristics", "fuzz_heuristics"),
    "records": ("presages_env.fuzzing.records", "fuzz_records"),
    "checkpoints": ("presages_env.fuzzing.checkpoints", "fuzz_checkpoints"),
    "scorers": ("presages_env.fuzzing.checkpoints", "fuzz_scorer_checkpoints"),
    "numbers": ("presages_env.fuzzing.numbers", "fuzz_numbers"),
    "legal-states": ("presages_env.fuzzing.legal_states", "fuzz_legal_states"),
    "training-settings": ("presages_env.fuzzing.training_settings", "fuzz_training_settings"),
    "lab": ("presages_env.fuzzing.lab", "fuzz_lab"),  # needs the lab extra
}


def fuzzer(kind: str) -> Callable[[str, int, int], FuzzReport]:
    module, function = KINDS[kind]
    return getattr(importlib.import_module(module), function)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS))
    parser.add_argument(
        "--games", nargs="+", choices=list(GAME_CLASSES), default=list(GAME_CLASSES)
    )
    parser.add_argument("--cases", type=int, default=10_000, help="per game and kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--in-process", action="store_true", help="no child process")
    args = parser.parse_args(argv)
    if not args.in_process:
        result = run_in_child(args.kinds, args.games, args.cases, args.seed)
        print(result.stdout, end="")
        print(result.stderr, end="", file=sys.stderr)
        if result.returncode < 0:
            print(f"the fuzz process crashed (signal {-result.returncode})", file=sys.stderr)
        return 1 if result.returncode else 0
    failed = False
    for kind in args.kinds:
        for name in args.games:
            start = time.perf_counter()
            report = fuzzer(kind)(name, args.cases, args.seed)
            print(f"{kind}: {report.line()} ({time.perf_counter() - start:.0f} s)", flush=True)
            for failure in report.failures:
                print("  " + failure, flush=True)
            failed |= bool(report.failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
