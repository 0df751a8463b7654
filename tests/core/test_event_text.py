"""Events in words (``Game.describe_event``, issue 29 item 1): every game words each event
kind with seat, card and component names, written once and used by ``env.events()``, the
terminal and the replay page; a seat is never given the words of an event it may not see,
nor a card it never learns (checked with each game's card names in
``tests/<game>/test_<game>_event_words.py``, through ``tests/event_words.py``)."""

from __future__ import annotations

import io
import re

import event_words
import pytest
from rich.console import Console

import presages_env
from presages_env import records
from presages_env.agents import RandomAgent
from presages_env.ui.replay_page import page_data
from presages_env.ui.terminal import _Session

GAMES = presages_env.list_games()
OPTIONS = {"res_arcana": {"step_cap": 400}}  # a shorter cap: the same kinds, a faster game
KEY_VALUE = re.compile(r"\w+=\S")


def played_env(name: str, seed: int = 0):
    """An env after a whole random game."""
    return event_words.played_env(name, seed, **OPTIONS.get(name, {}))


@pytest.mark.parametrize("name", GAMES)
def test_every_event_is_words_for_the_referee_and_each_seat(name):
    env = played_env(name)
    game, every = env.game, env.events()
    # more than 5 kinds in one game, or half of a game's kinds where it has fewer than 12
    assert len({e.kind for e in every}) > min(5, len(game.kernel.EVENT_KINDS) // 2)
    for event in every:
        assert event.text and str(event) == event.text == game.describe_event(event)
        assert not KEY_VALUE.search(event.text), event.text
    for seat in range(env.num_players):
        seen = env.events(seat)
        assert [e.text for e in seen] == [e.text for e in every if e.seen_by(seat)]
        for event in seen:
            assert game.describe_event(event, seat) == event.text


@pytest.mark.parametrize("name", GAMES)
def test_an_event_a_seat_does_not_see_is_never_worded_for_it(name):
    env = played_env(name)
    hidden = [(e, s) for e in env.events() for s in range(env.num_players) if not e.seen_by(s)]
    assert hidden  # every game has private events (a dealt card)
    for event, seat in hidden:
        with pytest.raises(ValueError, match=f"seat {seat} does not see"):
            env.game.describe_event(event, seat)


@pytest.mark.parametrize("name", GAMES)
def test_the_replay_page_shows_the_events_words(name):
    n = presages_env.get_game(name).min_players
    rec = records.play_recorded(name, [RandomAgent(p) for p in range(n)], ["random"] * n, 3)
    _, transitions = records.transitions(rec)
    for seat in (None, 0):
        frames = page_data(rec, seat)["frames"]
        for frame, events in zip(frames, transitions, strict=True):
            shown = [e.text for e in events if seat is None or e.seen_by(seat)]
            assert [e["text"] for e in frame["events"]] == shown
            assert not any(KEY_VALUE.search(text) for text in shown)


def test_the_terminal_shows_the_events_words():
    session = _Session("president", 3, 5, {})
    console = Console(file=io.StringIO(), width=200, height=500, record=True)  # no moves cut
    others = {s: RandomAgent(s) for s in (1, 2)}
    session.run(0, others, ["P1 · you", "P2 · random", "P3 · random"], console, lambda prompt: "1")
    shown = console.export_text()
    assert "since your last turn" in shown
    texts = [e.text for e in session.env.events(0)]
    assert texts[0] in shown  # the deal, shown before the first move
    assert any(t in shown for t in texts if " played a " in t)
    assert not KEY_VALUE.search(shown.replace("your move>", ""))
