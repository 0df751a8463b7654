"""Fuzzing of training settings: hostile values for every setting of the trainers' configs.

Each case starts from a small valid config of one trainer (``TrainConfig`` for MaskablePPO,
``BatchedPPOConfig`` for the batched trainer, ``DMCConfig`` for Deep Monte-Carlo and
``DistributedDMCConfig`` for it on Ray workers) and
changes one or two settings to a hostile
value (a wrong type, NaN or an infinity, a bool for an int, an ``int`` or ``float`` subclass
that lies about its value, an out-of-range or huge number, a list of the wrong things), or
sets a game option to one, or names a setting that does not exist, or asks for a rollout of
up to 2**16 envs of 2**16 steps. The outcome is

- ``refused``: ``TypeError``/``ValueError`` whose message names a changed setting, by the
  settings check and then by the trainer itself (``train``, ``train_batched``,
  ``train_dmc``), with nothing
  written in the run's directory;
- ``accepted``: the check returned the config with every value plain, of a type its field
  declares (an ``int`` field holds an ``int``, never a bool), every float finite, and
  ``config.json``'s strict JSON made of it.

Anything else is a failure, as is memory grown by more than ``MAX_GROWTH_MB`` (a check that
allocated what a setting only asked for). Nothing trains: an accepted config is only checked.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from presages_env.fuzzing import FuzzReport, memory_growth, peak_memory_mb
from presages_env.games import DEFAULT_GAME, get_game
from presages_env.training import dmc, dmc_ray
from presages_env.training.batched_ppo import (
    BatchedPPOConfig,
    check_config,
    game_config,
    train_batched,
)
from presages_env.training.self_play import TrainConfig, check_train_config, train
from presages_env.training.settings import config_json, shown

# The trainers' entry points run on refused cases where the train extra is installed (a test
# requiring the extra checks that they do: tests/training/test_training_settings.py).
HAS_TRAIN = all(importlib.util.find_spec(name) for name in ("torch", "sb3_contrib"))


class PlainSubclass(int):
    """An int subclass that tells the truth (an ``IntEnum`` member is one)."""


class LyingInt(int):
    """An int subclass whose own conversions and comparisons report another value."""

    def __int__(self) -> int:
        return 10**6

    def __index__(self) -> int:
        return 10**6

    def __float__(self) -> float:
        return math.nan

    def __lt__(self, other: Any) -> bool:
        return False

    __gt__ = __le__ = __ge__ = __lt__


class LyingFloat(float):
    """A float subclass whose own conversion and comparisons report another value."""

    def __float__(self) -> float:
        return math.nan

    def __lt__(self, other: Any) -> bool:
        return False

    __gt__ = __le__ = __ge__ = __lt__


HOSTILE: tuple[Any, ...] = (
    None, True, False, np.bool_(True),
    0, 1, 2, -1, 3, 7, 2**16, 2**16 + 1, 2**24, 2**31, 2**62, 2**62 + 1, 2**63, -(2**63),
    10**30, 10**400, np.int64(5), np.uint64(2**64 - 1), np.int8(-3),
    PlainSubclass(4), PlainSubclass(-4), LyingInt(3), LyingInt(-5),
    0.0, 0.5, 1.0, -0.5, 1.5, 2.0, 1e-9, 1e300, -1e300,
    math.nan, math.inf, -math.inf, np.float32(0.25), np.float64(math.nan), np.float16(math.inf),
    LyingFloat(0.5), LyingFloat(-2.0),
    "", "x", "nan", "1", "0.5", "true", "random", "heuristic", "cpu", "cuda", "cuda:7",
    "auto", "raw", "global", "bfloat16", "shipped", DEFAULT_GAME, "\ud800", "x" * 10_000,
    [], (), [1], [64, 64], (16, True), [0], [-1], [2**40], [1.5], ["random"], ("nobody",),
    ["random", "heuristic"], ["random"] * 100, "heuristic,random", {}, {"x": 1},
    b"bytes", object(), Path("run"), {1, 2},
)  # fmt: skip
UNKNOWN_NAMES = ("learning_rat", "gama", "", "_", "__class__", "lr", "Num_envs", "x" * 200)


@dataclass(frozen=True)
class Trainer:
    """One trainer: its small valid config, how a change builds one, its check and its
    entry point (which must refuse what the check refuses, before writing anything)."""

    name: str
    base: Callable[[str, str], Any]  # (game, out_dir) -> a small valid config
    build: Callable[[Any, dict[str, Any]], Any]  # (base, changes) -> config
    check: Callable[[Any], Any]
    entry: Callable[[Any], Any]
    sizes: tuple[str, str]  # the two settings whose product is the rollout's rows


def _batched_base(game: str, out_dir: str) -> BatchedPPOConfig:
    return game_config(
        game,
        num_envs=2,
        rollout_steps=4,
        minibatch_size=8,
        n_epochs=1,
        total_timesteps=16,
        time_budget_s=None,
        net_arch=(16,),
        device="cpu",
        eval_games=2,
        eval_opponents=("random",),
        out_dir=out_dir,
    )


def _sb3_base(game: str, out_dir: str) -> TrainConfig:
    return TrainConfig(
        game=game,
        num_envs=2,
        rollout_steps=8,
        minibatch_size=16,
        n_epochs=1,
        total_timesteps=64,
        time_budget_s=None,
        net_arch=(16,),
        warm_start=None,
        eval_games=2,
        out_dir=out_dir,
    )


def _scorer_ppo_base(game: str, out_dir: str) -> BatchedPPOConfig:
    """The batched trainer with an action scorer as its policy."""
    return dataclasses.replace(
        _batched_base(game, out_dir),
        policy="action_features",
        action_net_arch=(8,),
        head_net_arch=(16,),
    )


def _dmc_base(game: str, out_dir: str) -> dmc.DMCConfig:
    return dmc.dmc_config(
        game=game,
        num_envs=2,
        rollout_steps=4,
        minibatch_size=8,
        total_timesteps=16,
        time_budget_s=None,
        net_arch=(16,),
        action_net_arch=(8,),
        head_net_arch=(16,),
        buffer_size=64,
        decisions_per_game=16,
        device="cpu",
        eval_games=2,
        eval_opponents=("random",),
        out_dir=out_dir,
    )


def _dmc_ray_base(game: str, out_dir: str) -> dmc_ray.DistributedDMCConfig:
    """DMC on one Ray worker: never started, since only refused cases reach ``train``."""
    settings = dataclasses.asdict(_dmc_base(game, out_dir))
    return dmc_ray.distributed_config(**settings, workers=1)


def _built_by(make: Callable[..., Any]) -> Callable[[Any, dict[str, Any]], Any]:
    """A ``build`` whose unknown names go through ``make`` (settings by name, as the command
    line's ``--set`` gives them), which must refuse them."""

    def build(base: Any, changes: dict[str, Any]) -> Any:
        fields = {field.name for field in dataclasses.fields(base)}
        if set(changes) <= fields:
            return dataclasses.replace(base, **changes)
        return make(**{**dataclasses.asdict(base), **changes})

    return build


TRAINERS = (
    Trainer(
        "TrainConfig",
        _sb3_base,
        lambda base, changes: dataclasses.replace(base, **changes),
        check_train_config,
        train,
        ("num_envs", "rollout_steps"),
    ),
    Trainer(
        "BatchedPPOConfig",
        _batched_base,
        _built_by(game_config),
        check_config,
        train_batched,
        ("num_envs", "rollout_steps"),
    ),
    Trainer(
        "BatchedPPOConfig, action-feature policy",
        _scorer_ppo_base,
        _built_by(game_config),
        check_config,
        train_batched,
        ("num_envs", "rollout_steps"),
    ),
    Trainer(
        "DMCConfig",
        _dmc_base,
        _built_by(dmc.dmc_config),
        dmc.check_config,
        dmc.train_dmc,
        ("num_envs", "decisions_per_game"),
    ),
    Trainer(
        "DistributedDMCConfig",
        _dmc_ray_base,
        _built_by(dmc_ray.distributed_config),
        dmc_ray.check_distributed,
        dmc_ray.train,
        ("num_envs", "decisions_per_game"),
    ),
)


def _describe(value: Any) -> str:
    return f"{type(value).__name__} {shown(value)}"


def hostile_value(rng: np.random.Generator) -> Any:
    return HOSTILE[rng.integers(len(HOSTILE))]


def draw_changes(
    trainer: Trainer, base: Any, rng: np.random.Generator, run_dir: str
) -> dict[str, Any]:
    """The settings one case changes (see the module's docstring)."""
    names = [field.name for field in dataclasses.fields(base)]
    kind = rng.integers(10)
    if kind == 0:
        return {UNKNOWN_NAMES[rng.integers(len(UNKNOWN_NAMES))]: hostile_value(rng)}
    if kind == 1:
        option_names = [f.name for f in dataclasses.fields(get_game(base.game).Options)]
        option = (option_names + ["no_such_option"])[rng.integers(len(option_names) + 1)]
        return {"game_options": {option: hostile_value(rng)}}
    if kind == 2:
        return {size: int(2 ** rng.integers(8, 17)) for size in trainer.sizes}
    if kind == 3:
        name = str(rng.choice(names))
        return {name: neighbour(getattr(base, name), rng)}
    count = 2 if kind == 4 else 1
    chosen = rng.choice(names, size=count, replace=False)
    return {str(name): _value_for(str(name), rng, run_dir) for name in chosen}


def neighbour(value: Any, rng: np.random.Generator) -> Any:
    """A value like the valid ``value`` in another form: a NumPy scalar or an int subclass
    for an int, a list for a tuple, a NumPy bool for a bool, another size or rate."""
    if isinstance(value, bool):
        return [not value, np.bool_(value)][rng.integers(2)]
    if isinstance(value, int):
        return [np.int64(value), PlainSubclass(value), value + 1, max(1, value // 2)][
            rng.integers(4)
        ]
    if isinstance(value, float):
        return [np.float32(value), np.float64(value / 2), LyingFloat(value)][rng.integers(3)]
    if isinstance(value, tuple):
        return list(value)
    return value


def _value_for(name: str, rng: np.random.Generator, run_dir: str) -> Any:
    """A hostile value; a path setting gets one that could never land outside ``run_dir``."""
    value = hostile_value(rng)
    if name == "out_dir" and isinstance(value, str):
        return str(Path(run_dir) / "\ud800") if rng.integers(2) else run_dir + "/" + "x" * 5000
    return value


def named(error: Exception, changes: dict[str, Any]) -> bool:
    """Whether ``error``'s message names one of the changed settings."""
    message = str(error)
    return any(name in message or repr(name) in message for name in changes)


def field_types(config: Any) -> dict[str, set[type]]:
    """The Python types each field of ``config`` declares (``int | None``: int, NoneType)."""
    words = {"int": int, "float": float, "bool": bool, "str": str, "dict": dict, "None": type(None)}
    types = {}
    for field in dataclasses.fields(config):
        declared = str(field.type)
        found = {kind for word, kind in words.items() if word in declared.split(" | ")}
        if declared.startswith("tuple[") or " | tuple[" in declared:
            found.add(tuple)
        types[field.name] = found
    return types


def plainness_problem(checked: Any, types: dict[str, set[type]]) -> str | None:
    """What is wrong with an accepted config's values, if anything."""
    for name, kinds in types.items():
        value = getattr(checked, name)
        if type(value) not in kinds:
            declared = sorted(kind.__name__ for kind in kinds)
            return f"accepted {name} as {_describe(value)}; the field declares {declared}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"accepted a non-finite {name}: {value}"
        if isinstance(value, tuple) and any(isinstance(item, bool) for item in value):
            return f"accepted a bool among {name}: {value}"
    try:
        config_json(checked)
    except (TypeError, ValueError) as error:
        return f"accepted a config whose config.json cannot be written: {error}"
    return None


def run_case(
    trainer: Trainer, base: Any, changes: dict[str, Any], run_dir: Path
) -> tuple[str, str | None]:
    """``(outcome, problem)``: ``"refused"``, ``"accepted"`` or ``"failed"``, and what went
    wrong, if anything."""
    peak = peak_memory_mb()
    config = None
    try:
        config = trainer.build(base, changes)
        checked = trainer.check(config)
    except (TypeError, ValueError) as error:
        if not named(error, changes):
            return "failed", f"refused without naming the setting: {type(error).__name__}: {error}"
        problem = entry_refuses(trainer, config, run_dir) or memory_growth(peak)
        return ("failed" if problem else "refused"), problem
    except Exception as error:  # every other exception is what the fuzz looks for
        return "failed", f"{type(error).__name__}: {error}"
    problem = plainness_problem(checked, field_types(base)) or memory_growth(peak)
    return ("failed" if problem else "accepted"), problem


def entry_refuses(trainer: Trainer, config: Any, run_dir: Path) -> str | None:
    """A problem if the trainer's entry point does not refuse ``config`` (a config the
    check refused; None: it could not be built) with a ``TypeError``/``ValueError``, or
    writes anything first (then it is removed, so that the next case starts clean)."""
    problem = None
    if config is not None and HAS_TRAIN:
        try:
            trainer.entry(config)
            problem = "the settings check refused it but the trainer ran"
        except (TypeError, ValueError):
            pass
        except Exception as error:  # the trainer must refuse as its check does
            problem = f"the trainer failed otherwise: {type(error).__name__}: {error}"
    if run_dir.exists():
        shutil.rmtree(run_dir)
        problem = problem or "a refused config wrote its run directory"
    return problem


def fuzz_training_settings(game_name: str, cases: int, seed: int = 0) -> FuzzReport:
    """``cases`` hostile settings of every trainer for ``game_name``, deterministic in
    ``seed``; see the module's docstring for what passes."""
    rng = np.random.default_rng(seed)
    report = FuzzReport(game_name)
    with tempfile.TemporaryDirectory(prefix="training_settings_") as folder:
        run_dir = Path(folder) / "run"
        bases = [(trainer, trainer.base(game_name, str(run_dir))) for trainer in TRAINERS]
        for trainer, base in bases:  # imports and first checks are no case's growth
            run_case(trainer, base, {"eval_games": 0}, run_dir)
        for case in range(cases):
            trainer, base = bases[rng.integers(len(bases))]
            changes = draw_changes(trainer, base, rng, str(run_dir))
            outcome, problem = run_case(trainer, base, changes, run_dir)
            report.cases += 1
            report.outcomes[outcome] += 1
            if problem:
                shown = ", ".join(f"{k}={_describe(v)}" for k, v in changes.items())
                report.failures.append(f"case {case}: {trainer.name} with {shown}: {problem}")
    return report
