"""Cards and rules in words (issue 29, item 2): every card of every game has a text, found by
its name in any case; the rules summary and the legend exist; a Game without its card_text
module is refused at definition; a card name from a person is checked before use. Each
game's own cards: tests/<game>/test_<game>_card_text.py."""

from __future__ import annotations

import types

import numpy as np
import pytest

import presages_env
from presages_env.core.game import CARD_TEXT_NAMES, Game

GAMES = presages_env.list_games()
EVERY_CARD = [
    (name, card) for name in GAMES for card in presages_env.get_game(name).card_texts.CARD_NAMES
]


@pytest.mark.parametrize(("game_name", "card"), EVERY_CARD)
def test_every_card_has_a_help_text_and_a_summary_in_any_case(game_name, card):
    game = presages_env.get_game(game_name)
    text = game.card_help(card)
    assert text and text.strip()
    assert game.card_summary(card)
    assert game.card_help(card.upper()) == game.card_help(card.lower()) == text


@pytest.mark.parametrize("game_name", GAMES)
def test_every_game_names_its_cards_once(game_name):
    """How many and which: tests/<game>/test_<game>_card_text.py, with what a person types."""
    names = presages_env.get_game(game_name).card_texts.CARD_NAMES  # () for a game of dice
    assert len({name.casefold() for name in names}) == len(names)


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("typed", ["", "no such card", "Vault " * 100, "x" * 10_000])
def test_an_unknown_name_gives_none(game_name, typed):
    game = presages_env.get_game(game_name)
    assert game.card_help(typed) is None and game.card_summary(typed) is None


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("typed", [None, 3, b"Vault", ["Vault"]])
def test_a_card_name_that_is_not_a_str_is_refused(game_name, typed):
    game = presages_env.get_game(game_name)
    with pytest.raises(TypeError, match="a card name is a str"):
        game.card_help(typed)
    with pytest.raises(TypeError, match="a card name is a str"):
        game.card_summary(typed)


@pytest.mark.parametrize("game_name", GAMES)
def test_rules_summary_and_legend(game_name):
    game = presages_env.get_game(game_name)
    summary = game.rules_summary()
    assert len(summary) > 300 and "_" not in summary  # words, no internal names
    legend = game.legend()
    assert legend and all(symbol and meaning for symbol, meaning in legend)


def test_a_game_without_card_texts_is_refused_at_definition():
    president = presages_env.get_game("president")
    body = {
        "kernel": president.kernel,
        "validator": president.validator,
        "state_dtype": np.int8,
        "layout_version": 2,
        "viewer": president.viewer,
        "event_texts": president.event_texts,
        "card_texts": president.card_texts,
        "action_features": president.action_features,
        "title": "Test game",
        "max_visible_events": lambda self, n, options: 1,
        "reward_bounds": type(president).reward_bounds,
        "heuristic": None,
        "world_sampler": None,
        "ships_checkpoint": False,
        "benchmarked": True,
    }
    type("Complete", (Game,), body)  # accepted
    without = {key: value for key, value in body.items() if key != "card_texts"}
    with pytest.raises(TypeError, match="needs its words, RULES_SUMMARY and LEGEND"):
        type("Incomplete", (Game,), without)
    for missing in CARD_TEXT_NAMES:
        texts = types.SimpleNamespace(**vars(president.card_texts))
        delattr(texts, missing)
        with pytest.raises(TypeError, match="needs its words"):
            type("Incomplete", (Game,), {**body, "card_texts": texts})
    bad_legend = types.SimpleNamespace(**{**vars(president.card_texts), "LEGEND": (("x",),)})
    with pytest.raises(TypeError, match="needs its words"):
        type("Incomplete", (Game,), {**body, "card_texts": bad_legend})
