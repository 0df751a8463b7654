"""Présages on the replay page: hidden decisions and cards, rounds of bouts, card faces
(the shared contract: tests/ui/test_replay_page.py)."""

from __future__ import annotations

import re

from replay_views import cards_explained_to_each_seat, check_seat_pages, random_record

import presages_env
from presages_env.ui.replay_page import page_data

GAME = presages_env.get_game("presages")


def test_le_secrets_card_and_labsolus_exchange_are_hidden_from_other_seats():
    rec = random_record("presages", 0, num_players=4)
    assert check_seat_pages(rec) == {"show", "give"}
    referee, seats = cards_explained_to_each_seat(rec)
    assert all(cards < referee for cards in seats), "the referee sees cards a seat does not"


def test_rounds_are_played_in_bouts_and_cards_have_colours_values_and_symbols():
    data = page_data(random_record("presages", 2))
    rounds = [(r["title"], [b["title"] for b in r["bouts"]]) for r in data["rounds"]]
    assert len(rounds) > 1, rounds
    assert all(re.fullmatch(r"Bout \d+ of round \d+", b) for _, bouts in rounds for b in bouts)
    assert all(bouts for _, bouts in rounds)
    faces = data["faces"].values()
    assert {f["colour"] for f in faces} >= {"green", "yellow", "red", "blue"}
    assert all(f["value"] and f["symbols"] for f in faces)


def test_a_cards_face_is_read_from_the_games_label_and_texts():
    """The face gives the value, the colour (from the card's summary) and the legend's
    symbols in the label."""
    face = GAME.card_face("La Loi (law, 15, yellow \u26a1)")
    assert (face["name"], face["value"], face["colour"]) == ("La Loi", "15", "yellow")
    assert [symbol for symbol, _ in face["symbols"]] == ["\u26a1"]
    face = GAME.card_face("L'Absolu (34, blue \u26a1)")
    assert (face["name"], face["value"], face["colour"]) == ("L'Absolu", "34", "blue")
    assert [symbol for symbol, _ in face["symbols"]] == ["\u26a1"]
