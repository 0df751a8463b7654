"""Training settings: each one's type and range declared once, checked before a run starts.

A trainer's config is a dataclass; its module declares a rule for every field (a table
``{name: rule}``, most rules shared through :data:`COMMON_RULES`) and calls
:func:`checked_settings`, which returns the config with every value checked and made a plain
Python value (an int subclass or NumPy scalar becomes an ``int`` or ``float``, a list of
names a tuple), or raises a ``TypeError``/``ValueError`` naming the setting and what it
allows. Then the settings that depend on the game (:func:`check_game_settings`, which
resolves the run's game once) and the size of the rollout (:func:`check_rollout_memory`).
All of it runs before ``config.json`` is written and before any env, buffer or network is
built; :func:`config_json` then writes strict JSON (a NaN that got past would be refused
rather than written as a bare ``NaN``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

from presages_env.agents.checkpoint import MAX_DEPTH, MAX_PARAMETERS, MAX_WIDTH, expected_shapes
from presages_env.agents.features import FEATURES, make_features
from presages_env.core.game import Game
from presages_env.core.validation import (
    MAX_NUM_ENVS,
    MAX_NUM_GAMES,
    check_seed,
    check_text,
    exact_int,
    plain_ints,
)
from presages_env.games import GAME_CLASSES
from presages_env.games.run_spec import RunSpec, resolve_run
from presages_env.training.critic_input import critic_state_size
from presages_env.training.opponents import BASELINE_OPPONENTS

CRITICS = ("local", "global")
MAX_COUNT = 2**62  # steps, updates, rollouts between events: beyond any run
MAX_PATH = 4096  # characters of a path setting (Linux's PATH_MAX)
MAX_OPPONENTS = 64  # names in an opponent list
MAX_SNAPSHOTS = 256  # frozen copies of the learner kept in the pool
MAX_EPOCHS = 1000
MAX_ROLLOUT_STEPS = 2**16  # steps of each env in one rollout
MAX_MINIBATCH = 2**24
MAX_OPTION_NAME = 100  # characters of a game option's name
MAX_PLAYERS = 64  # a player count's type check; the game then checks its own range
# Decisions one warm start clones (imitation.teacher_games): about 1 GB of Présages
# observations; the docs clone 200,000.
MAX_TEACHER_SAMPLES = 10**6
# Where the machine's memory cannot be read (os.sysconf is POSIX): the rollout limit.
FALLBACK_MEMORY_BYTES = 64 * 2**30

ConfigT = TypeVar("ConfigT")


class Rule(Protocol):
    """Checks one setting: returns it as a plain value, or raises naming ``name``."""

    def __call__(self, value: Any, name: str) -> Any: ...


def config_of(kind: type[ConfigT], settings: dict[str, Any]) -> ConfigT:
    """A ``kind`` config of ``settings`` (by name, as a command line's ``--set`` gives them),
    the others at their defaults; an unknown name is refused, naming the known ones."""
    fields = {field.name for field in dataclasses.fields(kind)}
    unknown = sorted(set(settings) - fields)
    if unknown:
        raise ValueError(f"unknown settings {unknown}; the settings are {sorted(fields)}")
    return kind(**settings)


def shown(value: Any) -> str:
    """``value`` for a message: short, and never raising (a 5000-digit int cannot be
    printed)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"an int of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def written(bound: int) -> str:
    """A bound as a person reads it: ``2**62`` rather than its 19 digits."""
    if bound >= 2**20 and bound & (bound - 1) == 0:
        return f"2**{bound.bit_length() - 1}"
    return str(bound)


@dataclass(frozen=True)
class Count:
    """An int (never a bool) in ``[low, high]``."""

    low: int
    high: int

    def __call__(self, value: Any, name: str) -> int:
        expected = f"an int in [{written(self.low)}, {written(self.high)}]"
        number = exact_int(value, name, expected)
        if not self.low <= number <= self.high:
            raise ValueError(f"{name} must be {expected}, got {shown(number)}")
        return number


@dataclass(frozen=True)
class Real:
    """A finite number (an int or float, never a bool) between ``low`` and ``high`` (None:
    unbounded above); ``low_open``: ``low`` itself excluded."""

    low: float
    high: float | None = None
    low_open: bool = False

    @property
    def expected(self) -> str:
        if self.high is None:
            return f"a finite number {'>' if self.low_open else '>='} {self.low:g}"
        return f"a finite number in {'(' if self.low_open else '['}{self.low:g}, {self.high:g}]"

    def __call__(self, value: Any, name: str) -> float:
        number = plain_float(value, name, self.expected)
        above_low = number > self.low if self.low_open else number >= self.low
        if not (math.isfinite(number) and above_low and (self.high is None or number <= self.high)):
            raise ValueError(f"{name} must be {self.expected}, got {shown(value)}")
        return number


def plain_float(value: Any, name: str, expected: str) -> float:
    """``value`` as a float, read without its own conversions (an int subclass's true value,
    a float subclass's stored one); an int too large for a float becomes infinity."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        number = exact_int(value, name, expected)
        if number.bit_length() > 1000:  # float() would overflow
            return math.inf if number > 0 else -math.inf
        return float(number)
    if isinstance(value, float):
        return float.__float__(value)
    if isinstance(value, np.floating):
        return float(value)
    raise TypeError(f"{name} must be {expected}, got {type(value).__name__} {shown(value)}")


@dataclass(frozen=True)
class Flag:
    """``True`` or ``False`` (a bool, not 0, 1 or ``"yes"``)."""

    def __call__(self, value: Any, name: str) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(
                f"{name} must be True or False, got {type(value).__name__} {shown(value)}"
            )
        return bool(value)


@dataclass(frozen=True)
class Choice:
    """One of ``choices`` (strings)."""

    choices: tuple[str, ...]

    def __call__(self, value: Any, name: str) -> str:
        if not isinstance(value, str):
            raise TypeError(
                f"{name} must be one of {list(self.choices)}, got {type(value).__name__} "
                f"{shown(value)}"
            )
        if value not in self.choices:
            raise ValueError(f"{name} must be one of {list(self.choices)}, got {shown(value)}")
        return str(value)


@dataclass(frozen=True)
class Text:
    """A string of at most ``max_length`` characters, valid Unicode (a path)."""

    max_length: int = MAX_PATH

    def __call__(self, value: Any, name: str) -> str:
        return str(check_text(value, name, self.max_length))


@dataclass(frozen=True)
class OrNone:
    """``None``, or a value ``rule`` accepts."""

    rule: Rule

    def __call__(self, value: Any, name: str) -> Any:
        return None if value is None else self.rule(value, name)


@dataclass(frozen=True)
class ListOf:
    """A list or tuple of ``min_length`` to ``max_length`` items, each by ``rule``; a tuple."""

    rule: Rule
    min_length: int
    max_length: int

    def __call__(self, value: Any, name: str) -> tuple:
        expected = f"a list of {self.min_length} to {self.max_length} items"
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"{name} must be {expected}, got {type(value).__name__} {shown(value)}")
        if not self.min_length <= len(value) <= self.max_length:
            raise ValueError(f"{name} must be {expected}, got {len(value)}")
        return tuple(self.rule(item, f"{name}[{i}]") for i, item in enumerate(value))


@dataclass(frozen=True)
class Seed:
    """A seed, by the rule every entry point shares (:func:`check_seed`)."""

    def __call__(self, value: Any, name: str) -> int:
        return check_seed(value, name)


@dataclass(frozen=True)
class Options:
    """The game's options by name (a dict with string keys, JSON values); their values are
    the game's to check (:func:`check_game_settings`)."""

    def __call__(self, value: Any, name: str) -> dict:
        if not isinstance(value, Mapping):
            raise TypeError(f"{name} must be a dict of option values, got {type(value).__name__}")
        options = {}
        for key, option in value.items():
            check_text(key, f"{name} key {shown(key)}", MAX_OPTION_NAME)
            plain = plain_ints(option)  # NumPy ints and int subclasses: their true values
            if isinstance(plain, np.floating):
                plain = float(plain)
            try:
                json.dumps(plain, allow_nan=False)
            except (TypeError, ValueError, RecursionError):
                raise ValueError(
                    f"{name}[{key!r}] must be a JSON value (no NaN or infinity), got "
                    f"{type(option).__name__} {shown(option)}"
                ) from None
            options[key] = plain
        return options


@dataclass(frozen=True)
class Device:
    """``"auto"``, ``"cpu"``, ``"cuda"`` or ``"cuda:N"``; CUDA only where torch sees it."""

    def __call__(self, value: Any, name: str) -> str:
        expected = "'auto', 'cpu', 'cuda' or 'cuda:N'"
        if not isinstance(value, str):
            raise TypeError(f"{name} must be {expected}, got {type(value).__name__} {shown(value)}")
        kind, _, index = value.partition(":")
        plain_index = not index or (index.isascii() and index.isdigit())  # no "cuda:٣"
        if value in ("auto", "cpu") or (kind == "cuda" and plain_index):
            if kind == "cuda":
                check_cuda(value, name, int(index or 0))
            return str(value)
        raise ValueError(f"{name} must be {expected}, got {shown(value)}")


def check_cuda(device: str, name: str, index: int) -> None:
    """Refuse a CUDA device that torch cannot use here (torch's own refusal is a bare
    ``AssertionError`` at the first tensor moved)."""
    try:
        import torch
    except ImportError:
        raise ValueError(f"{name} is {device!r} but torch is not installed") from None

    if not torch.cuda.is_available():
        raise ValueError(
            f"{name} is {device!r} but torch sees no CUDA device here "
            "(torch.cuda.is_available() is False): use 'cpu' or 'auto'"
        )
    if index >= torch.cuda.device_count():
        raise ValueError(
            f"{name} is {device!r} but torch sees {torch.cuda.device_count()} CUDA device(s)"
        )


# ---- the rules the trainers share -----------------------------------------------------------
OPPONENT_NAMES = ListOf(Choice(BASELINE_OPPONENTS), 1, MAX_OPPONENTS)
# the learning curve's opponents; none: it records the steps only (a best response's run)
EVAL_OPPONENT_NAMES = ListOf(Choice(BASELINE_OPPONENTS), 0, MAX_OPPONENTS)
PROBABILITY = Real(0.0, 1.0)  # a share, a discount
SECONDS = Real(0.0, low_open=True)  # a time budget: NaN would never run out
LOSS_WEIGHT = Real(0.0, 10.0)
NET_ARCH = ListOf(Count(1, MAX_WIDTH), 0, MAX_DEPTH)  # hidden widths within the loader's bounds
COMMON_RULES: dict[str, Rule] = {
    "game": Choice(tuple(GAME_CLASSES)),
    "num_players": OrNone(Count(1, MAX_PLAYERS)),
    "team_play": Flag(),
    "total_timesteps": Count(1, MAX_COUNT),
    "time_budget_s": OrNone(SECONDS),
    "num_envs": Count(1, MAX_NUM_ENVS),
    "n_epochs": Count(1, MAX_EPOCHS),
    "learning_rate": Real(0.0, 1.0),  # 0: the weights stay (a frozen leg)
    "gamma": PROBABILITY,
    "ent_coef": LOSS_WEIGHT,
    # the saved policy.pt must pass the checkpoint loader's bounds
    "net_arch": NET_ARCH,
    "action_net_arch": NET_ARCH,  # an action scorer's
    "head_net_arch": NET_ARCH,
    "features": Choice(tuple(FEATURES)),
    "critic": Choice(CRITICS),
    "baseline_opponents": OPPONENT_NAMES,
    "max_snapshots": Count(0, MAX_SNAPSHOTS),
    "snapshot_every": Count(0, MAX_COUNT),  # 0: no snapshots
    "rollout_steps": Count(1, MAX_ROLLOUT_STEPS),
    "minibatch_size": Count(1, MAX_MINIBATCH),
    "pool_share": PROBABILITY,
    "device": Device(),
    "eval_opponents": EVAL_OPPONENT_NAMES,
    "eval_every": Count(1, MAX_COUNT),
    "eval_games": Count(2, MAX_NUM_GAMES),  # two give a confidence interval
    "seed": Seed(),
    "out_dir": Text(),
    "game_options": Options(),
}


def trainer_rules(config_type: type, own: Mapping[str, Rule]) -> dict[str, Rule]:
    """The rule of each setting of ``config_type``: the shared rule of a shared setting,
    unless ``own`` (the trainer's own settings, or its narrower ranges) gives one."""
    names = [field.name for field in dataclasses.fields(config_type)]
    shared = {name: COMMON_RULES[name] for name in names if name in COMMON_RULES}
    return {**shared, **own}


def seconds_argument(text: str) -> float:
    """An argparse ``type`` for a time budget on a command line: finite seconds above 0."""
    try:
        return SECONDS(float(text), "a time budget")
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def checked_settings(config: ConfigT, rules: Mapping[str, Rule]) -> ConfigT:
    """A copy of the dataclass ``config`` with every field checked by its rule in ``rules``
    (one per field) and made a plain value; raises on the first bad one."""
    plain = {
        field.name: rules[field.name](getattr(config, field.name), field.name)
        for field in dataclasses.fields(config)
    }
    return dataclasses.replace(config, **plain)


def check_game_settings(config: Any) -> RunSpec:
    """The run of a checked config (its game resolved once, ``num_players`` and
    ``game_options`` checked by the game: :func:`~presages_env.games.run_spec.resolve_run`)."""
    return resolve_run(config.game, config.num_players, config.game_options)


def check_policy_size(config: Any, spec: RunSpec) -> None:
    """Refuse a ``net_arch`` too large for the checkpoint loader at the run's sizes (a PPO
    policy over ``config.features``)."""
    check_network_size(
        config.net_arch,
        feature_size(spec.game, spec.num_players, config.features),
        spec.num_actions,
    )


def feature_size(game: Game, num_players: int, features: str) -> int:
    """How many numbers the policy reads per decision."""
    maker = make_features(features, game, game.num_actions(num_players))
    return maker.low_high(game.obs_low(num_players), game.obs_high(num_players))[0].size


def learner_input_size(game: Game, num_players: int, features: str, critic: str) -> int:
    """Numbers per decision in the rollout: the features, and with the global critic the
    global state and a one-hot of the seat."""
    size = feature_size(game, num_players, features)
    return size + (critic_state_size(game, num_players) if critic == "global" else 0)


def check_network_size(net_arch: tuple[int, ...], inputs: int, actions: int) -> None:
    """Refuse a network whose ``policy.pt`` the checkpoint loader would refuse (too many
    parameters), before it is trained."""
    metadata = {
        "net_arch": {"pi": list(net_arch), "vf": list(net_arch)},
        "observation_size": inputs,
        "num_actions": actions,
    }
    parameters = sum(math.prod(shape) for shape in expected_shapes(metadata).values())
    if parameters > MAX_PARAMETERS:
        raise ValueError(
            f"net_arch {list(net_arch)} makes a policy of {parameters:,} parameters; a "
            f"checkpoint holds at most {MAX_PARAMETERS:,}"
        )


def memory_limit() -> tuple[int, str]:
    """The bytes a rollout may take, and what that limit is."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"), "this machine's memory"
    except (AttributeError, ValueError, OSError):
        return FALLBACK_MEMORY_BYTES, "the fixed limit (this machine's memory is unknown)"


def check_rollout_memory(
    sizes: str, rows: int, row_bytes: int, workspace_bytes: int = 0, workspace_sizes: str = ""
) -> None:
    """Refuse a rollout of ``rows`` decisions of ``row_bytes`` each (``sizes`` names the
    settings that make ``rows``) whose buffers, with the ``workspace_bytes`` a step takes
    besides them (``workspace_sizes``: the settings that make it, if any), would not fit in
    the machine's memory. A step too large by itself is refused naming its own settings."""
    limit, what = memory_limit()
    available = f"more than {what} ({limit / 2**30:,.1f} GiB)"
    step = f"a step's {workspace_bytes / 2**30:,.2f} GiB"
    if workspace_sizes and workspace_bytes > limit:
        raise ValueError(f"{workspace_sizes}: {step} is {available}; lower them")
    estimate = rows * row_bytes + workspace_bytes
    if estimate > limit:
        made = f" (made by {workspace_sizes})" if workspace_sizes else ""
        besides = f" with {step}{made}" if workspace_bytes else ""
        raise ValueError(
            f"{sizes} = {rows:,} rollout rows of {row_bytes:,} bytes: the rollout buffers"
            f"{besides} would take about {estimate / 2**30:,.1f} GiB, {available}; lower them"
        )


def config_json(config: Any) -> str:
    """``config`` as strict JSON: a NaN or infinity is refused, never written bare."""
    return json.dumps(dataclasses.asdict(config), indent=2, allow_nan=False)


def write_config(config: Any) -> Path:
    """Create ``config.out_dir`` and write ``config.json`` there; returns the directory.
    The JSON is made first, so nothing is written if it cannot be."""
    text = config_json(config)
    out = Path(config.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(text)
    return out
