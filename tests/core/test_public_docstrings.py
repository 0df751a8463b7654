"""The public API's docstrings say what each argument and return value is (the API reference
showed one line each). ruff checks their form (pyproject.toml: Google sections in
``presages_env/__init__.py`` and ``records.py``, every argument named); this checks that none
of them is a single line that names neither."""

from __future__ import annotations

import inspect

import pytest

import presages_env
from presages_env import records

PUBLIC = [getattr(presages_env, name) for name in presages_env.__all__] + [
    records.GameRecord.to_json,
    *(
        value
        for name, value in vars(records).items()
        if inspect.isfunction(value)
        and not name.startswith("_")
        and value.__module__ == records.__name__
    ),
]


@pytest.mark.parametrize("function", PUBLIC, ids=lambda f: f.__qualname__)
def test_each_public_function_documents_its_arguments_and_its_return(function):
    doc = inspect.getdoc(function) or ""
    parameters = [p for p in inspect.signature(function).parameters if p != "self"]
    if parameters:
        assert "\nArgs:\n" in doc, function
        for name in parameters:
            assert f"\n    {name}: " in doc or f"\n    **{name}: " in doc, (function, name)
    if inspect.signature(function).return_annotation not in ("None", None):
        assert "\nReturns:\n" in doc, function
