"""Aciliande's cards and rules in words, for people (``Game.card_help`` ...).

The one place a card's text lives, read from ``cards.py``: a major arcana's only powers are
its strength (its number) and, for the Goddesses, the take/leave rule (the spec,
shared/rules/aciliande.md). Which three arcana are Goddesses is a game option; the text says
which are by default. A card is found by its label (``"XVII L'Étoile"``), French name, English
name or number, any case, accents optional. ``DECISION_TEXT`` words each pending decision for
the views' "to act: ..." line.
"""

from __future__ import annotations

from presages_env.core.view import name_key
from presages_env.games.aciliande import cards as c

# what each pending decision (kernel NODE_*, in order) asks of the deciding player
DECISION_TEXT = (
    "choose how many cards each player is dealt (the dealer)",
    "bid how many tricks they will take",
    "choose a card to play",
    "declare the first Goddess of the trick: take (it wins) or leave (it cannot win)",
    "nothing: the game is over",
)

_GODDESSES = ", ".join(c.card_name(card) for card in c.DEFAULT_GODDESSES)

LEGEND = (
    ("0 ... XXI", "the card's number, its strength: 0 (Le Mat) is the weakest, XXI the strongest"),
    ("Goddess", f"{_GODDESSES} by default: the first in a trick is declared take or leave"),
    ("lives", "life cards left; a player with none is eliminated"),
    ("bid", "tricks the player said they would take this manche ('?': not yet bid)"),
    ("tricks", "tricks taken so far this manche"),
    ("->", "who won a past trick"),
    ("pot", "the coins staked; the winner (or the last players, shared) takes them"),
    ("P1, P2", "the players by seat, counted from 1"),
)

RULES_SUMMARY = "\n".join(
    (
        "Aciliande: 2 to 7 players bid on tricks with the 22 major arcana; the last player "
        "with lives left takes the pot.",
        "A manche: the dealer chooses the hand size (or it is fixed); everyone bids how many "
        "tricks they will take, starting left of the dealer; the dealer bids last and may not"
        " make the bids add up to the hand size. Then, from the left of the dealer, each "
        "plays one card per trick; any card may be played (no suits) and the strongest card "
        "wins the trick. The winner leads the next trick.",
        f"Goddesses ({_GODDESSES} by default): the first Goddess in a trick is declared "
        '"take" (it wins the trick) or "leave" (it cannot win it); a second Goddess takes the'
        " other option; a third Goddess in the same trick wins the whole game at once.",
        "Scoring: a player loses one life per trick their count differs from their bid; with "
        "no life left they are eliminated. With one player left, they win; with none, the pot"
        " is shared. With two left, a duel: the Goddesses are laid face up and up to three "
        "manches are played with 3, 2, then 1 card; then the one with more lives wins (equal "
        "lives share).",
        "Team variant (4 or 6 players): partners sit alternately and must make the sum of "
        "their bids.",
    )
)

CARD_NAMES = tuple(c.card_name(card) for card in range(c.NUM_CARDS))


def _english(card: int) -> str:
    return c.ENGLISH_IDS[card].replace("_", " ")


def _goddess(card: int) -> str:
    if card in c.DEFAULT_GODDESSES:
        return (
            " A Goddess by default: the first Goddess of a trick is declared take (it wins) "
            "or leave (it cannot win); a second one takes the other option; a third one "
            "wins the game."
        )
    return ""


def _strength(card: int) -> str:
    if card == 0:
        return "strength 0, the weakest card"
    if card == c.NUM_CARDS - 1:
        return f"strength {card}, the strongest card"
    return f"strength {card}"


def _help(card: int) -> str:
    return f"{c.card_name(card)} ({_english(card).title()}): {_strength(card)}.{_goddess(card)}"


def _summary(card: int) -> str:
    goddess = ", a Goddess by default (take or leave)" if card in c.DEFAULT_GODDESSES else ""
    return _strength(card) + goddess


def _keys(card: int) -> tuple[str, ...]:
    return (
        c.card_name(card),
        c.FRENCH_NAMES[card],
        c.ENGLISH_IDS[card],
        _english(card),
        f"the {_english(card)}",
        c.ROMAN_NUMERALS[card],
        str(card),
    )


_CARDS = {name_key(key): card for card in range(c.NUM_CARDS) for key in _keys(card)}


def card_help(name: str) -> str | None:
    """``name`` in words: strength and Goddess rule; None for no card."""
    card = _CARDS.get(name_key(name))
    return None if card is None else _help(card)


def card_summary(name: str) -> str | None:
    """One line: strength, and whether it is a Goddess by default."""
    card = _CARDS.get(name_key(name))
    return None if card is None else _summary(card)
