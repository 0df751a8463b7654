"""Which of a seat's cards each of its moves names (the table page plays a card by a click
on it): by the whole label or the card's name, as whole words, the longer of two overlapping
names only; and in real games every card move of a seat names a card of its own."""

from __future__ import annotations

import extras
import numpy as np
import pytest

extras.require("lab")

import presages_env  # noqa: E402
from presages_env.agents import RandomAgent  # noqa: E402
from presages_env.lab.live import LiveGame  # noqa: E402
from presages_env.lab.protocol.messages import named_cards, seat_state  # noqa: E402


@pytest.mark.parametrize(
    ("action", "cards", "named"),
    [
        (
            "place La Loi (law, 15, yellow ⚡)",
            ["La Loi (law, 15, yellow ⚡)", "Le Jour"],
            ["La Loi (law, 15, yellow ⚡)"],
        ),
        ("use Seer power 1: turn → look", ["Seer (turned)", "Hand of Glory"], ["Seer (turned)"]),
        ("use Ring of Midas power 2", ["Ring of Midas [1G]"], ["Ring of Midas [1G]"]),
        ("pair of Q", ["Q", "Q", "3", "A"], ["Q"]),
        ("single of 10", ["10", "1", "0"], ["10"]),
        ("pass", ["A", "Q"], []),
        ("place Sea Hawk (2 Elan)", ["Hawk", "Sea Hawk"], ["Sea Hawk"]),
    ],
)
def test_a_move_names_the_cards_its_label_names_as_whole_words(action, cards, named):
    assert named_cards(action, cards) == named


@pytest.mark.parametrize("name", ["presages", "president", "aciliande"])
def test_every_card_move_names_one_card_of_the_seat(name):
    """Présages places or gives a card, Président plays a rank, Aciliande plays a card: each
    such move names exactly one card in the seat's hand, so a click on it can play it."""
    game = presages_env.get_game(name)
    n = game.default_players
    live = LiveGame(game, n, 3, {})
    agent, card_moves = RandomAgent(1), 0
    while not live.over:
        seat = live.current
        message = seat_state(live, seat, [""] * n)
        hand = message["view"]["players"][seat]["hand"]
        for move in message["actions"]:
            if move["label"].split()[0] in {"place", "give", "play", "single", "pair", "triple"}:
                card_moves += 1
                assert len(move["cards"]) == 1 and move["cards"][0] in hand, move
        mask = np.zeros(game.num_actions(n), dtype=np.int8)
        mask[live.legal()] = 1
        live.play(agent.act(np.zeros(1), mask))
    assert card_moves > 10
    assert seat_state(live, 0, [""] * n)["actions"] == []
