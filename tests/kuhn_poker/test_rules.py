"""Kuhn poker's rules against pyspiel's own ``kuhn_poker``, exhaustively, at 2 and 3 players:
every deal and every line of play gives the same seat to act, the same returns, and an
observation that tells apart exactly the information sets pyspiel does. And states from
outside that no play reaches are refused, naming the slot."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from extras import require

import presages_env
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL
from presages_env.core.validation import InvalidStateError
from presages_env.games.kuhn_poker import kernel as lay

GAME = presages_env.get_game("kuhn_poker")


def dealt(deck: tuple[int, ...]) -> np.ndarray:
    state = GAME.new_state(len(deck) - 1, 0)
    state[lay.DECK : lay.DECK + len(deck)] = deck
    return GAME.checked_state(state)


def observation(state: np.ndarray, seat: int) -> bytes:
    obs = np.zeros(GAME.obs_size(2), dtype=GAME.obs_dtype)
    GAME.kernel.observe(state, np.int64(seat), obs)
    return obs.tobytes()


@pytest.mark.parametrize("n", [2, 3])
def test_every_line_of_play_matches_pyspiels_kuhn_poker(n):
    pyspiel = require("openspiel")
    theirs = pyspiel.load_game("kuhn_poker", {"players": n})
    infosets: dict[bytes, str] = {}
    lines = 0
    for deck in itertools.permutations(range(n + 1)):
        root = theirs.new_initial_state()
        for card in deck[:n]:
            root.apply_action(card)
        frontier = [(root, dealt(deck), np.zeros(n))]
        while frontier:
            spiel, ours, returns = frontier.pop()
            if spiel.is_terminal():
                assert ours[HDR_TERMINAL] == 1 and ours[HDR_CURRENT] == -1
                assert returns.tolist() == spiel.returns()
                GAME.checked_state(ours)
                lines += 1
                continue
            seat = spiel.current_player()
            assert ours[HDR_CURRENT] == seat and not ours[HDR_TERMINAL]
            key = spiel.information_state_string()
            assert infosets.setdefault(observation(ours, seat), key) == key
            mask = np.zeros(GAME.num_actions(n), dtype=np.int8)
            GAME.kernel.legal_mask(ours, mask)
            for action in spiel.legal_actions():  # pass, bet: ours check, bet or fold, call
                rewards = np.zeros(n, dtype=np.float32)
                child = ours.copy()
                GAME.kernel.step(child, np.flatnonzero(mask)[action], rewards)
                frontier.append((spiel.child(action), child, returns + rewards))
    assert len(set(infosets.values())) == len(infosets)  # one observation per information set
    assert lines == {2: 6 * 5, 3: 24 * 13}[n]


def test_game_value_bounds_and_lengths_are_declared_for_every_table():
    for n in (2, 3):
        options = GAME.make_options(n, bet=2)
        low, high, zero_sum = GAME.reward_bounds(n, options)
        assert (low, high, zero_sum) == (-3.0, 3.0 * (n - 1), True)
        assert GAME.max_game_length(n, options) == 2 * n - 1


def moved(state: np.ndarray, *actions: int) -> np.ndarray:
    rewards = np.zeros(GAME.num_players_of(state), dtype=np.float32)
    for action in actions:
        GAME.step(state, action, rewards)
    return state


@pytest.mark.parametrize(
    ("slot", "corrupt"),
    [
        ("DECK", lambda s: s.__setitem__(lay.DECK + 1, s[lay.DECK])),  # a card dealt twice
        ("DECK (beyond", lambda s: s.__setitem__(lay.DECK + 3, 0)),  # a fourth card at 2
        ("MOVES", lambda s: s.__setitem__(lay.MOVES + 2, lay.MOVE_PASS)),  # after the end
        ("HDR_CURRENT", lambda s: s.__setitem__(HDR_CURRENT, 0)),  # seat 1 is to act
        ("MOVES (not yet made)", lambda s: s.__setitem__(lay.MOVES + 1, lay.MOVE_BET)),
        ("OPT_BET", lambda s: s.__setitem__(lay.OPT_BET, 0)),
    ],
)
def test_a_state_no_play_reaches_is_refused_naming_its_slot(slot, corrupt):
    state = moved(GAME.new_state(2, 5), lay.CHECK)
    if slot == "MOVES":
        state = moved(state, lay.CHECK)  # over: check, check
        state[lay.NUM_MOVES] += slot == "MOVES"
    bad = state.copy()
    corrupt(bad)
    with pytest.raises(InvalidStateError, match=re.escape(slot)):
        GAME.checked_state(bad)


def test_a_world_keeps_the_seats_card_and_the_shown_winner():
    for seed in range(20):
        state = moved(GAME.new_state(3, seed), lay.BET, lay.CALL, lay.FOLD)
        for seat in range(3):
            world = GAME.sample_world(state, seat, seed)
            assert world[lay.DECK + seat] == state[lay.DECK + seat]
            assert GAME.kernel.winner(world) == GAME.kernel.winner(state)
            assert observation(world, seat) == observation(state, seat)
