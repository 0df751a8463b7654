"""Res Arcana on the replay page: hidden decisions and cards, several rounds, card faces
(the shared contract: tests/ui/test_replay_page.py)."""

from __future__ import annotations

from replay_views import cards_explained_to_each_seat, check_seat_pages, random_record

import presages_env
from presages_env.ui.replay_page import page_data

GAME = presages_env.get_game("res_arcana")


def test_the_mage_kept_and_the_order_put_back_are_hidden_from_other_seats():
    rec = random_record("res_arcana", 26, num_players=2)
    assert check_seat_pages(rec) == {"keep", "put"}
    referee, seats = cards_explained_to_each_seat(rec)
    assert all(cards < referee for cards in seats), "the referee sees cards a seat does not"


def test_a_game_is_played_over_several_rounds():
    rounds = page_data(random_record("res_arcana", 2))["rounds"]
    assert len(rounds) > 1, rounds


def test_a_cards_face_is_read_from_the_games_label_and_texts():
    """The face gives the value, the colour (from the card's summary) and the legend's
    symbols in the label."""
    face = GAME.card_face("Vault (turned) [1G]")
    assert (face["name"], face["value"], face["colour"]) == ("Vault", None, None)
    assert [symbol for symbol, _ in face["symbols"]] == []
