"""Self-play rollouts on the batched kernels: every seat the learner plays is a decision.

One :class:`~presages_env.core.vector.VectorEnv` of B games. At each deal a game is either
pure self-play (the learner plays every seat, sharing one policy) or, with probability
``pool_share``, the learner plays one seat (its whole team in team games) against an opponent
drawn from the pool. Each vector step acts once in every game: the rows whose seat the learner
plays go through the policy in one batch, the others through their opponent's ``act_batch``.

A seat's rewards between two of its decisions belong to the earlier one; a decision whose game
ended before the seat acted again is terminal; one still open when the rollout stops is
bootstrapped from the value of that seat's observation at the stop. Advantages (GAE) follow
each seat's own chain of decisions (``next_index``), so seats never share a return.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from presages_env.agents.base import Agent, act_on
from presages_env.agents.features import RawFeatures
from presages_env.evaluation.tournament import TIE_TOLERANCE
from presages_env.games.run_spec import RunSpec
from presages_env.training.critic_input import critic_state, critic_state_size
from presages_env.training.opponents import OpponentPool, learner_side

LEARNER = -1  # in ``controller``: the seat is the learner's

# (features [N, F], masks bool [N, A], the central critic's input or None)
#   -> actions, log-probabilities, values
PolicyStep = Callable[
    [np.ndarray, np.ndarray, np.ndarray | None], tuple[np.ndarray, np.ndarray, np.ndarray]
]
# features [N, F] -> values (the critic alone)
ValueFn = Callable[[np.ndarray], np.ndarray]


@dataclass
class Rollout:
    """The learner's decisions of one rollout, flat in time order (first ``size`` rows)."""

    features: np.ndarray
    critic_input: np.ndarray | None  # the centralised critic's input, if there is one
    masks: np.ndarray
    actions: np.ndarray
    log_probs: np.ndarray
    values: np.ndarray
    advantages: np.ndarray
    returns: np.ndarray
    envs: np.ndarray  # the game of each decision
    seats: np.ndarray  # and the seat that made it
    size: int


def outcome(rewards: np.ndarray, learner: np.ndarray) -> float:
    """1 if the learner's seats earned more than every other seat, 0.5 if they tie for the
    top, else 0 (a team's seats share their rewards, so any of its seats stands for it)."""
    mine, best_other = rewards[learner].max(), rewards[~learner].max()
    return 0.5 if abs(mine - best_other) <= TIE_TOLERANCE else float(mine > best_other)


