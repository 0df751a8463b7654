"""The command line every batched trainer shares (``baselines/train_batched.py``,
``baselines/train_dmc.py``): a few flags, ``--set NAME=VALUE`` for any setting, a ``--help``
that lists every setting with its default, then the run, its plot and its curve."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from presages_env.evaluation.learning_curve import LearningCurve, plot_learning_curve, win_rates
from presages_env.training.config import TrainingRun
from presages_env.training.settings import config_json, seconds_argument

# the settings the flags give
FLAGS = {
    "game": "--game",
    "num_players": "--players",
    "time_budget_s": "--time-budget",
    "total_timesteps": "--timesteps",
    "seed": "--seed",
    "out_dir": "--out",
}
# the budgets of a command line given neither --time-budget nor --timesteps
TIME_BUDGET_S = 600.0
TOTAL_TIMESTEPS = 100_000_000


def budgets(
    time_budget_s: float | None,
    total_timesteps: int | None,
    default_seconds: float = TIME_BUDGET_S,
    most_decisions: int = TOTAL_TIMESTEPS,
) -> tuple[float | None, int]:
    """The time and decision budgets of a command line: the ones it gives; a decision
    budget given alone is the only one (no time budget stops it first); neither given,
    ``default_seconds``. A time budget given alone runs up to ``most_decisions``."""
    if time_budget_s is None and total_timesteps is None:
        return default_seconds, most_decisions
    return time_budget_s, most_decisions if total_timesteps is None else total_timesteps


class _Formatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """The epilog as written (one setting a line), each flag with its default."""


def parse_setting(text: str) -> tuple[str, Any]:
    """A command line's ``name=value`` (``n_epochs=2``, ``net_arch=[64,64]``,
    ``features=heuristic_hints``): the value read as JSON where it parses, else a string."""
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise argparse.ArgumentTypeError(f"expected name=value, got {text!r}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


@dataclasses.dataclass(frozen=True)
class Option:
    """A trainer's own flag for one of its settings (``--workers`` for ``workers``)."""

    setting: str
    flag: str
    type: Callable[[str], Any]
    help: str


def settings_epilog(defaults: Any, options: Sequence[Option] = ()) -> str:
    """Every setting of the config ``defaults`` (the flags' defaults applied) with its
    default, one a line (as JSON, the way ``--set`` reads it); those a flag gives name it."""
    plain = json.loads(config_json(defaults))
    width = max(len(field.name) for field in dataclasses.fields(defaults))
    flags = {**FLAGS, **{option.setting: option.flag for option in options}}
    lines = ["settings (--set NAME=VALUE; default):"]
    for name, value in plain.items():
        flag = f"  (or {flags[name]})" if name in flags else ""
        lines.append(f"  {name:<{width}}  {json.dumps(value)}{flag}")
    return "\n".join(lines)


def train_from_command_line(
    doc: str,
    make_config: Callable[[dict[str, Any]], Any],
    check: Callable[[Any], TrainingRun],
    train: Callable[[TrainingRun], tuple[Any, LearningCurve]],
    *,
    game: str,
    out: str,
    options: Sequence[Option] = (),
) -> None:
    """Parse the command line (``doc``: the script's docstring), build the config with
    ``make_config(settings)``, ``check`` it into a run (every setting checked and the game
    resolved, once: a bad setting is a usage error, refused before anything is written),
    ``train`` the run, plot and print its learning curve. ``options`` are the trainer's own
    flags (``--set`` may give the same settings)."""
    defaults = {
        "game": game,
        "num_players": None,
        "time_budget_s": TIME_BUDGET_S,
        "total_timesteps": TOTAL_TIMESTEPS,
        "seed": 0,
        "out_dir": out,
    }
    parser = argparse.ArgumentParser(
        description=doc,
        epilog=settings_epilog(make_config(defaults), options),
        formatter_class=_Formatter,
    )
    parser.add_argument("--game", default=game, help="the game to train on")
    parser.add_argument("--players", type=int, default=None, help="the game's default if none")
    parser.add_argument(
        "--time-budget",
        type=seconds_argument,
        default=None,
        help=f"seconds of training (with neither budget: {TIME_BUDGET_S:g})",
    )
    parser.add_argument(
        "--timesteps",
        type=int,
        default=None,
        help=f"learner decisions; given alone, no time budget (default {TOTAL_TIMESTEPS:,})",
    )
    parser.add_argument("--seed", type=int, default=0, help="of the deals, the policy, the pool")
    parser.add_argument("--out", default=out, help="the run's folder")
    parser.add_argument(
        "--set",
        nargs="*",
        type=parse_setting,
        default=[],
        metavar="NAME=VALUE",
        help="any setting listed below (the value read as JSON where it parses: numbers, "
        "lists, true/false; else a string)",
    )
    for option in options:
        parser.add_argument(option.flag, dest=option.setting, type=option.type, help=option.help)
    args = parser.parse_args()
    seconds, decisions = budgets(args.time_budget, args.timesteps)
    settings = {
        "game": args.game,
        "num_players": args.players,
        "time_budget_s": seconds,
        "total_timesteps": decisions,
        "seed": args.seed,
        "out_dir": args.out,
        **{
            o.setting: getattr(args, o.setting)
            for o in options
            if getattr(args, o.setting) is not None
        },
        **dict(args.set),
    }
    try:
        run = check(make_config(settings))
    except (TypeError, ValueError) as error:
        parser.error(str(error))
    _, curve = train(run)
    print(f"plot: {plot_learning_curve(curve, Path(run.config.out_dir) / 'learning_curve.png')}")
    for row in curve:
        rates = ", ".join(f"{name} {rate:.1%}" for name, rate in win_rates(row).items())
        print(f"{row['timesteps']:>11,} decisions {row['seconds']:>7.0f} s: {rates}")
    if curve.chance is not None:
        print(f"chance (an equally strong learner): {curve.chance:.0%}")
