"""B games in which one learner plays a seat (or its whole team) against opponent agents.

The engine under the single-learner views of the batched kernels: SB3's
:class:`~presages_env.training.vec_env.SelfPlayVecEnv` and Gymnasium's
:class:`~presages_env.training.gym_vector.LearnerVectorEnv`. Each deal draws the learner's
seat uniformly and an opponent from the pool; opponents act until every game waits for the
learner, so a view only ever shows learner decisions. Rewards a seat earns while others act
are added to the learner's next step; those of a new deal before the learner's first
decision are carried into its first step there.

``max_steps`` cuts a game at the learner's first decision once the game has had that many
decisions: the learner's observation then is the episode's true final observation, the one
a truncated episode's value is bootstrapped from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from presages_env.agents.base import Agent
from presages_env.agents.features import make_features
from presages_env.core.actions import legal_actions
from presages_env.core.game import Game
from presages_env.core.validation import (
    MAX_STEP,
    check_actions,
    check_int,
    check_seed,
    optional_seed,
)
from presages_env.core.vector import VectorEnv
from presages_env.games.run_spec import as_game
from presages_env.training.critic_input import critic_state, critic_state_bounds
from presages_env.training.opponents import OpponentPool, learner_side

SEED_BOUND = 2**62  # seeds drawn for deals


class LearnerStep(NamedTuple):
    """One learner step of every game (arrays ``[B]`` or ``[B, F]``, fresh each step).

    ``obs`` is the learner's next decision: in a game that ended, already the new deal's.
    ``final_obs`` holds, in rows that ended, the learner's last observation of that game
    (after a cut, the observation at the cut; after the game's end, the decision it acted on:
    a terminal state has no value to learn). ``episodes`` lists ``(env, return, length)``.
    """

    obs: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    final_obs: np.ndarray
    episodes: list[tuple[int, float, int]]


class LearnerBatch:
    def __init__(
        self,
        game: str | Game,
        num_envs: int,
        opponents: Sequence[Agent],
        num_players: int | None = None,
        team_play: bool = False,
        seed: int = 0,
        opponent_weights: Sequence[float] | None = None,
        features: str = "raw",
        max_steps: int = 0,
        critic_state: bool = False,
        **options: Any,
    ) -> None:
        self.critic_state = bool(critic_state)
        self.max_steps = check_int(max_steps, "max_steps (0 = no cap)", 0, MAX_STEP)
        self.seed = seed = check_seed(seed)
        self.vec = VectorEnv(as_game(game), num_envs, num_players, seed=seed, **options)
        self.game = self.vec.game
        self.num_envs = self.vec.num_envs
        self.num_players = n = self.vec.num_players
        self.team_play = bool(team_play)
        self.pool = OpponentPool()
        self.set_opponents(opponents, opponent_weights)
        self.features = make_features(features, self.game.name, self.game.num_actions(n))
        self._rng = np.random.default_rng(seed)
        b = self.num_envs
        self.learner_seat = np.zeros(b, dtype=np.int64)
        self.is_learner = np.zeros((b, n), dtype=np.bool_)
        self.opponent_of = np.zeros(b, dtype=np.int64)
        self._rows = np.arange(b)
        self._episode_return = np.zeros(b)
        self._episode_length = np.zeros(b, dtype=np.int64)  # learner decisions
        self._decisions = np.zeros(b, dtype=np.int64)  # every seat's, for max_steps
        self._carry = np.zeros(b, dtype=np.float32)
        self._finished: list[tuple[int, float, int]] = []
        self.obs = np.zeros((b, self.observation_size), dtype=np.float32)
        if self.critic_state:  # filled in place at every learner step
            shape = (b, self.game.global_size(n))
            self._world = np.zeros(shape, dtype=self.game.global_dtype)

    @property
    def observation_size(self) -> int:
        return int(self.bounds()[0].size)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """float32 lower and upper bounds of the learner's input (see :meth:`_observe`)."""
        n = self.num_players
        low, high = self._feature_bounds()
        if not self.critic_state:
            return low, high
        critic_low, critic_high = critic_state_bounds(self.game, n)
        return np.concatenate([low, critic_low]), np.concatenate([high, critic_high])

    def _feature_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        n = self.num_players
        return self.features.low_high(self.game.obs_low(n), self.game.obs_high(n))

    @property
    def actor_size(self) -> int:
        """How many leading columns of the input are the seat's own features."""
        return int(self._feature_bounds()[0].size)

    def _observe(self, envs: np.ndarray | None = None) -> np.ndarray:
        """The learner's input in ``envs`` (default all): its features, then with
        ``critic_state`` the global state and a one-hot of the acting seat, which only a
        centralised critic reads (training/central_critic.py)."""
        if envs is None:
            obs, masks, rows = self.vec.obs, self.vec.masks, self._rows
        else:
            obs, masks, rows = self.vec.obs[envs], self.vec.masks[envs], envs
        features = self.features(obs, masks)
        if not self.critic_state:
            return features
        critic = critic_state(self.vec, rows, self.vec.current[rows], out=self._world)
        return np.concatenate([features, critic], axis=1)

    @property
    def masks(self) -> np.ndarray:
        """``int8[B, A]``: the learner's legal actions in every game."""
        return self.vec.masks

    # ---- opponents and seats ------------------------------------------------------------
    @property
    def opponents(self) -> list[Agent]:
        """Every agent of the pool so far (an index in ``opponent_of`` is one of them)."""
        return self.pool.agents

    def set_opponents(
        self, opponents: Sequence[Agent], weights: Sequence[float] | None = None
    ) -> None:
        """Draw future opponents from ``opponents`` (by ``weights``, default uniform); games
        in progress keep theirs."""
        opponents = list(opponents)
        if not opponents or not all(isinstance(a, Agent) for a in opponents):
            raise TypeError(f"opponents must be a non-empty list of Agents, got {opponents!r}")
        self.pool.set(opponents, weights)

    def _new_deals(self, envs: np.ndarray) -> None:
        """Draw the learner's seat (or team) and the opponent of freshly dealt games."""
        for i in envs:
            seat = int(self._rng.integers(self.num_players))
            self.learner_seat[i] = seat
            self.is_learner[i] = learner_side(self.game, self.vec.states[i], seat, self.team_play)
        self.opponent_of[envs] = self.pool.draw(self._rng, len(envs))
        self._decisions[envs] = 0

    # ---- stepping -----------------------------------------------------------------------
    def reset(
        self, seed: int | None = None, opponents: Sequence[Agent] | None = None
    ) -> np.ndarray:
        """Deal every game anew (from ``seed``, else from the batch's own generator), with
        ``opponents`` as the new pool if given (every game draws its opponent anew)."""
        seed = optional_seed(seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        if opponents is not None:
            self.pool = OpponentPool()
            self.set_opponents(opponents)
        self.vec.reset(int(self._rng.integers(SEED_BOUND)))
        everything = np.arange(self.num_envs)
        self._new_deals(everything)
        self._episode_return[:] = 0.0
        self._episode_length[:] = 0
        self._carry[:] = 0.0
        self._play_opponents(np.zeros(self.num_envs, np.float32), np.ones(self.num_envs, bool))
        self.obs = self._observe()
        return self.obs

    def check_actions(self, actions: Any, skip: np.ndarray | None = None) -> np.ndarray:
        """The learner's actions as int64 if every game not skipped gets a legal one."""
        actions = check_actions(actions, self.vec.num_envs)
        playing = self._rows if skip is None else np.flatnonzero(~skip)
        chosen = actions[playing]
        in_range = (chosen >= 0) & (chosen < self.vec.num_actions)
        legal = in_range & (self.vec.masks[playing, np.where(in_range, chosen, 0)] == 1)
        if not legal.all():
            i = int(playing[np.flatnonzero(~legal)[0]])
            raise ValueError(
                f"learner action {int(actions[i])} is not legal in game {i}; legal actions "
                f"there: {legal_actions(self.vec.masks[i])} (no game was stepped)"
            )
        if skip is not None:
            actions = np.where(skip, -1, actions)
        return actions

    def step(self, actions: Any, skip: np.ndarray | None = None) -> LearnerStep:
        """Apply the learner's action in every game (but those ``skip`` marks, which wait),
        then let opponents play until the learner is to act everywhere again."""
        actions = self.check_actions(actions, skip)
        stepped = actions >= 0
        rewards = np.where(stepped, self._carry, 0.0).astype(np.float32)
        self._carry[stepped] = 0.0
        self._episode_length += stepped
        self._finished = []
        out = self._step_vec(actions)
        rewards += np.where(stepped, out.rewards[self._rows, self.learner_seat], 0.0)
        terminated = out.done.copy()
        self._end_episodes(np.flatnonzero(terminated), rewards)
        self._play_opponents(rewards, terminated)
        truncated, final_obs = self._cut_long_games(rewards, terminated)
        ended = terminated | truncated
        self._episode_return[~ended] += rewards[~ended]
        self.obs = self._observe()
        return LearnerStep(self.obs, rewards, terminated, truncated, final_obs, self._finished)

    def _step_vec(self, actions: np.ndarray):
        out = self.vec.step(actions)
        self._decisions += actions >= 0
        return out

    def _learner_to_act(self) -> np.ndarray:
        return self.is_learner[self._rows, self.vec.current]

    def _play_opponents(self, rewards: np.ndarray, done: np.ndarray) -> None:
        """Opponents act until every game waits for the learner. Learner rewards go to
        ``rewards``, or to the carry once the game's episode is over (``done``)."""
        while True:
            waiting = ~self._learner_to_act()
            if not waiting.any():
                return
            actions = np.full(self.num_envs, -1, dtype=np.int64)
            for k, agent in enumerate(self.opponents):
                envs = np.flatnonzero(waiting & (self.opponent_of == k))
                if envs.size:
                    actions[envs] = agent.act_batch(self.vec.obs[envs], self.vec.masks[envs])
            out = self._step_vec(actions)
            gained = out.rewards[self._rows, self.learner_seat]
            self._carry += np.where(done, gained, 0.0)
            rewards += np.where(done, 0.0, gained)
            ended = np.flatnonzero(out.done)
            if ended.size:
                self._carry[ended[done[ended]]] = 0.0  # a deal that ended before the learner acted
                self._end_episodes(ended[~done[ended]], rewards)
                self._new_deals(ended[done[ended]])
                done[ended] = True

    def _end_episodes(self, envs: np.ndarray, rewards: np.ndarray) -> None:
        self._episode_return[envs] += rewards[envs]
        for i in envs:
            self._finished.append(
                (int(i), float(self._episode_return[i]), int(self._episode_length[i]))
            )
        self._episode_return[envs] = 0.0
        self._episode_length[envs] = 0
        self._new_deals(envs)

    def _cut_long_games(
        self, rewards: np.ndarray, terminated: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Truncate games past ``max_steps`` at this learner decision and deal them anew;
        returns the truncation flags and the final observations."""
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        long = ~terminated & (self._decisions >= self.max_steps) & (self._episode_length > 0)
        cut = np.flatnonzero(long) if self.max_steps else self._rows[:0]
        if not cut.size:
            return truncated, self.obs
        final_obs = self.obs.copy()
        final_obs[cut] = self._observe(cut)
        truncated[cut] = True
        seeds = self._rng.integers(SEED_BOUND, size=cut.size, dtype=np.int64)
        self.vec.reset_games(cut, seeds)
        self._end_episodes(cut, rewards)
        self._play_opponents(rewards, terminated | truncated)
        return truncated, final_obs
