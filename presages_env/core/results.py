"""A finished game's result in words: who won, and each seat's place and score.

Each game says what its result is in its own terms (``Game.result_summary``: rounds won,
points, victory points, lives), one :class:`SeatResult` per seat; :func:`result_words`
turns that into what a person reads at the end of a game (the terminal's last lines, the
replay page's banner): a headline naming the winners and one line per seat, best first,
every number rounded. The helpers below keep that wording the same in every game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from presages_env.core.seats import seat_badge

DECIMALS = 2  # a score that is not a whole number is shown to this many decimals
ORDINAL_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


@dataclasses.dataclass(frozen=True)
class SeatResult:
    """One seat's result: ``place`` 1 for the winners (seats that tie share a place, the
    next place is skipped: 1, 1, 3), ``score`` in the game's own terms (``"2 rounds won"``)."""

    seat: int
    place: int
    score: str


@dataclasses.dataclass(frozen=True)
class ResultWords:
    """``headline``: who won (``"P2 · you won"``); ``lines``: each seat, best first
    (``"1st  P2 · you: 2 rounds won"``), each seat named by its badge
    (:func:`~presages_env.core.seats.seat_badge`)."""

    headline: str
    lines: tuple[str, ...]

    def text(self) -> str:
        return "\n".join((self.headline, *self.lines))


def places_by(keys: Sequence[Sequence[float]]) -> list[int]:
    """Each seat's place when a higher key is better (keys compare as tuples): 1 plus the
    seats strictly ahead, so that equal keys share a place."""
    ordered = [tuple(key) for key in keys]
    return [1 + sum(other > key for other in ordered) for key in ordered]


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``21st``."""
    suffix = "th" if place % 100 in (11, 12, 13) else ORDINAL_SUFFIXES.get(place % 10, "th")
    return f"{place}{suffix}"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``1 point``, ``2 points``, ``1 life``/``3 lives`` (with ``plural="lives"``)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def rounded(value: float) -> str:
    """``value`` signed and rounded to :data:`DECIMALS` decimals, whole numbers without any:
    ``+1``, ``-0.33``, ``0``."""
    value = round(float(value), DECIMALS)
    if value == 0:
        return "0"
    return f"{value:+.{DECIMALS}f}".rstrip("0").rstrip(".")


def reward_summary(totals: Sequence[float]) -> list[SeatResult]:
    """Places and scores from each seat's total reward alone (``Game.result_summary``'s
    default, for a game that words nothing of its own)."""
    places = places_by([(total,) for total in totals])
    return [
        SeatResult(seat, place, f"reward {rounded(total)}")
        for seat, (place, total) in enumerate(zip(places, totals, strict=True))
    ]


def result_words(
    results: Sequence[SeatResult], names: Sequence[str], no_winner: str | None = None
) -> ResultWords:
    """``results`` in words, seats named ``names[seat]``; ``no_winner`` is the reason a
    game that ended without a winner gives instead of the winners (a step cap)."""
    if len(names) != len(results):
        raise ValueError(f"names must list {len(results)} players, got {len(names)}")
    labels = [seat_badge(r.seat, names[r.seat]) for r in results]
    winners = [label for r, label in zip(results, labels, strict=True) if r.place == 1]
    if no_winner is not None:
        headline = f"No winner: {no_winner}"
    else:
        headline = f"{_joined(winners)} won" if len(winners) < len(results) else "A draw"
    ranked = sorted(zip(results, labels, strict=True), key=lambda pair: pair[0].place)
    width = max(len(ordinal(r.place)) for r in results)
    lines = tuple(f"{ordinal(r.place):<{width}}  {label}: {r.score}" for r, label in ranked)
    return ResultWords(headline, lines)


def _joined(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"
