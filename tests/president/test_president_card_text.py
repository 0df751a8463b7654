"""Président's ranks in words (the shared contract: tests/ui/test_card_text.py)."""

from __future__ import annotations

import pytest

import presages_env

GAME = presages_env.get_game("president")


def test_the_game_names_its_13_ranks():
    assert len(GAME.card_texts.CARD_NAMES) == 13


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("roi", "K (King, Roi): rank 11 of 13"), ("2", "the strongest")],
)
def test_ranks_are_found_by_what_a_person_types(typed, expected):
    assert expected in GAME.card_help(typed)
