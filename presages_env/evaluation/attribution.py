"""Which kinds of decision a learner loses its games on.

A learner that trails a reference agent (the heuristic) may play some kinds of decision
well and others badly. Hybrid agents tell them apart: the learner everywhere except one kind
of decision, which the reference makes (how much the learner gains if that kind alone were
fixed), and the reference everywhere except that kind, which the learner makes (how much the
learner's play of that kind alone costs). Kinds are the game's own
(:attr:`~presages_env.core.game.Game.decision_kinds`), read from what the seat observes.
Every arm plays the same deals with the same seat rotation, so each gain or cost is a paired
difference of per-deal outcomes, with its normal 95% interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from presages_env.agents.base import Agent, act_on
from presages_env.core.header import HDR_CURRENT
from presages_env.evaluation.stats import Estimate, mean_interval, win_rate
from presages_env.evaluation.tournament import head_to_head
from presages_env.games import get_game


class DecisionSplit(Agent):
    """``base`` plays every decision except those of ``kinds``, which ``other`` plays; counts
    the decisions of each kind it is asked for. With an agent that acts on full states (the
    search), the split acts on states too and reads the kinds from the acting seat's view."""

    def __init__(self, game: str, base: Agent, other: Agent, kinds: set[int], name: str) -> None:
        self.game = get_game(game)
        self.base, self.other, self.kinds, self.name = base, other, sorted(kinds), name
        self.needs_state = any(getattr(agent, "needs_state", False) for agent in (base, other))
        self.counts = np.zeros(len(self.game.decision_kinds), dtype=np.int64)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return self._split(None, obs, masks)

    def act_states(self, states: np.ndarray) -> np.ndarray:
        n = self.game.num_players_of(states[0])
        obs = np.zeros((len(states), self.game.obs_size(n)), dtype=self.game.obs_dtype)
        masks = np.zeros((len(states), self.game.num_actions(n)), dtype=np.int8)
        for row, state in enumerate(states):
            self.game.kernel.observe(state, np.int64(state[HDR_CURRENT]), obs[row])
            self.game.kernel.legal_mask(state, masks[row])
        return self._split(states, obs, masks)

    def _split(self, states: np.ndarray | None, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        kind = self.game.decision_kind(obs)
        self.counts += np.bincount(kind, minlength=self.counts.size)
        actions = act_on(self.base, states, obs, masks)
        handed = np.isin(kind, self.kinds)
        if handed.any():
            rows = None if states is None else states[handed]
            actions[handed] = act_on(self.other, rows, obs[handed], masks[handed])
        return actions


@dataclass(frozen=True)
class KindRow:
    """One decision kind: its share of the learner's decisions, the two hybrids' win rates
    against the reference, and what the kind is worth (paired differences over the deals)."""

    kind: str
    share: float
    learner_but_kind: Estimate  # the reference makes this kind, the learner the rest
    reference_but_kind: Estimate  # the learner makes this kind, the reference the rest
    gain: Estimate  # learner_but_kind - the learner alone
    cost: Estimate  # the reference alone - reference_but_kind


@dataclass(frozen=True)
class Attribution:
    learner: Estimate  # the learner alone against the reference
    reference: Estimate  # the reference against itself (the chance level, measured)
    rows: list[KindRow]


def attribute_decisions(
    game: str,
    learner: Agent,
    reference: Agent,
    num_games: int,
    num_players: int | None = None,
    seed: int = 0,
) -> Attribution:
    """Every arm plays ``num_games`` games (seats rotated, the same deals: ``seed``) on one
    side against ``reference`` on all others."""
    kinds = get_game(game).decision_kinds

    def outcomes(agent: Agent) -> np.ndarray:
        return head_to_head(game, agent, reference, num_games, num_players, seed).outcomes()

    counting = DecisionSplit(game, learner, reference, set(), "learner")
    learner_alone = outcomes(counting)
    reference_alone = outcomes(reference)
    shares = counting.counts / max(int(counting.counts.sum()), 1)
    rows = []
    for index, kind in enumerate(kinds):
        if len(kinds) > 1 and counting.counts[index] == 0:
            continue  # the learner never met this kind of decision
        fixed = outcomes(DecisionSplit(game, learner, reference, {index}, f"learner but {kind}"))
        spoiled = outcomes(DecisionSplit(game, reference, learner, {index}, f"ref. but {kind}"))
        rows.append(
            KindRow(
                kind,
                float(shares[index]),
                win_rate(fixed),
                win_rate(spoiled),
                gain=mean_interval(fixed - learner_alone),
                cost=mean_interval(reference_alone - spoiled),
            )
        )
    return Attribution(win_rate(learner_alone), win_rate(reference_alone), rows)


def attribution_table(result: Attribution) -> str:
    """A Markdown table: per kind, each hybrid's win rate and the gain or cost it shows
    (percentage points, paired 95% intervals), under the learner's and the reference's own
    rates."""

    def rate(e: Estimate) -> str:
        return f"{e.value:.1%} [{e.low:.1%}, {e.high:.1%}]"

    def points(e: Estimate) -> str:
        return f"{e.value:+.1%} [{e.low:+.1%}, {e.high:+.1%}]"

    lines = [
        f"Learner alone: {rate(result.learner)}; reference against itself: "
        f"{rate(result.reference)}.",
        "",
        "| decision kind | share of decisions | learner, reference plays it | gain | "
        "reference, learner plays it | cost |",
        "|---|---|---|---|---|---|",
    ]
    for row in result.rows:
        lines.append(
            f"| {row.kind} | {row.share:.1%} | {rate(row.learner_but_kind)} | "
            f"{points(row.gain)} | {rate(row.reference_but_kind)} | {points(row.cost)} |"
        )
    return "\n".join(lines)
