"""The notebooks run end to end at the small budget, and are stored without outputs.

Each notebook runs in a fresh ``python3`` kernel (ipykernel's kernelspec in the venv; its
``python`` command is the interpreter running the tests) with ``PRESAGES_NB_BUDGET=small``
and its outputs (plots, checkpoints) in a temporary folder. Any error in a cell fails.
"""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
EXPECTED = {
    "01_quickstart.ipynb",
    "presages.ipynb",
    "president.ipynb",
    "aciliande.ipynb",
    "res_arcana.ipynb",
    "train_self_play.ipynb",
    "lab_export.ipynb",
}
# Generous: on a fresh checkout the first cells compile every game's numba kernels.
CELL_TIMEOUT_S = 900
# Folders that hold no notebook of ours (the venv ships example notebooks of its packages).
SKIPPED_DIRS = {".venv", ".git", "runs", "__pycache__", ".ipynb_checkpoints", "node_modules"}


def repository_notebooks() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in SKIPPED_DIRS]
        found += [Path(folder) / name for name in files if name.endswith(".ipynb")]
    return sorted(found)


def stored_outputs(path: Path) -> list[str]:
    """Code cells of the notebook at ``path`` that carry outputs or an execution count."""
    notebook = nbformat.read(path, as_version=4)
    return [
        f"cell {index}"
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None)
    ]


def test_every_promised_notebook_exists():
    assert {path.name for path in NOTEBOOKS} >= EXPECTED


def test_notebooks_are_stored_without_outputs():
    notebooks = repository_notebooks()
    assert set(NOTEBOOKS) <= set(notebooks)
    dirty = {str(path.relative_to(ROOT)): stored_outputs(path) for path in notebooks}
    assert {name: cells for name, cells in dirty.items() if cells} == {}


def test_output_check_sees_an_executed_cell(tmp_path):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    notebook.cells[0].execution_count = 1
    notebook.cells[0].outputs = [
        nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)
    ]
    nbformat.write(notebook, tmp_path / "executed.ipynb")
    assert stored_outputs(tmp_path / "executed.ipynb") == ["cell 0"]


# The game a notebook plays where its name does not say it (the quickstart plays them all).
NOTEBOOK_GAMES = {"train_self_play": ("presages",), "lab_export": ("kuhn_poker",)}
NOTEBOOK_RUNS = [
    pytest.param(path, id=path.stem, marks=pytest.mark.slow(*NOTEBOOK_GAMES.get(path.stem, ())))
    for path in NOTEBOOKS
]


@pytest.mark.parametrize("path", NOTEBOOK_RUNS)
def test_notebook_runs_at_small_budget(path, tmp_path, monkeypatch):
    monkeypatch.setenv("PRESAGES_NB_BUDGET", "small")
    monkeypatch.setenv("PRESAGES_NB_OUT", str(tmp_path))
    monkeypatch.setenv("OMP_NUM_THREADS", "1")  # one core for torch: the other runs tests
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT_S,
        startup_timeout=180,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    ran = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count is not None for cell in ran)
