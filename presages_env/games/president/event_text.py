"""Président's events in words (``Game.describe_event``): one sentence per event kind.

The wording names ranks and sets as the table does (``pair of K``); a dealt or exchanged
rank appears only in the events that its seats alone see (``kernel.EVENT_KINDS``).
"""

from __future__ import annotations

from presages_env.core.events import Event, seat_name
from presages_env.games.president.cards import RANK_NAMES, SET_NAMES


def _set(rank: int, count: int) -> str:
    return f"{SET_NAMES[count - 1]} of {RANK_NAMES[rank]}"


def _place(place: int) -> str:
    """A finishing place, 0 first, as an ordinal."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place + 1, f"{place + 1}th")


def round_title(event: Event) -> str | None:
    """The title of the manche that ``event`` opens (the replay page's round list), or None."""
    if event.kind != "manche_start":
        return None
    return f"Manche {event.args['manche'] + 1}"


def describe(event: Event) -> str:
    """``event`` in words."""
    a = event.args
    who = seat_name(event.actor)
    kind = event.kind
    if kind == "dealt":
        return f"{seat_name(a['player'])} was dealt a {RANK_NAMES[a['rank']]}"
    if kind == "manche_start":
        return (
            f"manche {a['manche'] + 1} starts: {seat_name(a['dealer'])} deals, "
            f"{seat_name(a['leader'])} leads"
        )
    if kind == "exchange":
        return f"{seat_name(a['giver'])} gave a card to {seat_name(a['receiver'])}"
    if kind == "exchange_card":
        return (
            f"{seat_name(a['giver'])} gave a {RANK_NAMES[a['rank']]} to {seat_name(a['receiver'])}"
        )
    if kind == "play":
        return f"{who} played a {_set(a['rank'], a['count'])}"
    if kind == "pass":
        return f"{who} passed"
    if kind == "trick_won":
        return (
            f"{seat_name(a['player'])} won the trick with a {_set(a['rank'], a['count'])}; "
            f"{seat_name(a['leader'])} leads"
        )
    if kind == "out":
        return f"{who} went out {_place(a['place'])}"
    if kind == "manche_scored":
        return (
            f"{seat_name(a['player'])} finished {_place(a['place'])}: "
            f"+{a['points']} points, {a['score']} in all"
        )
    return "the match is over"  # match_end
