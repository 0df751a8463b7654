"""Aciliande's events in words (``Game.describe_event``): one sentence per event kind.

Cards are named as the table names them (``XVII L'Étoile``); a dealt card appears only in
the event that its seat alone sees (``kernel.EVENT_KINDS``).
"""

from __future__ import annotations

from presages_env.core.events import Event, seat_name
from presages_env.core.results import counted
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.cards import card_name

_DECLARATIONS = {
    k.DECL_NONE: "no declaration",
    k.DECL_TAKE: "the first Goddess of the trick wins it",
    k.DECL_LEAVE: "the first Goddess of the trick cannot win it",
}
_ENDS = {
    k.END_NONE: "the game is over",
    k.END_THIRD_GODDESS: "a third Goddess in one trick ends the game",
    k.END_LAST_SURVIVOR: "one player is left: the game is over",
    k.END_ALL_ELIMINATED: "nobody is left: the last manche's players share the pot",
    k.END_DUEL_MORE_LIVES: "the duel is over: more lives win",
    k.END_DUEL_SHARE: "the duel is over: the duellists share the pot",
    k.END_TEAM_SURVIVES: "only one team is left: the game is over",
}


def round_title(event: Event) -> str | None:
    """The title of the manche that ``event`` opens (the replay page's round list), or None."""
    if event.kind != "manche_start":
        return None
    duel = " (duel)" if event.args["face_up"] else ""
    return f"Manche {event.args['manche']}{duel}"


def describe(event: Event) -> str:
    """``event`` in words."""
    a = event.args
    who = seat_name(event.actor)
    kind = event.kind
    if kind == "manche_start":
        duel = f", {a['face_up']} Goddesses face up" if a["face_up"] else ""
        return (
            f"manche {a['manche']} starts: {seat_name(a['dealer'])} deals, "
            f"{seat_name(a['leader'])} leads{duel}"
        )
    if kind == "deal":
        return f"{who} deals {counted(a['hand_size'], 'card')} to each of {a['players']} players"
    if kind == "dealt":
        return f"{seat_name(a['player'])} was dealt {card_name(a['card'])}"
    if kind == "bid":
        return f"{who} bid {a['bid']}"
    if kind == "play":
        return f"{who} played {card_name(a['card'])} in trick {a['trick'] + 1}"
    if kind == "declare":
        return f"{who} declared: {_DECLARATIONS[a['declaration']]}"
    if kind == "trick_won":
        return (
            f"{seat_name(a['player'])} won trick {a['trick'] + 1} with "
            f"{card_name(a['card'])} ({counted(a['tricks'], 'trick')})"
        )
    if kind == "manche_scored":
        return (
            f"{seat_name(a['player'])} bid {a['bid']}, took {counted(a['tricks'], 'trick')}: "
            f"lost {counted(a['lost'], 'life', 'lives')}, {a['lives']} left"
        )
    if kind == "eliminated":
        return f"{seat_name(a['player'])} is eliminated"
    if kind == "duel_start":
        goddesses = ", ".join(card_name(a[f"goddess_{x}"]) for x in "abc")
        return f"the duel starts with the Goddesses {goddesses} face up"
    if kind == "goddess_face_down":
        return f"a Goddess is turned face down: {a['face_up']} left face up"
    if kind == "leftover_draw":
        return f"{seat_name(a['player'])} drew {card_name(a['card'])} from the leftover cards"
    if kind == "coins":
        return f"{seat_name(a['player'])} ends with {a['coins']} coins ({a['reward']:+d})"
    return f"{_ENDS[a['reason']]}; pot {a['pot']}"  # game_end
