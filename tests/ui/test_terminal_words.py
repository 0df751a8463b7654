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


def test_a_shortened_player_line_keeps_whole_notes():
    """A tall table cut each player's wrapped line after its first screen line, mid-phrase:
    now whole notes are left out from the last, and an ellipsis says so."""
    from presages_env.core.view import PlayerView, TableView
    from presages_env.ui.screen import Turn, turn_screen

    notes = [f"note {i} of several words" for i in range(12)]
    players = [PlayerView(f"player_{p}", None, 5, notes=notes) for p in range(6)]
    view = TableView(players, [], [f"status line {i}" for i in range(8)], 0, 0)
    labels = [f"choice {i}" for i in range(30)]
    badges = [f"player_{p}" for p in range(6)]
    turn = Turn("Game, seat 0 (you)", view, [f"move {i}" for i in range(20)], 20, labels, badges)
    lines = [line.plain for line in turn_screen(turn, Console(file=io.StringIO()), 80, 24)]
    shown = [line for line in lines if line.lstrip("\u25b6 ").startswith("player_")]
    assert shown and all(line.rstrip().endswith("\u2026") for line in shown), lines
    for line in shown:
        kept = line.split("; ", 1)[1].rstrip().removesuffix("\u2026").rstrip(", ").split(", ")
        assert set(kept) <= set(notes), line
