"""The checkpoint fuzz (:mod:`presages_env.fuzzing.checkpoints`) finds no failure for any
game, run under an address-space limit: a loader that allocated what a file only declares
would fail there (and be reported) instead of swapping the machine."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from extras import require

import presages_env

require("train")  # checkpoints are torch files

ROOT = Path(__file__).resolve().parents[2]
CASES = 330  # 30 of each mutation kind
HEADROOM = 2 * 2**30  # address space left above what the warmed-up process maps

CHILD = f"""
import resource, sys
from presages_env.fuzzing.checkpoints import fuzz_checkpoints

game, cases, policy = sys.argv[1], int(sys.argv[2]), sys.argv[3]
fuzz_checkpoints(game, 11, seed=1, policy=policy)  # every import and compilation, before the limit
with open("/proc/self/statm") as statm:
    mapped = int(statm.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (mapped + {HEADROOM}, mapped + {HEADROOM}))
report = fuzz_checkpoints(game, cases, policy=policy)
print(report.line())
print("\\n".join(report.failures))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")
@pytest.mark.parametrize("policy", ["ppo", "scorer"])
@pytest.mark.parametrize("game", presages_env.list_games())
def test_crafted_checkpoints_are_refused_or_load_and_act_under_a_memory_limit(game, policy):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-c", CHILD, game, str(CASES), policy]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    summary = result.stdout.splitlines()[0]
    expected = rf"{game}: {CASES} cases: loaded (\d+), refused (\d+); 0 failures"
    found = re.fullmatch(expected, summary)
    assert found, result.stdout
    assert int(found[1]) >= CASES // 11 and int(found[2]) >= CASES // 2  # both outcomes met


def test_the_fuzz_is_deterministic_in_its_seed():
    from presages_env.fuzzing.checkpoints import fuzz_checkpoints

    first, second = (fuzz_checkpoints("president", 44, seed=7) for _ in range(2))
    assert first.outcomes == second.outcomes and first.failures == second.failures == []
