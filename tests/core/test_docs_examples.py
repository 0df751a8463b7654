"""The Python examples of docs/research.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_research_guide_has_examples():
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_research_example_runs(index):
    exec(compile(EXAMPLES[index], f"{DOC.name} example {index}", "exec"), {})
