"""Ray for the tests that need it: skipped in the main venv, required in `make test-rllib`.

Ray pins an older gymnasium, so it lives in its own venv; there ``PRESAGES_REQUIRE_RAY=1``
turns a missing Ray into a failure instead of a silent skip.
"""

import importlib
import os

import pytest


def import_ray():
    if os.environ.get("PRESAGES_REQUIRE_RAY"):
        return importlib.import_module("ray")
    return pytest.importorskip("ray", reason="Ray runs in `make test-rllib`'s own venv")
