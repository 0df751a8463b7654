"""How busy a shared machine is, from ``/proc`` (Linux; elsewhere every reading is 0)."""

from __future__ import annotations

import os
import time


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy (all cores; 0 where /proc is missing)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0.0
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def process_seconds(pid: int | None = None) -> float:
    """CPU seconds used by a process (default: this one) and its threads."""
    if pid is None:
        return time.process_time()
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until_quiet(cores: float, patience: float) -> float:
    """Wait (up to ``patience`` seconds) for half a second in which the machine used fewer
    than ``cores`` cores; returns the seconds waited."""
    start = time.perf_counter()
    while time.perf_counter() - start < patience:
        busy = busy_seconds()
        time.sleep(0.5)
        if (busy_seconds() - busy) / 0.5 < cores:
            break
    return time.perf_counter() - start
