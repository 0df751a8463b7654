"""Président on the replay page: the card given back in the exchange is hidden (the shared contract:
tests/ui/test_replay_page.py)."""

from __future__ import annotations

from replay_views import cards_explained_to_each_seat, check_seat_pages, random_record

import presages_env

GAME = presages_env.get_game("president")


def test_only_the_card_given_back_is_hidden_from_other_seats():
    # the exchange needs a second manche
    rec = random_record("president", 1, num_players=4, num_manches=3)
    assert check_seat_pages(rec) == {"give"}
    cards_explained_to_each_seat(rec)


def test_a_cards_face_is_read_from_the_games_label_and_texts():
    """The face gives the value, the colour (from the card's summary) and the legend's
    symbols in the label."""
    face = GAME.card_face("K")
    assert (face["name"], face["value"], face["colour"]) == ("K", None, None)
    assert [symbol for symbol, _ in face["symbols"]] == []
