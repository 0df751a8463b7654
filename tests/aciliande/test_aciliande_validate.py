"""Aciliande's state validator: every reachable state passes, every broken invariant is named.

Three parts: states of random, heuristic and scripted games (all counts and options) are
all accepted; real states are corrupted so that one invariant breaks, and the refusal must
name the slot; and a fuzz loop corrupts real states at random and requires each one to be
refused or to play to the end (a legal action at every step, observations in range,
sampled worlds accepted, a bounded number of steps).

By hand, with numba's bounds checks, a long fuzz that observes every seat at every step::

    NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=/tmp/nbc_bc_aciliande \\
        .venv/bin/python tests/aciliande/test_aciliande_validate.py 20000
"""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable

import numpy as np
import pytest

import presages_env
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.core.validation import InvalidStateError, checked_state
from presages_env.fuzzing import states as state_fuzz
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.game import AciliandeGame, setup_position
from presages_env.games.aciliande.heuristic import heuristic_actions

GAME = AciliandeGame()
# hand size, bids, then every card and a declaration per trick: a bound on a manche's steps
STEPS_PER_MANCHE = 1 + k.MAX_PLAYERS + 2 * k.MAX_PLAYERS * k.MAX_TRICKS
# The worst values a corrupted state can hold: the extremes of the game's state dtype (a state
# of any other dtype is refused with TypeError before any slot is read).
MOST = int(np.iinfo(GAME.state_dtype).max)
LEAST = int(np.iinfo(GAME.state_dtype).min)


