"""Checks of a game's events in words that need the game's own card names: each game's
``tests/<game>/test_<game>_event_words.py`` hands them how its events hold cards
(``cards_of(args) -> [card name]``) and the texts it expects of a few events."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

import presages_env
from presages_env.core.events import Event

CardsOf = Callable[[dict[str, int]], list[str]]
# How a text names a card: the name as a whole word.
WHOLE_WORD = r"(?<!\w){}(?!\w)"


def played_env(name: str, seed: int = 0, **options):
    """An env after a whole random game."""
    env = presages_env.make(name, **options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


def unlearned_cards(env, cards_of: CardsOf) -> list[tuple[int, set[str]]]:
    """Each seat's cards held by private events it does not see, less every card named by
    an event it sees."""
    unlearned = []
    for seat in range(env.num_players):
        known = {c for e in env.events(seat) for c in cards_of(e.args)}
        secret = {c for e in env.events() if not e.seen_by(seat) for c in cards_of(e.args)}
        unlearned.append((seat, secret - known))
    return unlearned


def named_unlearned(env, cards_of: CardsOf, naming: str) -> list[tuple[int, str, str]]:
    """(seat, card, text) wherever a seat's text names a card it never learnt."""
    return [
        (seat, card, e.text)
        for seat, cards in unlearned_cards(env, cards_of)
        for e in env.events(seat)
        for card in cards
        if re.search(naming.format(re.escape(card)), e.text) is not None
    ]


def check_no_unlearned_card(
    name: str, cards_of: CardsOf, naming: str = WHOLE_WORD, **options
) -> None:
    """A seat never reads a card it never learns: another seat's dealt card, above all,
    early in the game (at the first deal) and after a whole game."""
    env = presages_env.make(name, **options)
    env.reset(seed=0)
    while not any(cards for _, cards in unlearned_cards(env, cards_of)):  # until a deal
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert named_unlearned(env, cards_of, naming) == []
    assert named_unlearned(played_env(name, **options), cards_of, naming) == []


def check_event_texts(events: list[Event], expected: dict[str, Callable[[Event], str]]) -> None:
    """The first event of each kind in ``expected`` reads as ``expected[kind](event)``:
    cards and components by name, not by id."""
    for kind, text in expected.items():
        event = next(e for e in events if e.kind == kind)
        assert event.text == text(event)
