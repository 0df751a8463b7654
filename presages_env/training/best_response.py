"""Approximate best response (ABR): how much can a learner exploit a frozen agent?

The agent is frozen and becomes the only opponent: every deal of training puts the learner
against it. In a team game the learner plays every seat of one team (the team of a seat
drawn at each deal, as the trainers' opponent pool does: ``learner_side``) and the frozen
agent the other team; in a free-for-all the learner plays one seat and the frozen agent all
the others. Two modes:

- ``"dmc"`` (the default): Deep Monte-Carlo over action features (``training/dmc.py``),
  from scratch or from a scorer's checkpoint (``init_policy``); it writes an action-scorer
  checkpoint (the agent spec ``dmc:PATH``).
- ``"ppo"``: the batched PPO trainer (``training/batched_ppo.py``, the game's recorded
  hyper-parameters), the cheap mode; it writes a PPO checkpoint (``ppo:PATH``).

The run writes into the caller's ``out_dir`` (``policy.pt``, ``learning_curve.csv``,
``config.json``, ``logs/``); its curve is measured against the frozen agent itself. Then the
best response plays the frozen agent on fresh deals, seats rotated: ``eval_seed`` must differ
from the training's ``seed`` (refused otherwise), so the measured games are not the deals it
learnt on. Its win rate above chance is a lower bound on the agent's exploitability *at that
budget*, whatever the start: a best response may start anywhere.

It lives with the trainers (it trains) and measures with the evaluation layer's tournament,
so evaluation never imports training.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from presages_env.agents.base import Agent
from presages_env.core.validation import check_int, check_seed, offset_seed
from presages_env.evaluation.learning_curve import LearningCurve
from presages_env.evaluation.stats import Estimate
from presages_env.evaluation.tournament import MatchResult, head_to_head

ABR_DECISIONS = 1_000_000  # the documented budget of the tables in docs/agents.md
MAX_DECISIONS = 10**10
MODES = ("dmc", "ppo")
EVAL_SEED_OFFSET = 4242  # the evaluation's default seed: the training's plus this


@dataclasses.dataclass(frozen=True)
class BestResponse:
    """What an ABR run measured: the best response (focus) against the frozen agent."""

    frozen: str
    mode: str  # "dmc" or "ppo"
    decisions: int  # learner decisions it was trained for
    seconds: float  # of learning (start-up excluded)
    result: MatchResult  # on the evaluation's fresh deals
    policy: Path  # the checkpoint it wrote
    curve: LearningCurve  # against the frozen agent, on the curve's own deals
    seed: int  # the training's
    eval_seed: int  # the evaluation's

    @property
    def spec(self) -> str:
        """The agent spec that loads the best response (``dmc:PATH`` or ``ppo:PATH``)."""
        return f"{self.mode}:{self.policy}"

    @property
    def win_rate(self) -> Estimate:
        return self.result.win_rate_ci()

    @property
    def mean_reward(self) -> Estimate:
        return self.result.mean_reward_ci()

    def line(self) -> str:
        rate, reward = self.win_rate, self.mean_reward
        return (
            f"{self.mode} best response to {self.frozen} ({self.result.game}, "
            f"{self.result.num_players}p, {self.decisions:,} decisions, {self.seconds:.0f} s): "
            f"win rate {rate.value:.1%} [{rate.low:.1%}, {rate.high:.1%}] over {rate.n:,} "
            f"fresh games (seed {self.eval_seed}; chance {self.result.chance:.0%}), reward "
            f"{reward.value:+.3f} ± {reward.half_width:.3f}; policy {self.spec}"
        )


def approximate_best_response(
    game: str,
    frozen: Agent,
    *,
    out_dir: str | Path,
    mode: str = "dmc",
    init_policy: str | None = None,
    num_players: int | None = None,
    decisions: int = ABR_DECISIONS,
    time_budget_s: float | None = None,
    eval_games: int = 4000,
    curve_games: int = 400,
    seed: int = 0,
    eval_seed: int | None = None,
    **settings: Any,
) -> BestResponse:
    """Train a best response to ``frozen`` for ``decisions`` learner decisions (or until
    ``time_budget_s`` seconds of learning, where given) into ``out_dir``, then measure it
    over ``eval_games`` games dealt from ``eval_seed`` (default: ``seed`` + 4242); each point
    of the learning curve plays ``curve_games`` games against it.
    ``init_policy`` is a checkpoint to start from (a scorer's for ``"dmc"``: its network's
    shape is taken unless ``settings`` name one; a PPO policy or ``"shipped"`` for
    ``"ppo"``); ``settings`` override the trainer's (DMC's defaults, or PPO's recorded
    hyper-parameters; DMC's ``workers`` and ``address`` play on Ray workers:
    ``training/dmc_ray.py``). Every argument is checked before anything is written."""
    if not isinstance(frozen, Agent):
        raise TypeError(f"frozen must be an Agent, got {type(frozen).__name__}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    decisions = check_int(decisions, "decisions", 1, MAX_DECISIONS)
    eval_games = check_int(eval_games, "eval_games", 1, 10**7)
    seed = check_seed(seed)
    eval_seed = offset_seed(seed, EVAL_SEED_OFFSET) if eval_seed is None else eval_seed
    if check_seed(eval_seed, "eval_seed") == seed:
        raise ValueError(
            f"eval_seed {eval_seed} is the training's seed: a best response is measured on "
            "deals it did not learn on"
        )
    shared = {
        "game": game,
        "num_players": num_players,
        "total_timesteps": decisions,
        "time_budget_s": time_budget_s,
        "pool_share": 1.0,  # every deal against the frozen agent
        "team_play": True,  # the learner plays its whole team
        "eval_opponents": (),  # the curve is against the frozen agent (curve_opponents)
        "eval_games": curve_games,
        "init_policy": init_policy,
        "seed": seed,
        "out_dir": str(out_dir),
    }
    train = _train_dmc if mode == "dmc" else _train_ppo
    curve = train({**shared, **settings}, frozen)
    result = head_to_head(
        game,
        _load(mode, Path(out_dir) / "policy.pt", game, num_players),
        frozen,
        eval_games,
        num_players=num_players,
        seed=eval_seed,
        names=("best response", frozen.name),
        **settings.get("game_options", {}),
    )
    last = curve[-1]
    return BestResponse(
        frozen.name,
        mode,
        int(last["timesteps"]),
        float(last["seconds"]),
        result,
        Path(out_dir) / "policy.pt",
        curve,
        seed,
        eval_seed,
    )


def _train_dmc(settings: dict[str, Any], frozen: Agent) -> LearningCurve:
    """Deep Monte-Carlo in this process, or on Ray workers where ``settings`` name some
    (``workers``, ``address``: ``training/dmc_ray.py``)."""
    from presages_env.training.dmc_ray import distributed_config, train

    if settings["init_policy"] is not None and "net_arch" not in settings:
        settings = {**settings, **_scorer_shape(settings)}
    return train(distributed_config(**settings), [frozen], curve_opponents=[frozen])[1]


def _scorer_shape(settings: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """The network settings of the scorer ``settings["init_policy"]``, read through the
    checked loader (a folder is left to DMC's own refusal)."""
    from presages_env.agents.action_scorer import ActionScorer

    path = settings["init_policy"]
    if not isinstance(path, str) or Path(path).is_dir():
        return {}
    try:
        scorer = ActionScorer.from_checkpoint(path, settings["game"], settings["num_players"])
    except OSError as error:
        raise ValueError(f"init_policy {path!r} cannot be read: {error}") from None
    arch = scorer.metadata["net_arch"]
    return {
        "net_arch": tuple(arch["state"]),
        "action_net_arch": tuple(arch["action"]),
        "head_net_arch": tuple(arch["head"]),
    }


def _train_ppo(settings: dict[str, Any], frozen: Agent) -> LearningCurve:
    from presages_env.training.batched_ppo import game_config, train_batched

    game = settings.pop("game")
    config = game_config(game, snapshot_every=0, **settings)  # no snapshot joins the pool
    return train_batched(config, opponents=[frozen], curve_opponents=[frozen])[1]


def _load(mode: str, path: Path, game: str, num_players: int | None) -> Agent:
    """The best response as it was written, through the checked loader."""
    if mode == "dmc":
        from presages_env.agents.action_scorer import ActionScorerAgent

        return ActionScorerAgent.load(path, "best response", game=game, num_players=num_players)
    from presages_env.agents.ppo import PPOAgent

    return PPOAgent.load(path, game=game, num_players=num_players)
