"""A card as a page draws it: its name, its value, its colour and its symbols, read from what
every game declares (the labels its views show and ``Game.legend``). A game whose texts know
more (a colour in its cards table, numerals of its own) overrides ``Game.card_face`` and
passes what it knows here.

- the name: the label up to its decoration (``"La Loi (law, 15, yellow ⚡)"``: La Loi);
- the value: the first whole number in the decoration (15), or the number a name starts
  with (``"7 Trumpets"``: 7); a short label without one (``"K"``) is its own value;
- the symbols: the legend's one-character symbols found in the label (⚡, ⏳), each with
  its meaning.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from presages_env.core.game import Game

DECORATION = re.compile(r"\s*[\[(].*$")  # what follows a card's name in a view's label
NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
LEADING_NUMBER = re.compile(r"^(\d+)\s+(\S.*)$")


def face_name(label: str) -> str:
    """The card's name in ``label``: the label without its decoration."""
    return DECORATION.sub("", label) or label


def card_face(
    game: Game,
    label: str,
    *,
    name: str | None = None,
    value: str | None = None,
    colour: str | None = None,
) -> dict[str, Any]:
    """``{"name", "value", "colour", "symbols"}`` of the card ``label`` shows; ``name`` and
    ``value`` where given (a game's own reading) replace the generic one, ``colour`` is the
    game's (None: it has none)."""
    plain = face_name(label)
    number = NUMBER.search(label[len(plain) :])
    leading = LEADING_NUMBER.match(plain)
    if value is None:
        value = number.group() if number else (leading.group(1) if leading else None)
    if name is None:
        name = leading.group(2) if leading and not number else plain
    symbols = [
        [symbol, meaning]
        for symbol, meaning in game.legend()
        if len(symbol) == 1 and not symbol.isalnum() and symbol in label
    ]
    return {"name": name, "value": value, "colour": colour, "symbols": symbols}
