"""The README's Gymnasium and Tianshou snippets run as written (in `make test-rllib`'s venv,
which has Tianshou). The SB3 and RLlib ones train for minutes; test_sb3.py and
test_rllib.py run the same calls at a small size."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from ray_or_skip import import_ray

import_ray()

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = README.read_text().split("## Use with RLlib / Gymnasium / SB3 / Tianshou")[1]
SNIPPETS = re.findall(r"```python\n(.*?)```", SECTION.split("\n## ")[0], flags=re.S)
QUICK = [s for s in SNIPPETS if "tianshou" in s or "gymnasium.make(" in s]


def test_every_integration_has_a_snippet():
    text = "\n".join(SNIPPETS)
    for name in ("gymnasium.make(", "MaskablePPO", "ppo_config", "tianshou"):
        assert name in text


@pytest.mark.parametrize("index", range(len(QUICK)))
def test_readme_snippet_runs(index):
    exec(compile(QUICK[index], f"README snippet {index}", "exec"), {})
