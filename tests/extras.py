"""What a test needs beyond the core: skipped with the reason where it is missing, a failure
where the run requires it.

``PRESAGES_REQUIRE_EXTRAS`` names the extras a run must have, comma-separated (``1`` or
``all``: every one of :data:`EXTRAS`). ``make test`` sets it per venv: the main venv requires
``train,openspiel,native,lab,ray``, the RLlib venv ``train,rllib,tianshou`` (``.ci/run`` adds
``browser``). A missing extra then fails the test that needs it instead of skipping it, so a
broken install cannot pass as a green run.
"""

from __future__ import annotations

import importlib
import os
import shutil
from types import ModuleType

import pytest

# Each extra: the modules (first: the one :func:`require` returns) or programs it provides.
EXTRAS: dict[str, tuple[str, ...]] = {
    "train": ("torch", "stable_baselines3", "sb3_contrib"),
    "openspiel": ("pyspiel",),
    "rllib": ("ray", "ray.rllib"),
    "ray": ("ray",),  # Ray Core: Deep Monte-Carlo's workers (training/dmc_ray.py)
    "tianshou": ("tianshou",),
    "lab": ("fastapi", "sqlalchemy", "alembic", "uvicorn", "psycopg", "httpx", "pyarrow"),
    "docs": ("mkdocs", "material", "mkdocstrings"),
}
# Not pip extras: the compiled OpenSpiel games (built by ``make test``, need a C++ compiler),
# and the Chromium driven by the replay page's tests (a system package).
BUILT = ("native", "browser", "postgresql")  # postgresql: a server tests/lab can start
WHERE = {
    "train": 'pip install -e ".[train]"',
    "openspiel": 'pip install -e ".[openspiel]"',
    "rllib": "`make test-rllib`'s venv (Ray pins an older gymnasium)",
    "ray": 'pip install -e ".[ray]"',
    "tianshou": "`make test-rllib`'s venv",
    "native": "python -m presages_env.integrations.openspiel_native (a C++ compiler)",
    "browser": "apt-get install chromium chromium-driver",
    "lab": 'pip install -e ".[lab]"',
    "docs": 'pip install -e ".[docs]"',
    "postgresql": "apt-get install postgresql (its initdb and postgres), or PRESAGES_LAB_PG_URL",
}
VARIABLE = "PRESAGES_REQUIRE_EXTRAS"


def required() -> frozenset[str]:
    """The extras this run must have, from ``PRESAGES_REQUIRE_EXTRAS``."""
    value = os.environ.get(VARIABLE, "").strip()
    if value in ("1", "all"):
        return frozenset(EXTRAS) | frozenset(BUILT)
    names = frozenset(name.strip() for name in value.split(",") if name.strip())
    unknown = names - set(EXTRAS) - set(BUILT)
    if unknown:
        raise pytest.UsageError(f"{VARIABLE} names unknown extras {sorted(unknown)}")
    return names


def require(extra: str) -> ModuleType | None:
    """The extra's main module (None for ``native`` and ``browser``), or the calling test (or
    module, at import) skipped saying what to install; a failure where it is required."""
    try:
        return _load(extra)
    except Missing as error:
        reason = f"needs {extra} ({WHERE[extra]}): {error}"
        if extra in required():
            pytest.fail(f"{reason}; {VARIABLE} requires it", pytrace=False)
        pytest.skip(reason, allow_module_level=True)


class Missing(Exception):
    """What the extra lacks here."""


def _load(extra: str) -> ModuleType | None:
    """Loads the extra; :class:`Missing` where it is not installed (any other error is the
    test's failure, not a skip)."""
    if extra == "native":
        _load("openspiel")
        from presages_env import openspiel

        try:
            openspiel.register_native()
        except openspiel.NativeUnavailable as why:
            raise Missing(f"the compiled games cannot be built here: {why}") from why
        return None
    if extra == "browser":
        if not (shutil.which("chromium") or shutil.which("chromium-browser")):
            raise Missing("no chromium on PATH")
        if not shutil.which("chromedriver"):
            raise Missing("no chromedriver on PATH")
        return None
    if extra == "postgresql":
        if not (os.environ.get("PRESAGES_LAB_PG_URL") or postgres_bin()):
            raise Missing("no PostgreSQL server programs (initdb, pg_ctl) here")
        return None
    try:
        modules = [importlib.import_module(name) for name in EXTRAS[extra]]
    except ImportError as error:
        raise Missing(f"{type(error).__name__}: {error}") from error
    return modules[0]


def postgres_bin() -> str | None:
    """The folder of a local PostgreSQL's initdb and pg_ctl (Debian keeps them out of PATH)."""
    import glob

    found = shutil.which("initdb") and shutil.which("pg_ctl")
    if found:
        return os.path.dirname(found)
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version, reverse=True)
    return next((f for f in folders if os.path.exists(os.path.join(f, "initdb"))), None)


def _version(folder: str) -> tuple[int, ...]:
    """``/usr/lib/postgresql/16/bin`` -> ``(16,)``: newest first by number, not by text."""
    release = os.path.basename(os.path.dirname(folder))
    return tuple(int(part) for part in release.split(".") if part.isdigit())
