"""One name per seat, wherever a person reads one: the lab's table, the terminal's screen,
a replay page's header and a result line all name a seat by :func:`seat_badge`, so that
the same player is never "player 1" on one line and "P0" or "player_0" on the next.

A badge is the seat as event texts name it (:func:`~presages_env.core.events.seat_name`),
then who plays it (an agent's name, ``heuristic``, or a person's display name; ``you`` for
the person looking), then, in a game played in teams, how that seat stands to the one
looking: ``P1 · you``, ``P2 · heuristic · opponent``, ``P3 · ppo · partner``. The teams
come from the game (``Game.teams``), read from the state: a deal may decide them.
"""

from __future__ import annotations

from collections.abc import Sequence

from presages_env.core.events import seat_name

SEPARATOR = " \u00b7 "  # "P1 · you"
VIEWER = "you"  # the person looking, on their own screen
PERSON = "person"  # a person who gave no name (a record says who played, not who looks)
PARTNER, OPPONENT = "partner", "opponent"


def seat_badge(seat: int, name: str = "", relation: str | None = None) -> str:
    """``P2 · heuristic · partner``: the seat, its player's name (left out when empty) and
    its relation to the seat looking (left out when None)."""
    return SEPARATOR.join(part for part in (seat_name(seat), name, relation) if part)


def in_teams(teams: Sequence[int]) -> bool:
    """Whether some seats share a team (a game where everyone plays alone has no partners)."""
    return len(set(map(int, teams))) < len(teams)


def relation(teams: Sequence[int], seat: int, viewer: int | None) -> str | None:
    """``partner`` or ``opponent`` of ``viewer`` in a team game; None for the viewer itself,
    when no seat is looking (a referee's view) or when everyone plays alone."""
    if viewer is None or seat == viewer or not in_teams(teams):
        return None
    return PARTNER if int(teams[seat]) == int(teams[viewer]) else OPPONENT


def seat_badges(names: Sequence[str], teams: Sequence[int], viewer: int | None = None) -> list[str]:
    """Each seat's badge as ``viewer`` reads them (its own named :data:`VIEWER`), or as a
    referee does (``viewer`` None: names only, no relations)."""
    if len(names) != len(teams):
        raise ValueError(f"names must list {len(teams)} players, got {len(names)}")
    return [
        seat_badge(seat, name, relation(teams, seat, viewer))
        for seat, name in enumerate(as_seen_by(names, viewer))
    ]


def as_seen_by(names: Sequence[str], viewer: int | None) -> list[str]:
    """``names`` with the ``viewer``'s own as :data:`VIEWER` (unchanged when None): what
    a result line names the seats on the viewer's screen."""
    return [VIEWER if seat == viewer else name for seat, name in enumerate(names)]


def row_names(players: Sequence[str], badges: Sequence[str]) -> list[str]:
    """The name of each player row of a table view (``players``: the view's own names):
    the seat's badge where the view names that seat, else the view's name. A view may not
    know who sits where: Président's names the other players by their place in turn order
    (``+1``) once the seating has changed, and row ``p`` is then not seat ``p``."""
    return [badges[p] if name == seat_name(p) else name for p, name in enumerate(players)]
