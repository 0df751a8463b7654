"""Présages' events in words (``Game.describe_event``), and the render's bout log with them.

The bout log in the state and the observation (kinds 1..10, seats stored as seat+1) and the
event log (every kind, plain seats) share one wording, :func:`bout_text`. Cards are the
game's labels (``La Loi (law, 15, yellow ⚡)``); a dealt card, a Secret's card or an Absolu
exchange's cards appear only in the events that their seats alone see
(``kernel.EVENT_KINDS``).
"""

from __future__ import annotations

from presages_env.core.events import Event, seat_name
from presages_env.core.results import counted
from presages_env.games.presages import kernel as k
from presages_env.games.presages.cards import (
    ANSI_COLOURS,
    COLOUR_NAMES,
    COLOURS,
    ENGLISH_IDS,
    FRENCH_NAMES,
    IS_FLASH,
    is_absolute,
)

DIRECTION_NAMES = ("none", "BELOW 15", "ABOVE 15")
_DISCARD_REASONS = {
    k.KIND_WINNER: "won the bout",
    k.KIND_MARKED: "marked",
    k.KIND_LUCK: "La Chance",
}
_SECRET_MODES = {k.MODE_SHOW: "show a card", k.MODE_ASK: "be shown a card"}
# bout-log kinds whose first two seats are their arguments, not the actor and an argument
_SEAT_PAIR_KINDS = (k.EV_SECRET, k.EV_ABSOLU, k.EV_BOUT_END)


def card_text(value: int, colour: bool = True) -> str:
    """``La Loi (law, 15, yellow ⚡)``: French name, English name, value, colour and timing
    (⚡ immediate, ⏳ end of bout), coloured with ANSI codes when ``colour``. The six Absolus
    share one name and have no English one of their own: ``L'Absolu (34, blue ⚡)``."""
    colours = int(COLOURS[value])
    english = "" if is_absolute(value) else f"{ENGLISH_IDS[value]}, "
    timing = "⚡" if IS_FLASH[value] else "⏳"
    text = f"{FRENCH_NAMES[value]} ({english}{value}, {COLOUR_NAMES[colours]} {timing})"
    if colour:
        return f"\x1b[{ANSI_COLOURS[colours]}m{text}\x1b[0m"
    return text


def bout_text(kind: int, seat: int, other: int, card: int, colour: bool = False) -> str:
    """A bout-log event (kinds 1..10): ``seat`` did it, to ``other`` (La Loi: ``other`` is
    the direction chosen), with ``card`` (0: none shown)."""
    who, whom = seat_name(seat), seat_name(other)
    shown = card_text(card, colour) if card else ""
    if kind == k.EV_PLACE:
        return f"{who} placed {shown}" + (f" in front of {whom}" if seat != other else "")
    if kind == k.EV_DREAM:
        return f"{who} sent Le Rêve in front of {whom}, who must reply in front of {who}"
    if kind == k.EV_LAW:
        return f"{who} chose La Loi {DIRECTION_NAMES[other]}"
    if kind == k.EV_WRATH:
        return f"{who} (La Colère) sent {shown} back into {whom}'s hand"
    if kind == k.EV_BETRAYAL:
        return f"{who} (La Trahison) took {shown} from in front of {whom}"
    if kind == k.EV_JEALOUSY:
        return f"{who} (La Jalousie) swapped La Jalousie with {shown} of {whom}"
    if kind == k.EV_SECRET:
        return f"{who} showed a card to {whom} (Le Secret)"
    if kind == k.EV_ABSOLU:
        return f"{who} and {whom} exchanged a card (L'Absolu)"
    if kind == k.EV_BOUT_END:
        return f"bout won by {who} with {shown}; next starter {whom}"
    return f"{who} discarded {shown} from hand (La Chance)"  # EV_LUCK


def logged_text(kind: int, a: int, b: int, card: int, colour: bool) -> str:
    """A bout-log entry of the state or the observation (seats stored as seat+1)."""
    return bout_text(kind, a - 1, b if kind == k.EV_LAW else b - 1, card, colour)


def describe(event: Event) -> str:
    """``event`` in words."""
    kind = _KIND_NUMBERS[event.kind]
    if kind > k.EV_LUCK:
        return _round_text(event)
    values = list(event.args.values())
    if kind in _SEAT_PAIR_KINDS:
        seat, other = values[0], values[1]
    elif kind == k.EV_LUCK:
        seat, other = event.actor, event.actor
    else:  # the actor, then whom (La Loi: the direction)
        seat, other = event.actor, values[0]
    return bout_text(kind, seat, other, event.args.get("card", 0))


def round_title(event: Event) -> str | None:
    """The title of the round that ``event`` opens (the replay page's round list), or None."""
    return f"Round {event.args['round']}" if event.kind == "round_start" else None


def bout_title(event: Event, round_start: Event) -> str | None:
    """The title of the bout that ``event`` opens in the round ``round_start`` opened (the
    replay page lists bouts under their round), or None."""
    if event.kind != "bout_start":
        return None
    return f"Bout {event.args['bout']} of round {round_start.args['round']}"


def _round_text(event: Event) -> str:
    """The event log's own kinds: deals, bout and round starts, Secret and Absolu steps,
    discards, reveals and wins."""
    a = event.args
    who = seat_name(event.actor)
    seat = seat_name(a.get("seat", event.actor))
    kind = event.kind
    if kind == "round_start":
        return f"round {a['round']} starts"
    if kind == "absolu_face_up":
        return f"{card_text(a['card'], False)} lies face up in front of {seat} (team {a['team']})"
    if kind == "dealt":
        return f"{seat} was dealt {card_text(a['card'], False)}"
    if kind == "bout_start":
        return f"bout {a['bout']} starts: {seat_name(a['starter'])} starts"
    if kind == "secret_mode":
        return f"{who} (Le Secret) chose to {_SECRET_MODES[a['mode']]}"
    if kind == "secret_target":
        return f"{who} (Le Secret) chose {seat_name(a['partner'])}: {seat_name(a['shower'])} shows"
    if kind == "secret_card":
        return (
            f"{seat_name(a['shower'])} showed {card_text(a['card'], False)} "
            f"to {seat_name(a['viewer'])} (Le Secret)"
        )
    if kind == "absolu_target":
        return f"{who} (L'Absolu) chose to exchange with {seat_name(a['target'])}"
    if kind == "absolu_commit":
        return f"{who} (L'Absolu) set aside a card for {seat_name(a['target'])}"
    if kind == "absolu_commit_card":
        return (
            f"{who} (L'Absolu) set aside {card_text(a['card'], False)} for {seat_name(a['target'])}"
        )
    if kind == "absolu_cards":
        return (
            f"{seat_name(a['actor'])} gave {card_text(a['given'], False)} to "
            f"{seat_name(a['target'])} and got {card_text(a['returned'], False)} (L'Absolu)"
        )
    if kind == "discarded":
        reason = _DISCARD_REASONS[a["reason"]]
        return f"{card_text(a['card'], False)} of {seat} was discarded ({reason})"
    if kind == "returned":
        return f"{card_text(a['card'], False)} went back to {seat}'s hand"
    if kind == "revealed":
        return f"{seat} revealed {card_text(a['card'], False)} from hand"
    if kind == "round_won":
        return f"{seat} won the round for team {a['team']} ({counted(a['laurels'], 'laurel')})"
    return f"team {a['team']} won the game"  # game_won


_KIND_NUMBERS = {name: kind for kind, (name, _) in k.EVENT_KINDS.items()}
