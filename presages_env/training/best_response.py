"""Approximate best response (ABR): how much can a fresh learner exploit a frozen agent?

The agent is frozen and becomes the only opponent: a new policy is trained against it from
scratch with the batched trainer (:mod:`presages_env.training.batched_ppo`, the game's
recorded hyper-parameters) for a fixed number of learner decisions, then plays it on fresh
deals with seats rotated. In team games the learner replaces one whole team. The best
response's win rate above chance (and its reward) says how exploitable the agent is *at
that budget*: a lower bound on exploitability, comparable between agents measured with the
same game, budget and seed.

It lives with the trainers (it trains) and measures with the evaluation layer's tournament,
so evaluation never imports training.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from typing import Any

from presages_env.agents.base import Agent
from presages_env.core.validation import check_int, offset_seed
from presages_env.evaluation.stats import Estimate
from presages_env.evaluation.tournament import MatchResult, head_to_head
from presages_env.training.batched_ppo import game_config, train_batched

ABR_DECISIONS = 1_000_000  # the documented budget of the tables in docs/agents.md
MAX_DECISIONS = 10**10


@dataclasses.dataclass(frozen=True)
class BestResponse:
    """What an ABR run measured: the best response (focus) against the frozen agent."""

    frozen: str
    decisions: int  # learner decisions it was trained for
    seconds: float  # of training
    result: MatchResult

    @property
    def win_rate(self) -> Estimate:
        return self.result.win_rate_ci()

    @property
    def mean_reward(self) -> Estimate:
        return self.result.mean_reward_ci()

    def line(self) -> str:
        rate, reward = self.win_rate, self.mean_reward
        return (
            f"best response to {self.frozen} ({self.result.game}, {self.result.num_players}p, "
            f"{self.decisions:,} decisions, {self.seconds:.0f} s): win rate {rate.value:.1%} "
            f"[{rate.low:.1%}, {rate.high:.1%}] over {rate.n:,} games (chance "
            f"{self.result.chance:.0%}), reward {reward.value:+.3f} ± {reward.half_width:.3f}"
        )


def approximate_best_response(
    game: str,
    frozen: Agent,
    *,
    num_players: int | None = None,
    decisions: int = ABR_DECISIONS,
    eval_games: int = 4000,
    seed: int = 0,
    **settings: Any,
) -> BestResponse:
    """Train a best response to ``frozen`` for ``decisions`` learner decisions and measure it
    over ``eval_games`` fresh games. ``settings`` override the game's recorded
    hyper-parameters (``training/hyperparameters.json``)."""
    if not isinstance(frozen, Agent):
        raise TypeError(f"frozen must be an Agent, got {type(frozen).__name__}")
    decisions = check_int(decisions, "decisions", 1, MAX_DECISIONS)
    eval_games = check_int(eval_games, "eval_games", 1, 10**7)
    with tempfile.TemporaryDirectory(prefix="abr_") as out:
        config = game_config(
            game,
            num_players=num_players,
            total_timesteps=decisions,
            time_budget_s=None,
            pool_share=1.0,  # every deal against the frozen agent
            snapshot_every=0,
            eval_opponents=(),
            eval_every=2**62,
            seed=seed,
            out_dir=out,
            **settings,
        )
        start = time.perf_counter()
        learner, curve = train_batched(config, opponents=[frozen])
        seconds = time.perf_counter() - start
    result = head_to_head(
        game,
        learner.agent("best response"),
        frozen,
        eval_games,
        num_players=num_players,
        seed=offset_seed(seed, 4242),
        names=("best response", frozen.name),
    )
    return BestResponse(frozen.name, int(curve[-1]["timesteps"]), seconds, result)
