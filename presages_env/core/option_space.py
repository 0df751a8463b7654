"""Each game's option space: every option's whole range, to draw option combinations from.

What must hold for every game a player can set up (the pending-decision tables of
:mod:`presages_env.core.decision_tables`, the ``legal-states`` fuzz) is explored over
combinations drawn from ``Game.option_space``, not over a few option sets listed by hand:
such a list never combined Aciliande's team variant with unequal lives, and the states that
combination reaches were refused (issue 39). ``option_space`` maps each option's name to a
draw ``(rng, num_players) -> value`` built from the helpers below; ``Game`` refuses a space
that does not name exactly its options, so a new option cannot be left out.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from presages_env.core.game import Game

Draw = Callable[[np.random.Generator, int], Any]  # (rng, num_players) -> an option's value

# A combination is redrawn while the game refuses it at the player count (e.g. Aciliande's
# teams at 5 players); every space here fits within a few draws.
MAX_DRAWS = 100


def one_of(*values: Any) -> Draw:
    """Any of ``values``, alike."""

    def draw(rng: np.random.Generator, num_players: int) -> Any:
        return values[int(rng.integers(len(values)))]

    return draw


def integers(low: int, high: int | Callable[[int], int]) -> Draw:
    """An int of ``[low, high]`` (``high`` may depend on the player count), log-uniform
    from ``low``: the small values where the rules' corners lie (one life, a one-card hand,
    a step cap that truncates at once) come as often as the middle and the top of the range."""

    def draw(rng: np.random.Generator, num_players: int) -> int:
        top = high(num_players) if callable(high) else high
        offset = int(math.exp(rng.uniform(0.0, math.log(top - low + 2)))) - 1
        return low + min(offset, top - low)

    return draw


def either(*draws: Draw) -> Draw:
    """The value of one of ``draws``, alike (e.g. one life count or one per seat)."""

    def draw(rng: np.random.Generator, num_players: int) -> Any:
        return draws[int(rng.integers(len(draws)))](rng, num_players)

    return draw


def per_seat(each: Draw) -> Draw:
    """A tuple of one value of ``each`` per seat."""

    def draw(rng: np.random.Generator, num_players: int) -> tuple:
        return tuple(each(rng, num_players) for _ in range(num_players))

    return draw


def distinct(count: int, low: int, high: int) -> Draw:
    """A tuple of ``count`` different ints of ``[low, high]``, in random order."""

    def draw(rng: np.random.Generator, num_players: int) -> tuple[int, ...]:
        return tuple(int(x) + low for x in rng.choice(high - low + 1, count, replace=False))

    return draw


def mapped(draw: Draw, function: Callable[[Any], Any]) -> Draw:
    """``function`` of the value of ``draw`` (e.g. thousandths of an int)."""
    return lambda rng, num_players: function(draw(rng, num_players))


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
