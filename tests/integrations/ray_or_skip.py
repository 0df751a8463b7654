"""RLlib for the tests that need it (the ``rllib`` extra of tests/extras.py: skipped in the
main venv, required in `make test-rllib`'s, since Ray pins an older gymnasium).

RLlib reports a deprecation by logging it, once per process, not as a Python warning.
:func:`import_rllib` turns each such record into a ``DeprecationWarning`` raised at the call
that caused it, so :data:`FAIL_ON_DEPRECATIONS` (the RLlib test modules' ``pytestmark``)
fails the test whose call uses a deprecated RLlib API, and a deprecated import fails the
collection.
"""

import importlib
import logging
import re
import warnings

import pytest
from extras import require

# What RLlib logs whatever its caller does: every RLModule's constructor builds the
# deprecated RLModuleConfig (ray 2.60).
RLLIB_OWN_DEPRECATIONS = ("`RLModule(config=[RLModuleConfig object])` has been deprecated",)
IGNORED = [f"ignore:{re.escape(message)}:DeprecationWarning" for message in RLLIB_OWN_DEPRECATIONS]
FAIL_ON_DEPRECATIONS = pytest.mark.filterwarnings("error::DeprecationWarning", *IGNORED)
RAY_DEPRECATION_LOGGER = "ray._common.deprecation"  # where ray.rllib's deprecations log


class DeprecationsAsWarnings(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage().removeprefix("DeprecationWarning: ")
        warnings.warn(message, DeprecationWarning, stacklevel=2)


def import_rllib():
    """``presages_env.rllib``, imported with RLlib's deprecations raised as errors (but its
    own); later deprecations become warnings that the test modules' filters turn to errors."""
    require("rllib")
    logger = logging.getLogger(RAY_DEPRECATION_LOGGER)
    if not any(isinstance(handler, DeprecationsAsWarnings) for handler in logger.handlers):
        logger.addHandler(DeprecationsAsWarnings())
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for message in RLLIB_OWN_DEPRECATIONS:
            warnings.filterwarnings("ignore", re.escape(message), DeprecationWarning)
        return importlib.import_module("presages_env.rllib")
