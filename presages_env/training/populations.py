"""Independent self-play populations from scratch, for zero-shot coordination studies.

A population is one training run that differs from the others only in its seed: no warm
start and raw observations (cloning the heuristic, or reading its hints, would hand every
population the same conventions), the learner playing its whole team (partners share the
policy), opponents drawn from random and its own snapshots. The trainer is MaskablePPO
(:func:`~presages_env.training.self_play.train`, ``trainer="sb3"``), the batched trainer
(:func:`~presages_env.training.batched_ppo.train_batched`, ``trainer="batched"``: its
recorded hyper-parameters, many times the decisions per second) or Deep Monte-Carlo over
action features (:func:`~presages_env.training.dmc.train_dmc`, ``trainer="dmc"``: the
learner that passes the heuristic team in Présages from scratch; its pool is random alone).
Runs go to separate processes, ``workers`` at a time.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from presages_env.agents.base import Agent
from presages_env.core.validation import check_seed
from presages_env.training.batched_ppo import BatchedPPOConfig, game_config
from presages_env.training.dmc import DMCConfig, dmc_config
from presages_env.training.self_play import TrainConfig

TRAINERS = ("sb3", "batched", "dmc")
PopulationConfig = TrainConfig | BatchedPPOConfig | DMCConfig


def from_scratch_config(
    game: str,
    seed: int,
    out_dir: str | Path,
    num_players: int | None = None,
    *,
    steps: int = 10**9,
    seconds: float | None = None,
    eval_games: int = 200,
    eval_opponents: tuple[str, ...] = ("random",),
    critic: str = "local",
    trainer: str = "sb3",
    **options: Any,
) -> PopulationConfig:
    """Team self-play from a random policy on the raw observation, stopped after ``steps``
    learner decisions or ``seconds`` (populations compared with each other get the same
    steps: a time budget on a shared machine gives them unequal training); the learning
    curve is measured against ``eval_opponents``. ``critic="global"`` trains MAPPO-style
    (training/central_critic.py); ``trainer`` picks the trainer (one of ``TRAINERS``)."""
    if trainer not in TRAINERS:
        raise ValueError(f"trainer must be one of {TRAINERS}, got {trainer!r}")
    if trainer == "dmc":
        if critic != "local":
            raise ValueError(f"critic {critic!r}: Deep Monte-Carlo has no critic; use 'local'")
        return dmc_config(
            game=game,
            num_players=num_players,
            team_play=True,
            total_timesteps=steps,
            time_budget_s=seconds,
            baseline_opponents=("random",),
            eval_opponents=tuple(eval_opponents),
            eval_games=eval_games,
            seed=check_seed(seed),
            out_dir=str(out_dir),
            game_options=dict(options),
        )
    if trainer == "batched":
        return game_config(
            game,
            num_players=num_players,
            team_play=True,
            total_timesteps=steps,
            time_budget_s=seconds,
            features="raw",
            init_policy=None,
            baseline_opponents=("random",),
            eval_opponents=tuple(eval_opponents),
            eval_games=eval_games,
            critic=critic,
            seed=check_seed(seed),
            out_dir=str(out_dir),
            game_options=dict(options),
        )
    return TrainConfig(
        game=game,
        num_players=num_players,
        team_play=True,
        total_timesteps=steps,
        time_budget_s=seconds,
        features="raw",
        baseline_opponents=("random",),
        eval_opponents=eval_opponents,
        critic=critic,
        warm_start=None,
        eval_games=eval_games,
        seed=check_seed(seed),
        out_dir=str(out_dir),
        game_options=dict(options),
    )


def train_populations(
    configs: list[PopulationConfig], workers: int = 1, torch_threads: int = 1
) -> list[Path]:
    """Train every config (``workers`` processes at a time, each using ``torch_threads``
    threads); returns each run's ``policy.pt``, in the order of ``configs``."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    jobs = [(config, torch_threads) for config in configs]
    if workers == 1:
        return [_train_one(job) for job in jobs]
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        return list(pool.map(_train_one, jobs))


def load_population(config: PopulationConfig) -> Agent:
    """The policy a population's run wrote, through the checked loader of its trainer."""
    from presages_env.agents.action_scorer import ActionScorerAgent
    from presages_env.agents.ppo import PPOAgent

    path = Path(config.out_dir) / "policy.pt"
    load = ActionScorerAgent.load if isinstance(config, DMCConfig) else PPOAgent.load
    return load(path, game=config.game, num_players=config.num_players)


def _train_one(job: tuple[PopulationConfig, int]) -> Path:
    import torch

    from presages_env.training.batched_ppo import train_batched
    from presages_env.training.dmc import train_dmc
    from presages_env.training.self_play import train

    config, threads = job
    torch.set_num_threads(threads)
    if isinstance(config, DMCConfig):
        train_dmc(config)
    elif isinstance(config, BatchedPPOConfig):
        train_batched(config)
    else:
        train(config)
    return Path(config.out_dir) / "policy.pt"