def option_sets(num_players: int) -> list[dict]:
    """Every option away from its default at least once."""
    sets = [
        {},
        {"fixed_hand_size": 22 // num_players, "lives": 1},
        {"fixed_hand_size": 1, "duel_tiebreak": "share"},
        {"lives": 2, "stake": 3, "goddesses": (0, 10, 21)},
        {"lives": tuple(1 + s % 4 for s in range(num_players)), "stake": 1000},
    ]
    if num_players in (4, 6):
        sets += [{"teams": True}, {"teams": True, "fixed_hand_size": 2, "lives": 2}]
    return sets


def random_game(num_players: int, seed: int, **options) -> list[np.ndarray]:
    """Every state of one game of random legal play, the final one included."""
    rng = np.random.default_rng(seed)
    state = GAME.new_state(num_players, seed, **options)
    mask = np.zeros(k.NUM_ACTIONS, np.int8)
    rewards = np.zeros(num_players, np.float32)
    states = [state.copy()]
    while not state[HDR_TERMINAL]:
        k.legal_mask(state, mask)
        k.step(state, rng.choice(np.flatnonzero(mask)), rewards)
        states.append(state.copy())
    return states


def heuristic_action(state: np.ndarray) -> int:
    """The heuristic's (legal) choice for the seat to act, from its observation."""
    obs = np.zeros((1, k.OBS_SIZE), GAME.obs_dtype)
    mask = np.zeros((1, k.NUM_ACTIONS), np.int8)
    action = np.zeros(1, np.int64)
    k.observe(state, state[HDR_CURRENT], obs[0])
    k.legal_mask(state, mask[0])
    heuristic_actions(obs, mask, action)
    assert mask[0, action[0]], f"the heuristic chose the illegal action {action[0]}"
    return int(action[0])


def heuristic_game(num_players: int, seed: int, **options) -> list[np.ndarray]:
    state = GAME.new_state(num_players, seed, **options)
    rewards = np.zeros(num_players, np.float32)
    states = [state.copy()]
    while not state[HDR_TERMINAL]:
        k.step(state, heuristic_action(state), rewards)
        states.append(state.copy())
    return states


# ---- every reachable state is accepted ---------------------------------------------------
@pytest.mark.parametrize("num_players", range(2, 8))
def test_every_state_of_random_games_is_accepted(num_players):
    for index, options in enumerate(option_sets(num_players)):
        for game in range(10):
            for state in random_game(num_players, 1000 * index + game, **options):
                checked_state(GAME, state)


@pytest.mark.parametrize("num_players", range(2, 8))
def test_every_state_of_heuristic_games_is_accepted(num_players):
    for index, options in enumerate(option_sets(num_players)):
        for state in heuristic_game(num_players, 77 + index, **options):
            checked_state(GAME, state)


@pytest.mark.parametrize("num_players", [2, 4, 5, 7])
def test_sampled_worlds_are_accepted(num_players):
    for seed in range(6):
        for state in random_game(num_players, seed, teams=num_players == 4)[:-1:3]:
            for player in range(num_players):
                world = np.zeros_like(state)
                k.sample_world(state, player, 99 + seed, world)
                checked_state(GAME, world)


def test_every_end_reason_is_accepted():
    ends = set()
    for seed in range(400):
        num_players = 2 + seed % 6
        options = [{}, {"lives": 5}, {"teams": num_players in (4, 6)}][seed // 6 % 3]
        final = random_game(num_players, seed, **options)[-1]
        checked_state(GAME, final)
        ends.add(int(final[k.END_REASON]))
    assert ends == set(range(k.END_THIRD_GODDESS, k.END_TEAM_SURVIVES + 1))


SETUPS = [
    {"num_players": 4, "dealer": 3},
    {"num_players": 5, "dealer": 0, "lives": [3, 0, 3, 0, 3]},
    {"num_players": 3, "hands": [[0, 21], [4, 5], [17, 7]], "dealer": 2},
    {"num_players": 3, "hands": [[17, 4], [21, 5], [10, 6]], "dealer": 2, "bids": [1, 1, 1]},
    {"num_players": 3, "dealer": 1, "lives": [0, 50, 50], "duel_face_up": 3, "seed": 4},
    {"num_players": 2, "hands": [[5], [6]], "dealer": 0, "lives": [1, 3], "bids": [1, 1],
     "duel_face_up": 1},
    {"num_players": 2, "hands": [[17], [6]], "dealer": 1, "bids": [1, 1]},
    {"num_players": 4, "hands": [[2], [3], [17], [5]], "dealer": 3, "teams": True,
     "bids": [0, 0, 0, 0]},
    {"num_players": 4, "dealer": 2, "fixed_hand_size": 3, "lives": [2, 0, 4, 1]},
    {"num_players": 7, "dealer": 6, "hands": [[c, c + 7, c + 14] for c in range(7)]},
    {"num_players": 3, "hands": [[], [0, 1], [4, 5]], "dealer": 1, "lives": [0, 3, 3]},
    {"num_players": 6, "dealer": 2, "lives": [0, 0, 99, 1, 0, 0], "teams": True},
]  # fmt: skip


@pytest.mark.parametrize("kwargs", SETUPS)
def test_setup_positions_are_accepted_and_play_to_the_end(kwargs):
    state = setup_position(**kwargs)
    valid = checked_state(GAME, state)
    state_fuzz.play_out(GAME, valid, np.random.default_rng(0), play_checks(valid))


def test_setup_position_validates_the_state_it_built(monkeypatch):
    def refuse(state):
        raise InvalidStateError("NODE", int(state[k.NODE]), "refused for the test")

    monkeypatch.setattr(AciliandeGame, "validate_state", staticmethod(refuse))
    with pytest.raises(ValueError, match="NODE = 1: refused for the test"):
        setup_position(3, [[0, 21], [4, 5], [17, 7]], dealer=2)


def test_validation_is_fast():
    states = [s for seed in range(5) for s in random_game(5, seed)]
    start = time.perf_counter()
    for state in states:
        GAME.validate_state(state)
    assert (time.perf_counter() - start) / len(states) < 1e-3


# ---- real positions to corrupt -----------------------------------------------------------
def at_node(node: int) -> Callable[[np.ndarray], bool]:
    return lambda s: not s[HDR_TERMINAL] and s[k.NODE] == node


def seats_in(state: np.ndarray) -> list[int]:
    return [s for s in range(int(state[HDR_NUM_PLAYERS])) if state[k.IN_MANCHE + s]]


def goddesses_of(state: np.ndarray) -> set[int]:
    return {int(c) for c in state[k.OPT_GODDESSES : k.OPT_GODDESSES + k.NUM_GODDESSES]}


def has_bids(count: int) -> Callable[[np.ndarray], bool]:
    return lambda s: (s[k.BIDS : k.BIDS + k.MAX_PLAYERS] >= 0).sum() == count


def is_mid_trick(s: np.ndarray) -> bool:
    """At PLAY after two tricks, cards in the trick, no Goddess anywhere yet, cards left."""
    played = s[k.CARD_TRICK : k.CARD_TRICK + 22] >= 0
    no_goddess = not any(played[c] for c in goddesses_of(s))
    return (
        at_node(k.NODE_PLAY)(s)
        and s[k.TRICK_INDEX] >= 2
        and s[k.TRICK_LEN] >= 2
        and no_goddess
        and s[k.HAND_SIZE] - s[k.TRICK_INDEX] >= 2
    )


# kind: (players, options, which state of a random game)
KINDS: dict[str, tuple[int, dict, Callable[[np.ndarray], bool]]] = {
    "hand_size": (5, {}, at_node(k.NODE_HAND_SIZE)),
    "team_hand_size": (4, {"teams": True}, at_node(k.NODE_HAND_SIZE)),
    "bid": (5, {}, lambda s: at_node(k.NODE_BID)(s) and has_bids(2)(s) and s[k.MANCHE] == 1),
    "fixed_bid": (4, {"fixed_hand_size": 3}, at_node(k.NODE_BID)),
    "play": (4, {}, is_mid_trick),
    "play_goddess": (4, {}, lambda s: at_node(k.NODE_PLAY)(s) and s[k.TRICK_GODDESSES] == 1),
    "declare": (4, {}, at_node(k.NODE_DECLARE)),
    "eliminated": (5, {}, lambda s: at_node(k.NODE_PLAY)(s) and len(seats_in(s)) == 3),
    "duel": (3, {}, lambda s: at_node(k.NODE_PLAY)(s) and s[k.DUEL] and s[k.FACE_UP] == 3),
    "end_third_goddess": (5, {}, lambda s: s[k.END_REASON] == k.END_THIRD_GODDESS),
    "end_last_survivor": (
        4,
        {},
        lambda s: s[k.END_REASON] == k.END_LAST_SURVIVOR and not s[k.DUEL],
    ),
    "end_duel_one_card": (
        3,
        {},
        lambda s: s[k.END_REASON] == k.END_LAST_SURVIVOR and s[k.DUEL] and s[k.FACE_UP] == 1,
    ),
    "end_duel_more_lives": (3, {}, lambda s: s[k.END_REASON] == k.END_DUEL_MORE_LIVES),
    "end_leftover": (5, {}, lambda s: s[HDR_TERMINAL] and (s[k.DRAW : k.DRAW + 5] >= 0).any()),
}


@functools.cache
def _first_state(kind: str) -> np.ndarray:
    num_players, options, wanted = KINDS[kind]
    for seed in range(3000):
        for state in random_game(num_players, seed, **options):
            if wanted(state):
                return state
    raise AssertionError(f"no random game reached a {kind!r} position")


def real(kind: str) -> np.ndarray:
    """A private copy of a real position of this kind, checked to be accepted."""
    return checked_state(GAME, _first_state(kind))


# ---- small corruptions -------------------------------------------------------------------
def put(state: np.ndarray, offset: int, value: int) -> None:
    state[offset] = value


def swap(state: np.ndarray, a: int, b: int) -> None:
    state[a], state[b] = state[b], state[a]


def knock_out(state: np.ndarray, seat: int) -> None:
    """The seat out of the game and of the manche (consistently)."""
    for block in (k.LIVES, k.ALIVE, k.IN_MANCHE):
        state[block + seat] = 0


def held(state: np.ndarray, seat: int) -> list[int]:
    return [c for c in range(22) if state[k.CARD_OWNER + c] == seat and state[k.CARD_TRICK + c] < 0]


def undealt(state: np.ndarray, goddess: bool = False) -> int:
    return next(
        c
        for c in range(22)
        if state[k.CARD_OWNER + c] < 0 and (c in goddesses_of(state)) == goddess
    )


def played_in(state: np.ndarray, trick: int) -> list[int]:
    return [c for c in range(22) if state[k.CARD_TRICK + c] == trick]


def current(state: np.ndarray) -> int:
    return int(state[HDR_CURRENT])


def other_seat(state: np.ndarray, seat: int) -> int:
    return next(s for s in seats_in(state) if s != seat)


def waiting_seat(state: np.ndarray) -> int:
    """A seat dealt in that has not played in the current trick."""
    in_trick = set(state[k.TRICK_SEATS : k.TRICK_SEATS + state[k.TRICK_LEN]].tolist())
    return next(s for s in seats_in(state) if s not in in_trick)


def dealer(state: np.ndarray) -> int:
    return int(state[k.DEALER])


def receivers(state: np.ndarray) -> list[int]:
    return [s for s in range(int(state[HDR_NUM_PLAYERS])) if state[k.COINS + s] > 0]


def non_receiver(state: np.ndarray) -> int:
    return next(s for s in range(int(state[HDR_NUM_PLAYERS])) if state[k.COINS + s] == 0)


def move_coin(state: np.ndarray) -> None:
    rich = receivers(state)[0]
    state[k.COINS + rich] -= 1
    state[k.COINS + (rich + 1) % int(state[HDR_NUM_PLAYERS])] += 1


def swap_draws_of_unequal_receivers(state: np.ndarray) -> None:
    by_coins = sorted(receivers(state), key=lambda s: state[k.COINS + s])
    swap(state, k.DRAW + by_coins[0], k.DRAW + by_coins[-1])


def bid_after_the_seat_to_act(state: np.ndarray) -> None:
    state[
        k.BIDS + next(s for s in seats_in(state) if state[k.BIDS + s] < 0 and s != current(state))
    ] = 0


def all_bids_placed(state: np.ndarray) -> None:
    for seat in seats_in(state):
        state[k.BIDS + seat] = max(state[k.BIDS + seat], 0)


def bids_adding_up(state: np.ndarray) -> None:
    for seat in seats_in(state):
        state[k.BIDS + seat] = 0
    state[k.BIDS + dealer(state)] = state[k.HAND_SIZE]


def move_a_win(state: np.ndarray) -> None:
    winner = int(state[k.PAST_WINNER])
    state[k.TRICKS + winner] -= 1
    state[k.TRICKS + other_seat(state, winner)] += 1


def flip_declaration(state: np.ndarray, trick: int) -> None:
    declared = state[k.PAST_DECL + trick] != k.DECL_NONE
    state[k.PAST_DECL + trick] = k.DECL_NONE if declared else k.DECL_TAKE


def declare_without_goddess(state: np.ndarray) -> None:
    state[k.NODE] = k.NODE_DECLARE
    state[HDR_CURRENT] = state[k.TRICK_SEATS + state[k.TRICK_LEN] - 1]


def survivor(state: np.ndarray) -> int:
    return next(s for s in range(int(state[HDR_NUM_PLAYERS])) if state[k.ALIVE + s])


CASES = [
    # options, extreme and out-of-range values
    ("bid", lambda s: put(s, k.OPT_GODDESSES, MOST), rf"OPT_GODDESSES\[0\] = {MOST}"),
    ("bid", lambda s: put(s, k.OPT_GODDESSES + 1, s[k.OPT_GODDESSES]), r"OPT_GODDESSES\[1\]"),
    ("bid", lambda s: put(s, k.OPT_LIVES, 0), r"OPT_LIVES\[0\] = 0"),
    ("bid", lambda s: put(s, k.OPT_LIVES + 5, 3), r"OPT_LIVES\[5\] = 3"),
    ("bid", lambda s: put(s, k.OPT_STAKE, LEAST), rf"OPT_STAKE = {LEAST}"),
    ("bid", lambda s: put(s, k.OPT_FIXED_HAND, 5), r"OPT_FIXED_HAND = 5"),
    ("bid", lambda s: put(s, k.OPT_TEAMS, 1), r"OPT_TEAMS = 1"),
    ("team_hand_size", lambda s: put(s, k.OPT_TEAMS, 2), r"OPT_TEAMS = 2"),
    ("bid", lambda s: put(s, k.OPT_TIEBREAK, -1), r"OPT_TIEBREAK = -1"),
    ("bid", lambda s: put(s, k.NODE, MOST), rf"NODE = {MOST}"),
    ("bid", lambda s: put(s, k.NODE, k.NODE_GAME_OVER), r"NODE = 4"),
    ("end_last_survivor", lambda s: put(s, k.NODE, k.NODE_PLAY), r"NODE = 2"),
    ("bid", lambda s: put(s, k.END_REASON, k.END_LAST_SURVIVOR), r"END_REASON = 2"),
    ("end_last_survivor", lambda s: put(s, k.END_REASON, 0), r"END_REASON = 0"),
    ("bid", lambda s: put(s, k.DEALER, -1), r"DEALER = -1"),
    ("bid", lambda s: put(s, k.DEALER, 5), r"DEALER = 5"),
    ("bid", lambda s: put(s, k.HAND_SIZE, MOST), rf"HAND_SIZE = {MOST}"),
    ("bid", lambda s: put(s, k.LEADER, LEAST), rf"LEADER = {LEAST}"),
    ("bid", lambda s: put(s, k.TRICK_INDEX, 12), r"TRICK_INDEX = 12"),
    ("bid", lambda s: put(s, k.TRICK_LEN, 6), r"TRICK_LEN = 6"),
    ("bid", lambda s: put(s, k.TRICK_DECL, 3), r"TRICK_DECL = 3"),
    ("bid", lambda s: put(s, k.TRICK_GODDESSES, -1), r"TRICK_GODDESSES = -1"),
    ("bid", lambda s: put(s, k.DUEL, 2), r"DUEL = 2"),
    ("bid", lambda s: put(s, k.FACE_UP, 4), r"FACE_UP = 4"),
    ("bid", lambda s: put(s, k.MANCHE, 0), r"MANCHE = 0"),
    ("bid", lambda s: put(s, k.MANCHE, MOST), rf"MANCHE = {MOST}"),
    ("bid", lambda s: put(s, k.POT, s[k.POT] + 1), r"POT = 6"),
    ("bid", lambda s: put(s, k.LIVES, 100), r"LIVES\[0\] = 100"),
    ("bid", lambda s: put(s, k.ALIVE, -1), r"ALIVE\[0\] = -1"),
    ("bid", lambda s: put(s, k.IN_MANCHE + 1, 2), r"IN_MANCHE\[1\] = 2"),
    ("bid", lambda s: put(s, k.BIDS + 2, -2), r"BIDS\[2\] = -2"),
    ("bid", lambda s: put(s, k.TRICKS + 3, 12), r"TRICKS\[3\] = 12"),
    ("bid", lambda s: put(s, k.LOST_LAST + 4, -1), r"LOST_LAST\[4\] = -1"),
    ("bid", lambda s: put(s, k.COINS, MOST), rf"COINS\[0\] = {MOST}"),
    ("bid", lambda s: put(s, k.DRAW, 22), r"DRAW\[0\] = 22"),
    ("bid", lambda s: put(s, k.BIDS + 5, 0), r"BIDS\[5\] = 0"),
    ("bid", lambda s: put(s, k.DRAW + 6, 3), r"DRAW\[6\] = 3"),
    ("bid", lambda s: put(s, k.LIVES + 5, 1), r"LIVES\[5\] = 1"),
    ("bid", lambda s: put(s, k.CARD_OWNER + 3, 5), r"CARD_OWNER\[3\] = 5"),
    ("play", lambda s: put(s, k.CARD_OWNER, -2), r"CARD_OWNER\[0\] = -2"),
    ("play", lambda s: put(s, k.TRICK_CARDS, 22), r"TRICK_CARDS\[0\] = 22"),
    ("play", lambda s: put(s, k.TRICK_SEATS, MOST), rf"TRICK_SEATS\[0\] = {MOST}"),
    ("play", lambda s: put(s, k.PAST_WINNER, 4), r"PAST_WINNER\[0\] = 4"),
    ("play", lambda s: put(s, k.PAST_DECL, 3), r"PAST_DECL\[0\] = 3"),
    # seats
    ("bid", lambda s: put(s, k.ALIVE + 2, 0), r"ALIVE\[2\] = 0: .*exactly while it has lives"),
    ("bid", lambda s: put(s, k.LIVES + 2, 0), r"ALIVE\[2\] = 1: .*LIVES\[2\] = 0"),
    ("bid", lambda s: put(s, k.IN_MANCHE + 3, 0), r"IN_MANCHE\[3\] = 0"),
    ("hand_size", lambda s: [knock_out(s, x) for x in range(5) if x != dealer(s)], r"IN_MANCHE"),
    ("team_hand_size", lambda s: [knock_out(s, x) for x in (1, 3)], r"ALIVE.*both teams"),
    ("hand_size", lambda s: knock_out(s, dealer(s)), r"DEALER = \d: the dealer is dealt"),
    # duel and hand size
    ("hand_size", lambda s: put(s, k.OPT_FIXED_HAND, 2), r"NODE = 0"),
    ("hand_size", lambda s: put(s, k.HAND_SIZE, 3), r"HAND_SIZE = 3"),
    ("bid", lambda s: put(s, k.DUEL, 1), r"DUEL = 1: the duel is played by two"),
    ("duel", lambda s: put(s, k.FACE_UP, 0), r"FACE_UP = 0"),
    ("duel", lambda s: put(s, k.FACE_UP, 2), r"HAND_SIZE = 3: this duel manche deals 2"),
    ("bid", lambda s: put(s, k.FACE_UP, 1), r"FACE_UP = 1"),
    ("fixed_bid", lambda s: put(s, k.OPT_FIXED_HAND, 2), r"HAND_SIZE = 3: OPT_FIXED_HAND is 2"),
    ("bid", lambda s: put(s, k.HAND_SIZE, 11), r"HAND_SIZE = 11: must be in \[1, 4\]"),
    # trick counters
    ("bid", lambda s: put(s, k.TRICK_INDEX, 1), r"TRICK_INDEX = 1"),
    ("play", lambda s: put(s, k.TRICK_LEN, 4), r"TRICK_LEN = 4"),
    ("play", lambda s: put(s, k.TRICK_INDEX, s[k.HAND_SIZE]), r"TRICK_INDEX = \d"),
    ("declare", lambda s: put(s, k.TRICK_LEN, 0), r"TRICK_LEN = 0"),
    ("end_last_survivor", lambda s: put(s, k.TRICK_INDEX, s[k.TRICK_INDEX] - 1), r"TRICK_INDEX"),
    # cards: in exactly one place, hands and tricks consistent with the counts
    ("bid", lambda s: put(s, k.CARD_TRICK + undealt(s), 0), r"CARD_TRICK\[\d+\] = 0: an undealt"),
    ("eliminated", lambda s: put(s, k.CARD_OWNER + held(s, current(s))[0], next(
        x for x in range(5) if not s[k.IN_MANCHE + x])), r"CARD_OWNER\[\d+\] = \d: seat \d is not"),
    ("duel", lambda s: put(s, k.CARD_OWNER + undealt(s, goddess=True), 0),
     r"CARD_OWNER\[\d+\] = 0: in the duel"),
    ("play", lambda s: put(s, k.CARD_OWNER + held(s, 0)[0], 1), r"CARD_OWNER = .*seat 0 got"),
    ("play", lambda s: put(s, k.CARD_TRICK + held(s, 0)[0], 0), r"CARD_TRICK\[\d+\] = 0: seat 0 "
     "already played"),
    ("play", lambda s: put(s, k.CARD_TRICK + played_in(s, 1)[0], -1),
     r"CARD_TRICK = .*no card in completed trick 1"),
    ("play", lambda s: put(s, k.CARD_TRICK + held(s, 0)[0], s[k.TRICK_INDEX] + 1), r"CARD_TRICK\["),
    # tricks: winners, wins, leader, the current trick
    ("play", lambda s: put(s, k.PAST_WINNER, other_seat(s, int(s[k.PAST_WINNER]))),
     r"PAST_WINNER\[0\]"),
    ("play", lambda s: flip_declaration(s, 1), r"PAST_DECL\[1\]"),
    ("play", lambda s: put(s, k.PAST_WINNER + s[k.TRICK_INDEX], 0), r"PAST_WINNER\[\d+\] = 0"),
    ("play", move_a_win, r"TRICKS\[\d\]"),
    ("play", lambda s: put(s, k.LEADER, other_seat(s, int(s[k.LEADER]))), r"LEADER"),
    ("play", lambda s: swap(s, k.TRICK_CARDS, k.TRICK_CARDS + 1), r"TRICK_CARDS\[0\]"),
    ("play", lambda s: swap(s, k.TRICK_SEATS, k.TRICK_SEATS + 1), r"TRICK_SEATS\[0\]"),
    ("play", lambda s: put(s, k.TRICK_CARDS + s[k.TRICK_LEN], held(s, current(s))[0]),
     r"TRICK_CARDS\[\d\] = \d+: empty slot"),
    ("play", lambda s: put(s, k.CARD_TRICK + held(s, waiting_seat(s))[0], s[k.TRICK_INDEX]),
     r"TRICK_LEN = \d: \d card\(s\) are marked"),
    ("play_goddess", lambda s: put(s, k.TRICK_GODDESSES, 0), r"TRICK_GODDESSES = 0"),
    ("play", lambda s: put(s, k.TRICK_DECL, k.DECL_TAKE), r"TRICK_DECL = 1"),
    ("play_goddess", lambda s: put(s, k.TRICK_DECL, k.DECL_NONE), r"TRICK_DECL = 0"),
    ("play", declare_without_goddess, r"TRICK_GODDESSES = 0: a declaration follows"),
    ("declare", lambda s: put(s, k.TRICK_DECL, k.DECL_TAKE), r"TRICK_DECL = 1"),
    # bids
    ("eliminated", lambda s: put(s, k.BIDS + next(x for x in range(5) if not s[k.IN_MANCHE + x]),
     0), r"BIDS\[\d\] = 0: a seat not dealt in"),
    ("play", lambda s: put(s, k.BIDS + 1, s[k.HAND_SIZE] + 1), r"BIDS\[1\]"),
    ("play", lambda s: put(s, k.BIDS + 2, -1), r"BIDS\[2\] = -1"),
    ("bid", bid_after_the_seat_to_act, r"BIDS\[\d\]"),
    ("bid", all_bids_placed, r"NODE = 1: every player has bid"),
    ("play", bids_adding_up, r"BIDS\[\d\] = \d: the dealer may not"),
    # the seat to act
    ("hand_size", lambda s: put(s, HDR_CURRENT, other_seat(s, current(s))), r"HDR_CURRENT"),
    ("bid", lambda s: put(s, HDR_CURRENT, other_seat(s, current(s))), r"HDR_CURRENT"),
    ("play", lambda s: put(s, HDR_CURRENT, other_seat(s, current(s))), r"HDR_CURRENT"),
    ("declare", lambda s: put(s, HDR_CURRENT, other_seat(s, current(s))), r"HDR_CURRENT"),
    ("duel", lambda s: swap(s, k.DEALER, k.LEADER), r"LEADER|DEALER|HDR_CURRENT"),
    # coins, draws and lives lost
    ("play", lambda s: put(s, k.COINS + 1, 1), r"COINS\[1\] = 1"),
    ("play", lambda s: put(s, k.DRAW + 2, 5), r"DRAW\[2\] = 5"),
    ("bid", lambda s: put(s, k.LOST_LAST + 1, 1), r"LOST_LAST\[1\] = 1"),
    ("end_last_survivor", lambda s: put(s, k.LOST_LAST + survivor(s), s[k.LOST_LAST + survivor(s)]
     + 1), r"LOST_LAST\[\d\]"),
    # the end of the game
    ("end_last_survivor", lambda s: put(s, k.END_REASON, k.END_ALL_ELIMINATED), r"END_REASON = 3"),
    ("end_duel_more_lives", lambda s: put(s, k.FACE_UP, 1), r"HDR_TERMINAL = 1: .*goes on"),
    ("end_duel_one_card", lambda s: put(s, k.FACE_UP, 0), r"FACE_UP = 0: a Goddess is turned"),
    ("end_last_survivor", move_coin, r"COINS\[\d\]"),
    ("end_third_goddess", move_coin, r"COINS\[\d\]"),
    ("end_third_goddess", lambda s: put(s, k.TRICK_GODDESSES, 2), r"TRICK_GODDESSES = 2"),
    ("end_leftover", lambda s: put(s, k.DRAW + receivers(s)[0], min(goddesses_of(s))),
     r"DRAW\[\d\] = \d+: each receiver draws"),
    ("end_leftover", lambda s: put(s, k.DRAW + non_receiver(s), 0), r"DRAW\[\d\] = 0: seat"),
    ("end_leftover", swap_draws_of_unequal_receivers, r"COINS\[\d\]"),
    ("end_last_survivor", lambda s: put(s, k.DRAW + survivor(s), 3), r"DRAW\[\d\] = 3: the pot"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "corrupt", "slot"), CASES)
def test_each_broken_invariant_is_refused_naming_its_slot(kind, corrupt, slot):
    state = real(kind)
    corrupt(state)
    with pytest.raises(InvalidStateError, match=slot):
        checked_state(GAME, state)


def test_issue_example_huge_goddess_is_refused_with_the_slot_name():
    """Issue 10: ``OPT_GODDESSES = 10**9`` crashed the kernels; now every entry point refuses."""
    state = GAME.new_state(4, 0)
    state[k.OPT_GODDESSES] = MOST  # the issue's 10**9, as close as an int16 state gets
    env = presages_env.make("aciliande", num_players=4)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=rf"OPT_GODDESSES\[0\] = {MOST}"):
        env.set_state(state)
    with pytest.raises(ValueError, match=rf"OPT_GODDESSES\[0\] = {MOST}: must be in \[0, 21\]"):
        GAME.checked_state(state)
    wide = GAME.new_state(4, 0).astype(np.int64)  # the issue's own state: int64, holding 10**9
    wide[k.OPT_GODDESSES] = 10**9
    with pytest.raises(TypeError, match="never cast"):
        env.set_state(wide)
    with pytest.raises(TypeError, match="never cast"):
        GAME.checked_state(wide)


# ---- fuzz: the one state fuzzer, with Aciliande's sources, corruptions and checks ------------
def play_checks(
    state: np.ndarray, observe_all: bool = False, heuristic: bool = False
) -> state_fuzz.StateCheck:
    """Aciliande's hook on every state a play-out from ``state`` reaches: the game ends within
    its manches' steps (each manche costs a life), every seat observes within the observation
    space (``observe_all``), the heuristic picks a legal action (``heuristic``)."""
    n = int(state[HDR_NUM_PLAYERS])
    manches = int(state[k.LIVES : k.LIVES + n].sum()) + 1
    bound = manches * STEPS_PER_MANCHE
    obs = np.zeros(k.OBS_SIZE, GAME.obs_dtype)
    mask = np.zeros(k.NUM_ACTIONS, np.int8)
    low, high = GAME.obs_low(n), GAME.obs_high(n)
    steps = iter(range(bound))

    def check(state: np.ndarray, rng: np.random.Generator) -> None:
        assert next(steps, None) is not None, f"not over after {bound} steps"
        for seat in range(n) if observe_all else ():
            k.observe(state, seat, obs)
            assert not ((obs < low) | (obs > high)).any(), f"seat {seat} observes out of space"
        if heuristic and not state[HDR_TERMINAL]:
            k.legal_mask(state, mask)
            assert mask[heuristic_action(state)], "the heuristic chose an illegal action"

    return check


def base_states(games_per_config: int = 1) -> list[np.ndarray]:
    """Real states to corrupt: a sample of every game kind, with every final state."""
    rng = np.random.default_rng(5)
    states = [setup_position(**kwargs) for kwargs in SETUPS]
    for num_players in range(2, 8):
        for index, options in enumerate(option_sets(num_players)):
            for game in range(games_per_config):
                played = random_game(num_players, 500 + 10 * index + game, **options)
                picks = rng.choice(len(played), size=min(8, len(played)), replace=False)
                states += [played[i] for i in picks] + [played[-1]]
        states += heuristic_game(num_players, num_players)[::10]
    return states


def interesting_values(state: np.ndarray, offset: int, rng: np.random.Generator) -> int:
    n = int(state[HDR_NUM_PLAYERS])
    value = int(state[offset])
    choices = [MOST, LEAST, -2, -1, 0, 1, 2, 3, n - 1, n, n + 1, 7, 11, 12]
    choices += [21, 22, max(value - 1, LEAST), min(value + 1, MOST), int(rng.integers(-2, 25))]
    return choices[int(rng.integers(len(choices)))]


def corrupt_randomly(state: np.ndarray, rng: np.random.Generator) -> tuple[str, np.ndarray]:
    """One of the state fuzzer's corruptions, or one only Aciliande's layout knows (a card
    moved, two nearby slots swapped, a value that means something here); and what was done."""
    how = int(rng.integers(len(state_fuzz.KINDS) + 3))
    if how < len(state_fuzz.KINDS):
        return state_fuzz.corrupt(state, state_fuzz.KINDS[how], rng)
    state = state.copy()
    if how == len(state_fuzz.KINDS):  # a card moved (to a seat, out of the deal, into a trick)
        card = int(rng.integers(22))
        block = (k.CARD_OWNER, k.CARD_TRICK)[int(rng.integers(2))]
        state[block + card] = int(rng.integers(-1, 8))
        return f"card {card} moved at {block}", state
    if how == len(state_fuzz.KINDS) + 1:  # two slots of one block swapped
        a = int(rng.integers(k.OPT_GODDESSES, k.STATE_SIZE))
        b = min(max(a + int(rng.integers(-7, 8)), 0), k.STATE_SIZE - 1)
        swap(state, a, b)
        return f"slots {a} and {b} swapped", state
    offset = int(rng.integers(k.STATE_SIZE))
    state[offset] = interesting_values(state, offset, rng)
    return f"slot {offset} set", state


def fuzz(cases: int, seed: int, observe_all: bool = False) -> dict[str, int]:
    """Corrupt ``cases`` real states; each is refused or plays to the end (else raises)."""
    rng = np.random.default_rng(seed)
    states = base_states()
    counts = {"refused": 0, "played": 0}
    for case in range(cases):
        what, state = corrupt_randomly(states[int(rng.integers(len(states)))], rng)
        try:
            valid = checked_state(GAME, state)
        except ValueError:
            counts["refused"] += 1
            continue
        try:
            if not valid[HDR_TERMINAL]:
                world = np.zeros_like(valid)
                k.sample_world(valid, valid[HDR_CURRENT], case, world)
                checked_state(GAME, world)
            check = play_checks(valid, observe_all, heuristic=case % 2 == 1)
            counts[state_fuzz.run_case(GAME, valid, case, check)] += 1
        except Exception as error:  # any failure after acceptance, re-raised with its case
            raise AssertionError(f"case {case} ({what}) was accepted, then: {error!r}") from error
    return counts


def test_fuzzed_states_are_refused_or_play_to_the_end():
    counts = fuzz(300, seed=0, observe_all=True)
    assert counts["refused"] + counts["played"] == 300
    assert counts["refused"] > 50 and counts["played"] > 50, counts


if __name__ == "__main__":
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    start = time.perf_counter()
    print(fuzz(total, seed=int(sys.argv[2]) if len(sys.argv) > 2 else 1, observe_all=True))
    print(f"{total} cases in {time.perf_counter() - start:.0f} s")
