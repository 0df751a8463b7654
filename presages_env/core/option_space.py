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
import numbers
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
    # Whether ``value`` is in the range at ``num_players`` (core/options.py validates by it).
    accepts: Callable[[Any, int], bool] | None = None
    default: Any = None  # the option's default (option()), where has_default
    type: str = ""  # the option's type as written (``int``), derived where left out (option())
    has_default: bool = False  # whether option() gave a default (None may be one)

    def int_range(self, num_players: int) -> tuple[int, int] | None:
        """``(low, high)`` of an int option at ``num_players``; None for any other."""
        if self.ints is None:
            return None
        low, high = self.ints
        return low, high(num_players) if callable(high) else high

    def __call__(self, rng: np.random.Generator, num_players: int) -> Any:
        return self.function(rng, num_players)


def option(
    draw: Draw,
    label: str,
    description: str,
    *,
    training_only: bool = False,
    default: Any = dataclasses.MISSING,
    type: str = "",  # noqa: A002 (the field's name in OptionInfo)
) -> Draw:
    """``draw`` as one option of a game's space: its ``label`` and ``description`` for
    people, whether it only shapes training (``training_only``: rewards, not play), and its
    ``default`` and ``type`` (written as in an annotation; derived from the range where left
    out), from which :func:`presages_env.core.options.options_class` builds the game's
    options dataclass."""
    return dataclasses.replace(
        draw,
        label=label,
        description=description,
        training_only=training_only,
        default=None if default is dataclasses.MISSING else default,
        has_default=default is not dataclasses.MISSING,
        type=type or draw.type,
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, _np_bool()))


def _np_bool() -> type:
    """numpy's bool type (numpy is imported only when a value is checked)."""
    import numpy as np

    return np.bool_


def _same(value: Any, choice: Any) -> bool:
    """``value`` is ``choice`` as an option value: equal and of the same kind (1 is not True)."""
    is_bool = isinstance(value, (bool, _np_bool()))
    if isinstance(choice, bool) or choice is None:
        return is_bool and bool(value) is choice or value is choice
    return not is_bool and type(value) is type(choice) and value == choice


def one_of(*values: Any) -> Draw:
    """Any of ``values``, alike."""

    def draw(rng: np.random.Generator, num_players: int) -> Any:
        return values[int(rng.integers(len(values)))]

    text = _alternatives([repr(value) for value in values])
    kinds = {type(value) for value in values}
    if kinds == {str}:
        annotation = f"Literal[{', '.join(map(repr, values))}]"
    else:
        annotation = " | ".join(sorted({k.__name__ for k in kinds})).replace("NoneType", "None")
    return Draw(
        draw,
        text,
        none_ok=any(value is None for value in values),
        values=values,
        accepts=lambda value, n: any(_same(value, choice) for choice in values),
        type=annotation,
    )


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

    def accepts(value: Any, num_players: int) -> bool:
        top = high(num_players) if callable(high) else high
        return _is_int(value) and low <= value <= top

    text = f"{low} to {high if high_text is None else high_text}"
    return Draw(draw, text, ints=(low, high), accepts=accepts, type="int")


def either(*draws: Draw) -> Draw:
    """The value of one of ``draws``, alike (e.g. one life count or one per seat)."""

    def draw(rng: np.random.Generator, num_players: int) -> Any:
        return draws[int(rng.integers(len(draws)))](rng, num_players)

    ranges = [each.ints for each in draws if each.ints is not None]
    only_none = all(each.ints is not None or each.values == (None,) for each in draws)
    ints = ranges[0] if len(ranges) == 1 and only_none else None
    none_ok = any(each.none_ok for each in draws)

    def accepts(value: Any, num_players: int) -> bool:
        return any(each.accepts is not None and each.accepts(value, num_players) for each in draws)

    text = _alternatives([each.text for each in draws])
    annotation = " | ".join(each.type for each in draws)
    return Draw(draw, text, ints=ints, none_ok=none_ok, accepts=accepts, type=annotation)


def per_seat(each: Draw) -> Draw:
    """A tuple of one value of ``each`` per seat."""

    def draw(rng: np.random.Generator, num_players: int) -> tuple:
        return tuple(each(rng, num_players) for _ in range(num_players))

    def accepts(value: Any, num_players: int) -> bool:
        return (
            isinstance(value, (tuple, list))
            and len(value) == num_players
            and all(each.accepts(v, num_players) for v in value)
        )

    text = f"one per player, each {each.text}"
    return Draw(draw, text, accepts=accepts, type="tuple[int, ...]")


def distinct(count: int, low: int, high: int) -> Draw:
    """A tuple of ``count`` different ints of ``[low, high]``, in random order."""

    def draw(rng: np.random.Generator, num_players: int) -> tuple[int, ...]:
        return tuple(int(x) + low for x in rng.choice(high - low + 1, count, replace=False))

    def accepts(value: Any, num_players: int) -> bool:
        return (
            isinstance(value, (tuple, list))
            and len(value) == count
            and all(_is_int(v) and low <= v <= high for v in value)
            and len(set(value)) == count
        )

    text = f"{count} different ints from {low} to {high}"
    return Draw(draw, text, accepts=accepts, type=f"tuple[{', '.join(['int'] * count)}]")


def mapped(
    draw: Draw,
    function: Callable[[Any], Any],
    text: str,
    accepts: Callable[[Any, int], bool] | None = None,
    type: str = "",  # noqa: A002 (the field's name in OptionInfo)
) -> Draw:
    """``function`` of the value of ``draw`` (e.g. thousandths of an int), its range ``text``
    and ``accepts`` (whether a value is in it), its ``type`` as written."""
    return Draw(lambda rng, n: function(draw(rng, n)), text, accepts=accepts, type=type)


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
