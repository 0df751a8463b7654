"""Res Arcana's events in words (``Game.describe_event``): one sentence per event kind.

Components and powers are named from the card table (``cards.py``: ``NAMES``,
``POWER_TEXTS``), essences by ``ESSENCE_NAMES``. A drawn, dealt or looked-at card, a hidden
mage pick and a chosen order appear only in the events that their seat alone sees
(``event_kinds.py``).
"""

from __future__ import annotations

from presages_env.core.events import Event, seat_name
from presages_env.core.results import counted
from presages_env.games.res_arcana import event_kinds as ek
from presages_env.games.res_arcana.cards import ESSENCE_NAMES, NAMES, POWER_TEXTS

# What a target decision asks for, by the layout's ``TK_*`` (the action labels' wording).
TARGET_KIND_NAMES = (
    "none",
    "keep a mage",
    "take a magic item",
    "swap the magic item",
    "take stored essences",
    "straighten a component",
    "straighten a creature",
    "destroy one of your artifacts",
    "destroy another of your artifacts",
    "destroy one of your dragons or creatures",
    "turn one of your dragons",
    "turn one of your creatures",
    "discard a card (cost)",
    "discard a card",
    "destroy an artifact to ignore the Life loss",
    "discard a card to ignore the Life loss",
    "place a dragon from your hand",
    "place a card from your discard pile",
    "place a dragon from a discard pile",
    "put the paid essence on a component",
)
_DECKS = {ek.DECK_OWN: "their deck", ek.DECK_MONUMENTS: "the monument deck"}
_PLACED_FROM = {ek.FROM_HAND: "from hand", ek.FROM_DISCARD: "from a discard pile"}


def _essences(count: int, essence: int) -> str:
    return f"{count} {ESSENCE_NAMES[essence]}"


def _on(comp: int) -> str:
    """Where essences come from or go: a component, or (-1) the seat's pool."""
    return "" if comp < 0 else f" on {NAMES[comp]}"


def _monument_source(source: int) -> str:
    if source == ek.FROM_MONUMENT_DECK:
        return "the monument deck's top"
    return f"display slot {source + 1}"


def round_title(event: Event) -> str | None:
    """The title of the round that ``event`` opens (the replay page's round list), or None."""
    return f"Round {event.args['round']}" if event.kind == "round" else None


def describe(event: Event) -> str:
    """``event`` in words."""
    a = event.args
    kind = event.kind
    if kind in _TABLE_TEXTS:
        return _TABLE_TEXTS[kind](a)
    return f"{seat_name(a['seat'])} {_SEAT_TEXTS[kind](a)}"


# kinds that no seat does: the round, the display, the game's end
_TABLE_TEXTS = {
    "round": lambda a: f"round {a['round']} starts: {seat_name(a['first_player'])} goes first",
    "monument_shown": lambda a: (
        f"{NAMES[a['monument']]} is shown in monument display slot {a['slot'] + 1}"
    ),
    "game_end": lambda a: (
        f"the game is over: {a['winners']} winner{'s' if a['winners'] > 1 else ''} "
        f"with {a['best_vp']} VP"
    ),
    "truncated": lambda a: "the game was cut at the step cap: no winner",
}
# kinds whose first argument is the seat: what follows its name
_SEAT_TEXTS = {
    "dealt": lambda a: f"was dealt {a['mages']} mages and {a['deck']} artifacts",
    "deal_mage": lambda a: f"was dealt the mage {NAMES[a['mage']]}",
    "deal_card": lambda a: (
        f"was dealt {NAMES[a['card']]}" + (" into their hand" if a["to_hand"] else "")
    ),
    "draw": lambda a: f"drew {NAMES[a['card']]}",
    "drew": lambda a: "drew a card",
    "shuffle": lambda a: f"shuffled {a['cards']} discarded cards into their deck",
    "mage_pick": lambda a: f"picked the mage {NAMES[a['mage']]}",
    "mage_picked": lambda a: "picked a mage",
    "mage": lambda a: f"revealed the mage {NAMES[a['mage']]}",
    "item": lambda a: (
        f"took {NAMES[a['item']]}"
        + (f" and returned {NAMES[a['returned']]}" if a["returned"] >= 0 else "")
    ),
    "collect": lambda a: "collects",
    "gain": lambda a: f"gained {_essences(a['count'], a['essence'])}{_on(a['comp'])}",
    "pay": lambda a: f"paid {_essences(a['count'], a['essence'])}{_on(a['comp'])}",
    "take": lambda a: f"took {_essences(a['count'], a['essence'])} from {NAMES[a['comp']]}",
    "place": lambda a: f"placed {NAMES[a['card']]} {_PLACED_FROM[a['from']]}",
    "discard": lambda a: f"discarded {NAMES[a['card']]}",
    "claim_monument": lambda a: (
        f"claimed {NAMES[a['monument']]} from {_monument_source(a['from'])}"
    ),
    "claim_place": lambda a: f"claimed {NAMES[a['place']]}",
    "power": lambda a: f"used {NAMES[a['comp']]}'s power: {POWER_TEXTS[a['power']]}",
    "pass": lambda a: "passed" + (" and took the first-player token" if a["took_token"] else ""),
    "destroy": lambda a: f"destroyed {NAMES[a['comp']]}",
    "turn": lambda a: ("turned " if a["turned"] else "straightened ") + NAMES[a["comp"]],
    "look": lambda a: f"looked at the top {counted(a['count'], 'card')} of {_DECKS[a['deck']]}",
    "seen": lambda a: f"saw {NAMES[a['card']]} at depth {a['depth'] + 1} of {_DECKS[a['deck']]}",
    "reordered": lambda a: f"put back the top {counted(a['count'], 'card')} of {_DECKS[a['deck']]}",
    "reorder": lambda a: (
        f"put back the top {counted(a['count'], 'card')} of {_DECKS[a['deck']]} "
        f"in order {a['order']}"
    ),
    "lose_life": lambda a: f"must lose {a['life']} Life",
    "react": lambda a: (
        f"reacted to {NAMES[a['comp']]}"
        + (" by paying the dragon's ignore cost" if a["dragon_ignore"] else "")
    ),
    "statue": lambda a: ("used" if a["used"] else "did not use") + " Golden Statue",
    "forge": lambda a: (
        "paid 1 Death to Cursed Forge" if a["paid"] else "turned Cursed Forge instead of paying"
    ),
    "rival": lambda a: f"chose the rival {seat_name(a['rival'])}",
    "x_paid": lambda a: (
        f"paid X of {a['x']}" + (f" in {ESSENCE_NAMES[a['essence']]}" if a["essence"] >= 0 else "")
    ),
    "decline": lambda a: f"declined to {TARGET_KIND_NAMES[a['target_kind']]}",
    "vp": lambda a: (
        f"has {a['vp']} VP (tiebreak {a['tiebreak']})" + (", winner" if a["winner"] else "")
    ),
}
