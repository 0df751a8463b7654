"""Président state validation: every reachable state is accepted, each invariant's breach is
refused with its slot's name, and a corrupted state is either refused or plays to the end.

The fuzz loop also runs by hand under numba's bounds checking (see :func:`fuzz`)::

    NUMBA_BOUNDSCHECK=1 NUMBA_CACHE_DIR=/tmp/nbc_bc_president .venv/bin/python -c \\
        "import sys; sys.path.insert(0, 'tests/president'); \\
         import test_president_validate as t; print(t.fuzz(20000, seed=1))"
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable, Iterator

import numpy as np
import pytest

import presages_env
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.core.validation import InvalidStateError, checked_state
from presages_env.fuzzing import states as state_fuzz
from presages_env.games.president import kernel as k
from presages_env.games.president.cards import NUM_RANKS
from presages_env.games.president.game import PresidentGame, setup_position
from presages_env.games.president.heuristic import heuristic_actions

GAME = PresidentGame()
PLAYER_COUNTS = [3, 4, 5, 6]
# Every option value: one manche per episode, matches of several manches, each reward scheme.
OPTIONS = [
    {"num_manches": 1, "reward_scheme": "places"},
    {"num_manches": 3, "reward_scheme": "match"},
    {"num_manches": 2, "reward_scheme": "points"},
    {"num_manches": 4, "reward_scheme": "places"},
]
MAX_PLAYOUT_STEPS = 10_000
# The worst values a corrupted state can hold: the extremes of the game's state dtype (a state
# of any other dtype is refused with TypeError before any slot is read).
MOST = int(np.iinfo(GAME.state_dtype).max)
LEAST = int(np.iinfo(GAME.state_dtype).min)


# ---- playing ------------------------------------------------------------------------------
def random_policy(rng: np.random.Generator) -> Callable[[np.ndarray, np.ndarray], int]:
    return lambda state, mask: int(rng.choice(np.flatnonzero(mask)))


def heuristic_policy(state: np.ndarray, mask: np.ndarray) -> int:
    obs = np.zeros((1, k.OBS_SIZE), dtype=np.int8)
    k.observe(state, np.int64(state[HDR_CURRENT]), obs[0])
    actions = np.zeros(1, dtype=np.int64)
    heuristic_actions(obs, mask[None], actions)
    return int(actions[0])


def playout(state: np.ndarray, policy: Callable) -> Iterator[np.ndarray]:
    """Every state from ``state`` (in place) to the end of the match, ``state`` included."""
    n = int(state[HDR_NUM_PLAYERS])
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    yield state
    for _ in range(MAX_PLAYOUT_STEPS):
        if state[HDR_TERMINAL]:
            return
        k.legal_mask(state, mask)
        assert mask.any(), "no legal action before the end"
        k.step(state, np.int64(policy(state, mask)), rewards)
        yield state
    pytest.fail(f"no end after {MAX_PLAYOUT_STEPS} steps")


def world_of(state: np.ndarray, player: int, seed: int) -> np.ndarray:
    """What ``sample_world`` deals for ``player`` (a state the search plays)."""
    world = np.empty_like(state)
    k.sample_world(state, np.int64(player), np.int64(seed), world)
    return world


@functools.cache
def game_states(num_players: int, num_manches: int, seeds: int = 3) -> tuple[np.ndarray, ...]:
    """Every state of a few random matches (the ones the corruption tests start from)."""
    states = []
    rng = np.random.default_rng(num_players * 100 + num_manches)
    for seed in range(seeds):
        state = GAME.new_state(num_players, seed, num_manches=num_manches)
        states.extend(s.copy() for s in playout(state, random_policy(rng)))
    return tuple(states)


def first_state(predicate: Callable[[np.ndarray], bool], num_players: int = 4) -> np.ndarray:
    for state in game_states(num_players, 3, seeds=20):
        if predicate(state):
            return state.copy()
    raise AssertionError("no such state in the sampled games")


def refused_slot(state: np.ndarray) -> str:
    with pytest.raises(InvalidStateError) as refusal:
        checked_state(GAME, state)
    assert refusal.value.slot in str(refusal.value)
    return refusal.value.slot


# ---- every reachable state is accepted ----------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: f"{o['num_manches']}-{o['reward_scheme']}"
)
def test_every_state_of_random_matches_is_accepted(num_players, options):
    rng = np.random.default_rng(num_players)
    terminal = give_backs = 0
    for seed in range(4):
        state = GAME.new_state(num_players, seed, **options)
        for s in playout(state, random_policy(rng)):
            checked_state(GAME, s)
            terminal += int(s[HDR_TERMINAL])
            if not s[HDR_TERMINAL]:
                give_backs += int(s[k.PHASE] == k.PHASE_GIVE_BACK)
                player = int(rng.integers(num_players))
                checked_state(GAME, world_of(s, player, int(rng.integers(2**40))))
    assert terminal == 4
    assert give_backs == 4 * (options["num_manches"] - 1)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_state_of_heuristic_matches_is_accepted(num_players):
    for seed in range(4):
        state = GAME.new_state(num_players, seed, num_manches=3, reward_scheme="match")
        for s in playout(state, heuristic_policy):
            checked_state(GAME, s)


def test_every_state_of_the_vector_env_is_accepted():
    vec = presages_env.make_vec("president", 32, num_players=5, seed=3, num_manches=2)
    rng_states = np.arange(32, dtype=np.int64)
    for _ in range(300):
        vec.step(vec.random_actions(rng_states))
        for state in vec.states:
            checked_state(GAME, state)


def test_search_worlds_of_every_player_and_their_continuations_are_accepted():
    """A world dealt for a player outside the exchange forgets it, even at the give-back."""
    rng = np.random.default_rng(2)
    give_backs = [s for s in game_states(4, 3, seeds=20) if is_give_back(s)][:6]
    assert give_backs
    for state in give_backs:
        for player in range(4):
            world = world_of(state, player, int(rng.integers(2**40)))
            for s in playout(world, random_policy(rng)):
                checked_state(GAME, s)


@pytest.mark.parametrize(
    ("hands", "leader"),
    [
        ([["3"], ["4"], ["5"]], 2),
        ([["6", "6", "3"], ["A", "A", "4"], ["10", "10", "5"], ["K", "K", "7"]], 1),
        ([["2"] * 4 + ["3"] * 4, ["A"], ["K", "Q"], ["J"], ["9"], ["8", "8", "8"]], 5),
        ([[r for r in range(13) for _ in range(4) if r % 3 == p] for p in range(3)], 0),
    ],
)
@pytest.mark.parametrize("num_manches", [1, 3])
def test_setup_positions_and_their_continuations_are_accepted(hands, leader, num_manches):
    rng = np.random.default_rng(len(hands))
    state = setup_position(len(hands), hands, leader, num_manches=num_manches)
    for s in playout(state, random_policy(rng)):
        checked_state(GAME, s)


def test_setup_position_keeps_good_positions():
    state = setup_position(3, [["3", "3"], ["K"], ["2"]], leader=1, num_manches=2)
    assert state[HDR_CURRENT] == 1
    assert state[k.HAND : k.HAND + 13].tolist() == [2] + [0] * 12
    assert state[k.GONE] == 2 and state[k.GONE + 10] == 3


# ---- one refusal per invariant --------------------------------------------------------------
def is_first_following(s: np.ndarray) -> bool:
    """First manche, a play to beat that some holders passed, someone already out."""
    return not s[HDR_TERMINAL] and s[k.MANCHE] == 0 and s[k.PASSES] >= 1 and s[k.NUM_OUT] >= 1


def is_early_following(s: np.ndarray) -> bool:
    """First manche, a play to beat, a rank of which no card is gone yet."""
    gone = s[k.GONE : k.GONE + NUM_RANKS]
    return not s[HDR_TERMINAL] and s[k.MANCHE] == 0 and s[k.TOP_RANK] >= 0 and gone.min() == 0


def is_first_lead(s: np.ndarray) -> bool:
    return not s[HDR_TERMINAL] and s[k.MANCHE] == 0 and s[k.TOP_RANK] < 0 and s[k.TOP_PLAYER] >= 0


def is_later_following(s: np.ndarray) -> bool:
    """The second manche, both exchange parties still bound by the exchange, a 2 in a hand."""
    if s[HDR_TERMINAL] or s[k.MANCHE] != 1 or s[k.PHASE] != k.PHASE_PLAY or s[k.PASSES] < 1:
        return False
    received, given = int(s[k.EXCH_RECEIVED]), int(s[k.EXCH_GIVEN])
    unplayed = s[k.GONE + received] == 0 and s[k.GONE + given] == 0
    return given < received < 12 and unplayed and s[k.GONE + 12] < 4


def is_give_back(s: np.ndarray) -> bool:
    return not s[HDR_TERMINAL] and s[k.PHASE] == k.PHASE_GIVE_BACK


def is_top_player_out(s: np.ndarray) -> bool:
    top = int(s[k.TOP_PLAYER])
    return not s[HDR_TERMINAL] and top >= 0 and s[k.PLACE + top] >= 0 and s[k.NUM_OUT] >= 2


def is_terminal(s: np.ndarray) -> bool:
    return bool(s[HDR_TERMINAL])


def hand(player: int, rank: int = 0) -> int:
    """The slot of ``player``'s cards of ``rank`` (Python ints: slot values are int8)."""
    return k.HAND + int(player) * NUM_RANKS + int(rank)


