"""Aciliande on the replay page: no hidden decision, card faces (the shared contract:
tests/ui/test_replay_page.py)."""

from __future__ import annotations

from replay_views import cards_explained_to_each_seat, check_seat_pages, random_record

import presages_env

GAME = presages_env.get_game("aciliande")


def test_no_decision_is_hidden_from_other_seats():
    rec = random_record("aciliande", 1, num_players=3)
    assert check_seat_pages(rec) == set()
    cards_explained_to_each_seat(rec)


def test_a_cards_face_is_read_from_the_games_label_and_texts():
    """The face gives the value, the colour (from the card's summary) and the legend's
    symbols in the label."""
    face = GAME.card_face("XVII L'\u00c9toile")
    assert (face["name"], face["value"], face["colour"]) == ("L'\u00c9toile", "XVII", None)
    assert [symbol for symbol, _ in face["symbols"]] == []
