"""One table's game in play: its state, its :class:`~presages_env.core.events.Episode`
(each move's events logged as it is played) and running totals. A move is checked against
the legal mask and stepped once, on a copy (:meth:`LiveGame.propose`), and kept once the
table has stored it (:meth:`LiveGame.keep`)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from presages_env.core import events as ev
from presages_env.core.actions import check_action
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT
from presages_env.core.validation import check_seed


def option_values(options: dict[str, Any]) -> dict[str, Any]:
    """Options read from JSON as the game takes them: its lists back to tuples."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}


@dataclasses.dataclass(frozen=True)
class Proposed:
    """A legal move stepped on a copy of the table's state, not played yet: what the store
    records of it (its step, action, label, whether it ends the game) and its transition."""

    label: str
    over: bool
    transition: ev.Transition

    @property
    def step(self) -> int:
        return self.transition.step

    @property
    def action(self) -> int:
        return self.transition.action


class LiveGame:
    """The game dealt from ``seed`` with ``options``, played one checked move at a time."""

    def __init__(self, game: Game, num_players: int, seed: int, options: dict[str, Any]) -> None:
        self.game = game
        self.num_players = game.check_num_players(num_players)
        self.options = options
        self.state = game.blank_state(self.num_players, game.make_options(num_players, **options))
        # eager: every move's events are read at once (each seat's view)
        self._episode = ev.Episode(game.kernel, self.state, self.num_players, eager=True)
        self._episode.deal(self.state, check_seed(seed))
        self._mask = np.zeros(game.num_actions(self.num_players), dtype=np.int8)
        self.totals = np.zeros(self.num_players, dtype=np.float64)
        self._seen: dict[int, list[ev.Event]] = {}  # each seat's events, decoded
        self._scanned: dict[int, int] = {}  # how many log records each seat's list covers

    @classmethod
    def rebuilt(
        cls, game: Game, num_players: int, seed: int, options: dict[str, Any], actions: list[int]
    ) -> LiveGame:
        """The game after the stored ``actions``, each checked as a person's move is (so a
        tampered database is refused, never played on: ``ValueError`` naming the action)."""
        live = cls(game, num_players, seed, options)
        for index, action in enumerate(actions):
            try:
                live.play(action)
            except (ValueError, TypeError) as error:
                raise ValueError(f"stored action #{index}: {error}") from None
        return live

    @property
    def actions(self) -> list[int]:
        """The moves played, in order."""
        return self._episode.actions

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

    def propose(self, action: Any) -> Proposed:
        """``action`` checked (``ValueError`` if the game is over or it is not legal now,
        ``TypeError`` if it is no whole number) and stepped on a copy of the state: the
        table changes only when :meth:`keep` keeps it."""
        if self.over:
            raise ValueError("the game is over")
        self.game.kernel.legal_mask(self.state, self._mask)
        action = check_action(action, self._mask, self.label)
        transition = self._episode.transition(self.state, action)
        return Proposed(self.label(action), self.game.is_over(transition.state), transition)

    def keep(self, move: Proposed) -> None:
        """Play the proposed ``move`` (``ValueError`` if another was played since)."""
        self._episode.apply(self.state, move.transition)
        self.totals += move.transition.rewards

    def play(self, action: Any) -> int:
        """Play ``action`` at once (``ValueError`` if the game is over or it is not legal)."""
        move = self.propose(action)
        self.keep(move)
        return move.action

    def events(self, seat: int, last: int | None = None) -> list[ev.Event]:
        """Every event ``seat`` saw (the ``last`` ones only, if given), in order, with its
        text. Each record is filtered and worded once: a message in a long game costs what
        its new events cost, not the whole log again."""
        seen = self._seen.setdefault(seat, [])
        records = self._episode.records
        fresh = ev.visible_to(records[self._scanned.get(seat, 0) :], seat)
        self._scanned[seat] = len(records)
        seen.extend(self.game.decode_events(fresh, self.num_players))
        return seen[-last:] if last else list(seen)
