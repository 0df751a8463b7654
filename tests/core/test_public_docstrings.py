"""The public API's docstrings say what each argument and return value is (the API reference
showed one line each): ``presages_env``'s names, the records module, the agents and the
evaluation functions. ruff checks the form in ``presages_env/__init__.py`` and ``records.py``
(pyproject.toml: Google sections, every argument named); this checks that every public
function there, in ``presages_env.agents`` and in ``presages_env.evaluation`` names each
argument and what it returns."""

from __future__ import annotations

import inspect

import pytest

import presages_env
from presages_env import agents, evaluation, records


def public_functions(module) -> list:
    """The functions a module exports (its ``__all__``, or its own public functions), and
    for a class its constructor's arguments (documented on the class) and its methods."""
    names = getattr(module, "__all__", None) or [
        name
        for name, value in vars(module).items()
        if inspect.isfunction(value) and value.__module__ == module.__name__
    ]
    found = []
    for name in names:
        value = getattr(module, name)
        if inspect.isfunction(value) and not name.startswith("_"):
            found.append(value)
        elif inspect.isclass(value) and value.__module__.startswith("presages_env.agents"):
            found += [value.__dict__[m] for m in ("act", "act_batch") if m in value.__dict__]
            if "__init__" in value.__dict__:
                found.append(value)
    return found


PUBLIC = [
    *public_functions(presages_env),
    *public_functions(records),
    records.GameRecord.to_json,
    *public_functions(agents),
    *public_functions(evaluation),
]
# Agent subclasses' act_batch: Agent.act_batch says it once (each override is the same call)
PUBLIC = [f for f in PUBLIC if not (f.__name__ == "act_batch" and f is not agents.Agent.act_batch)]


@pytest.mark.parametrize("function", PUBLIC, ids=lambda f: f.__qualname__)
def test_each_public_function_documents_its_arguments_and_its_return(function):
    doc = inspect.getdoc(function) or ""
    parameters = [p for p in inspect.signature(function).parameters if p != "self"]
    if inspect.isclass(function):  # its constructor's arguments, said on the class
        function = function.__init__
    if parameters:
        assert "\nArgs:\n" in doc, function
        for name in parameters:
            assert f"\n    {name}: " in doc or f"\n    **{name}: " in doc, (function, name)
    if inspect.signature(function).return_annotation not in ("None", None):
        assert "\nReturns:\n" in doc, function