def set_slot(offset: int, value: int) -> Callable[[np.ndarray], None]:
    def corrupt(s: np.ndarray) -> None:
        s[offset] = value

    return corrupt


def add_to_slot(offset: int, delta: int) -> Callable[[np.ndarray], None]:
    def corrupt(s: np.ndarray) -> None:
        s[offset] += delta

    return corrupt


def swap_slots(a: int, b: int) -> Callable[[np.ndarray], None]:
    def corrupt(s: np.ndarray) -> None:
        s[a], s[b] = s[b], s[a]

    return corrupt


def holders(s: np.ndarray) -> list[int]:
    return [p for p in range(int(s[HDR_NUM_PLAYERS])) if s[k.PLACE + p] < 0]


def out_players(s: np.ndarray) -> list[int]:
    return [p for p in range(int(s[HDR_NUM_PLAYERS])) if s[k.PLACE + p] >= 0]


def duplicate_a_card(s: np.ndarray) -> None:
    p = holders(s)[0]
    rank = int(np.flatnonzero(s[hand(p) : hand(p) + NUM_RANKS] < 4)[0])
    s[hand(p, rank)] += 1


def move_card(giver: Callable, taker: Callable, rank: Callable) -> Callable[[np.ndarray], None]:
    """Move one card of ``rank(s)`` from ``giver(s)`` to ``taker(s)``."""

    def corrupt(s: np.ndarray) -> None:
        r = rank(s)
        s[hand(giver(s), r)] -= 1
        s[hand(taker(s), r)] += 1

    return corrupt


