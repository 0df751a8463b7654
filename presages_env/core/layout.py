"""A game's state layout declared as a list of named slots, from which its offsets follow.

Each game's ``layout.py`` declares its state slot after slot::

    slots = SlotLayout(start=HEADER_SIZE)
    PHASE = slots.add("PHASE", 1, "PHASE_*: setup, play or game over")
    HAND = slots.add("HAND", (MAX_PLAYERS, NUM_RANKS), "cards each player holds of each rank")
    STATE_SIZE = slots.size

so the offsets stay plain module-level ints (numba reads them as compile-time constants and
linters see every name), no offset is chained by hand, and the layout table of the game's
docs page is generated from the same list (``Game.state_layout``, docs/hooks.py) instead of
being copied.
"""

from __future__ import annotations

import math
import operator
from typing import NamedTuple

import numpy as np


class Slot(NamedTuple):
    """One named field of a state: ``size`` slots from ``offset``, ``shape`` as declared."""

    name: str
    offset: int
    shape: tuple[int, ...]
    meaning: str
    high: int | None = None  # the largest value it holds, where declared (observations)

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class SlotLayout:
    """The slots of a state in order, each placed right after the previous one."""

    def __init__(self, start: int = 0) -> None:
        self.start = start
        self.size = start  # the next free offset: the layout's end once every slot is added
        self.slots: list[Slot] = []

    def add(
        self, name: str, shape: int | tuple[int, ...], meaning: str, high: int | None = None
    ) -> int:
        """Append the field ``name`` of ``shape`` (a size, or the dimensions of an array
        stored row by row) and return its offset; ``high`` is the largest value each of its
        entries holds (an observation's bounds follow from it)."""
        dims = tuple(map(operator.index, (shape,) if np.ndim(shape) == 0 else shape))
        if not dims or min(dims) < 1:
            raise ValueError(f"slot {name} needs positive dimensions, got {shape!r}")
        if any(slot.name == name for slot in self.slots):
            raise ValueError(f"slot {name} is declared twice")
        offset = self.size
        self.slots.append(Slot(name, offset, dims, meaning, high))
        self.size += math.prod(dims)
        return offset

    def __getitem__(self, name: str) -> Slot:
        """The slot called ``name``."""
        for slot in self.slots:
            if slot.name == name:
                return slot
        raise KeyError(f"no slot {name!r}; slots: {[s.name for s in self.slots]}")

    def view(self, array: np.ndarray, name: str) -> np.ndarray:
        """Slot ``name`` of ``array`` (one state or observation, or a batch of them along
        the first axes) as a view of its declared shape: ``obs_slots.view(obs, "MOVES")``
        is ``[..., MAX_MOVES, 2]``, with no offset counted by hand."""
        slot = self[name]
        flat = array[..., slot.offset : slot.offset + slot.size]
        return flat.reshape(*array.shape[:-1], *slot.shape)

    def highs(self, default: int) -> np.ndarray:
        """The largest value of each entry (``int64[size - start]``): each slot's ``high``,
        ``default`` where a slot declares none."""
        high = np.full(self.size - self.start, default, dtype=np.int64)
        for slot in self.slots:
            start = slot.offset - self.start
            high[start : start + slot.size] = default if slot.high is None else slot.high
        return high

    def markdown(self) -> str:
        """The layout as a Markdown table: slot, offset, size, meaning."""
        rows = [
            "| slot | offset | size | meaning |",
            "|---|---|---|---|",
            *(
                f"| `{s.name}` | {s.offset} | {'×'.join(map(str, s.shape))} | {_cell(s.meaning)} |"
                for s in self.slots
            ),
        ]
        return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    """Text in a table cell: its pipes are not column breaks."""
    return text.replace("|", "\\|")
