"""Kuhn poker's cards in words (the shared contract: tests/ui/test_card_text.py)."""

from __future__ import annotations

import presages_env

GAME = presages_env.get_game("kuhn_poker")


def test_the_game_names_its_4_cards():
    assert GAME.card_texts.CARD_NAMES == ("J", "Q", "K", "A")


def test_a_card_is_found_by_its_name_any_case():
    assert GAME.card_help("k") == "K: card 3 of the 4, weakest first"
