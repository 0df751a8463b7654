"""Who plays which seat beside the person at the terminal (``play --partner --opponents``).

In a game played in teams the person's partners take the ``partners`` agents and the other
teams' seats the ``opponents`` agents, each list in turn. The teams are read from the dealt
state (``Game.teams``): in Présages the dealt Absolus decide them, in Aciliande's team
variant the seating does, and one rule covers both, so the agents are seated once the deal
is known: the deal of the seed asked for is played, and ``--seed`` deals the same seating
again. In a game where everyone plays alone every other seat is an opponent, and naming a
partner is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from presages_env.core.seats import in_teams

DEFAULT_PARTNER = "heuristic"


def seat_specs(
    teams: Sequence[int],
    seat: int,
    opponents: Sequence[str],
    partners: Sequence[str] | None = None,
    title: str = "this game",
) -> list[str | None]:
    """The agent spec of each seat, None at the person's ``seat``. ``ValueError`` when
    ``opponents`` is empty, or when ``partners`` are named in a game without teams."""
    if not opponents:
        raise ValueError("name at least one opponent agent (random, heuristic, search, ppo)")
    if partners is not None and not partners:
        raise ValueError("--partner needs at least one agent (random, heuristic, search, ppo)")
    teamed = in_teams(teams)
    if partners is not None and not teamed:
        raise ValueError(
            f"{title} at {len(teams)} players has no teams, so no partner: every other seat "
            "is an opponent (name their agents with --opponents)"
        )
    partners = partners or [DEFAULT_PARTNER]
    specs: list[str | None] = []
    taken = {"partner": 0, "opponent": 0}
    for p, team in enumerate(teams):
        if p == seat:
            specs.append(None)
            continue
        side = "partner" if teamed and int(team) == int(teams[seat]) else "opponent"
        agents = partners if side == "partner" else opponents
        specs.append(agents[taken[side] % len(agents)])
        taken[side] += 1
    return specs
