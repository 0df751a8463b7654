"""What follows from a game's option space, so that each option is declared once.

A game declares its options in one place, ``option_space`` (:mod:`presages_env.core.option_space`:
each option's range, label, description, ``default`` and maybe ``type``). From it come:

- :func:`options_class`: the frozen dataclass of the options (``Game.Options``), its fields
  in the space's order, their defaults and annotations the space's;
- :func:`check_option_values`: ``Game.validate_options``, each value checked against its
  range at the player count (an :class:`OptionError`, both a ``ValueError`` and a
  ``TypeError``, naming the option, its range and the value);
- :func:`add_option_slots`, :func:`write_option_slots`, :func:`read_option_slots`: one state
  slot per option (``OPT_<NAME>``, its meaning the option's label), for options whose value
  is an int, a bool or one of a few values (stored as its index). ``Game.write_options`` and
  ``Game.read_options`` use them when the game's state layout holds every option's slot.

Nothing here imports numpy or numba: ``presages_env.options`` reads a game's options without
loading its rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from presages_env.core.option_space import Draw

if TYPE_CHECKING:
    import numpy as np

    from presages_env.core.layout import SlotLayout


def options_class(name: str, space: Mapping[str, Draw], module: str = __name__) -> type:
    """The frozen dataclass ``name`` with one field per option of ``space``, each with the
    option's default and type: what ``make_options`` builds and ``read_options`` returns."""
    missing = [key for key, draw in space.items() if not draw.has_default]
    if missing:
        raise TypeError(f"{name}: options {missing} need a default (option(..., default=))")
    fields = [
        (key, draw.type or "object", dataclasses.field(default=draw.default))
        for key, draw in space.items()
    ]
    cls = dataclasses.make_dataclass(name, fields, frozen=True)
    cls.__module__ = module
    cls.__doc__ = f"Options of {name}, derived from its option space (core/options.py)."
    return cls


class OptionError(ValueError, TypeError):
    """An option value out of its range: a ``ValueError``, and a ``TypeError`` too, since a
    value of the wrong kind (``"3"`` for an int) is refused by the same check."""


def check_option_values(space: Mapping[str, Draw], num_players: int, options: Any) -> None:
    """Raise :class:`OptionError` for the first option of ``options`` outside its range in
    ``space`` at ``num_players``, naming the option, what it must be and what it got."""
    for key, draw in space.items():
        value = getattr(options, key)
        if draw.accepts is not None and not draw.accepts(value, num_players):
            raise OptionError(f"{key} must be {allowed(draw, num_players)}, got {value!r}")


def allowed(draw: Draw, num_players: int) -> str:
    """What an option must be, in words: ``an int from 1 to 5 for 4 players``."""
    if draw.ints is not None:
        low, high = draw.int_range(num_players)
        where = f" for {num_players} players" if callable(draw.ints[1]) else ""
        return f"{'None or ' if draw.none_ok else ''}an int from {low} to {high}{where}"
    if draw.values is not None and set(draw.values) == {False, True}:
        return "True or False"
    if draw.values is not None:
        return f"one of {list(draw.values)}"
    return draw.text


def slot_name(option: str) -> str:
    """The state slot holding ``option``: ``OPT_`` and its name in capitals."""
    return f"OPT_{option.upper()}"


def add_option_slots(slots: SlotLayout, space: Mapping[str, Draw]) -> tuple[int, ...]:
    """Append one slot per option of ``space`` to ``slots`` (``OPT_BET`` for ``bet``, its
    meaning the option's label and range) and return their offsets in the space's order."""
    return tuple(
        slots.add(slot_name(key), 1, f"option {key}: {draw.label} ({draw.text})")
        for key, draw in space.items()
    )


def _encode(draw: Draw, value: Any) -> int:
    if draw.values is not None:  # one of a few values: its index (1 is not True)
        return next(i for i, choice in enumerate(draw.values) if _equal(value, choice))
    return int(value)


def _equal(value: Any, choice: Any) -> bool:
    return value == choice and isinstance(value, bool) == isinstance(choice, bool)


def decode_option(draw: Draw, stored: int) -> Any:
    if draw.values is not None:
        if not 0 <= stored < len(draw.values):
            raise ValueError(f"stored option {stored} is not one of {len(draw.values)} values")
        return draw.values[stored]
    return stored


def write_option_slots(
    state: np.ndarray, offsets: Sequence[int], space: Mapping[str, Draw], options: Any
) -> None:
    """Store each option of ``options`` in its slot (``add_option_slots``' offsets)."""
    for offset, (key, draw) in zip(offsets, space.items(), strict=True):
        state[offset] = _encode(draw, getattr(options, key))


def read_option_slots(
    state: np.ndarray, offsets: Sequence[int], space: Mapping[str, Draw], options: type
) -> Any:
    """The ``options`` dataclass :func:`write_option_slots` stored in ``state``."""
    values = {
        key: decode_option(draw, int(state[offset]))
        for offset, (key, draw) in zip(offsets, space.items(), strict=True)
    }
    return options(**values)
