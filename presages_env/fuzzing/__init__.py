"""Fuzzing of every input that comes from outside, one module per input kind.

Each kind runs random malformed and valid inputs through the public entry points of one game
and sorts every case into a clean refusal (``ValueError``/``TypeError`` with a message) or an
accepted input that then works; anything else is a failure
(:class:`FuzzReport`):

=================  ======================================================================
kind               what
=================  ======================================================================
states             corrupted real states, pending decisions included (:mod:`.states`)
heuristics         random observations and masks through the heuristic kernels (:mod:`.heuristics`)
records            saved game records: structure, numbers, strings (:mod:`.records`)
checkpoints        policy checkpoints: storage, sizes, values, another game's (:mod:`.checkpoints`)
scorers            the same cases for action scorers' checkpoints (:mod:`.checkpoints`)
numbers            seeds and numbers through every public constructor and reset (:mod:`.numbers`)
training-settings  hostile values (types, NaN, ranges, huge rollouts) for every setting of
                   every trainer (PPO, batched PPO, DMC), checked without training
                   (:mod:`.training_settings`)
legal-states       the opposite case: only states that random, heuristic and mixed play reach
                   over random options and every player count; every checked entry point
                   must take each of them, a refusal is a failure (:mod:`.legal_states`)
lab                hostile HTTP requests and WebSocket frames against the lab served on
                   loopback, its tables dealt for the game: no server error, no server
                   path in an answer, every refusal a 4xx with a reason (:mod:`.lab`)
=================  ======================================================================

``python -m presages_env.fuzzing --cases 10000`` runs every kind for every game in a child
process with numba's bounds checks on (an out-of-bounds access raises instead of corrupting
memory, and a crash is reported instead of killing the caller).
"""

from __future__ import annotations

import collections
import os
import resource
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field

# A case that grows the process's peak memory by more than this allocated what its input only
# declared (a size, a count): a failure of every input kind.
MAX_GROWTH_MB = 256


@dataclass
class FuzzReport:
    """What one kind did for one game: its cases, their outcomes counted, the failures."""

    game: str
    cases: int = 0
    outcomes: collections.Counter = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # what was not fuzzed here, and why

    def line(self) -> str:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))
        line = f"{self.game}: {self.cases} cases: {counts}; {len(self.failures)} failures"
        return line + "".join(f"; skipped {what}" for what in self.skipped)


def peak_memory_mb() -> float:
    """The process's peak resident memory so far (Linux reports it in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory_growth(peak_before: float) -> str | None:
    """A description of the growth since ``peak_before`` if it passed ``MAX_GROWTH_MB``."""
    grown = peak_memory_mb() - peak_before
    return f"peak memory grew by {grown:.0f} MB" if grown > MAX_GROWTH_MB else None


def boundscheck_environment() -> dict[str, str]:
    """This process's environment with numba's bounds checks on, and a compile cache of
    their own (kernels compiled with checks must not replace the project's cached ones)."""
    cache = os.path.join(tempfile.gettempdir(), "presages_env_boundscheck_cache")
    return dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=cache)


def run_in_child(
    kinds: Sequence[str], games: Sequence[str], cases: int, seed: int = 0
) -> subprocess.CompletedProcess:
    """``python -m presages_env.fuzzing`` in a child process under bounds checks, its
    output captured (one line per kind and game, ending ``N failures``)."""
    command = [sys.executable, "-m", "presages_env.fuzzing", "--in-process"]
    command += ["--kinds", *kinds, "--games", *games, "--cases", str(cases), "--seed", str(seed)]
    return subprocess.run(
        command, env=boundscheck_environment(), capture_output=True, text=True, check=False
    )