def first_held(player: Callable) -> Callable[[np.ndarray], int]:
    return lambda s: int(np.flatnonzero(s[hand(player(s)) : hand(player(s)) + NUM_RANKS])[0])


def president(s: np.ndarray) -> int:
    return int(s[k.EXCH_TO])


def last_player(s: np.ndarray) -> int:
    return int(s[k.EXCH_FROM])


def holder_of_a_two(s: np.ndarray) -> int:
    return next(p for p in range(4) if s[hand(p, 12)] > 0)


def other_holder(s: np.ndarray) -> int:
    return next(p for p in holders(s) if p != s[HDR_CURRENT])


def swap_places_of_the_out(s: np.ndarray) -> None:
    a, b = out_players(s)[:2]
    s[k.PLACE + a], s[k.PLACE + b] = s[k.PLACE + b], s[k.PLACE + a]


def reseat_first_two(s: np.ndarray) -> None:
    """A consistent seating (PLAYER_AT_SEAT and SEAT_OF agree) that is not player order."""
    for base in (k.PLAYER_AT_SEAT, k.SEAT_OF):
        s[base], s[base + 1] = s[base + 1], s[base]


def top_player_acts_again(s: np.ndarray) -> None:
    s[k.TOP_PLAYER] = s[HDR_CURRENT]


def mark_next_holder_passed(s: np.ndarray) -> None:
    s[k.PASSED + int(s[HDR_CURRENT])] = 1


def reopen_finished_match(s: np.ndarray) -> None:
    s[HDR_TERMINAL] = 0
    s[HDR_CURRENT] = int(np.argmax(s[k.PLACE : k.PLACE + 4]))


def top_rank_not_gone(s: np.ndarray) -> None:
    s[k.TOP_RANK] = int(np.flatnonzero(s[k.GONE : k.GONE + NUM_RANKS] == 0)[-1])


