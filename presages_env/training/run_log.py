"""What a training run reports as it goes, the same for every trainer: the progress bar,
TensorBoard scalars, the learning curve (``learning_curve.csv``) and where it all goes."""

from __future__ import annotations

import csv
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from presages_env.agents.base import Agent
from presages_env.core.compiling import announce_compiling
from presages_env.core.validation import offset_seed
from presages_env.evaluation.learning_curve import WIN_RATE, LearningCurve
from presages_env.training.config import TrainingRun
from presages_env.training.opponents import baseline_agent


class BudgetBar:
    """A progress bar of whichever budget binds (a time budget that runs out before the
    step total shows seconds, not a step count that will never be reached), with the
    decisions per second and the latest win rates beside their chance level."""

    def __init__(
        self, total_steps: int, time_budget_s: float | None, label: str = "self-play"
    ) -> None:
        from tqdm import tqdm

        class Bar(tqdm):  # tqdm puts ", " before a postfix: the status is a field of its own
            status = ""

            @property
            def format_dict(self) -> dict:
                return {**super().format_dict, "status": self.status}

        self.total_steps = total_steps
        self.time_budget_s = time_budget_s
        self.bar = Bar(total=100, desc=label, bar_format="{l_bar}{bar}| {status}")
        self.win_rates = ""
        self._budget = ""  # the budget spent and the decisions per second, as last drawn
        self._shown = -1.0

    @property
    def status(self) -> str:
        return self.bar.status

    def update(self, steps: int, elapsed: float) -> None:
        step_share = steps / self.total_steps
        time_share = elapsed / self.time_budget_s if self.time_budget_s else 0.0
        share = min(1.0, max(step_share, time_share))
        if share - self._shown < 0.005:  # redraw at most every half percent
            return
        self._shown = share
        self.bar.n = round(100 * share, 1)
        rate = f"{steps / elapsed:,.0f} decisions/s" if elapsed > 0 else "decisions/s to come"
        if time_share >= step_share:
            budget = f"{elapsed:.0f}/{self.time_budget_s:.0f} s, {steps:,} decisions"
        else:
            budget = f"{steps:,}/{self.total_steps:,} decisions, {elapsed:.0f} s"
        self._budget = f"{budget}, {rate}"
        self._draw()

    def show_win_rates(self, curve: LearningCurve) -> None:
        """Show the curve's latest win rates now (the last frame shows the last ones)."""
        self.win_rates = win_rates_line(curve)
        self._draw()

    def _draw(self) -> None:
        self.bar.status = ", ".join(filter(None, (self._budget, self.win_rates)))
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()


def win_rates_line(curve: LearningCurve) -> str:
    """The latest win rates in words, with the chance level of an equally strong learner
    (1 / the number of sides, from the evaluation): ``vs heuristic 31.0% (chance 25%)``."""
    rates = ", ".join(f"vs {name} {rate:.1%}" for name, rate in curve.win_rates().items())
    if rates and curve.chance is not None:
        rates += f" (chance {curve.chance:.0%})"
    return rates


class TensorBoardLog:
    """Scalars of a run in ``<out>/logs`` (``tensorboard --logdir <out>/logs``), the folder
    SB3's own logger writes to."""

    def __init__(self, out: Path) -> None:
        from torch.utils.tensorboard import SummaryWriter

        self.writer = SummaryWriter(log_dir=str(Path(out) / "logs"))

    def scalars(self, group: str, values: dict[str, float], decisions: int) -> None:
        for name, value in values.items():
            self.writer.add_scalar(f"{group}/{name}", value, decisions)

    def curve_point(self, curve: LearningCurve) -> None:
        row = curve[-1]
        rates = {f"vs_{name}": rate for name, rate in curve.win_rates().items()}
        if curve.chance is not None:
            rates["chance"] = curve.chance
        self.scalars("win_rate", rates, row["timesteps"])
        self.writer.flush()

    def close(self) -> None:
        self.writer.close()


