"""The scripts of baselines/ as modules, for the tests that run their ``main``."""

from __future__ import annotations

import importlib.util
import pathlib
from types import ModuleType

BASELINES = pathlib.Path(__file__).resolve().parents[1] / "baselines"


def command(name: str) -> ModuleType:
    """``baselines/<name>.py``, loaded afresh."""
    spec = importlib.util.spec_from_file_location(f"baseline_{name}", BASELINES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