def move_score(s: np.ndarray) -> None:
    """One of the Président's 2 points to a player who scored none (totals kept)."""
    best = int(np.flatnonzero(s[k.LAST_PLACE : k.LAST_PLACE + 4] == 0)[0])
    other = int(np.flatnonzero(s[k.SCORE : k.SCORE + 4] == 0)[0])
    s[k.SCORE + best] -= 1
    s[k.SCORE + other] += 1


def add_a_point(s: np.ndarray) -> None:
    """A point to a player who scored none, as if a manche had paid 4."""
    s[k.SCORE + int(np.flatnonzero(s[k.SCORE : k.SCORE + 4] == 0)[0])] += 1


def move_all(giver: Callable, taker: Callable, rank: Callable) -> Callable[[np.ndarray], None]:
    """Move every card of ``rank(s)`` that ``giver(s)`` holds to ``taker(s)``."""

    def corrupt(s: np.ndarray) -> None:
        r = rank(s)
        s[hand(taker(s), r)] += s[hand(giver(s), r)]
        s[hand(giver(s), r)] = 0

    return corrupt


def received(s: np.ndarray) -> int:
    return int(s[k.EXCH_RECEIVED])


def given(s: np.ndarray) -> int:
    return int(s[k.EXCH_GIVEN])


def leader_elsewhere(s: np.ndarray) -> None:
    s[HDR_CURRENT] = other_holder(s)


def card_not_gone_recorded(s: np.ndarray) -> None:
    """The play record names a player for a card that is not gone."""
    rank = int(np.flatnonzero(s[k.GONE : k.GONE + NUM_RANKS] < 4)[0])
    s[k.PLAYED_BY + rank * 4 + int(s[k.GONE + rank])] = 0


