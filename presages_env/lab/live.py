"""One table's game in play: its state, event log and running totals, driven through the
logged kernels (as a record's replay is), each move checked against the legal mask first."""

from __future__ import annotations

from typing import Any

import numpy as np

from presages_env.core import events as ev
from presages_env.core.actions import check_action
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT
from presages_env.core.state_io import replay
from presages_env.core.validation import check_seed


def option_values(options: dict[str, Any]) -> dict[str, Any]:
    """Options read from JSON as the game takes them: its lists back to tuples."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}


class LiveGame:
    """The game dealt from ``seed`` with ``options``, played one checked move at a time."""

    def __init__(self, game: Game, num_players: int, seed: int, options: dict[str, Any]) -> None:
        self.game = game
        self.num_players = game.check_num_players(num_players)
        self.options = options
        self.state = game.blank_state(self.num_players, game.make_options(num_players, **options))
        self._log = ev.EventLog(game.kernel.MAX_STEP_EVENTS)
        game.kernel.reset_logged(self.state, np.int64(check_seed(seed)), self._log.buffer)
        self._log.collect()
        self._mask = np.zeros(game.num_actions(self.num_players), dtype=np.int8)
        self._rewards = np.zeros(self.num_players, dtype=np.float32)
        self.totals = np.zeros(self.num_players, dtype=np.float64)
        self.actions: list[int] = []
        self._seen: dict[int, list[ev.Event]] = {}  # each seat's events, decoded
        self._scanned: dict[int, int] = {}  # how many log records each seat's list covers

    @classmethod
    def rebuilt(
        cls, game: Game, num_players: int, seed: int, options: dict[str, Any], actions: list[int]
    ) -> LiveGame:
        """The game after the stored ``actions``: each is checked by the library's replay
        (``state_io.replay``, which refuses an illegal one) and the logged play must reach
        the same state, so a tampered database is refused, never played on."""
        expected = replay(game, num_players, seed, actions, **options)
        live = cls(game, num_players, seed, options)
        for action in actions:
            live.play(action)
        if not np.array_equal(live.state, expected):
            raise ValueError("the stored moves do not replay to one state")
        return live

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    @property
    def current(self) -> int:
        """The seat to act; -1 once the game is over."""
        return -1 if self.over else int(self.state[HDR_CURRENT])

    @property
    def step(self) -> int:
        """How many moves were played: the number the next move must carry."""
        return len(self.actions)

    def legal(self) -> list[int]:
        if self.over:
            return []
        self.game.kernel.legal_mask(self.state, self._mask)
        return [int(a) for a in np.flatnonzero(self._mask)]

    def label(self, action: int) -> str:
        return self.game.action_label(self.state, action)

    def checked(self, action: Any) -> int:
        """``action`` as an int if it is legal now, else ``ValueError``/``TypeError``."""
        if self.over:
            raise ValueError("the game is over")
        self.game.kernel.legal_mask(self.state, self._mask)
        return check_action(action, self._mask, self.label)

    def play(self, action: Any) -> int:
        """Play ``action`` (``ValueError`` if the game is over or it is not legal now)."""
        action = self.checked(action)
        self.game.kernel.step_logged(self.state, np.int64(action), self._rewards, self._log.buffer)
        self._log.collect()
        self.totals += self._rewards
        self.actions.append(action)
        return action

    def ends_with(self, action: int) -> bool:
        """Whether the legal ``action`` ends the game (played on a copy of the state)."""
        state = self.state.copy()
        self.game.kernel.step(state, np.int64(action), self._rewards.copy())
        return self.game.is_over(state)

    def events(self, seat: int, last: int | None = None) -> list[ev.Event]:
        """Every event ``seat`` saw (the ``last`` ones only, if given), in order, with its
        text. Each record is filtered and worded once: a message in a long game costs what
        its new events cost, not the whole log again."""
        seen = self._seen.setdefault(seat, [])
        records = self._log.records
        fresh = ev.visible_to(records[self._scanned.get(seat, 0) :], seat)
        self._scanned[seat] = len(records)
        seen.extend(self.game.decode_events(fresh, self.num_players))
        return seen[-last:] if last else list(seen)
