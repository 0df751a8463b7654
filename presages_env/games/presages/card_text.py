"""Présages' cards and rules in words, for people (``Game.card_help`` ...).

The one place a card's text lives: its value, colour and timing are read from ``cards.py``
(what the kernel plays with); its effect is the spec's card table (shared/rules/presages.md,
§1.1) in short. A card is found by its French name, English name or id, value or label
(``"La Loi"``, ``"law"``, ``"15"``, ``"La Loi (law, 15, yellow ⚡)"``), in any case, accents
optional.
``DECISION_TEXT`` words each pending decision for the views' "now: ..." line.
"""

from __future__ import annotations

from presages_env.core.view import name_key
from presages_env.games.presages import cards as c
from presages_env.games.presages.event_text import card_text as label_of

# what each pending decision (kernel NODE_*, in order) asks of the deciding player
DECISION_TEXT = (
    "choose a card to place",
    "choose where Le Rêve goes: in front of yourself or of a player with no card yet",
    "choose a card to place in front of the Le Rêve player",
    "choose the direction of La Loi: BELOW or ABOVE 15",
    "choose a card in front of another player to send back (La Colère)",
    "choose another card to place (La Colère sent yours back)",
    "choose a card in front of another player to take (La Trahison)",
    "choose a card to place in front of the betrayed player (La Trahison)",
    "choose a card in front of another player to swap with La Jalousie",
    "choose how Le Secret works: show a card, or be shown one",
    "choose the player Le Secret is with",
    "choose the card to show (Le Secret)",
    "choose a player to exchange a card with (L'Absolu)",
    "choose the card to give in the exchange (L'Absolu)",
    "choose the card to give back in the exchange (L'Absolu)",
    "choose a card to discard (La Chance)",
    "nothing: the game is over",
)

# the effect of each card, by English id (the spec's card table, §1.1, in short);
# "marks" means: is discarded at the end of the bout (La Peur never is)
_EFFECTS = {
    "life": "marks the highest green card in play.",
    "love": "marks itself if another green card is in play.",
    "friendship": "marks itself if a yellow card is in play.",
    "calm": "marks itself if a red card is in play.",
    "feast": "marks itself if a blue card is in play.",
    "hope": "marks itself if it is the lowest card in play.",
    "spring": "marks itself if it is the only green card in play.",
    "death": "marks the lowest green card in play.",
    "lie": "marks the highest yellow card in play.",
    "enigma": "marks itself if an Absolu (30-35) is in play.",
    "summer": "marks itself if it is the only yellow card in play.",
    "fear": "can never be discarded by an effect; it leaves only as the winning card.",
    "luck": "if it is discarded (even as the winning card), its holder discards a card of "
    "their choice from hand (not La Peur); 0 cards in hand wins the round.",
    "mirror": "the lowest card in play wins the bout instead of the highest (beats La Tristesse).",
    "law": "its holder chooses BELOW or ABOVE 15; every later card placed this bout must "
    "obey it if the placer can.",
    "truth": "marks the lowest yellow card in play.",
    "malice": "no effect of its own; it counts as green, yellow, red and blue at once.",
    "day": "marks the highest red card in play.",
    "autumn": "marks itself if it is the only red card in play.",
    "harmony": "marks the lowest card in play, of any colour.",
    "dream": "its placer may put it in front of a player with no card yet, who must at once "
    "place a card in front of the placer.",
    "pride": "the next bout is started by the player to the left of its holder.",
    "jealousy": "its holder swaps it with a card in front of another player.",
    "secret": "its holder picks another player and shows them a hand card, or is shown one "
    "of theirs (only the two of them see it).",
    "night": "marks the lowest red card in play.",
    "sadness": "the highest card cannot win: the second-highest wins (ignored with Le Miroir).",
    "winter": "marks every yellow card in play.",
    "wrath": "its holder sends a card in front of another player back to their hand; that "
    "player at once places a different card.",
    "betrayal": "its holder takes a card in front of another player into their hand and "
    "places one of their other hand cards in front of that player.",
    "absolute": "its holder picks another player; the two secretly exchange one hand card each.",
}