CORRUPTIONS = [
    # options
    (is_first_lead, set_slot(k.OPT_NUM_MANCHES, 0), "OPT_NUM_MANCHES"),
    (is_first_lead, set_slot(k.OPT_NUM_MANCHES, 61), "OPT_NUM_MANCHES"),
    (is_first_lead, set_slot(k.OPT_REWARD_SCHEME, 3), "OPT_REWARD_SCHEME"),
    (is_first_lead, set_slot(k.OPT_REWARD_SCHEME, LEAST), "OPT_REWARD_SCHEME"),
    # cards
    (is_first_lead, set_slot(hand(1, 5), MOST), "HAND[1][5]"),
    (is_first_lead, set_slot(hand(2, 0), -1), "HAND[2][0]"),
    (is_first_lead, set_slot(hand(5, 3), 1), "HAND[5][3]"),
    (is_first_lead, set_slot(k.GONE + 4, LEAST), "GONE[4]"),
    (is_first_lead, duplicate_a_card, "GONE"),
    (is_give_back, move_card(lambda s: 1, lambda s: 2, first_held(lambda s: 1)), "HAND"),
    (is_first_lead, set_slot(k.PLAYED_BY + 7, 13), "PLAYED_BY[7]"),
    (is_first_lead, card_not_gone_recorded, "PLAYED_BY"),
    # seating
    (is_first_lead, set_slot(k.PLAYER_AT_SEAT, MOST), "PLAYER_AT_SEAT[0]"),
    (is_first_lead, set_slot(k.PLAYER_AT_SEAT + 5, 0), "PLAYER_AT_SEAT[5]"),
    (is_first_lead, swap_slots(k.PLAYER_AT_SEAT, k.PLAYER_AT_SEAT + 1), "SEAT_OF"),
    (is_first_lead, set_slot(k.SEAT_OF + 3, -1), "SEAT_OF[3]"),
    (is_first_lead, reseat_first_two, "PLAYER_AT_SEAT[0]"),
    (is_later_following, swap_slots(k.SEAT_OF + 0, k.SEAT_OF + 1), "SEAT_OF"),
    # phase
    (is_first_lead, set_slot(k.PHASE, 2), "PHASE"),
    (is_first_lead, set_slot(k.PHASE, k.PHASE_GIVE_BACK), "PHASE"),
    (is_later_following, set_slot(k.PHASE, k.PHASE_GIVE_BACK), "PHASE"),
    (is_give_back, set_slot(k.PHASE, k.PHASE_PLAY), "EXCH_GIVEN"),
    (is_give_back, leader_elsewhere, "HDR_CURRENT"),
    (is_give_back, set_slot(k.TOP_PLAYER, 0), "TOP_PLAYER"),
    # the trick
    (is_first_following, set_slot(k.TOP_RANK, MOST), "TOP_RANK"),
    (is_first_following, set_slot(k.TOP_RANK, -1), "TOP_COUNT"),
    (is_first_following, set_slot(k.TOP_COUNT, 0), "TOP_COUNT"),
    (is_first_following, set_slot(k.TOP_COUNT, 5), "TOP_COUNT"),
    (is_early_following, top_rank_not_gone, "TOP_RANK"),
    (is_first_following, set_slot(k.TOP_PLAYER, LEAST), "TOP_PLAYER"),
    (is_first_following, set_slot(k.TOP_PLAYER, -1), "TOP_RANK"),
    (is_first_following, top_player_acts_again, "PASSED"),
    (is_first_following, set_slot(k.PASSES, MOST), "PASSES"),
    (is_first_following, add_to_slot(k.PASSES, 1), "PASS"),
    (is_first_following, mark_next_holder_passed, "PASSED"),
    (is_first_following, set_slot(k.PASSED + 5, 1), "PASSED[5]"),
    (is_first_following, leader_elsewhere, "HDR_CURRENT"),
    (is_first_lead, leader_elsewhere, "HDR_CURRENT"),
    (is_first_lead, set_slot(k.PASSES, 1), "PASSES"),
    (is_top_player_out, swap_places_of_the_out, "TOP_PLAYER"),
    # places
    (is_first_following, set_slot(k.PLACE, MOST), "PLACE[0]"),
    (is_first_following, set_slot(k.PLACE + 4, -1), "PLACE[4]"),
    (is_first_following, add_to_slot(k.NUM_OUT, 1), "NUM_OUT"),
    (is_first_following, set_slot(k.NUM_OUT, LEAST), "NUM_OUT"),
    (is_first_following, lambda s: s.__setitem__(k.PLACE + holders(s)[0], 0), "PLACE"),
    (is_first_lead, set_slot(k.LAST_PLACE, 0), "LAST_PLACE[0]"),
    (is_first_lead, set_slot(k.LAST_PLACE + 4, 0), "LAST_PLACE[4]"),
    (is_later_following, swap_slots(k.LAST_PLACE, k.LAST_PLACE + 1), "LAST_PLACE"),
    # scores and manches
    (is_first_lead, set_slot(k.SCORE + 1, 1), "SCORE[1]"),
    (is_later_following, set_slot(k.SCORE + 2, -1), "SCORE[2]"),
    (is_later_following, add_a_point, "SCORE"),
    (is_later_following, move_score, "SCORE"),
    (is_first_lead, set_slot(k.MANCHE, -1), "MANCHE"),
    (is_first_lead, set_slot(k.MANCHE, 3), "MANCHE"),
    (is_later_following, set_slot(k.MANCHE, MOST), "MANCHE"),
    (is_terminal, add_to_slot(k.MANCHE, -1), "MANCHE"),
    # the exchange and the dealer
    (is_first_lead, set_slot(k.EXCH_RECEIVED, 3), "EXCH_RECEIVED"),
    (is_first_lead, set_slot(k.EXCH_FROM, MOST), "EXCH_FROM"),
    (is_later_following, swap_slots(k.EXCH_FROM, k.EXCH_TO), "EXCH_TO"),
    (is_later_following, set_slot(k.EXCH_GIVEN, -1), "EXCH_GIVEN"),
    (is_later_following, set_slot(k.EXCH_RECEIVED, LEAST), "EXCH_RECEIVED"),
    (is_later_following, move_card(holder_of_a_two, last_player, lambda s: 12), "HAND"),
    (is_later_following, move_all(president, last_player, received), "HAND"),
    (is_later_following, move_all(last_player, president, given), "HAND"),
    (is_first_lead, set_slot(k.DEALER, MOST), "DEALER"),
    (is_later_following, lambda s: s.__setitem__(k.DEALER, s[k.EXCH_TO]), "DEALER"),
    # a finished match
    (is_terminal, set_slot(k.TOP_PLAYER, -1), "TOP_PLAYER"),
    (is_terminal, set_slot(k.PASSES, 1), "PASSES"),
    (is_terminal, set_slot(k.NUM_OUT, 3), "NUM_OUT"),
    (is_terminal, reopen_finished_match, "NUM_OUT"),
    (is_terminal, set_slot(k.PHASE, k.PHASE_GIVE_BACK), "PHASE"),
    (is_terminal, swap_slots(k.LAST_PLACE, k.LAST_PLACE + 1), "LAST_PLACE"),
    # the header, for completeness
    (is_first_lead, set_slot(HDR_CURRENT, MOST), "HDR_CURRENT"),
    (is_first_lead, set_slot(HDR_NUM_PLAYERS, 5), "PLACE"),
]


