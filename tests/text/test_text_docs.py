"""The example of docs/text_agents.md runs as written and prints what the page says."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "text_agents.md"


def test_the_text_agents_example_runs_and_prints_what_the_page_says(tmp_path, monkeypatch):
    page = DOC.read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(example, f"{DOC.name} example", "exec"), {})
    assert f"It prints `{printed.getvalue().strip()}`" in page
    fourth = json.loads((tmp_path / "president.jsonl").read_text().splitlines()[3])
    assert f'"answer": "{fourth["answer"]}"' in page
    assert json.dumps(fourth["legal"]) in page
