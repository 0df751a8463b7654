"""The compiled OpenSpiel games for the tests that need them: skipped where they cannot be
built, required where ``PRESAGES_REQUIRE_NATIVE=1`` (``make test`` builds them first and sets
it, so a broken build fails instead of skipping)."""

import os

import pytest


def register_native() -> None:
    """Register ``presages_env_<game>_native``, or skip the calling test (module)."""
    from presages_env import openspiel

    try:
        openspiel.register_native()
    except openspiel.NativeUnavailable as why:
        if os.environ.get("PRESAGES_REQUIRE_NATIVE") == "1":
            raise
        pytest.skip(f"the compiled games cannot be built here: {why}", allow_module_level=True)
