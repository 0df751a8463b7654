"""The pending decisions a state may hold: exactly those its game's kernel produces.

A state's pending decision is more than its node: the stage of the action under way, what a
choice is for, the card that asked for it and who decides. Each slot can be in range while
their combination is one no play reaches, and the kernel then runs a stage machine from it
(an essence put on a card not in play, a card stuck "being placed"). So every game's
validation module names its pending decision as a *decision signature*: a tuple of small
ints read from a state the layout checks accepted, with relations instead of raw values
where a raw value would not generalise (whether a seat is the one deciding, where the card
that asked for the choice lies and whose it is):

- ``DECISION_FIELDS``: the names of the signature's entries;
- ``decision_signature(state) -> tuple[int, ...]``.

The signatures themselves are never written by hand:
:func:`presages_env.core.decision_tables.explore` collects them from the
kernel's own transitions (random play at every player count, each game with options drawn
from the game's whole option space, ``Game.option_space``, and from every state visited,
each legal action tried once), and ``decisions.json`` beside the game stores them.
:func:`~presages_env.core.validation.check_decision` refuses a state whose signature is not
in the table, for every game (``Game`` refuses a validator without these names), so a
hand-made state holds only a combination the kernel itself reaches::

    python -m presages_env.games.decision_tables --write     # regenerate every table
    python -m presages_env.games.decision_tables --check     # explore afresh: anything new?

Why a table explored by play, and how it is kept from missing a reachable signature (issue
39: four hand-picked option sets never met Aciliande's team variant with unequal lives, and
the legal states of 33 signatures were refused). No derivation lists every reachable
signature without playing: a signature abstracts a state, and which one follows it depends
on what it leaves out (the hands, the lives, who is still in), so the set belongs to the
whole reachable state space, which only the kernel's play explores; a check derived from
the per-slot ranges alone would accept the combinations this module exists to refuse. What
can be made unmissable is what a signature depends on, and how play is drawn:

1. a signature holds only what the kernel's decision reads, as relations the rules fix
   rather than the option combination (Aciliande's seats are the decider or another,
   never a partner: no decision reads the teams, and the partner relation of the seat
   before the decider depended on who had been eliminated);
2. exploration draws every option over its whole range, combined at random, at every
   player count (``core/option_space.py``), never from a list of option sets;
3. the tests explore afresh with a seed drawn for each run (``--check``), and the
   ``legal-states`` fuzz (:mod:`presages_env.fuzzing.legal_states`) sends the states of
   random, heuristic and mixed play through every checked entry point.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from presages_env.core.game import Game

TABLE_FILE = "decisions.json"
TABLE_FORMAT = 1
MAX_TABLE_BYTES = 2**22  # a game's decisions.json (the largest shipped: 6 KB)

# seat relations, the same in every game's signature
NOBODY = -1
DECIDER = 0  # the seat to act
PARTNER = 1  # another seat of the decider's team
OTHER = 2  # any other seat


def seat_relation(seat: int, current: int, teams: Iterable[int] | None = None) -> int:
    """How ``seat`` relates to the seat to act: NOBODY (-1), DECIDER, PARTNER (same team,
    if ``teams`` lists each seat's team) or OTHER."""
    if seat < 0:
        return NOBODY
    if seat == current:
        return DECIDER
    if teams is not None:
        team = list(teams)
        if 0 <= current < len(team) and seat < len(team) and team[seat] == team[current]:
            return PARTNER
    return OTHER


def table_path(game: Game) -> str:
    return str(resources.files(game.validator.__package__) / TABLE_FILE)


def known_signatures(game: Game) -> frozenset[tuple[int, ...]]:
    """The signatures in the game's table; raises if the table is missing or stale."""
    return load_table(game.validator.__package__, tuple(game.validator.DECISION_FIELDS))


@functools.cache
def load_table(package: str, fields: tuple[str, ...]) -> frozenset[tuple[int, ...]]:
    from presages_env.core.files import read_json  # files -> validation -> this module

    with resources.as_file(resources.files(package) / TABLE_FILE) as path:
        table = read_json(path, "the decision table", MAX_TABLE_BYTES, 4)
    if (
        not isinstance(table, dict)
        or table.get("format") != TABLE_FORMAT
        or tuple(table.get("fields", ())) != fields
    ):
        raise RuntimeError(
            f"{path} does not match the game's DECISION_FIELDS: regenerate it with "
            "python -m presages_env.games.decision_tables --write"
        )
    return frozenset(tuple(s) for s in table["signatures"])