LEGEND = (
    ("\u26a1", "immediate effect: resolved as soon as the card is placed from a hand"),
    ("\u23f3", "end-of-bout effect: all resolve together when the bout ends"),
    ("(law, 15, yellow \u26a1)", "a card's English name, value, colour and timing"),
    ("marks", "the card is discarded at the end of the bout"),
    ("\u2605", "a round won by that team (two win the game)"),
    ("P1, P2", "the players by seat, counted from 1"),
)

RULES_SUMMARY = "\n".join(
    (
        "Présages: 4 to 6 players in teams; the first team to win 2 rounds wins the game.",
        "Teams: in round 1 each player is dealt an Absolu (30-35) face up; with 4 or 5 "
        "players the highest and the lowest Absolu are partners against the others; with 6, "
        "three pairs.",
        "A bout: from the starter, clockwise, each player places one card from hand in front "
        "of them (no colour to follow, no need to beat anything). Immediate effects resolve "
        "at once.",
        "When everyone has a card in front of them the bout ends: the highest card wins (La "
        "Tristesse: the second-highest; Le Miroir: the lowest); the winning card and every "
        "card an end-of-bout effect marks are discarded; the others go back to their holders'"
        " hands. The bout's winner starts the next bout (L'Orgueil changes that).",
        "A round ends after a bout when a player holds 1 card or none: a player with no card "
        "wins the round for their team, otherwise the highest single card does. All cards are"
        " then gathered and dealt again; the player who won the round starts.",
        "Hands are secret; cards in play, the discard pile and every move are public.",
    )
)

# the English name of each card: its id, and "The Absolute" for the six Absolus
_ENGLISH = tuple(
    "absolute" if c.is_absolute(v) else c.ENGLISH_IDS[v] for v in range(c.NUM_CARDS + 1)
)
CARD_NAMES = tuple(dict.fromkeys(c.FRENCH_NAMES[1:]))  # the six Absolus share one name


def _facts(value: int) -> str:
    """``"15, yellow, immediate"``; the Absolus by their range."""
    number = "30-35" if c.is_absolute(value) else str(value)
    timing = "immediate" if c.IS_FLASH[value] else "end of bout"
    return f"{number}, {c.COLOUR_NAMES[int(c.COLOURS[value])]}, {timing}"


def _keys(value: int) -> tuple[str, ...]:
    english = _ENGLISH[value]
    names = (
        c.FRENCH_NAMES[value],
        english,
        c.ENGLISH_IDS[value],
        str(value),
        label_of(value, colour=False),
    )
    return names + (("the absolute",) if english == "absolute" else ())


def _help(value: int) -> str:
    name = "The Absolute" if c.is_absolute(value) else _ENGLISH[value].capitalize()
    return f"{c.FRENCH_NAMES[value]} ({name}; {_facts(value)}): {_EFFECTS[_ENGLISH[value]]}"


def _summary(value: int) -> str:
    return f"{_facts(value)}: {_EFFECTS[_ENGLISH[value]]}"


# later entries win: "L'Absolu" is found as the first Absolu (30)
_VALUES = {name_key(k): v for v in range(c.NUM_CARDS, 0, -1) for k in _keys(v)}


def card_help(name: str) -> str | None:
    """``name`` in words: value, colour, timing and effect; None for no card."""
    value = _VALUES.get(name_key(name))
    return None if value is None else _help(value)


def card_summary(name: str) -> str | None:
    """One line: value, colour, timing and effect of ``name``."""
    value = _VALUES.get(name_key(name))
    return None if value is None else _summary(value)


def card_colour(name: str) -> str | None:
    """The colour of ``name`` in words, from the cards table; None for no card."""
    value = _VALUES.get(name_key(name))
    return None if value is None else c.COLOUR_NAMES.get(int(c.COLOURS[value]))