@pytest.mark.parametrize(
    ("kind", "corrupt", "slot"),
    CORRUPTIONS,
    ids=[f"{i}-{kind.__name__}-{slot}" for i, (kind, _, slot) in enumerate(CORRUPTIONS)],
)
def test_a_broken_invariant_is_refused_with_its_slot(kind, corrupt, slot):
    state = first_state(kind)
    checked_state(GAME, state)
    corrupt(state)
    assert refused_slot(state).startswith(slot)


def test_the_issue_example_top_rank_is_refused_and_the_env_unchanged():
    env = presages_env.make("president", num_players=4)
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    before = env.get_state()
    bad = before.copy()
    bad[k.TOP_RANK] = MOST  # the issue's 10**9, as close as an int8 state gets
    with pytest.raises(ValueError, match=f"TOP_RANK = {MOST}: must be in"):
        env.set_state(bad)
    np.testing.assert_array_equal(env.get_state(), before)
    wide = before.astype(np.int64)  # the issue's own state: an int64 array holding 10**9
    wide[k.TOP_RANK] = 10**9
    with pytest.raises(TypeError, match="never cast"):
        env.set_state(wide)
    np.testing.assert_array_equal(env.get_state(), before)


# ---- fuzzing: the one state fuzzer, with Président's sources, card moves and checks ----------
def fuzz_sources() -> list[np.ndarray]:
    """Real states of every kind: each player count and option, a few set-up positions."""
    states = []
    for n in PLAYER_COUNTS:
        for num_manches in (1, 3):
            states.extend(game_states(n, num_manches, seeds=2)[::7])
    hands = [["6", "6", "3"], ["A", "A", "4"], ["10", "10", "5"], ["K", "K", "7"]]
    states.append(setup_position(4, hands, leader=1, num_manches=2))
    return states


def move_a_card(state: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``state`` with one card moved between hands and ``GONE``: a break only Président's
    layout knows (the state fuzzer's own corruptions break single slots)."""
    s = state.copy()
    places = list(range(k.HAND, k.GONE + NUM_RANKS, NUM_RANKS))
    giver, taker = rng.choice(places, 2, replace=False)
    rank = int(rng.integers(NUM_RANKS))
    s[giver + rank] -= 1
    s[taker + rank] += 1
    return s


def corrupted(state: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``state`` broken by one of the state fuzzer's kinds, or with a card moved."""
    kinds = (*state_fuzz.KINDS, "card")
    kind = kinds[int(rng.integers(len(kinds)))]
    if kind == "card":
        return move_a_card(state, rng)
    return state_fuzz.corrupt(state, kind, rng)[1]


def heuristic_and_worlds(state: np.ndarray, rng: np.random.Generator) -> None:
    """Président's hook on every state a play-out reaches: the heuristic picks a legal
    action, and a world sampled for any player has one."""
    if state[HDR_TERMINAL]:
        return
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    k.legal_mask(state, mask)
    assert mask[heuristic_policy(state, mask)], "the heuristic chose an illegal action"
    n = int(state[HDR_NUM_PLAYERS])
    world = world_of(state, int(rng.integers(n)), int(rng.integers(2**40)))
    k.legal_mask(world, mask)
    assert mask.any(), "a sampled world has no legal action"


def fuzz(cases: int, seed: int = 0) -> collections.Counter:
    """Corrupt real states ``cases`` times; each is refused or plays to the end (the state
    fuzzer's checks and :func:`heuristic_and_worlds`)."""
    rng = np.random.default_rng(seed)
    sources = fuzz_sources()
    counts = collections.Counter()
    for case in range(cases):
        state = corrupted(sources[int(rng.integers(len(sources)))], rng)
        counts[state_fuzz.run_case(GAME, state, seed + case, heuristic_and_worlds)] += 1
    return counts


def test_a_corrupted_state_is_refused_or_plays_to_the_end():
    counts = fuzz(400, seed=7)
    assert counts["refused"] + counts["played"] == 400
    assert counts["refused"] > 100 and counts["played"] > 10, counts
