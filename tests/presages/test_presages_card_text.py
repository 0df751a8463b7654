"""Présages' cards in words (the shared contract: tests/ui/test_card_text.py)."""

from __future__ import annotations

import pytest

import presages_env

GAME = presages_env.get_game("presages")


def test_the_game_names_its_30_cards():
    assert len(GAME.card_texts.CARD_NAMES) == 30  # the six Absolus share one name


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("le reve", "Le Rêve (Dream; 21, red, immediate)"),  # accents optional
        ("La Loi (law, 15, yellow \u26a1)", "BELOW or ABOVE 15"),  # a label on screen
        ("l'absolu (34, BLUE \u26a1)", "exchange one hand card"),  # any case
        ("L\u2019Absolu", "exchange one hand card"),  # typographic apostrophe
    ],
)
def test_cards_are_found_by_what_a_person_types(typed, expected):
    assert expected in GAME.card_help(typed)
