"""Events in words (``Game.describe_event``, issue 29 item 1): every game words each event
kind with seat, card and component names, written once and used by ``env.events()``, the
terminal and the replay page; a seat is never given the words of an event it may not see,
nor a card it never learns."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from rich.console import Console

import presages_env
from presages_env import records
from presages_env.agents import RandomAgent
from presages_env.core.events import Event
from presages_env.games.aciliande.cards import card_name as aciliande_card
from presages_env.games.presages.event_text import card_text as presages_card
from presages_env.games.president.cards import RANK_NAMES, SET_NAMES
from presages_env.games.res_arcana.cards import ESSENCE_NAMES, NAMES, POWER_TEXTS
from presages_env.ui.replay_page import page_data
from presages_env.ui.terminal import _Session

GAMES = presages_env.list_games()
OPTIONS = {"res_arcana": {"step_cap": 400}}  # a shorter cap: the same kinds, a faster game
KEY_VALUE = re.compile(r"\w+=\S")


def _presages_cards(a: dict[str, int]) -> list[str]:
    return [presages_card(a[f], colour=False) for f in ("card", "given", "returned") if a.get(f)]


def _aciliande_cards(a: dict[str, int]) -> list[str]:
    fields = ("card", "goddess_a", "goddess_b", "goddess_c")
    return [aciliande_card(a[f]) for f in fields if f in a]


def _res_arcana_cards(a: dict[str, int]) -> list[str]:
    fields = ("card", "mage", "item", "returned", "monument", "place", "comp")
    return [NAMES[a[f]] for f in fields if a.get(f, -1) >= 0]


def _president_ranks(a: dict[str, int]) -> list[str]:
    return [RANK_NAMES[a["rank"]]] if "rank" in a else []


# Each game: the names of the cards an event's arguments hold, and how a text names a card
# (a rank is a word after "a" or "of": "2" alone is also a number of points).
CARDS_OF = {
    "presages": _presages_cards,
    "aciliande": _aciliande_cards,
    "res_arcana": _res_arcana_cards,
    "president": _president_ranks,
}
NAMING = {"president": r"\b(?:a|of) {}(?!\w)"}


def played_env(name: str, seed: int = 0):
    """An env after a whole random game."""
    env = presages_env.make(name, **OPTIONS.get(name, {}))
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


def names_a_card(name: str, text: str, card: str) -> bool:
    pattern = NAMING.get(name, r"(?<!\w){}(?!\w)").format(re.escape(card))
    return re.search(pattern, text) is not None


@pytest.mark.parametrize("name", GAMES)
def test_every_event_is_words_for_the_referee_and_each_seat(name):
    env = played_env(name)
    game, every = env.game, env.events()
    assert len({e.kind for e in every}) > 5
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


def unlearned_cards(name: str, env) -> list[tuple[int, set[str]]]:
    """Each seat's cards held by private events it does not see, less every card named by
    an event it sees."""
    cards_of, unlearned = CARDS_OF[name], []
    for seat in range(env.num_players):
        known = {c for e in env.events(seat) for c in cards_of(e.args)}
        secret = {c for e in env.events() if not e.seen_by(seat) for c in cards_of(e.args)}
        unlearned.append((seat, secret - known))
    return unlearned


def named_unlearned(name: str, env) -> list[tuple[int, str, str]]:
    """(seat, card, text) wherever a seat's text names a card it never learnt."""
    return [
        (seat, card, e.text)
        for seat, cards in unlearned_cards(name, env)
        for e in env.events(seat)
        for card in cards
        if names_a_card(name, e.text, card)
    ]


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_never_reads_a_card_it_never_learns(name):
    """Another seat's dealt card, above all: early in the game and after a whole game."""
    env = presages_env.make(name, **OPTIONS.get(name, {}))
    env.reset(seed=0)
    while not any(cards for _, cards in unlearned_cards(name, env)):  # until a deal
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert named_unlearned(name, env) == []
    assert named_unlearned(name, played_env(name)) == []


def _first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def _expected(name: str, event: Event) -> str:
    a, who = event.args, f"P{event.actor}"
    return {
        ("res_arcana", "power"): lambda: (
            f"P{a['seat']} used {NAMES[a['comp']]}'s power: {POWER_TEXTS[a['power']]}"
        ),
        ("res_arcana", "gain"): lambda: (
            f"P{a['seat']} gained {a['count']} {ESSENCE_NAMES[a['essence']]}"
            + (f" on {NAMES[a['comp']]}" if a["comp"] >= 0 else "")
        ),
        ("res_arcana", "deal_mage"): lambda: f"P{a['seat']} was dealt the mage {NAMES[a['mage']]}",
        ("presages", "dealt"): lambda: f"P{a['seat']} was dealt {presages_card(a['card'], False)}",
        ("presages", "bout_won"): lambda: (
            f"bout won by P{a['winner']} with {presages_card(a['card'], False)}; "
            f"next starter P{a['next_starter']}"
        ),
        ("president", "play"): lambda: (
            f"{who} played a {SET_NAMES[a['count'] - 1]} of {RANK_NAMES[a['rank']]}"
        ),
        ("president", "dealt"): lambda: f"P{a['player']} was dealt a {RANK_NAMES[a['rank']]}",
        ("aciliande", "play"): lambda: (
            f"{who} played {aciliande_card(a['card'])} in trick {a['trick'] + 1}"
        ),
        ("aciliande", "dealt"): lambda: f"P{a['player']} was dealt {aciliande_card(a['card'])}",
    }[name, event.kind]()


SPOT_CHECKS = {
    "res_arcana": ("power", "gain", "deal_mage"),
    "presages": ("dealt", "bout_won"),
    "president": ("play", "dealt"),
    "aciliande": ("play", "dealt"),
}


@pytest.mark.parametrize("name", GAMES)
def test_events_name_cards_and_components_not_their_ids(name):
    every = played_env(name).events()
    for kind in SPOT_CHECKS[name]:
        event = _first(every, kind)
        assert event.text == _expected(name, event)


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
    console = Console(file=io.StringIO(), width=200, record=True)
    others = {s: RandomAgent(s) for s in (1, 2)}
    session.run(0, others, console, lambda prompt: "1")
    shown = console.export_text()
    assert "since your last turn" in shown
    texts = [e.text for e in session.env.events(0)]
    assert texts[0] in shown  # the deal, shown before the first move
    assert any(t in shown for t in texts if " played a " in t)
    assert not KEY_VALUE.search(shown.replace("your move>", ""))
