"""Every Python snippet of the README runs as written (in a temporary directory: the SB3 one
writes a zip), each in well under a minute on two cores. Those that need Ray or Tianshou run
in `make test-rllib`'s venv, which has both; the others run in both venvs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from extras import require
from ray_or_skip import FAIL_ON_DEPRECATIONS, import_rllib

from presages_env.games import GAME_CLASSES

README = Path(__file__).resolve().parents[2] / "README.md"
SNIPPETS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
# What a snippet uses, as the first of these names it shows.
KINDS = {
    "presages_env.rllib": "rllib",
    "tianshou": "tianshou",
    "sb3_contrib": "sb3",
    "batched_ppo": "batched",
    "turn_based_aec_to_parallel": "parallel",
    "gymnasium": "gymnasium",
}


def describe(snippet: str) -> str:
    """``<kind>-<game>``: the game in the test id puts the test in that game's group."""
    kind = next((k for name, k in KINDS.items() if name in snippet), "aec")
    game = next((g for g in GAME_CLASSES if re.search(rf"\b{g}\b", snippet)), "none")
    return f"{kind}-{game}"


def test_every_integration_has_a_snippet():
    text = "\n".join(SNIPPETS)
    for name in ("presages_env.make(", "gymnasium.make(", "MaskablePPO", "ppo_config", "tianshou"):
        assert name in text


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[describe(s) for s in SNIPPETS])
@FAIL_ON_DEPRECATIONS
def test_readme_snippet_runs(snippet, tmp_path, monkeypatch):
    if "presages_env.rllib" in snippet:
        import_rllib()
        monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    if "tianshou" in snippet:
        require("tianshou")
    monkeypatch.chdir(tmp_path)
    try:
        exec(compile(snippet, "README snippet", "exec"), {"__name__": "readme"})
    finally:
        if "presages_env.rllib" in snippet:
            require("rllib").shutdown()  # the snippet's algorithm started a local Ray
