"""One game as a single-agent Gymnasium env: the learner's seat (or team) against opponents.

Registered as ``presages_env/<game>-v0`` (``gymnasium.make("presages_env/president-v0",
opponents="heuristic")`` once :mod:`presages_env.training` is imported). It runs one
PettingZoo AEC env, so it is the conventional route: for a plain ``gymnasium.Env``, env
checkers and wrappers, and as the reference the batched views
(:class:`~presages_env.training.vec_env.SelfPlayVecEnv`,
:class:`~presages_env.training.gym_vector.LearnerVectorEnv`) are measured against.

Observations are the learner's features as ``float32``; its legal actions are in
``info["action_mask"]`` (``int8``) and ``action_masks()`` (``bool``, for sb3-contrib's
``MaskablePPO``). An illegal action ends the episode by default, as PettingZoo's
``TerminateIllegalWrapper`` does for a seat (``illegal_action="terminate"``): the learner
gets -1, ``terminated`` is true and ``info["illegal_action"]`` is ``True``, whichever seat of
its team it acted for. Generic checkers (Gymnasium's and SB3's ``check_env``) step random
actions, so they need this. ``illegal_action="raise"`` refuses one with a ``ValueError``
instead, changing nothing: a masking bug then fails loudly.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

import presages_env
from presages_env.agents.features import make_features
from presages_env.core.header import step_of
from presages_env.core.validation import MAX_STEP, check_int, optional_seed
from presages_env.training.learner_batch import SEED_BOUND
from presages_env.training.opponents import OpponentSpec, opponent_agents


class SingleAgentEnv(gymnasium.Env):
    """The learner plays a seat drawn at each reset (every seat of its team with
    ``team_play``); an opponent drawn from ``opponents`` plays the other seats.

    ``opponents``: an Agent, ``"random"``, ``"heuristic"``, or a list of them. Opponents
    given by name are rebuilt at every seeded reset, so a seed fixes the whole episode.
    ``max_steps`` truncates a game at the learner's first decision once the game has had
    that many decisions (all seats'), as the batched views do: every episode has a learner
    decision, however small the cap. The remaining keyword arguments are the game's options.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 2}

    def __init__(
        self,
        game: str,
        opponents: OpponentSpec = "random",
        num_players: int | None = None,
        team_play: bool = False,
        features: str = "raw",
        illegal_action: str = "terminate",
        max_steps: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if max_steps is not None:
            max_steps = check_int(max_steps, "max_steps", 1, MAX_STEP)
        self.max_steps = max_steps
        self._cut = False  # the episode was truncated by max_steps
        self.aec = presages_env.make(
            game,
            num_players=num_players,
            render_mode=render_mode,
            illegal_action=illegal_action,
            **options,
        )
        self.render_mode = render_mode
        self.team_play = bool(team_play)
        self._opponent_spec = opponents
        self.opponents = opponent_agents(opponents, self.aec.game.name, 0)
        n = self.aec.num_players
        game_obj = self.aec.game
        self.features = make_features(features, game_obj.name, game_obj.num_actions(n))
        low, high = self.features.low_high(game_obj.obs_low(n), game_obj.obs_high(n))
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(game_obj.num_actions(n))
        self.learner = "player_0"
        self._team = {self.learner}
        self._opponent = self.opponents[0]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        seed = optional_seed(seed)  # before Gymnasium's seeding, which has rules of its own
        super().reset(seed=seed)
        if seed is not None:
            self.opponents = opponent_agents(self._opponent_spec, self.aec.game.name, seed)
        rng = self.np_random
        self.aec.reset(seed=int(rng.integers(SEED_BOUND)), options=options)
        self._cut = False
        agents = self.aec.possible_agents
        seat = int(rng.integers(len(agents)))
        teams = self.aec.game.teams(self.aec.get_state())
        members = teams == teams[seat] if self.team_play else np.arange(len(agents)) == seat
        self.learner = agents[seat]
        self._team = {a for a, member in zip(agents, members, strict=True) if member}
        self._opponent = self.opponents[int(rng.integers(len(self.opponents)))]
        self._pending = self._play_opponents()
        return self._observation(), self._info()

    def step(self, action: Any):
        if self._over():
            raise ValueError("the episode is over; call reset()")
        reward = self._pending + self._learner_act(action) + self._play_opponents()
        self._pending = 0.0
        terminated = self.aec.terminations[self.learner]
        self._cut = not terminated and self._past_step_cap()
        truncated = (self.aec.truncations[self.learner] and not terminated) or self._cut
        return self._observation(), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        return self._mask().astype(np.bool_)

    def render(self) -> str | None:
        return self.aec.render()

    def _mask(self) -> np.ndarray:
        return self.aec.observe(self.aec.agent_selection)["action_mask"]

    def _observation(self) -> np.ndarray:
        """The features of the team seat to act, or of the learner's seat once it is over."""
        agent = self.aec.agent_selection if not self._over() else self.learner
        obs = self.aec.observe(agent)
        return self.features(obs["observation"][None], obs["action_mask"][None])[0]

    def _info(self) -> dict[str, Any]:
        info = dict(self.aec.infos.get(self.learner, {}))
        if any(self.aec.infos.get(seat, {}).get("illegal_action") for seat in self._team):
            info["illegal_action"] = True  # for the learner's partner, so the learner's
        info["action_mask"] = self._mask()
        return info

    def _over(self) -> bool:
        return (
            self._cut or self.aec.terminations[self.learner] or self.aec.truncations[self.learner]
        )

    def _past_step_cap(self) -> bool:
        return self.max_steps is not None and step_of(self.aec.get_state()) >= self.max_steps

    def _learner_act(self, action: Any) -> float:
        """Apply the learner's action for its team's seat to act; the learner's reward. An
        illegal one (``"terminate"``) costs the learner the offender's penalty."""
        seat = self.aec.agent_selection
        reward = self._act(action)
        if self.aec.infos[seat].get("illegal_action"):
            return float(self.aec.rewards[seat])
        return reward

    def _act(self, action: Any) -> float:
        """Apply one action of the seat to act; the learner's reward for that transition."""
        self.aec.step(action)
        return float(self.aec.rewards[self.learner])

    def _play_opponents(self) -> float:
        """Opponents act until a team seat is to act or the game is over; returns the
        learner's reward meanwhile."""
        aec, reward = self.aec, 0.0
        while not self._over() and aec.agent_selection not in self._team:
            obs = aec.observe(aec.agent_selection)
            reward += self._act(self._opponent.act(obs["observation"], obs["action_mask"]))
        return reward
