"""Self-play MaskablePPO training over the native vector env, with an opponent pool.

The learner plays one seat (or a whole team, partners sharing the policy and the reward);
the other seats are played by opponents drawn per deal from a pool that starts with the
configured baseline agents and grows with frozen snapshots of the learner.
"""

from __future__ import annotations

import csv
import dataclasses
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from presages_env.agents.features import RawFeatures
from presages_env.agents.ppo import PPOAgent, frozen_copy
from presages_env.core.validation import offset_seed
from presages_env.games import get_game
from presages_env.training.opponents import BASELINE_OPPONENTS, baseline_agent
from presages_env.training.settings import (
    COMMON_RULES,
    EVAL_OPPONENT_NAMES,
    MAX_COUNT,
    MAX_EPOCHS,
    MAX_MINIBATCH,
    MAX_ROLLOUT_STEPS,
    MAX_TEACHER_SAMPLES,
    Choice,
    Count,
    OrNone,
    Rule,
    Text,
    check_game_settings,
    check_rollout_memory,
    checked_settings,
    feature_size,
    learner_input_size,
    write_config,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from presages_env.evaluation.tournament import MatchResult


@dataclasses.dataclass
class TrainConfig:
    """Everything a run depends on; saved as ``config.json`` beside the checkpoints."""

    game: str = "president"
    num_players: int | None = None  # None: the game's default
    team_play: bool = False  # learner plays every seat of its team (team games)
    total_timesteps: int = 1_000_000  # learner decisions; the time budget may stop earlier
    time_budget_s: float | None = 300.0  # of PPO: compiling and cloning come before it
    num_envs: int = 64
    n_steps: int = 128  # decisions per env per rollout
    batch_size: int = 2048
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.995
    ent_coef: float = 0.01
    net_arch: tuple[int, ...] = (256, 256)
    features: str = "raw"  # what the policy reads: "raw" or "heuristic_hints"
    critic: str = "local"  # "global": MAPPO-style, the critic also reads the global state
    baseline_opponents: tuple[str, ...] = ("random", "heuristic")
    eval_opponents: tuple[str, ...] | None = None  # the curve's opponents (None: the above)
    warm_start: str | None = "heuristic"  # clone this agent before PPO (None: from scratch)
    warm_start_samples: int = 200_000  # teacher decisions to clone
    warm_start_epochs: int = 4
    init_policy: str | None = None  # a policy.pt to continue from instead of cloning
    snapshot_every: int = 5  # rollouts between learner snapshots added to the pool
    max_snapshots: int = 4  # 0: opponents are the baseline agents only
    eval_every: int = 5  # rollouts between evaluations (learning curve)
    eval_games: int = 400
    seed: int = 0
    out_dir: str = "runs/ppo"
    game_options: dict = dataclasses.field(default_factory=dict)


# Each setting's type and range (settings.py); MaskablePPO normalises advantages over each
# rollout and minibatch, so both hold at least two decisions.
SETTINGS: dict[str, Rule] = {
    **COMMON_RULES,
    "n_steps": Count(2, MAX_ROLLOUT_STEPS),
    "batch_size": Count(2, MAX_MINIBATCH),
    "eval_opponents": OrNone(EVAL_OPPONENT_NAMES),
    "warm_start": OrNone(Choice(BASELINE_OPPONENTS)),
    "warm_start_samples": Count(1, MAX_TEACHER_SAMPLES),
    "warm_start_epochs": Count(1, MAX_EPOCHS),
    "init_policy": OrNone(Text()),
    "snapshot_every": Count(1, MAX_COUNT),
}
# Bytes of one decision in MaskablePPO's rollout buffer besides its float32 observation and
# mask: the action (int64) and six float32 (reward, return, episode start, value,
# log-probability, advantage).
SB3_ROW_BYTES = 8 + 6 * 4


def check_train_config(config: TrainConfig) -> TrainConfig:
    """``config`` with every setting checked and made a plain value; raises
    ``TypeError``/``ValueError`` naming the setting before anything is written or built."""
    config = checked_settings(config, SETTINGS)
    if config.critic == "global" and (config.warm_start or config.init_policy):
        raise ValueError("cloning fits a critic on the observation: use warm_start=None")
    if config.warm_start and config.init_policy:
        raise ValueError("give warm_start or init_policy, not both")
    game, n = check_game_settings(config)
    inputs = learner_input_size(game, n, config.features, config.critic)
    row_bytes = 4 * (inputs + game.num_actions(n)) + SB3_ROW_BYTES
    check_rollout_memory("n_steps x num_envs", config.n_steps * config.num_envs, row_bytes)
    if config.init_policy:
        initial_agent(config)
    return config


class BudgetBar:
    """A progress bar of whichever budget binds: a time budget that will run out before the
    step total shows seconds, not a step count that will never be reached."""

    def __init__(
        self, total_steps: int, time_budget_s: float | None, label: str = "MaskablePPO self-play"
    ) -> None:
        from tqdm import tqdm

        self.total_steps = total_steps
        self.time_budget_s = time_budget_s
        self.bar = tqdm(total=100, desc=label, bar_format="{l_bar}{bar}| {postfix}")
        self._shown = -1.0

    def update(self, steps: int, elapsed: float) -> None:
        step_share = steps / self.total_steps
        time_share = elapsed / self.time_budget_s if self.time_budget_s else 0.0
        share = min(1.0, max(step_share, time_share))
        if share - self._shown < 0.005:  # redraw at most every half percent
            return
        self._shown = share
        self.bar.n = round(100 * share, 1)
        if time_share >= step_share:
            self.bar.set_postfix_str(f"{elapsed:.0f}/{self.time_budget_s:.0f} s, {steps:,} steps")
        else:
            self.bar.set_postfix_str(f"{steps:,}/{self.total_steps:,} steps, {elapsed:.0f} s")

    def close(self) -> None:
        self.bar.close()


class LearningCurve(list):
    """A run's evaluations, one dict each (``timesteps``, ``seconds``, ``win_rate_vs_<name>``,
    ``mean_reward_vs_<name>``), and what they measured, so that a plot can say it: the game,
    its player count, the method trained, the games behind each point and the chance win
    rate (of a learner exactly as strong as its opponents). ``None``: not recorded."""

    def __init__(
        self,
        rows: Iterable[dict] = (),
        *,
        method: str = "MaskablePPO self-play",
        game: str | None = None,
        num_players: int | None = None,
        games_per_point: int | None = None,
        chance: float | None = None,
    ) -> None:
        super().__init__(rows)
        self.method = method
        self.game = game
        self.num_players = num_players
        self.games_per_point = games_per_point
        self.chance = chance

    def measured_by(self, result: MatchResult) -> None:
        """Record the setting of an evaluation (every point of a run has the same)."""
        self.game, self.num_players = result.game, result.num_players
        self.games_per_point, self.chance = result.num_games, result.chance


def method_label(config: TrainConfig) -> str:
    """How ``config`` trains, in words: the algorithm, then what it starts from and reads."""
    if config.critic == "global":
        words = ["MAPPO-style self-play (MaskablePPO, centralised critic)"]
    else:
        words = ["MaskablePPO self-play"]
    if config.warm_start:
        words.append(f"{config.warm_start} cloned first")
    if config.init_policy:
        words.append("continued from a checkpoint")
    if config.features != "raw":
        words.append(f"{config.features} features")
    return ", ".join(words)


class _Training:
    """Callback state: pool snapshots, evaluations, time budget, progress bar, logs."""

    def __init__(self, config: TrainConfig, env, out: Path) -> None:
        self.config = config
        self.env = env
        self.out = out
        self.start = time.perf_counter()
        self.rollouts = 0
        self.curve = LearningCurve(method=method_label(config))
        self.baselines = list(env.opponents)

    def make_callback(self):
        from stable_baselines3.common.callbacks import BaseCallback

        training = self

        class Callback(BaseCallback):
            def _on_training_start(self) -> None:
                config = training.config
                label = f"self-play {Path(config.out_dir).name}"
                self.bar = BudgetBar(config.total_timesteps, config.time_budget_s, label)

            def _on_step(self) -> bool:
                elapsed = time.perf_counter() - training.start
                self.bar.update(self.num_timesteps, elapsed)
                budget = training.config.time_budget_s
                return budget is None or elapsed < budget

            def _on_rollout_end(self) -> None:
                training.on_rollout_end(self.model)

            def _on_training_end(self) -> None:
                self.bar.close()

        return Callback()

    def on_rollout_end(self, model) -> None:
        self.rollouts += 1
        config = self.config
        if config.max_snapshots and self.rollouts % config.snapshot_every == 0:
            snapshots = [a for a in self.env.opponents if a not in self.baselines]
            name = f"snapshot_{model.num_timesteps}"
            snapshots.append(frozen_copy(playing_policy(model), name, self.env.features))
            self.env.set_opponents(self.baselines + snapshots[-config.max_snapshots :])
        if self.rollouts % config.eval_every == 0:
            self.evaluate(model)

    def evaluate(self, model) -> None:
        seconds = time.perf_counter() - self.start
        opponents = self.config.eval_opponents or self.config.baseline_opponents
        add_curve_point(
            self.curve,
            learner_agent(model),
            self.config,
            opponents,
            model.num_timesteps,
            seconds,
            self.out,
        )


def add_curve_point(
    curve, agent, config, opponents, decisions: int, seconds: float, out, extra=None
) -> None:
    """Measure ``agent`` against each baseline in ``opponents`` (``config`` gives the game,
    its options and player count, the games and the seed), add the row to ``curve`` with
    ``extra`` columns (the same in every row of a run) and rewrite
    ``out/learning_curve.csv``."""
    from presages_env.evaluation.tournament import head_to_head

    row = {"timesteps": decisions, "seconds": seconds, **(extra or {})}
    for name in opponents:
        opponent = baseline_agent(name, config.game, offset_seed(config.seed, 1))
        result = head_to_head(
            config.game,
            agent,
            opponent,
            config.eval_games,
            num_players=config.num_players,
            seed=offset_seed(config.seed, 12345),
            **config.game_options,
        )
        row[f"win_rate_vs_{name}"] = result.win_rate
        row[f"mean_reward_vs_{name}"] = result.mean_reward
        curve.measured_by(result)
    curve.append(row)
    with open(Path(out) / "learning_curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(row))
        writer.writeheader()
        writer.writerows(curve)


def learner_agent(model, name: str = "ppo") -> PPOAgent:
    """The policy being trained as an agent, reading the features its env gives it."""
    return PPOAgent(playing_policy(model), name, features=model.get_env().features)


def playing_policy(model):
    """The policy that acts: the model's own, or with a centralised critic a plain copy of
    its actor (which reads the seat's features only)."""
    from presages_env.training.central_critic import CentralCriticPolicy, actor_policy

    policy = model.policy
    return actor_policy(policy) if isinstance(policy, CentralCriticPolicy) else policy


def warm_start(model, config: TrainConfig, features) -> None:
    """Clone the teacher agent into the policy and value head before self-play."""
    from presages_env.training.imitation import imitate, teacher_games

    teacher = baseline_agent(config.warm_start, config.game, config.seed)
    print(f"warm start: cloning {config.warm_start} on {config.warm_start_samples:,} decisions")
    data = teacher_games(
        config.game,
        teacher,
        config.warm_start_samples,
        config.num_players,
        config.seed,
        **config.game_options,
    )
    losses = imitate(
        model.policy, data, epochs=config.warm_start_epochs, seed=config.seed, features=features
    )
    print("warm start: " + ", ".join(f"{k} {v:.3f}" for k, v in losses.items()))


def initial_agent(config: TrainConfig) -> PPOAgent:
    """The checkpoint ``config.init_policy`` names (a longer run in several legs), loaded
    through the checked loader and refused unless it was trained on this game with these
    features and sizes: checked with the settings, before anything is written."""
    path = config.init_policy
    try:
        agent = PPOAgent.load(path)
    except OSError as error:
        raise ValueError(f"init_policy {path!r} cannot be read: {error}") from None
    saved = agent.features or RawFeatures(None, 0)
    if (saved.game, saved.name) != (config.game, config.features):
        raise ValueError(
            f"init_policy {path} was trained on {saved.game!r} with features {saved.name!r}; "
            f"this run is {config.game!r} with {config.features!r}"
        )
    game = get_game(config.game)
    n = game.check_num_players(config.num_players or game.default_players)
    size = (feature_size(game, n, config.features),)
    if agent.policy.observation_space.shape != size:
        raise ValueError(
            f"init_policy {path} reads {agent.policy.observation_space.shape} features; this "
            f"run's {size} (another player count?)"
        )
    return agent


def continue_from(model, config: TrainConfig) -> None:
    """Start from the saved checkpoint's actor and critic (checked by :func:`initial_agent`)."""
    model.policy.load_state_dict(initial_agent(config).policy.state_dict())
    print(f"continuing from {config.init_policy}")


def train(config: TrainConfig):
    """Train, checkpoint and log under ``config.out_dir``: ``model.zip`` (MaskablePPO, with
    the optimiser, to resume) and ``policy.pt`` (the policy alone, safe to load and share).
    Returns the MaskablePPO model and the :class:`LearningCurve`."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure

    from presages_env.training.vec_env import SelfPlayVecEnv

    config = check_train_config(config)  # before anything is written
    out = write_config(config)

    def make_env(num_envs: int) -> SelfPlayVecEnv:
        opponents = [baseline_agent(n, config.game, config.seed) for n in config.baseline_opponents]
        return SelfPlayVecEnv(
            config.game,
            num_envs,
            opponents,
            num_players=config.num_players,
            team_play=config.team_play,
            seed=config.seed,
            features=config.features,
            critic_state=config.critic == "global",
            **config.game_options,
        )

    # A few steps of a throwaway env first: numba compiles (or loads its cache) before the
    # time budget starts, so runs given the same budget train for the same time.
    warm_up = make_env(2)
    warm_up.reset()
    for _ in range(3):
        warm_up.step(warm_up.action_masks().argmax(axis=1))
    env = make_env(config.num_envs)
    policy_kwargs: dict = {"net_arch": list(config.net_arch)}
    policy = "MlpPolicy"
    if config.critic == "global":
        from presages_env.training.central_critic import CentralCriticPolicy

        policy = CentralCriticPolicy
        policy_kwargs["actor_size"] = env.batch.actor_size
    model = MaskablePPO(
        policy,
        env,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        learning_rate=config.learning_rate,
        gamma=config.gamma,
        ent_coef=config.ent_coef,
        policy_kwargs=policy_kwargs,
        seed=config.seed,
        device="cpu",
        verbose=0,
    )
    model.set_logger(configure(str(out / "logs"), ["csv", "tensorboard"]))
    if config.warm_start:
        warm_start(model, config, env.features)
    elif config.init_policy:
        continue_from(model, config)
    training = _Training(config, env, out)  # the time budget is PPO's, after any cloning
    training.evaluate(model)  # the curve's first point: where PPO starts
    model.learn(config.total_timesteps, callback=training.make_callback())
    training.evaluate(model)
    model.save(out / "model.zip")
    learner_agent(model).save(out / "policy.pt")
    return model, training.curve


def plot_learning_curve(
    curve: list[dict] | dict[str, list[dict]],
    path: str | Path,
    *,
    method: str | None = None,
    confidence: float = 0.95,
) -> Path:
    """Save :func:`learning_curve_figure` as a PNG at ``path``; returns the path."""
    from presages_env.evaluation.report import save_figure

    figure = learning_curve_figure(curve, method=method, confidence=confidence)
    return save_figure(figure, path)


def learning_curve_figure(
    curve: list[dict] | dict[str, list[dict]],
    *,
    method: str | None = None,
    confidence: float = 0.95,
) -> Figure:
    """Win rates against each evaluation opponent over learner decisions, each point with a
    band of its Wilson interval, and a labelled chance line. Several named runs
    (``{"from scratch": curve, ...}``) share the plot: one line style per run, one colour per
    opponent. The game, player count, method (``method`` overrides the runs' own), games per
    point and chance come from :class:`LearningCurve`; a plain list of rows has none."""
    from presages_env.evaluation.report import (
        draw_chance,
        new_figure,
        setting_title,
        wrapped_title,
    )

    runs = curve if isinstance(curve, dict) else {"": curve}
    described = [rows for rows in runs.values() if isinstance(rows, LearningCurve)]
    figure = new_figure(8, 4.8)
    axes = figure.add_subplot()
    colours: dict[str, str] = {}
    for style, (run, rows) in zip(("-", "--", ":", "-."), runs.items(), strict=False):
        steps = [row["timesteps"] for row in rows]
        games = getattr(rows, "games_per_point", None)
        for key in rows[0]:
            if key.startswith("win_rate_vs_"):
                opponent = key[len("win_rate_") :].replace("_", " ")
                colour = colours.setdefault(opponent, f"C{len(colours)}")
                label = f"{run}: {opponent}" if run else opponent
                rates = np.array([row[key] for row in rows])
                axes.plot(steps, 100 * rates, style, color=colour, marker="o", label=label)
                if games:
                    low, high = _wilson_band(rates, games, confidence)
                    axes.fill_between(steps, 100 * low, 100 * high, color=colour, alpha=0.15)
    for chance in sorted({rows.chance for rows in described if rows.chance is not None}):
        draw_chance(axes, 100 * chance, vertical=False)
    methods = [rows.method for rows in described] or ["method not recorded"]
    setting = setting_title(
        [rows.game for rows in described if rows.game] or ["game not recorded"],
        [rows.num_players for rows in described if rows.num_players],
        method or " / ".join(dict.fromkeys(methods)),
    )
    axes.set_title(wrapped_title(figure, setting, _band_note(runs, confidence)), fontsize=10)
    axes.set_xlabel("learner decisions")
    axes.set_ylabel("win rate, % (a tie for the top counts as half a win)")
    axes.set_ylim(0, 100)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=8)
    return figure


def _wilson_band(rates: np.ndarray, games: int, confidence: float):
    """Lower and upper Wilson bounds of win rates each measured over ``games`` games."""
    from presages_env.evaluation.stats import wilson_interval

    bounds = [wilson_interval(min(max(r * games, 0.0), games), games, confidence) for r in rates]
    return np.array(bounds).T


def _band_note(runs: dict[str, list[dict]], confidence: float) -> str:
    """What the bands are: the interval and the games behind each point."""
    games = {getattr(rows, "games_per_point", None) for rows in runs.values()}
    recorded = games - {None}
    if not recorded:
        return "no bands: the games behind each point were not recorded"
    count = f"{recorded.pop():,} games" if len(recorded) == 1 else "each run's games"
    unbanded = "; runs without a band did not record their games" if None in games else ""
    return f"bands: {confidence:.0%} Wilson interval over {count} per point{unbanded}"
