"""What the command line shows a person (``--help`` of every command, ``info`` of every game)
is plain words: no reST markup, no reference to a document the reader does not have, no
"1 cards" (tests/text_leaks.py). The terminal's screens: tests/ui/test_terminal_play.py;
the docs site: tests/core/test_built_site.py."""

from __future__ import annotations

import pytest
from text_leaks import text_leaks

import presages_env
from presages_env.__main__ import main
from presages_env.ui.game_info import game_info

COMMANDS = [
    [],
    ["play"],
    ["replay"],
    ["info"],
    ["serve"],
    ["lab"],
    ["lab", "export"],
    ["lab", "migrate"],
    ["lab", "proxy"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "main")
def test_every_help_is_plain_words(command, capsys):
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = capsys.readouterr().out
    assert "usage:" in text
    assert not text_leaks(text), text_leaks(text)


@pytest.mark.parametrize("name", presages_env.list_games())
def test_every_games_info_is_plain_words(name):
    text = game_info(name)
    assert not text_leaks(text), text_leaks(text)


def test_the_leaks_are_caught():
    """The check itself: each leak of the issue is found, plain words are not."""
    for leak in ("``x``", ":class:`Game`", "(§4.2, G4)", "Game Park", "1 cards", "1 laurels"):
        assert text_leaks(f"a {leak} b"), leak
    assert not text_leaks("2 cards, 1 card, 1 pass, n + 1 cards, 3, 2, 1 cards, version 1.2s")


@pytest.mark.parametrize("name", presages_env.list_games())
def test_every_games_rules_legend_and_card_texts_are_plain_words(name):
    """What ``?``, ``? <card>`` and the legend show in the terminal (the played screens
    themselves: tests/ui/test_terminal_play.py)."""
    game = presages_env.get_game(name)
    texts = [game.rules_summary(), *(f"{s} {meaning}" for s, meaning in game.legend())]
    texts += [game.card_help(card) for card in game.card_texts.CARD_NAMES]
    leaks = [leak for text in texts for leak in text_leaks(text)]
    assert not leaks, leaks
