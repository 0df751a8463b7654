"""Aciliande's arcana in words (the shared contract: tests/ui/test_card_text.py)."""

from __future__ import annotations

import pytest

import presages_env

GAME = presages_env.get_game("aciliande")


def test_the_game_names_its_22_arcana():
    assert len(GAME.card_texts.CARD_NAMES) == 22


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("XVII L'Étoile", "A Goddess by default"),
        ("the fool", "strength 0, the weakest card"),
    ],
)
def test_cards_are_found_by_what_a_person_types(typed, expected):
    assert expected in GAME.card_help(typed)
