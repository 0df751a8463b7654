"""Each game's option space: every option's whole range, to draw from and to describe.

What must hold for every game a player can set up (the pending-decision tables of
:mod:`presages_env.core.decision_tables`, the ``legal-states`` fuzz) is explored over
combinations drawn from ``Game.option_space``, not over a few option sets listed by hand:
such a list never combined Aciliande's team variant with unequal lives, and the states that
combination reaches were refused (issue 39). ``option_space`` maps each option's name to a
:class:`Draw` built from the helpers below; ``Game`` refuses a space that does not name
exactly its options, so a new option cannot be left out.

The same space says each range in words, and each option's label and meaning in plain
words (:func:`option`), so that an option is declared once (its field and default in the
game's ``Options`` dataclass, its label, meaning and range here) and :func:`describe_options`
shows them to people (``presages_env.options``, ``help(presages_env.make)``, ``python -m
presages_env info``, the docs site, the lab's lobby). An option that only shapes training
(a reward) says so (``training_only``): the lobby does not offer it.
"""

from __future__ import annotations

import dataclasses
import math
import textwrap
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # numpy is not imported with presages_env: help(make) reads these draws
    import numpy as np

    from presages_env.core.game import Game

# A combination is redrawn while the game refuses it at the player count (e.g. Aciliande's
# teams at 5 players); every space here fits within a few draws.
MAX_DRAWS = 100
INDENT = " " * 4  # of an option's description under its row


@dataclasses.dataclass(frozen=True)
class Draw:
    """One option's whole range: called as ``(rng, num_players) -> value`` it draws a value,
    and ``text`` says the range in words (``integers(1, 99)``: "1 to 99"). An option that is
    an int of a range (or ``None``) also says so as numbers: ``ints`` is ``(low, high)``,
    ``high`` maybe a function of the player count, and ``none_ok`` whether ``None`` is a
    value; the numbers fuzz passes edge values to such options."""

    function: Callable[[np.random.Generator, int], Any]
    text: str
    ints: tuple[int, int | Callable[[int], int]] | None = None
    none_ok: bool = False
    values: tuple | None = None  # one_of's values
    label: str = ""  # the option's name for people (option())
    description: str = ""  # what it does, in plain words (option())
    training_only: bool = False  # it changes rewards only, never play (option())

    def int_range(self, num_players: int) -> tuple[int, int] | None:
        """``(low, high)`` of an int option at ``num_players``; None for any other."""
        if self.ints is None:
            return None
        low, high = self.ints
        return low, high(num_players) if callable(high) else high

    def __call__(self, rng: np.random.Generator, num_players: int) -> Any:
        return self.function(rng, num_players)


def option(draw: Draw, label: str, description: str, *, training_only: bool = False) -> Draw:
    """``draw`` as one option of a game's space: its ``label`` and ``description`` for
    people, and whether it only shapes training (``training_only``: rewards, not play)."""
    return dataclasses.replace(
        draw, label=label, description=description, training_only=training_only
    )


def one_of(*values: Any) -> Draw:
    """Any of ``values``, alike."""

    def draw(rng: np.random.Generator, num_players: int) -> Any:
        return values[int(rng.integers(len(values)))]

    text = _alternatives([repr(value) for value in values])
    return Draw(draw, text, none_ok=any(value is None for value in values), values=values)


def integers(low: int, high: int | Callable[[int], int], *, high_text: str | None = None) -> Draw:
    """An int of ``[low, high]``, log-uniform from ``low``: the small values where the
    rules' corners lie (one life, a one-card hand, a step cap that truncates at once) come as
    often as the middle and the top of the range. ``high`` may depend on the player count;
    ``high_text`` then says how (``"22 // players"``)."""
    if callable(high) and high_text is None:
        raise TypeError("integers(): a high that depends on the player count needs high_text")

    def draw(rng: np.random.Generator, num_players: int) -> int:
        top = high(num_players) if callable(high) else high
        offset = int(math.exp(rng.uniform(0.0, math.log(top - low + 2)))) - 1
        return low + min(offset, top - low)

    return Draw(draw, f"{low} to {high if high_text is None else high_text}", ints=(low, high))


