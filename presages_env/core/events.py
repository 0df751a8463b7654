"""The event log: typed records of what happened, each with the seats that may see it.

A game's ``step`` and ``reset`` kernels take an optional event buffer (``None`` on the
vector env's default path, where numba compiles every ``emit`` away) and append one record
per thing that happened: a card dealt to a seat, a card played, a trick won, a round
scored. The rules that produce the events are the ones that change the state, so an event
cannot disagree with the game (docs/architecture.md, "State layout").

A buffer is an ``int16`` array of shape ``(capacity + 1, EVENT_WIDTH)``; row 0 counts the
records written (it keeps counting past the capacity, so an overflow is detected rather
than written out of bounds). A record is ``[kind, actor, visible, a, b, c, d, e]``: the
game's event kind, the seat that acted (-1 for the table), a bit mask of the seats that
see it (:data:`PUBLIC`: everyone) and five arguments whose names each game lists in its
kernel's ``EVENT_KINDS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numba as nb
import numpy as np
from numba.core import types
from numba.extending import overload

EVENT_DTYPE = np.int16
EVENT_WIDTH = 8
KIND, ACTOR, VISIBLE = 0, 1, 2
ARGS = 3  # the five arguments are fields ARGS .. ARGS + 4
NUM_ARGS = EVENT_WIDTH - ARGS
PUBLIC = -1  # every bit set: every seat sees the event


@nb.njit(cache=True, inline="always")
def seat_bit(seat):
    """The visibility mask of one seat."""
    return 1 << seat


@nb.njit(cache=True, inline="always")
def emit(events, kind, actor, visible, a, b, c, d, e):
    """Append a record to ``events``; nothing at all when ``events`` is None."""
    if events is None:
        return
    row = events[0, 0] + 1
    if row < events.shape[0]:
        events[row, KIND] = kind
        events[row, ACTOR] = actor
        events[row, VISIBLE] = visible
        events[row, ARGS] = a
        events[row, ARGS + 1] = b
        events[row, ARGS + 2] = c
        events[row, ARGS + 3] = d
        events[row, ARGS + 4] = e
    events[0, 0] = row


def game_buffer(events, game):
    """Game ``game``'s buffer of a batch's ``[B, capacity + 1, EVENT_WIDTH]`` buffers,
    emptied (None when the batch writes no events). Compiled callers only: the overload
    below is its code."""
    raise NotImplementedError("game_buffer is called from compiled batched loops only")


@overload(game_buffer, jit_options={"cache": True})
def _game_buffer_by_type(events, game):
    """Chosen by type, so a batch with events gets the buffer typed as an array: one
    ``if events is None`` would type it optional, and every kernel on the step path would
    then compile a third time (beside the plain and the logged)."""
    if isinstance(events, types.NoneType):
        return lambda events, game: None

    def emptied_buffer(events, game):
        events[game, 0, 0] = 0
        return events[game]

    return emptied_buffer


def new_buffer(capacity: int) -> np.ndarray:
    """An empty buffer for up to ``capacity`` records."""
    return np.zeros((capacity + 1, EVENT_WIDTH), dtype=EVENT_DTYPE)


def drain(buffer: np.ndarray) -> np.ndarray:
    """The records written since the last drain (a copy); the buffer is emptied.

    Raises ``RuntimeError`` if the kernel wrote more than the buffer holds: the game's
    ``MAX_STEP_EVENTS`` is too small, a bug of the game, never of the caller.
    """
    count = int(buffer[0, 0])
    if count >= buffer.shape[0]:
        raise RuntimeError(
            f"{count} events in one transition, more than the buffer's {buffer.shape[0] - 1}"
        )
    records = buffer[1 : count + 1].copy()
    buffer[0, 0] = 0
    return records


def visible_to(records: np.ndarray, seat: int) -> np.ndarray:
    """The rows of ``records`` that ``seat`` may see."""
    return records[(records[:, VISIBLE].astype(np.int64) >> seat) & 1 == 1]


def is_public(records: np.ndarray) -> np.ndarray:
    """Which rows every seat sees."""
    return records[:, VISIBLE] == PUBLIC


def seat_name(seat: int) -> str:
    """How every text a person reads names a seat, counted from 1 as the rules count
    players: ``P1`` is seat 0 (agent ``player_0``). Event texts, views, labels and the seat
    badges of :mod:`presages_env.core.seats` all name seats by it."""
    return f"P{seat + 1}"


@dataclass(frozen=True)
class Event:
    """One decoded record: ``kind`` and argument names come from the game's ``EVENT_KINDS``."""

    kind: str
    actor: int
    visible_to: tuple[int, ...] | str  # the seats, or "all"
    args: dict[str, int]
    # The event in words (``Game.describe_event``), filled by ``Game.decode_events``; it
    # names only what the seats in ``visible_to`` see.
    text: str = field(default="", compare=False)

    def seen_by(self, seat: int) -> bool:
        """Whether ``seat`` may see this event."""
        return self.visible_to == "all" or seat in self.visible_to

    def __str__(self) -> str:
        if self.text:
            return self.text
        who = "table" if self.actor < 0 else seat_name(self.actor)
        details = ", ".join(f"{name}={value}" for name, value in self.args.items())
        return f"{who}: {self.kind}({details})"


