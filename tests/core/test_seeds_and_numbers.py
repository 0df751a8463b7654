"""Seeds and numbers at every public entry point: one rule, refused with a message.

Every entry point of the numbers fuzz's table (:func:`presages_env.fuzzing.numbers.entry_points`:
make, make_vec, the env resets, Gymnasium's and SB3's views, agents, setup_position, options,
tournaments) and the training and RLlib entry points below are walked with values no seed or
count may take; the object a refused call was made on must be unchanged. Then the fuzz runs
random good and bad values through the table for every game.
"""

from __future__ import annotations

import numpy as np
import pytest
from extras import require

import presages_env
from presages_env.agents import RandomAgent
from presages_env.core.validation import check_seed, check_seeds, offset_seed, vector_seed
from presages_env.fuzzing import numbers
from presages_env.fuzzing.numbers import entry_points, fuzz_numbers
from presages_env.training import LearnerBatch

GAMES = presages_env.list_games()
# -1, a float, a bool, beyond int64, beyond any bound as uint64, a string, NaN; None where
# the entry point does not take it.
BAD_VALUES = [-1, 1.5, True, 2**63, np.uint64(2**64 - 1), "3", None, float("nan")]


def assert_refused(call, value, fingerprint=None) -> None:
    """``call(value)`` raises TypeError/ValueError with a message; ``fingerprint()``, if
    given, is the same before and after."""
    before = fingerprint() if fingerprint else None
    with pytest.raises((TypeError, ValueError)) as refused:
        call(value)
    assert str(refused.value), f"{value!r} refused without a message"
    if fingerprint:
        assert fingerprint() == before, f"refusing {value!r} changed the object"


@pytest.mark.parametrize(
    "name, entry",
    [
        pytest.param(name, entry, id=f"{name}:{entry.name}")
        for name in GAMES
        for entry in entry_points(name)
    ],
)
def test_every_entry_point_refuses_what_no_seed_or_count_may_be(name, entry):
    for value in BAD_VALUES:
        if value is None and entry.none_ok:
            continue
        assert not entry.accepts(value)
        target = entry.setup() if entry.setup else None
        before = entry.fingerprint(target) if entry.fingerprint else None
        with pytest.raises((TypeError, ValueError)) as refused:
            entry.call(target, value)
        assert str(refused.value), f"{value!r} refused without a message"
        if entry.fingerprint:
            assert entry.fingerprint(target) == before, f"refusing {value!r} changed the object"


def training_entry_points(tmp_path):
    """The training helpers the fuzz does not run (their accepted values train)."""
    from presages_env.training.imitation import imitate, teacher_games
    from presages_env.training.populations import from_scratch_config
    from presages_env.training.self_play import TrainConfig, train
    from presages_env.training.vec_env import SelfPlayVecEnv

    out = tmp_path / "run"
    data = (np.zeros((1, 1)), np.ones((1, 2), np.int8), np.zeros(1, np.int64), None)
    return {
        "LearnerBatch(seed)": lambda v: LearnerBatch("president", 2, [RandomAgent(1)], seed=v),
        "LearnerBatch(max_steps)": lambda v: LearnerBatch(
            "president", 2, [RandomAgent(1)], max_steps=v
        ),
        "SelfPlayVecEnv(num_envs)": lambda v: SelfPlayVecEnv("president", v, [RandomAgent(1)]),
        "SelfPlayVecEnv(max_steps)": lambda v: SelfPlayVecEnv(
            "president", 2, [RandomAgent(1)], max_steps=v
        ),
        "teacher_games(samples)": lambda v: teacher_games("president", RandomAgent(1), v, None, 0),
        "teacher_games(seed)": lambda v: teacher_games("president", RandomAgent(1), 10, None, v),
        "imitate(seed)": lambda v: imitate(None, data, seed=v),
        "from_scratch_config(seed)": lambda v: from_scratch_config("president", v, out),
        "train(TrainConfig(seed))": lambda v: train(TrainConfig(seed=v, out_dir=str(out))),
    }


def test_training_entry_points_refuse_bad_seeds_and_counts(tmp_path):
    require("train")
    for name, call in training_entry_points(tmp_path).items():
        for value in BAD_VALUES:
            try:
                assert_refused(call, value)
            except AssertionError as error:
                raise AssertionError(f"{name} with {value!r}: {error}") from None
    assert not (tmp_path / "run").exists(), "a refused run wrote its folder"


def test_seed_lists_and_offsets_follow_the_one_seed_rule():
    assert check_seeds([0, 2**63 - 1, np.int64(3)], 3) == [0, 2**63 - 1, 3]
    assert vector_seed((7, 8), 2) == 7 and vector_seed(np.uint8(9), 2) == 9
    assert offset_seed(2**63 - 1, 1) == 0 and offset_seed(5, 12345) == 12350
    for seeds in ([1, True], [1, 2.0], "12", np.array([1, 2])):
        with pytest.raises((TypeError, ValueError), match="seed"):
            check_seeds(seeds, 2)
    with pytest.raises(ValueError, match="seed"):
        offset_seed(-1, 1)
    assert check_seed(np.uint64(2**63 - 1)) == 2**63 - 1


def test_the_numbers_fuzz_covers_sb3s_view_where_training_is_required():
    """The fuzz leaves SB3's view out where the train extra is missing; a run requiring the
    extra must fuzz it."""
    require("train")
    names = {entry.name for entry in entry_points(GAMES[0])}
    assert {"SelfPlayVecEnv(seed=...)", "SelfPlayVecEnv.seed(...)"} <= names
    assert not numbers.skipped_views()


def test_the_numbers_fuzz_reports_what_it_left_out(monkeypatch):
    """Without the train extra SB3's view is not fuzzed: the report says so, and why."""
    monkeypatch.setattr(numbers, "HAS_SB3", False)
    assert not any(entry.name.startswith("SelfPlayVecEnv") for entry in entry_points(GAMES[0]))
    report = fuzz_numbers(GAMES[0], cases=2)
    assert "skipped SelfPlayVecEnv (stable_baselines3 missing: the train extra)" in report.line()


@pytest.mark.parametrize("name", GAMES)
def test_numbers_fuzz_finds_nothing(name):
    report = fuzz_numbers(name, cases=300, seed=11)
    assert report.cases == 300
    assert report.outcomes["accepted"] and report.outcomes["refused"], report.line()
    assert not report.failures, "\n".join(report.failures[:20])
