"""The batched step loop's cache hints (core/prefetch.py) read and change nothing."""

import numpy as np
import pytest

from presages_env.core.prefetch import prefetch_rows


@pytest.mark.parametrize(
    ("state_dtype", "state_size", "obs_dtype", "obs_size"),
    [(np.int8, 1937, np.int8, 840), (np.int16, 187, np.int16, 178), (np.int8, 1, np.int8, 63)],
)
def test_hints_leave_every_row_as_it_was(state_dtype, state_size, obs_dtype, obs_size):
    rng = np.random.default_rng(0)
    states = rng.integers(-100, 100, (3, state_size)).astype(state_dtype)
    obs = rng.integers(-100, 100, (3, obs_size)).astype(obs_dtype)
    before = states.copy(), obs.copy()
    for row in range(3):  # the last row too: a hint never reaches past its row
        prefetch_rows(states, obs, row)
    np.testing.assert_array_equal(states, before[0])
    np.testing.assert_array_equal(obs, before[1])