def decode(kinds: dict[int, tuple[str, tuple[str, ...]]], record: Any, num_players: int) -> Event:
    """The :class:`Event` of one record, named by the game's ``EVENT_KINDS`` table."""
    name, fields = kinds[int(record[KIND])]
    visible = int(record[VISIBLE])
    seats = "all" if visible == PUBLIC else tuple(p for p in range(num_players) if visible >> p & 1)
    args = {field: int(record[ARGS + i]) for i, field in enumerate(fields)}
    return Event(name, int(record[ACTOR]), seats, args)


class EventLog:
    """The records of one episode, grown as the AEC env steps (an amortised array)."""

    def __init__(self, capacity_per_step: int) -> None:
        self.buffer = new_buffer(capacity_per_step)
        self._records = np.zeros((256, EVENT_WIDTH), dtype=EVENT_DTYPE)
        self._count = 0

    def clear(self) -> None:
        self.buffer[0, 0] = 0
        self._count = 0

    def collect(self) -> None:
        """Move what the last kernel call wrote into the log."""
        self.extend(drain(self.buffer))

    def extend(self, new: np.ndarray) -> None:
        """Append the records ``new`` (drained from the buffer) to the log."""
        end = self._count + len(new)
        if end > len(self._records):
            grown = np.zeros((max(end, 2 * len(self._records)), EVENT_WIDTH), EVENT_DTYPE)
            grown[: self._count] = self._records[: self._count]
            self._records = grown
        self._records[self._count : end] = new
        self._count = end

    @property
    def records(self) -> np.ndarray:
        """Every record of the episode so far (a view: copy it to keep it)."""
        return self._records[: self._count]


@dataclass(frozen=True)
class Transition:
    """One action applied to a copy of an episode's state: nothing of the episode changed
    until :meth:`Episode.apply` keeps it (a caller that stores the move first, the lab's,
    drops it if the store refuses)."""

    step: int  # the number of the action in its episode (how many came before it)
    action: int
    state: np.ndarray  # the state after the action
    rewards: np.ndarray
    records: np.ndarray  # the events it wrote (none in a lazy episode: written when read)