class RunLog:
    """One run's reports: it names the output folder at the start and the end, draws the
    progress bar, writes TensorBoard scalars and the learning curve as it grows; and its
    clock, which every trainer's time budget reads, starts once start-up is over
    (:meth:`start`). The curve is measured against ``curve_opponents`` where given (a best
    response's frozen agent), else against the config's ``eval_opponents`` by name."""

    def __init__(
        self,
        run: TrainingRun,
        out: Path,
        method: str,
        label: str,
        curve_opponents: Sequence[Agent] | None = None,
    ) -> None:
        self.run, self.config, self.out, self.label = run, run.config, Path(out), label
        self.curve_opponents = curve_opponents
        self.curve = LearningCurve(method=method)
        print(f"{label}: writing to {self.out}/")
        announce_compiling([run.spec.game])  # before any env is built
        self.tensorboard = TensorBoardLog(self.out)
        self.bar: BudgetBar | None = None
        self._start: float | None = None

    def start(self, warm_up: Callable[[], None], first_point: Callable[[], None]) -> None:
        """Start-up, then the clock. ``warm_up`` compiles the game's kernels (a first run
        said so when the log was made: core/compiling.py) and runs the network forward and
        backward once, on a throwaway batch of games; ``first_point`` measures the learning
        curve where learning starts. A time budget then counts learning alone, the same on
        a cold machine as on a warm one."""
        warm_up()
        self.bar = BudgetBar(self.config.total_timesteps, self.config.time_budget_s, self.label)
        first_point()
        self._start = time.perf_counter()

    @property
    def elapsed(self) -> float:
        """Seconds since :meth:`start` (0 before)."""
        return 0.0 if self._start is None else time.perf_counter() - self._start

    def progress(self, decisions: int, scalars: dict[str, float]) -> None:
        """After an update: the bar, and the update's scalars with the decisions per second."""
        elapsed = self.elapsed
        self.bar.update(decisions, elapsed)
        if elapsed > 0:
            scalars = {**scalars, "decisions_per_s": decisions / elapsed}
        self.tensorboard.scalars("train", scalars, decisions)

    def evaluate(self, agent: Agent, decisions: int, extra: dict | None = None) -> None:
        """A point of the learning curve against the config's evaluation opponents."""
        seconds = round(self.elapsed, 1)
        opponents = self.curve_opponents
        if opponents is None:
            opponents = self.config.eval_opponents
        add_curve_point(self.curve, agent, self.run, opponents, decisions, seconds, self.out, extra)
        self.tensorboard.curve_point(self.curve)
        self.bar.show_win_rates(self.curve)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        self.tensorboard.close()
        rates = win_rates_line(self.curve)
        done = f"wrote {self.out}/ (policy.pt, learning_curve.csv, logs/)"
        print(f"{done}: {rates}" if rates else done)


def add_curve_point(
    curve: LearningCurve,
    agent: Agent,
    run: TrainingRun,
    opponents: Sequence[str | Agent],
    decisions: int,
    seconds: float,
    out: str | Path,
    extra: dict | None = None,
) -> None:
    """Measure ``agent`` against each of ``opponents`` (a baseline by name, or an agent under
    its ``name``; ``run`` gives the game, its options and player count, the games and the
    seed), add the row to ``curve`` with ``extra`` columns (the same in every row of a run)
    and rewrite ``out/learning_curve.csv``."""
    from presages_env.evaluation.tournament import head_to_head

    config, spec = run.config, run.spec
    row = {"timesteps": decisions, "seconds": seconds, **(extra or {})}
    for opponent in opponents:
        if isinstance(opponent, Agent):
            name = opponent.name
        else:
            name, opponent = (
                opponent,
                baseline_agent(opponent, spec.game, offset_seed(config.seed, 1)),
            )
        result = head_to_head(
            spec.game,
            agent,
            opponent,
            config.eval_games,
            num_players=spec.num_players,
            seed=offset_seed(config.seed, 12345),
            **spec.options,
        )
        row[f"{WIN_RATE}{name}"] = result.win_rate
        row[f"mean_reward_vs_{name}"] = result.mean_reward
        curve.measured_by(result)
    curve.append(row)
    with open(Path(out) / "learning_curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(row))
        writer.writeheader()
        writer.writerows(curve)
