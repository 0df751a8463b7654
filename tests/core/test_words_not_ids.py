"""No internal id in what a person reads (issue 42, item 4): Présages' labels read
``L'Absolu[absolute_34 34 B⚡]``, nested as ``[L'Absolu[absolute_34 34 B⚡]]`` on screen, and
its table showed the kernel's node names (``P2 decides DREAM_REPLY``). Every game's action
labels (as each seat reads them), table views, events and rendered table, over a few random
games, name cards and decisions in words: no snake_case or UPPER_CASE id (the seats' agent
names, ``player_0``, aside), no word glued to a number, no bracket nested in its own kind."""

from __future__ import annotations

import re

import numpy as np
import pytest

import presages_env

OPTIONS = {"res_arcana": {"step_cap": 400}}  # a shorter cap: the same texts, a faster game
SEAT_NAME = re.compile(r"\bplayer_\d+\b")  # the PettingZoo agent names a view lists seats by
INTERNAL_ID = re.compile(
    r"\b[a-z]+(?:_[a-z0-9]+)+\b"  # snake_case: absolute_34, hand_size
    r"|\b[A-Z]+(?:_[A-Z0-9]+)+\b"  # a kernel constant: DREAM_REPLY
    r"|\b[a-z]+\d+\b"  # a word glued to a number: card7
)
NESTED = re.compile(r"\[[^\]]*\[|\([^)]*\(")  # "[a [b]]", "(a (b))"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def texts_read(name: str, seed: int) -> set[str]:
    """Every label, view line, event and render line of a random game of ``name``."""
    env = presages_env.make(name, render_mode="ansi", **OPTIONS.get(name, {}))
    game, rng = env.game, np.random.default_rng(seed)
    env.reset(seed=seed)
    seats = range(env.num_players)
    read: set[str] = set()
    while env.agents:
        obs, _, terminated, truncated, _ = env.last()
        state = env.get_state()
        read.update(ANSI.sub("", env.render()).splitlines())
        for seat in [None, *seats]:
            read.update(game.view(state, seat).text().splitlines())
        if terminated or truncated:
            env.step(None)
            continue
        legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
        read.update(game.action_label_for(state, a, s) for a in legal for s in seats)
        read.update(game.action_label(state, a) for a in legal)
        env.step(int(rng.choice(legal)))
    read.update(event.text for event in env.events())
    return read


@pytest.mark.parametrize("name", presages_env.list_games())
def test_what_a_person_reads_has_no_internal_id_nor_nested_brackets(name):
    read = set().union(*(texts_read(name, seed) for seed in (1, 2)))
    with_id = sorted(t for t in read if INTERNAL_ID.search(SEAT_NAME.sub("P", t)))
    nested = sorted(t for t in read if NESTED.search(t))
    assert not with_id, with_id[:5]
    assert not nested, nested[:5]


@pytest.mark.parametrize(
    "text",
    [
        "place L'Absolu[absolute_34 34 B\u26a1]",
        "take [L'Absolu [34, blue]]",
        "player_2: La Loi (law, 15)  (team 0, went back: La Loi (law, 15))",
        "now: P2 decides DREAM_REPLY",
        "to act: player_3 (HAND_SIZE)",
    ],
)
def test_the_check_catches_the_ids_and_nesting_people_read_before(text):
    assert INTERNAL_ID.search(SEAT_NAME.sub("P", text)) or NESTED.search(text)
