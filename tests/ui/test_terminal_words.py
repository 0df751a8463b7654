"""What the terminal player says, checked without a game: ``? <card>`` takes the start of
a card's words as a move does."""

from __future__ import annotations

import io

from rich.console import Console

import presages_env
from presages_env.ui.terminal import _show_help


def shown(game_name: str, typed: str) -> str:
    console = Console(file=io.StringIO(), width=200)
    _show_help(presages_env.get_game(game_name), typed, console)
    return " ".join(console.file.getvalue().replace("\u2502", " ").split())


def test_a_card_is_found_by_the_start_of_its_words_as_a_move_is():
    """``absolu`` was a move (``place L'Absolu ...``) but ``? absolu`` named no card."""
    game = presages_env.get_game("presages")
    text = " ".join(game.card_help("L'Absolu").split())
    assert text in shown("presages", "absolu")
    assert text in shown("presages", "ABSO")


def test_a_start_several_cards_share_lists_them():
    assert "fits" in shown("presages", "le") and "Le Calme" in shown("presages", "le")
    assert "No card is named 'no such card'" in shown("presages", "no such card")
