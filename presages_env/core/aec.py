"""PettingZoo ``AECEnv`` adapter that runs any :class:`~presages_env.core.game.Game`."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from presages_env.core import events as ev
from presages_env.core.actions import check_action
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL, TRUNCATED, seed_of, step_of
from presages_env.core.validation import MAX_STEP, check_int, checked_state, optional_seed
from presages_env.core.view import REFEREE_HEADING

# What an illegal action does: "raise" refuses it (ValueError, nothing changes); "terminate"
# ends the game with this reward for the offender and 0 for the others, like PettingZoo
# classic's TerminateIllegalWrapper, so generic checkers that step random actions run.
ILLEGAL_ACTION_MODES = ("raise", "terminate")
ILLEGAL_ACTION_PENALTY = -1.0
# What observe() returns as "observation": the game's summary of the present, or the seat's
# information state (perfect recall: docs/research.md, "Information states").
OBSERVATION_MODES = ("observation", "information_state")
# The header's first slots, up to the seat to act and the end flag: read in one go after a
# transition (one ``tolist`` costs less than two numpy scalar reads).
_HEAD = max(HDR_CURRENT, HDR_TERMINAL) + 1


class CardGameEnv(AECEnv):
    """One game as a PettingZoo AEC environment.

    Agents are ``player_0`` ... ``player_{n-1}``; ``observe`` returns
    ``{"observation": obs, "action_mask": int8 mask}`` (the mask is all zeros for a seat
    that is not to act). ``max_steps`` truncates a game after that many decisions.
    ``illegal_action`` is ``"raise"`` (default) or ``"terminate"`` (see
    :data:`ILLEGAL_ACTION_MODES`; the offender's info then has ``"illegal_action": True``).
    Rewards are accumulated the PettingZoo way; ``infos`` carry the game's public facts.
    ``game_seed`` is the seed the game was dealt from and ``actions_since_deal()`` what was
    played since: the whole game, which ``presages_env.records.from_env`` saves as a record.
    For a game whose kernel writes events, ``events(seat)`` lists what happened as that seat
    saw it, ``observe_public()`` encodes what every seat saw, and
    ``observation_mode="information_state"`` makes the observation the seat's whole history.
    """

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False, "render_fps": 2}

    def __init__(
        self,
        game: Game,
        num_players: int | None = None,
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal_action: str = "raise",
        observation_mode: str = "observation",
        **options: Any,
    ) -> None:
        super().__init__()
        if observation_mode not in OBSERVATION_MODES:
            raise ValueError(
                f"observation_mode must be one of {OBSERVATION_MODES}, got {observation_mode!r}"
            )

        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"got {render_mode!r}"
            )
        if max_steps is not None:
            max_steps = check_int(max_steps, "max_steps", 1, MAX_STEP)
        self.game = game
        n = game.check_num_players(game.default_players if num_players is None else num_players)
        self.num_players = n
        self.game_options = game.make_options(n, **options)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.illegal_action = illegal_action
        self._ended_illegally = False
        self.metadata = dict(self.metadata, name=f"{game.name}_v0")
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        num_actions = game.num_actions(n)
        self.observation_mode = observation_mode
        obs_space = spaces.Box(
            low=game.obs_low(n).astype(game.obs_dtype),
            high=game.obs_high(n).astype(game.obs_dtype),
            dtype=game.obs_dtype,
        )
        if observation_mode == "information_state":
            obs_space = self._history_space(game.obs_size(n), obs_space)
        mask_space = spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs_space, "action_mask": mask_space})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        low, high = game.global_bounds(n)
        self.state_space = spaces.Box(
            low=low.astype(game.global_dtype),
            high=high.astype(game.global_dtype),
            dtype=game.global_dtype,
        )
        self._global = np.zeros(game.global_size(n), dtype=game.global_dtype)
        self._global_version = -1
        self._state = game.blank_state(n, self.game_options)
        # the actions since the deal (or set_state) and their events, logged when first read
        # but at once for information states, which read them every step
        self._episode = ev.Episode(
            game.kernel, self._state, n, eager=observation_mode == "information_state"
        )
        self._mask = np.zeros(num_actions, dtype=np.int8)
        self._no_mask = np.zeros(num_actions, dtype=np.int8)
        self._obs = np.zeros((n, game.obs_size(n)), dtype=game.obs_dtype)
        self._first_obs = self._obs.copy()
        self._history = np.zeros((n, obs_space.shape[0]), dtype=obs_space.dtype)
        # what observe() hands out copies of: each seat's row of the observations or histories
        self._obs_rows = list(self._obs)
        self._seen_rows = list(
            self._history if observation_mode == "information_state" else self._obs
        )
        # the state's seat to act and end flag as Python ints, read once per transition
        self._current_seat = -1
        self._terminal = 0
        # observations and the mask are recomputed only after the state changed: ``_version``
        # counts the changes (a Python int: cheaper than reading the header's step field)
        self._version = 0
        self._obs_version = [-1] * n
        self._step_rewards = np.zeros(n, dtype=np.float32)
        # the bytes of the rewards ``self.rewards`` holds (None: unknown), and of no reward:
        # most transitions pay nothing, and then the reward dicts need no rewrite
        self._rewards_bytes: bytes | None = None
        self._no_rewards_bytes = self._step_rewards.tobytes()
        self._seed_rng = np.random.default_rng()
        self._info_key: Any = None

    # ---- PettingZoo API ------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game. ``seed`` fixes this deal and the seeds of later resets.

        ``options={"state": s}`` starts from the position ``s`` instead (see ``set_state``);
        game options belong to the constructor, so other keys are ignored with a warning.
        """
        seed = optional_seed(seed)
        options = dict(options or {})
        start = options.pop("state", None)
        if options:
            gymnasium.logger.warn(
                f"reset() ignores options {sorted(options)}; game options go to the constructor"
            )
        if start is not None:
            self.set_state(start)
            return
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**62))
        self._episode.deal(self._state, game_seed)
        self._start_episode()

    def step(self, action: Any) -> None:
        self._require_reset("step()")
        agent = self.agent_selection
        if not self.agents:
            raise ValueError("the game is over and every agent has left; call reset()")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            self._rewards_bytes = None  # it cleared the rewards to int 0
            return
        try:
            action = check_action(action, self._current_mask(), self._label)
        except ValueError:
            if self.illegal_action == "raise":
                raise
            self._end_for_illegal_action(agent)
            return
        self._episode.step(self._state, action, self._step_rewards)
        self._version += 1
        self._after_transition(agent)

    def last(self, observe: bool = True):
        self._require_reset("last()")
        agent = self.agent_selection  # PettingZoo's last(), without a second reset check
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._require_reset("observe()")
        if agent not in self._index:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        i = self._index[agent]
        if self._obs_version[i] != self._version:
            self.game.kernel.observe(self._state, i, self._obs_rows[i])
            if self.observation_mode == "information_state":
                records = ev.visible_to(self._episode.records, i)
                ev.encode_history(i, self._first_obs[i], records, self._history[i])
            self._obs_version[i] = self._version
        is_current = self._current_seat == i and not self._terminal and not self._ended_illegally
        # copies: an observation kept by the caller must not change with later steps
        return {
            "observation": self._seen_rows[i].copy(),
            "action_mask": (self._current_mask() if is_current else self._no_mask).copy(),
        }

    def state(self) -> np.ndarray:
        """The global state (PettingZoo's ``state``, in ``state_space``): the whole game as a
        referee sees it, every hand included but not the RNG, for centralised critics (a
        copy; layout in docs/research.md). Not for agents that act: it shows every hand."""
        self._require_reset("state()")
        if self._global_version != self._version:
            self.game.kernel.global_state(self._state, self._global)
            self._global_version = self._version
        return self._global.copy()

    def events(self, seat: int | None = None) -> list[ev.Event]:
        """What happened this episode (since ``reset`` or ``set_state``), in order: every
        event ``seat`` may see, or every event with ``seat=None`` (a referee's log); each
        prints as words (``str(event)``, its ``text``), its fields stay in ``kind``/``args``."""
        self._require_reset("events()")
        records = self._episode.records
        if seat is not None:
            records = ev.visible_to(records, check_int(seat, "seat", 0, self.num_players - 1))
        return self.game.decode_events(records, self.num_players)

    def observe_public(self) -> np.ndarray:
        """The public information state: every event all seats saw this episode, encoded
        like an information state with seat -1 and no private first observation."""
        self._require_reset("observe_public()")
        records = self._episode.records
        size = ev.information_state_size(0, self._max_events())
        out = np.zeros(size, dtype=ev.EVENT_DTYPE)
        ev.encode_history(-1, out[:0], records[ev.is_public(records)], out)
        return out

    def render(self, seat: int | None = None) -> str | None:
        """The table as text: with ``seat``, what that seat may see (its view, built from its
        observation alone: ``game.view(state, seat)``); without, every hand, headed as the
        referee's view for debugging (never show it to a player)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass one to make().")
            return None
        if seat is None:
            text = f"{REFEREE_HEADING}\n{self.game.render(self._state)}"
        else:
            seat = check_int(seat, "seat", 0, self.num_players - 1)
            text = self.game.view(self._state, seat).text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ---- beyond PettingZoo: positions, clones, replays ------------------------------------
    def get_state(self) -> np.ndarray:
        """A copy of the full game state (all hands included): for search and saving."""
        return self._state.copy()

    def set_state(self, state: np.ndarray) -> None:
        """Continue from ``state`` (validated, then copied); agents and rewards restart from it.

        A bad state raises ``TypeError``/``ValueError`` naming the slot, and the env keeps
        its current game; so does a state of other options than the env's (they size the
        observation spaces).
        """
        self._state[:] = checked_state(self.game, state, self.num_players, self.game_options)
        self._episode.start_at(self._state)
        self._start_episode()

    @property
    def game_seed(self) -> int:
        """The seed this game was dealt from: ``reset(seed=s)`` draws it from ``s`` (so it is
        not ``s``), and ``game.new_state(n, env.game_seed, **options)`` deals the same game.
        After ``set_state``, the seed the given position says it was dealt from."""
        self._require_reset("game_seed")
        return seed_of(self._state)

    def actions_since_deal(self) -> list[int]:
        """The actions applied since the deal, in order (a copy): with :attr:`game_seed`,
        the whole game, which ``presages_env.records.from_env(env)`` records.

        Raises ``ValueError`` for a game started from a position (``set_state`` or
        ``reset(options={"state": s})``): the actions that led to it are unknown, and a
        record replays a game from its deal.
        """
        self._require_reset("actions_since_deal()")
        if not self._episode.dealt:
            raise ValueError(
                "this game started from a position given to set_state() or "
                "reset(options={'state': ...}), not from a deal: the actions that led to it "
                "are unknown, so it has no record; start games with reset(seed=...) to "
                "record them"
            )
        return list(self._episode.actions)

    def action_label(self, action: int) -> str:
        """Human name of ``action`` at the current decision."""
        return self.game.action_label(self._state, action)

    # ---- internals ----------------------------------------------------------------------
    def _max_events(self) -> int:
        return self.game.max_visible_events(self.num_players, self.game_options)

    def _history_space(self, obs_size: int, obs_space: spaces.Box) -> spaces.Box:
        """Bounds of an information state: the seat, the observation's bounds, then events
        (kinds from 0, actors from -1, anything an int16 holds in the other fields)."""
        size = ev.information_state_size(obs_size, self._max_events())
        info = np.iinfo(ev.EVENT_DTYPE)
        low = np.full(size, info.min, dtype=np.int64)
        high = np.full(size, info.max, dtype=np.int64)
        low[0], high[0] = 0, self.num_players - 1
        low[1 : 1 + obs_size] = obs_space.low
        high[1 : 1 + obs_size] = obs_space.high
        rows = slice(1 + obs_size, size)
        low[rows][ev.KIND :: ev.EVENT_WIDTH] = 0
        high[rows][ev.KIND :: ev.EVENT_WIDTH] = max(self.game.kernel.EVENT_KINDS)
        low[rows][ev.ACTOR :: ev.EVENT_WIDTH] = -1
        high[rows][ev.ACTOR :: ev.EVENT_WIDTH] = self.num_players - 1
        dtype = ev.EVENT_DTYPE
        return spaces.Box(low.astype(dtype), high.astype(dtype), dtype=dtype)

    def _require_reset(self, what: str) -> None:
        if not hasattr(self, "agent_selection"):
            raise ValueError(f"call reset() before {what}")

    def _label(self, action: int) -> str:
        return self.game.action_label(self._state, action)

    def _current_mask(self) -> np.ndarray:
        if self._mask_version != self._version:
            self.game.kernel.legal_mask(self._state, self._mask)
            self._mask_version = self._version
        return self._mask

    def _read_head(self) -> None:
        head = self._state[:_HEAD].tolist()
        self._current_seat, self._terminal = head[HDR_CURRENT], head[HDR_TERMINAL]

    def _start_episode(self) -> None:
        self._read_head()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewards_bytes = self._no_rewards_bytes
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        cut = self._terminal == TRUNCATED
        self.terminations = dict.fromkeys(self.agents, self.game.is_over(self._state) and not cut)
        self.truncations = dict.fromkeys(self.agents, bool(cut))
        self._ended_illegally = False
        self._version += 1
        self._mask_version = -1
        if self.observation_mode == "information_state":
            for i in range(self.num_players):
                self.game.kernel.observe(self._state, i, self._first_obs[i])
        self._info_key = None  # a new episode rebuilds every per-agent dict, infos included
        self._refresh_infos()
        self._select_next()

    def _refresh_infos(self) -> None:
        key = self.game.info_key(self._state)
        if self._info_key is None or key != self._info_key:
            self._info_key = key
            infos = self.game.infos(self._state)
            self.infos = {
                a: infos[i] for i, a in enumerate(self.possible_agents) if a in self.agents
            }

    def _select_next(self) -> None:
        current = self._current_seat
        self.agent_selection = self.possible_agents[current] if current >= 0 else self.agents[0]

    def _end_for_illegal_action(self, agent: str) -> None:
        """End the episode: the offender gets the penalty, nobody else a reward."""
        self._ended_illegally = True
        self._step_rewards[:] = 0.0
        self._step_rewards[self._index[agent]] = ILLEGAL_ACTION_PENALTY
        self._cumulative_rewards[agent] = 0.0
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = float(self._step_rewards[i])
        self._rewards_bytes = None
        self._accumulate_rewards()
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = dict(self.infos[agent], illegal_action=True)
        self.agent_selection = self.agents[0]

    def _after_transition(self, agent: str) -> None:
        self._read_head()
        self._cumulative_rewards[agent] = 0.0
        paid = self._step_rewards.tobytes()
        if paid != self._rewards_bytes:  # else self.rewards holds these rewards already
            for a, reward in zip(self.possible_agents, self._step_rewards.tolist(), strict=True):
                self.rewards[a] = reward
            self._rewards_bytes = paid
        if paid != self._no_rewards_bytes:  # adding zeros changes no sum
            self._accumulate_rewards()
        if self._terminal == TRUNCATED:  # the game's own step cap
            self.truncations = dict.fromkeys(self.agents, True)
        elif self._terminal:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and step_of(self._state) >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self._refresh_infos()
        if self.truncations[agent]:
            self.agent_selection = self.agents[0]
        else:
            self._select_next()
        if self.render_mode == "human":
            self.render()
