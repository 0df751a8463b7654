"""The settings every trainer shares, with one name, meaning and default each.

:class:`TrainerConfig` holds what the three trainers (MaskablePPO through SB3, batched PPO,
Deep Monte-Carlo) have in common; :class:`PPOConfig` adds what both PPO trainers share and
:class:`ScorerConfig` the shape of an action scorer (the trainers that can train one). A
trainer's config subclasses one of them, adds its own settings and, where its way of
stepping needs it, another default (the SB3 trainer steps its games one Python object at a
time: fewer games, longer rollouts). Each setting's type and range is in ``settings.py``.
"""

from __future__ import annotations

import dataclasses
from typing import Generic, TypeVar

from presages_env.games import DEFAULT_GAME
from presages_env.games.run_spec import RunSpec

ConfigT = TypeVar("ConfigT", bound="TrainerConfig")


@dataclasses.dataclass
class TrainerConfig:
    """Everything a run depends on; saved as ``config.json`` beside the checkpoints."""

    game: str = DEFAULT_GAME
    num_players: int | None = None  # None: the game's default
    # a deal against the pool puts the learner's whole team against it (team games)
    team_play: bool = True
    total_timesteps: int = 2_000_000  # learner decisions; a time budget may stop earlier
    # seconds of learning (start-up, compiling and cloning come before the clock starts);
    # None: no time budget, the run stops at total_timesteps alone
    time_budget_s: float | None = None
    num_envs: int = 512
    rollout_steps: int = 32  # vector steps per rollout (decisions per game for SB3)
    minibatch_size: int = 4096
    learning_rate: float = 3e-4
    gamma: float = 0.995
    net_arch: tuple[int, ...] = (256, 256)
    baseline_opponents: tuple[str, ...] = ("heuristic",)  # the opponent pool's first agents
    eval_every: int = 25  # updates between evaluations (learning curve)
    eval_games: int = 400
    # the learning curve's opponents; none: it records the steps only (a best response's run)
    eval_opponents: tuple[str, ...] = ("random", "heuristic")
    seed: int = 0
    out_dir: str = "runs/train"
    game_options: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class PPOConfig(TrainerConfig):
    """The settings both PPO trainers share."""

    n_epochs: int = 3
    ent_coef: float = 0.01
    features: str = "raw"  # what the policy reads: "raw" or "heuristic_hints"
    critic: str = "local"  # "global": MAPPO-style, the critic also reads the global state
    snapshot_every: int = 20  # updates between learner snapshots added to the pool (0: none)
    max_snapshots: int = 4  # 0: opponents are the baseline agents only


@dataclasses.dataclass
class ScorerConfig(TrainerConfig):
    """The shape of an action scorer (``agents/action_scorer.py``), for the trainers that
    can train one: ``net_arch`` is its state MLP, these its action MLP and the head over
    both codes."""

    action_net_arch: tuple[int, ...] = (64,)
    head_net_arch: tuple[int, ...] = (256, 128)

    def scorer_arch(self) -> dict[str, list[int]]:
        """The scorer's ``net_arch`` as its checkpoint metadata names it."""
        return {
            "state": list(self.net_arch),
            "action": list(self.action_net_arch),
            "head": list(self.head_net_arch),
        }

    def check_scorer_arch(self, spec: RunSpec) -> None:
        """Refuse (``ValueError`` naming the three settings) a scorer the checkpoint format
        cannot hold, before it is trained."""
        from presages_env.agents.action_scorer import scorer_metadata

        arch = self.scorer_arch()
        try:
            scorer_metadata(spec.game, arch)
        except ValueError as error:
            raise ValueError(
                f"net_arch, action_net_arch, head_net_arch = {arch['state']}, "
                f"{arch['action']}, {arch['head']}: the network is beyond the checkpoint "
                f"format's bounds ({error})"
            ) from None


@dataclasses.dataclass(frozen=True)
class TrainingRun(Generic[ConfigT]):
    """A trainer's config checked once (every setting a plain value) with its game resolved
    once (``spec``): what a trainer's ``check_config`` returns and its learner reads."""

    config: ConfigT
    spec: RunSpec