class Episode:
    """One episode's actions and events, each legal action applied by :meth:`step` (in
    place) or :meth:`transition` then :meth:`apply` (on a copy, kept later).

    Playing runs the kernel's ``step``, which writes no events (as fast as the vector
    env's); reading :attr:`records` replays the actions not logged yet through
    ``step_logged`` on a copy of the episode's first state, so the records are exactly
    those a logged play writes (a kernel is deterministic: the RNG is in the state).
    ``eager=True`` logs each step as it is played instead, for a reader of every step
    (information-state observations, the lab's views), which would otherwise pay each
    step twice.
    """

    def __init__(self, kernel: Any, state: np.ndarray, num_players: int, eager: bool) -> None:
        self._kernel = kernel
        self._eager = eager
        self._log = EventLog(kernel.MAX_STEP_EVENTS)
        self._replayed = np.zeros_like(state)  # the first state, then stepped as logged
        self._rewards = np.zeros(num_players, dtype=np.float32)
        self._logged = 0  # how many of ``actions`` the log covers
        self.actions: list[int] = []  # every action applied this episode, in order
        self.dealt = False  # whether the episode starts from a deal, not a given position

    def deal(self, state: np.ndarray, seed: int) -> None:
        """Deal a new game from ``seed`` into ``state`` and start the episode there (the
        deal's events open the log)."""
        self._log.clear()
        self._kernel.reset_logged(state, np.int64(seed), self._log.buffer)
        self._start(state, dealt=True)

    def start_at(self, state: np.ndarray) -> None:
        """Start the episode from the position ``state``: nothing before it is logged."""
        self._log.clear()
        self._start(state, dealt=False)

    def step(self, state: np.ndarray, action: int, rewards: np.ndarray) -> None:
        """Apply the legal ``action`` (a plain ``int``: numba types it int64, as the kernels
        are compiled, and takes it faster than an ``np.int64``) to ``state`` in place,
        writing ``rewards``."""
        self._advance(state, action, rewards)
        if self._eager:
            self._log.collect()
            self._logged += 1
        self.actions.append(action)

    def transition(self, state: np.ndarray, action: int) -> Transition:
        """The legal ``action`` applied to a copy of ``state``, the episode's current one:
        kept by :meth:`apply`, or dropped."""
        after = state.copy()
        rewards = np.zeros_like(self._rewards)
        self._advance(after, action, rewards)
        records = drain(self._log.buffer) if self._eager else new_buffer(0)[1:]
        return Transition(len(self.actions), action, after, rewards, records)

    def apply(self, state: np.ndarray, transition: Transition) -> None:
        """Make ``transition`` of ``state`` (the current state) the episode's next step;
        ``ValueError`` if another action was applied since it was made."""
        if transition.step != len(self.actions):
            raise ValueError(f"the transition of step {transition.step} is stale")
        state[:] = transition.state
        if self._eager:
            self._log.extend(transition.records)
            self._logged += 1
        self.actions.append(transition.action)

    @property
    def records(self) -> np.ndarray:
        """Every record of the episode so far (a view: copy it to keep it)."""
        for action in self.actions[self._logged :]:
            self._kernel.step_logged(
                self._replayed, np.int64(action), self._rewards, self._log.buffer
            )
            self._logged += 1  # counted before collect(), which raises for a game's bug
            self._log.collect()
        return self._log.records

    def _advance(self, state: np.ndarray, action: int, rewards: np.ndarray) -> None:
        if self._eager:
            self._kernel.step_logged(state, int(action), rewards, self._log.buffer)
        else:
            self._kernel.step(state, int(action), rewards)

    def _start(self, state: np.ndarray, dealt: bool) -> None:
        self._log.collect()
        self._replayed[:] = state
        self._logged = 0
        self.actions.clear()
        self.dealt = dealt


def information_state_size(obs_size: int, max_events: int) -> int:
    """Length of an information state: the seat, its first observation, its events."""
    return 1 + obs_size + max_events * EVENT_WIDTH


def encode_history(seat: int, first_obs: np.ndarray, records: np.ndarray, out: np.ndarray) -> None:
    """Write into ``out`` the fixed-length encoding of what ``seat`` saw: its index, its
    observation when the episode started, then every record it may see, in order, zero
    padded (kind 0 is no event). ``records`` must already be the seat's visible ones."""
    out[:] = 0
    out[0] = seat
    start = 1 + len(first_obs)
    out[1:start] = first_obs
    flat = records.ravel()
    if start + len(flat) > len(out):
        raise RuntimeError(
            f"{len(records)} events exceed the information state's bound of "
            f"{(len(out) - start) // EVENT_WIDTH}: the game's max_visible_events is wrong"
        )
    out[start : start + len(flat)] = flat
