"""What a person typed, as one of the legal actions: its number, or the start of its words.

``loi``, ``law``, ``place loi`` and ``Place La Loi`` all find ``place La Loi (law, 15,
yellow ⚡)``: each word typed is the start of one of the label's words, in the label's order,
any case, accents optional, symbols (emoji, brackets, commas, apostrophes) ignored. A label
typed in full picks it even when it starts a longer one (``pair of 3`` beside ``pair of 3 and
more``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from presages_env.core.validation import parse_decimal
from presages_env.core.view import name_key

WORD = re.compile(r"[^\W_]+")  # letters and digits: emoji, brackets and ⚡ are not words


@dataclass(frozen=True)
class Matches:
    """The actions ``typed`` may mean (indices into the labels), and whether it was a
    number (out of range when ``indices`` is empty)."""

    indices: tuple[int, ...]
    number: bool = False


def words(text: str) -> list[str]:
    """``text``'s words, folded as :func:`name_key` folds a name: ``"L'Été (summer, 11,
    yellow ⏳)"`` reads ``["l", "ete", "summer", "11", "yellow"]``."""
    return WORD.findall(name_key(text))


# A label's words, kept: the same labels are matched at every answer (what is typed is not
# kept). The list returned is shared: read it, never change it.
label_words = functools.lru_cache(maxsize=4096)(words)


def match_action(typed: str, labels: list[str]) -> Matches:
    """The labels ``typed`` fits: a number from 1 (ASCII digits only: ``str.isdigit`` would
    take '²'; an answer without a letter is a number or nothing, so ``-1`` is no label's
    ``1``), the exact label, or else every label whose words it starts, in order."""
    wanted = words(typed)
    if not any(character.isalpha() for word in wanted for character in word):
        try:
            number = parse_decimal(typed, "move")
        except ValueError:
            return Matches((), number=True)
        return Matches((number - 1,) if 1 <= number <= len(labels) else (), number=True)
    exact = tuple(i for i, label in enumerate(labels) if label_words(label) == wanted)
    if exact:
        return Matches(exact)
    fits = (i for i, label in enumerate(labels) if _starts(wanted, label_words(label)))
    return Matches(tuple(fits))


def _starts(wanted: list[str], label_words: list[str]) -> bool:
    """Whether each wanted word starts one of ``label_words``, in order (the earliest fit is
    always the best one, so one pass decides)."""
    rest = iter(label_words)
    return all(any(word.startswith(part) for word in rest) for part in wanted)