class SelfPlayRollouts:
    """Collects rollouts of ``steps`` vector steps from ``num_envs`` games of ``spec``."""

    def __init__(
        self,
        spec: RunSpec,
        num_envs: int,
        steps: int,
        features: RawFeatures,
        *,
        opponents: Sequence[Agent] = (),
        pool_share: float = 0.0,
        team_play: bool = True,
        central_critic: bool = False,
        seed: int = 0,
    ) -> None:
        self.vec = spec.vector_env(num_envs, seed)
        self.game = self.vec.game
        self.num_envs = b = self.vec.num_envs
        self.num_players = n = self.vec.num_players
        self.steps = steps
        self.features = features
        self.team_play = team_play
        self.central_critic = central_critic
        self.pool_share = float(pool_share)
        self.pool = OpponentPool()
        self.pool.set(opponents)
        self._rng = np.random.default_rng(seed)
        self._rows = np.arange(b)
        self.controller = np.full((b, n), LEARNER, dtype=np.int64)
        self._last = np.full((b, n), -1, dtype=np.int64)  # each seat's open decision
        self._episode_reward = np.zeros((b, n))
        self.finished: list[float] = []  # learner seats' episode rewards, mean per game
        # (opponent index, the learner's outcome: 1 won, 0.5 tied for the top, 0 lost) of
        # each finished game against the pool, for a curriculum to read and clear
        self.pool_outcomes: list[tuple[int, float]] = []
        self._new_deals(self._rows)
        capacity = steps * b
        obs_low, obs_high = self.game.obs_low(n), self.game.obs_high(n)
        self.feature_size = features.low_high(obs_low, obs_high)[0].size
        self.critic_size = critic_state_size(self.game, n) if central_critic else 0
        self._buffers = Rollout(
            features=np.zeros((capacity, self.feature_size), np.float32),
            critic_input=np.zeros((capacity, self.critic_size), np.float32)
            if central_critic
            else None,
            masks=np.zeros((capacity, self.vec.num_actions), np.bool_),
            actions=np.zeros(capacity, np.int64),
            log_probs=np.zeros(capacity, np.float32),
            values=np.zeros(capacity, np.float32),
            advantages=np.zeros(capacity, np.float32),
            returns=np.zeros(capacity, np.float32),
            envs=np.zeros(capacity, np.int64),
            seats=np.zeros(capacity, np.int64),
            size=0,
        )
        # per decision: rewards until the seat's next one, whether the game ended first, the
        # seat's next decision (-1: none in this rollout), the value bootstrapped at the stop
        self.rewards = np.zeros(capacity, np.float32)
        self.terminal = np.zeros(capacity, np.bool_)
        self.next_index = np.zeros(capacity, np.int64)
        self.bootstrap = np.zeros(capacity, np.float32)

    # ---- seats --------------------------------------------------------------------------
    @property
    def opponents(self) -> list[Agent]:
        """Every agent of the pool so far (an index in ``controller`` is one of them)."""
        return self.pool.agents

    def set_opponents(self, opponents: Sequence[Agent]) -> None:
        """Draw future deals' opponents uniformly from ``opponents``; games in progress keep
        theirs."""
        self.pool.set(opponents)

    def _new_deals(self, envs: np.ndarray) -> None:
        """Choose who plays each seat of freshly dealt games."""
        self.controller[envs] = LEARNER
        self._episode_reward[envs] = 0.0
        if self.pool.empty or self.pool_share <= 0:
            return
        against_pool = envs[self._rng.random(envs.size) < self.pool_share]
        for env in against_pool:
            seat = int(self._rng.integers(self.num_players))
            mine = learner_side(self.game, self.vec.states[env], seat, self.team_play)
            self.controller[env, ~mine] = self.pool.draw(self._rng)

    # ---- collecting ---------------------------------------------------------------------
    def collect(self, act: PolicyStep, value: ValueFn) -> Rollout:
        """Play ``steps`` vector steps; returns the rollout with advantages still zero (see
        :meth:`advantages`)."""
        buffers, vec = self._buffers, self.vec
        self._last[:] = -1  # decisions of the previous rollout were bootstrapped there
        size = 0
        self._blocks = []
        for _ in range(self.steps):
            seats = vec.current.copy()
            controller = self.controller[self._rows, seats]
            learners = np.flatnonzero(controller == LEARNER)
            actions = np.empty(self.num_envs, np.int64)
            if learners.size:
                block = np.arange(size, size + learners.size)
                size = self._record(block, learners, seats[learners], act, actions)
                self._blocks.append(slice(block[0], block[-1] + 1))
            for k in np.unique(controller[controller != LEARNER]):
                envs = np.flatnonzero(controller == k)
                opponent = self.opponents[k]
                actions[envs] = act_on(opponent, vec.states[envs], vec.obs[envs], vec.masks[envs])
            out = vec.step(actions)
            self._credit(out.rewards)
            ended = np.flatnonzero(out.done)
            if ended.size:
                self._end_games(ended)
        buffers.size = size
        self._bootstrap_open(value)
        return buffers

    def _record(self, block, envs, seats, act: PolicyStep, actions: np.ndarray) -> int:
        buffers, vec = self._buffers, self.vec
        masks = vec.masks[envs]
        features = self.features(vec.obs[envs], masks)
        critic_input = None
        if self.central_critic:
            critic_input = buffers.critic_input[block] = critic_state(self.vec, envs, seats)
        chosen, log_probs, values = act(features, masks.astype(np.bool_), critic_input)
        actions[envs] = chosen
        buffers.features[block] = features
        buffers.masks[block] = masks
        buffers.actions[block] = chosen
        buffers.envs[block] = envs
        buffers.seats[block] = seats
        buffers.log_probs[block] = log_probs
        buffers.values[block] = values
        self.rewards[block] = 0.0
        self.terminal[block] = False
        self.next_index[block] = -1
        previous = self._last[envs, seats]
        open_ = previous >= 0
        self.next_index[previous[open_]] = block[open_]
        self._last[envs, seats] = block
        return int(block[-1]) + 1

    def _credit(self, rewards: np.ndarray) -> None:
        """Each seat's reward of this step goes to its open decision."""
        self._episode_reward += rewards
        open_ = (self._last >= 0) & (rewards != 0)
        self.rewards[self._last[open_]] += rewards[open_]

    def _end_games(self, ended: np.ndarray) -> None:
        last = self._last[ended]
        self.terminal[last[last >= 0]] = True
        self._last[ended] = -1
        controllers = self.controller[ended]
        rewards = self._episode_reward[ended]
        for row, seats in zip(rewards, controllers, strict=True):
            learner = seats == LEARNER
            self.finished.append(float(row[learner].mean()))
            if not learner.all():
                self.pool_outcomes.append((int(seats[~learner][0]), outcome(row, learner)))
        self._new_deals(ended)

    def _bootstrap_open(self, value: ValueFn) -> None:
        """Value of every seat's observation at the stop, for its decision still open."""
        envs, seats = np.nonzero(self._last >= 0)
        if not envs.size:
            return
        if self.central_critic:
            inputs = critic_state(self.vec, envs, seats)
        else:
            # the seat to move has its legal moves (hint features read them); the others none
            to_move = (seats == self.vec.current[envs])[:, None]
            masks = np.where(to_move, self.vec.masks[envs], 0).astype(np.int8)
            inputs = self.features(self.vec.observe_seats(envs, seats), masks)
        self.bootstrap[self._last[envs, seats]] = value(inputs)

    # ---- advantages ---------------------------------------------------------------------
    def advantages(self, gamma: float, lam: float) -> Rollout:
        """GAE(λ) along each seat's chain of decisions, computed backwards in time."""
        buffers = self._buffers
        size = buffers.size
        values, advantages = buffers.values, buffers.advantages
        nxt, terminal = self.next_index[:size], self.terminal[:size]
        has_next = nxt >= 0
        follow = np.where(has_next, nxt, 0)
        live = (~terminal).astype(np.float32)
        # a decision's successor is in a later step's block: done first, going backwards
        for block in reversed(self._blocks):
            self._gae_block(block, values, advantages, follow, has_next, live, gamma, lam)
        buffers.returns[:size] = advantages[:size] + values[:size]
        return buffers

    def _gae_block(self, block, values, advantages, follow, has_next, live, gamma, lam):
        nxt = follow[block]
        next_value = np.where(has_next[block], values[nxt], self.bootstrap[block])
        next_advantage = np.where(has_next[block], advantages[nxt], 0.0)
        delta = self.rewards[block] + gamma * live[block] * next_value - values[block]
        advantages[block] = delta + gamma * lam * live[block] * next_advantage