def either(*draws: Draw) -> Draw:
    """The value of one of ``draws``, alike (e.g. one life count or one per seat)."""

    def draw(rng: np.random.Generator, num_players: int) -> Any:
        return draws[int(rng.integers(len(draws)))](rng, num_players)

    ranges = [each.ints for each in draws if each.ints is not None]
    only_none = all(each.ints is not None or each.values == (None,) for each in draws)
    ints = ranges[0] if len(ranges) == 1 and only_none else None
    none_ok = any(each.none_ok for each in draws)
    return Draw(draw, _alternatives([each.text for each in draws]), ints=ints, none_ok=none_ok)


def per_seat(each: Draw) -> Draw:
    """A tuple of one value of ``each`` per seat."""

    def draw(rng: np.random.Generator, num_players: int) -> tuple:
        return tuple(each(rng, num_players) for _ in range(num_players))

    return Draw(draw, f"one per seat, each {each.text}")


def distinct(count: int, low: int, high: int) -> Draw:
    """A tuple of ``count`` different ints of ``[low, high]``, in random order."""

    def draw(rng: np.random.Generator, num_players: int) -> tuple[int, ...]:
        return tuple(int(x) + low for x in rng.choice(high - low + 1, count, replace=False))

    return Draw(draw, f"{count} different ints from {low} to {high}")


def mapped(draw: Draw, function: Callable[[Any], Any], text: str) -> Draw:
    """``function`` of the value of ``draw`` (e.g. thousandths of an int), its range ``text``."""
    return Draw(lambda rng, num_players: function(draw(rng, num_players)), text)


def _alternatives(texts: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return " or ".join(filter(None, (", ".join(texts[:-1]), texts[-1])))


class OptionInfo(NamedTuple):
    """One option of a game, as a person reads it."""

    name: str
    type: str  # the field's annotation, as written (``int | tuple[int, ...]``)
    default: Any
    range: str  # the option space's range in words (``1 to 99``)
    description: str  # what it does, in plain words (the option space's)
    label: str = ""  # its name for people
    training_only: bool = False  # it shapes rewards only: no lobby offers it


class OptionTable(list):
    """A game's :class:`OptionInfo` list, printed as a table (name, type, default and range
    on one line, the description wrapped below)."""

    def __str__(self) -> str:
        if not self:
            return "(no options)"
        rows = [("option", "type", "default", "range")]
        rows += [(o.name, o.type, repr(o.default), o.range) for o in self]
        widths = [max(map(len, column)) for column in zip(*rows, strict=True)]
        lines = [_row(rows[0], widths)]
        for option, row in zip(self, rows[1:], strict=True):
            lines.append(_row(row, widths))
            lines += textwrap.wrap(
                option.description, 88, initial_indent=INDENT, subsequent_indent=INDENT
            )
        return "\n".join(lines)

    __repr__ = __str__


def _row(cells: tuple[str, ...], widths: list[int]) -> str:
    return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()


def describe_options(options: type, space: Mapping[str, Draw]) -> OptionTable:
    """Each field of the ``options`` dataclass with its annotation, its default, and its
    range, label and description in ``space``. A field without a default, or without a
    range, label and description (:func:`option`), is a ``TypeError``: an option is
    declared with all of them."""
    table = OptionTable()
    for field in dataclasses.fields(options):
        draw = space.get(field.name)
        described = isinstance(draw, Draw) and draw.label and draw.description
        if field.default is dataclasses.MISSING or not described:
            raise TypeError(
                f"option {field.name} of {options.__name__} needs a default, and a range, a "
                "label and a description in the option space (core/option_space.py option())"
            )
        annotation = field.type if isinstance(field.type, str) else field.type.__name__
        table.append(
            OptionInfo(
                field.name,
                annotation,
                field.default,
                draw.text,
                draw.description,
                draw.label,
                draw.training_only,
            )
        )
    return table


def random_options(game: Game, num_players: int, rng: np.random.Generator) -> dict[str, Any]:
    """Options drawn from ``game.option_space`` that the game accepts at ``num_players``."""
    for _ in range(MAX_DRAWS):
        options = {name: draw(rng, num_players) for name, draw in game.option_space.items()}
        try:
            game.make_options(num_players, **options)
        except ValueError:
            continue
        return options
    raise RuntimeError(
        f"{game.name}'s option space gave no options it accepts at {num_players} players "
        f"in {MAX_DRAWS} draws"
    )
