"""The protocol every game satisfies: numba kernels plus a small Python description.

A game is written once, as four ``@njit(cache=True)`` kernels over its flat ``int64`` state
(see :mod:`presages_env.core.header` for the shared header):

``reset(state, seed)``
    Deal a new game in place. The options already written in ``state`` are kept; the
    header's RNG is re-seeded from ``seed`` and every other slot is rewritten.
``legal_mask(state, mask)``
    Fill ``mask`` (``int8[num_actions]``) with 1 for each legal action of the seat in
    ``state[HDR_CURRENT]``; at least one action is legal while the game is not over.
``step(state, action, rewards)``
    Apply a *legal* action of the current seat (callers check the mask first), advance the
    game to the next decision, and write this transition's reward of every seat into
    ``rewards`` (``float32[num_players]``, every entry overwritten).
``observe(state, player, obs)``
    Fill ``obs`` (``obs_dtype[obs_size]``) with exactly what ``player`` may know.

Everything else (PettingZoo env, vector env, agents, search) calls these, so a rule is
never written twice. The Python side, a :class:`Game` subclass, says how big things are,
validates options, writes them into a fresh state, and renders states for people.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from types import ModuleType
from typing import Any, ClassVar

import numpy as np

from presages_env.core.header import HDR_GAME_ID, HDR_NUM_PLAYERS, HDR_STEP, HDR_TERMINAL


class Game:
    """Description of one game; subclasses set the class attributes and sizes."""

    name: ClassVar[str]
    game_id: ClassVar[int]  # stored in the header; unique per game
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    obs_dtype: ClassVar[type] = np.int8
    Options: ClassVar[type]  # a frozen dataclass of the game's options with defaults

    # The game's kernel module: its four kernels and its STATE_SIZE, NUM_ACTIONS and
    # OBS_SIZE constants (sized for the largest table) are picked up from it.
    kernel: ClassVar[ModuleType]
    reset: ClassVar[Callable]
    legal_mask: ClassVar[Callable]
    step: ClassVar[Callable]
    observe: ClassVar[Callable]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kernel = cls.__dict__.get("kernel")
        if kernel is not None:
            for name in ("reset", "legal_mask", "step", "observe"):
                setattr(cls, name, staticmethod(getattr(kernel, name)))

    # ---- sizes -------------------------------------------------------------------------
    def state_size(self, num_players: int) -> int:
        return self.kernel.STATE_SIZE

    def num_actions(self, num_players: int) -> int:
        return self.kernel.NUM_ACTIONS

    def obs_size(self, num_players: int) -> int:
        return self.kernel.OBS_SIZE

    def obs_high(self, num_players: int) -> np.ndarray:
        """Upper bound of each observation entry (lower bound is 0 unless overridden)."""
        return np.full(self.obs_size(num_players), np.iinfo(self.obs_dtype).max)

    def obs_low(self, num_players: int) -> np.ndarray:
        return np.zeros(self.obs_size(num_players), dtype=np.int64)

    # ---- options and new states ----------------------------------------------------------
    def check_num_players(self, num_players: Any) -> int:
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise TypeError(f"num_players must be an int, got {type(num_players).__name__}")
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"got num_players={num_players}"
            )
        return int(num_players)

    def make_options(self, num_players: int, **options: Any) -> Any:
        """Build and validate the options dataclass; unknown names are an error."""
        known = {f.name for f in dataclasses.fields(self.Options)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(
                f"unknown option(s) {unknown} for {self.name}; known options: {sorted(known)}"
            )
        opts = self.Options(**options)
        self.validate_options(num_players, opts)
        return opts

    def validate_options(self, num_players: int, options: Any) -> None:
        """Raise ``ValueError`` for option values this game cannot play with."""

    def write_options(self, state: np.ndarray, options: Any) -> None:
        """Store the options in the game's part of ``state`` (kernels read them there)."""
        raise NotImplementedError

    def read_options(self, state: np.ndarray) -> Any:
        """Inverse of :meth:`write_options`."""
        raise NotImplementedError

    def blank_state(self, num_players: int, options: Any) -> np.ndarray:
        """A state with header and options written, ready for ``reset``."""
        state = np.zeros(self.state_size(num_players), dtype=np.int64)
        state[HDR_NUM_PLAYERS] = num_players
        state[HDR_GAME_ID] = self.game_id
        self.write_options(state, options)
        return state

    def new_state(self, num_players: int, seed: int, **options: Any) -> np.ndarray:
        """A freshly dealt game."""
        num_players = self.check_num_players(num_players)
        state = self.blank_state(num_players, self.make_options(num_players, **options))
        self.reset(state, np.int64(seed))
        return state

    # ---- reading a state ----------------------------------------------------------------
    def num_players_of(self, state: np.ndarray) -> int:
        return int(state[HDR_NUM_PLAYERS])

    def is_over(self, state: np.ndarray) -> bool:
        return bool(state[HDR_TERMINAL])

    def teams(self, state: np.ndarray) -> np.ndarray:
        """Team of each seat (seats of a team share rewards); by default everyone alone."""
        return np.arange(self.num_players_of(state))

    def info_key(self, state: np.ndarray) -> Any:
        """A cheap value that changes whenever :meth:`infos` would; infos are rebuilt then."""
        return int(state[HDR_STEP])

    def infos(self, state: np.ndarray) -> list[dict]:
        """Per-seat information for PettingZoo ``infos`` (public facts only)."""
        return [{} for _ in range(self.num_players_of(state))]

    def action_label(self, state: np.ndarray, action: int) -> str:
        """Human name of ``action`` at the decision ``state`` is waiting for."""
        return str(action)

    def render(self, state: np.ndarray) -> str:
        """A text picture of the whole state (for people, not agents: it shows all hands)."""
        raise NotImplementedError
