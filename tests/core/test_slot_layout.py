"""core/layout.py: a state layout declared as named slots gives each its offset in order."""

import numpy as np
import pytest

from presages_env.core.layout import SlotLayout


def test_each_slot_starts_where_the_previous_one_ends():
    slots = SlotLayout(start=24)
    assert slots.add("PHASE", 1, "the phase") == 24
    assert slots.add("HAND", (6, 13), "cards per player and rank") == 25
    assert slots.add("DECK", np.int64(52), "the deck") == 25 + 78
    assert slots.size == 24 + 1 + 78 + 52
    assert [(s.name, s.offset, s.size) for s in slots.slots] == [
        ("PHASE", 24, 1),
        ("HAND", 25, 78),
        ("DECK", 103, 52),
    ]


def test_the_table_shows_offsets_sizes_and_meanings():
    slots = SlotLayout(start=2)
    slots.add("HAND", (6, 13), "a | b")
    assert "| `HAND` | 2 | 6×13 | a \\| b |" in slots.markdown()


@pytest.mark.parametrize("shape", [0, -1, (6, 0), ()])
def test_an_empty_slot_is_refused(shape):
    with pytest.raises(ValueError, match="X needs positive dimensions"):
        SlotLayout().add("X", shape, "")


def test_a_name_declared_twice_is_refused():
    slots = SlotLayout()
    slots.add("X", 1, "")
    with pytest.raises(ValueError, match="X is declared twice"):
        slots.add("X", 1, "")
