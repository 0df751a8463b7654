"""Présages state validation (``validate.py``): every state the game can reach is accepted,
every broken invariant is refused by its slot's name, and an accepted state never crashes or
stalls the kernels.

The refusal cases each take a real state and break exactly one invariant; the fuzz loop breaks
states at random and plays every accepted one to its end. The same loop was also run by hand
under ``NUMBA_BOUNDSCHECK=1`` with observations, search worlds and the heuristic at every
step (see ``fuzz_cases``).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest

from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL, wide_slots
from presages_env.core.validation import InvalidStateError
from presages_env.fuzzing import states as state_fuzz
from presages_env.games.presages import kernel as k
from presages_env.games.presages import validate
from presages_env.games.presages.cards import DREAM, FEAR, LAW, LUCK, PRIDE
from presages_env.games.presages.game import PresagesGame, setup_position
from presages_env.games.presages.heuristic import heuristic_actions

GAME = PresagesGame()
# The worst values a corrupted state can hold: the extremes of the game's state dtype (a state
# of any other dtype is refused with TypeError before any slot is read). Slot values read back
# are int8 scalars: offsets and sums computed from them are taken as Python ints.
MOST = int(np.iinfo(GAME.state_dtype).max)
LEAST = int(np.iinfo(GAME.state_dtype).min)
ROUND_REWARD = slice(k.OPT_ROUND_REWARD_MILLI, k.OPT_ROUND_REWARD_MILLI + k.ROUND_REWARD_SLOTS)
FLAGS = (
    "pride_carries_into_next_round",
    "bout_winner_is_placer",
    "dream_reply_resolved_by_target",
    "betrayal_law_judged_before_take",
    "reveal_all_hands_at_round_end",
)
ALL_OPTIONS = [
    dict(zip(FLAGS, bits, strict=True)) for bits in itertools.product((False, True), repeat=5)
]
# the game's slots in layout order (offsets from the kernel), for naming any slot
SLOT_NAMES = (
    "OPT_PRIDE_CARRIES",
    "OPT_WINNER_IS_PLACER",
    "OPT_DREAM_BY_TARGET",
    "OPT_BETRAYAL_LAW_FIRST",
    "OPT_REVEAL_ALL",
    "OPT_ROUND_REWARD_MILLI",
    "LOC",
    "FRONT",
    "HAND_COUNT",
    "TEAM",
    "NUM_TEAMS",
    "ROUNDS_WON",
    "ROUND",
    "BOUT",
    "BOUT_STARTER",
    "NODE",
    "EFFECT",
    "LAW_DIR",
    "GIVE_LAW_DIR",
    "BLOCKED",
    "VICTIM",
    "TAKEN",
    "DREAM_PLAYER",
    "SECRET_HOLDER",
    "SECRET_MODE",
    "SECRET_PARTNER",
    "ABS_ACTOR",
    "ABS_TARGET",
    "ABS_GIVEN",
    "LUCK_HOLDER",
    "NEXT_STARTER",
    "PRIDE_LEFT",
    "LAST_BOUT_WINNER",
    "LAST_ROUND_WINNER",
    "WINNING_TEAM",
    "DISCARD_COUNT",
    "DISCARD_LIST",
    "START_ABSOLU",
    "ABS_PAIRS",
    "SECRET_PAIRS",
    "PLACER",
    "DISC_ORDER",
    "DISC_BOUT",
    "DISC_SEAT",
    "DISC_KIND",
    "LAST_HAND_SEAT",
    "LAST_HAND_BOUT",
    "SEEN_FROM",
    "SHOWN_TO",
    "ABS_RECV",
    "ABS_GAVE",
    "EXCLUDED",
    "LOG_LEN",
    "LOG",
    "PREV_LOG_LEN",
    "PREV_LOG",
    "REVEAL",
    "LAST_TABLE",
    "END_LOC",
    "LAST_DISCARD_COUNT",
    "LAST_DISCARD_LIST",
    "DECK",
)
LAYOUT = sorted((getattr(k, name), name) for name in SLOT_NAMES)


def layout_name(index: int) -> str:
    return max(entry for entry in LAYOUT if entry[0] <= index)[1]


# ---- real states --------------------------------------------------------------------------
def random_game(n: int, seed: int, heuristic: float = 0.0, **options) -> list[np.ndarray]:
    """Every state of one game (copies), from the deal to the end; the heuristic plays a
    ``heuristic`` share of the decisions, uniform random legal actions the others."""
    rng = np.random.default_rng(seed)
    state = GAME.new_state(n, seed, **options)
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    obs = np.zeros((1, k.OBS_SIZE), dtype=np.int8)
    action = np.zeros(1, dtype=np.int64)
    states = [state.copy()]
    while not state[HDR_TERMINAL]:
        k.legal_mask(state, mask)
        if rng.random() < heuristic:
            k.observe(state, state[HDR_CURRENT], obs[0])
            heuristic_actions(obs, mask[None].copy(), action)
            chosen = int(action[0])
        else:
            chosen = int(rng.choice(np.flatnonzero(mask)))
        k.step(state, chosen, rewards)
        states.append(state.copy())
    return states


@functools.cache
def pool() -> tuple[np.ndarray, ...]:
    """States of 4-player random games under varied options, to pick corruption bases from."""
    return tuple(s for seed in range(48) for s in random_game(4, seed, **ALL_OPTIONS[seed % 32]))


def find(predicate) -> np.ndarray:
    """A copy of the first pooled state where ``predicate`` holds."""
    for state in pool():
        if predicate(state):
            return state.copy()
    raise AssertionError("no pooled state fits")


def refused_at(state: np.ndarray) -> InvalidStateError:
    with pytest.raises(InvalidStateError) as info:
        GAME.checked_state(state)
    return info.value


def accept(state: np.ndarray) -> None:
    GAME.checked_state(state)


# ---- every reachable state is accepted ------------------------------------------------------
@pytest.mark.parametrize("n", (4, 5, 6))
def test_every_state_of_random_games_under_every_option_is_accepted(n):
    for i, options in enumerate(ALL_OPTIONS):
        reward = (0.0, 0.125, 1.0)[i % 3]
        for state in random_game(n, 1000 * n + i, round_reward=reward, **options):
            accept(state)


@pytest.mark.parametrize("n", (4, 5, 6))
def test_every_state_of_heuristic_games_is_accepted(n):
    for seed in range(6):
        for state in random_game(n, 77 + seed, heuristic=0.9, **ALL_OPTIONS[seed * 5 % 32]):
            accept(state)


@pytest.mark.parametrize("n", (4, 5, 6))
def test_search_worlds_are_accepted(n):
    """A world for one seat at each state, for every seat at LUCK_DISCARD: all know that a
    one-card holder holds no Fear, so no world leaves it nothing to discard."""
    world = np.zeros(k.STATE_SIZE, dtype=GAME.state_dtype)
    for seed in range(8):
        for i, state in enumerate(random_game(n, 300 + seed, **ALL_OPTIONS[seed * 7 % 32])):
            seats = range(n) if state[k.NODE] == k.NODE_LUCK_DISCARD else (i % n,)
            for seat in seats:
                k.sample_world(state, seat, np.int64(seed * 1000 + i), world)
                accept(world)


def test_terminal_states_are_accepted_and_cannot_be_stepped():
    for n in (4, 5, 6):
        final = random_game(n, 5)[-1]
        accept(final)
        with pytest.raises(ValueError, match="over"):
            GAME.step(final, 0, np.zeros(n, dtype=np.float32))


def test_setup_positions_and_their_play_are_accepted():
    rng = np.random.default_rng(3)
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    for n, teams in ((4, [0, 1, 0, 1]), (5, [0, 1, 1, 0, 1]), (6, [0, 1, 2, 2, 1, 0])):
        for _ in range(20):
            cards = rng.permutation(np.arange(1, 36))
            sizes = rng.integers(2, 35 // n + 1, size=n)
            hands = np.split(cards, np.cumsum(sizes))[:n]
            state = setup_position(n, [h.tolist() for h in hands], int(rng.integers(n)), teams)
            while not state[HDR_TERMINAL]:
                k.legal_mask(state, mask)
                k.step(state, int(rng.choice(np.flatnonzero(mask))), np.zeros(n, np.float32))
                accept(state)
    absolus = setup_position(4, [[30, 1, 2], [31, 3, 4], [32, 5, 6], [35, 7, 8]], starter=2)
    accept(absolus)


def test_setup_position_refuses_what_it_builds_badly_by_slot(monkeypatch):
    """``setup_position`` ends with the state validation: a bad position names the slot."""
    start_position = k.start_position

    def corrupted(state, seed, starter):
        start_position(state, seed, starter)
        state[k.LOC + 15] = LEAST

    monkeypatch.setattr(k, "start_position", corrupted)
    with pytest.raises(InvalidStateError, match=rf"LOC\[15\] = {LEAST}"):
        setup_position(4, [[15, 1], [2, 3], [4, 5], [6, 7]], 0, [0, 1, 0, 1])


# ---- regression: the issue's example ------------------------------------------------------------
def test_issue_example_loc_15_far_negative_is_refused_naming_loc():
    state = GAME.new_state(4, 0)
    state[k.LOC + 15] = LEAST  # the issue's -10**9, as far as an int8 state goes
    with pytest.raises(ValueError, match=rf"LOC\[15\] = {LEAST}: must be one of"):
        GAME.checked_state(state)
    with pytest.raises(ValueError, match=r"LOC\[15\]"):
        GAME.step(state, 0, np.zeros(4, dtype=np.float32))
    wide = GAME.new_state(4, 0).astype(np.int64)  # the issue's own state: int64, holding -10**9
    wide[k.LOC + 15] = -(10**9)
    with pytest.raises(TypeError, match="never cast"):
        GAME.checked_state(wide)
    with pytest.raises(TypeError, match="never cast"):
        GAME.step(wide, 0, np.zeros(4, dtype=np.float32))


def excluded(knower: int, card: int) -> int:
    """Offset of EXCLUDED[knower][card]."""
    return k.EXCLUDED + knower * k.CARD_SLOTS + card


def test_issue_39_a_seat_knowing_less_than_the_public_is_refused():
    """EXCLUDED[4][21] changed 126 -> 100 in a legal state was accepted, and 100 of 1,200 of
    the worlds ``sample_world`` then drew for seat 4 were refused: card 21 is publicly in
    seat 0's hand, and the corrupted row let the worlds deal it to seats 1 and 3."""
    public = excluded(k.PUBLIC_KNOWER, 21)
    state = next(s for s in random_game(6, 0) if s[excluded(4, 21)] == s[public] == 126)
    state[excluded(4, 21)] = 100
    error = refused_at(state)
    assert error.slot == "EXCLUDED[4][21]" and "knows less than the public" in str(error)


# ---- the round-reward option: one value over its byte slots ------------------------------------
@pytest.mark.parametrize("milli", (0, 1, 127, 128, 255, 256, 999, 1000))
def test_every_round_reward_is_accepted_over_its_byte_slots(milli):
    """A byte above 127 is stored negative: the option is read as one value, not slot by slot."""
    state = GAME.new_state(4, 0, round_reward=milli / 1000)
    assert state[ROUND_REWARD].tolist() == wide_slots(milli, k.ROUND_REWARD_SLOTS)
    accept(state)
    assert GAME.read_options(state).round_reward == milli / 1000


def test_a_round_reward_slot_holding_more_than_a_byte_is_refused_by_the_game_validator():
    """Only a wider array can hold one, and the checked entry points refuse it with TypeError
    first; the game's own validator still checks that each slot of the field is a byte."""
    state = GAME.new_state(4, 0, round_reward=0.2).astype(np.int16)
    state[k.OPT_ROUND_REWARD_MILLI] = 200  # as one byte (200 + 0 * 256) the value is in range
    with pytest.raises(InvalidStateError, match=r"OPT_ROUND_REWARD_MILLI\[0\] = 200"):
        validate.validate_state(state)
    with pytest.raises(TypeError, match="never cast"):
        GAME.checked_state(state)


# ---- extreme values, in every slot ------------------------------------------------------------
@pytest.mark.parametrize("value", (MOST, LEAST))
def test_every_game_slot_refuses_extreme_values_by_its_layout_name(value):
    base = find(lambda s: s[k.ROUND] >= 2 and s[k.BOUT] >= 3 and s[k.LOG_LEN] >= 2)
    for index in range(k.OPT_PRIDE_CARRIES, k.STATE_SIZE):
        state = base.copy()
        if ROUND_REWARD.start <= index < ROUND_REWARD.stop - 1:
            # a low byte of the wide option holds any byte: the extreme goes in every byte,
            # so the field as a whole holds it (the top byte alone is tested as it comes)
            state[ROUND_REWARD] = value
        else:
            state[index] = value
        slot = refused_at(state).slot
        name = layout_name(index)
        assert slot == name or slot.startswith(name + "["), (index, name, slot)


# ---- one broken invariant at a time ----------------------------------------------------------
def mid_bout(s):
    """Round 2 or later, bout 3 or later, cards in play, no Pride in the last bout."""
    return (
        s[k.NODE] == k.NODE_PLACE
        and s[k.ROUND] >= 2
        and s[k.BOUT] >= 3
        and s[k.LOG_LEN] >= 2
        and s[k.PRIDE_LEFT] < 0
    )


def at_node(node, extra=lambda s: True):
    return lambda s: s[k.NODE] == node and extra(s)


def seats_of(s, team):
    return [p for p in range(s[HDR_NUM_PLAYERS]) if s[k.TEAM + p] == team]


def cards_at(s, where):
    return [c for c in range(1, 36) if where(s[k.LOC + c])]


def in_hand_without_record(s, seat):
    return [c for c in cards_at(s, lambda loc: loc == seat) if not s[k.LAST_HAND_SEAT + c]]


def set_slot(offset, value, slot):
    """A mutation writing ``value`` (or ``value(state)``) at ``offset``; expects ``slot``."""

    def mutate(s):
        s[offset] = value(s) if callable(value) else value
        return slot

    return mutate


def front_card_twice(s):
    seat = next(p for p in range(4) if s[k.FRONT + p])
    other = next(p for p in range(4) if s[k.FRONT + p] and p != seat)
    card = int(s[k.FRONT + other])
    s[k.LOC + card] = k.LOC_FRONT + seat  # card lies in front of two seats
    return f"FRONT[{other}]"


def discarded_and_in_hand(s):
    card = int(s[k.DISCARD_LIST])
    s[k.LOC + card] = 0
    s[k.HAND_COUNT] += 1
    return "DISCARD_LIST[0]"


def too_few_cards_for_a_deal(s):
    for c in cards_at(s, lambda loc: loc == k.LOC_ASIDE):
        s[k.LOC + c] = k.LOC_BOX
    card = in_hand_without_record(s, 1)[0]
    s[k.LOC + card] = k.LOC_BOX
    s[k.HAND_COUNT + 1] -= 1
    return "LOC"


def start_absolus_across_teams(s):
    a, b = seats_of(s, 0)[0], seats_of(s, 1)[0]
    s[k.START_ABSOLU + a], s[k.START_ABSOLU + b] = s[k.START_ABSOLU + b], s[k.START_ABSOLU + a]
    return "TEAM"


def shorter_pile(s):
    count = int(s[k.DISCARD_COUNT])
    card = int(s[k.DISCARD_LIST + count - 1])
    s[k.DISCARD_LIST + count - 1] = 0
    s[k.DISCARD_COUNT] = count - 1
    return f"LOC[{card}]"


def swapped_disc_order(s):
    a, b = int(s[k.DISCARD_LIST]), int(s[k.DISCARD_LIST + 1])
    s[k.DISC_ORDER + a], s[k.DISC_ORDER + b] = s[k.DISC_ORDER + b], s[k.DISC_ORDER + a]
    return f"DISC_ORDER[{min(a, b)}]"


def two_winners(s):
    marked = next(c for c in range(1, 36) if s[k.DISC_KIND + c] == k.KIND_MARKED)
    s[k.DISC_KIND + marked] = k.KIND_WINNER
    return f"DISC_KIND[{marked}]"


def bout_skipped(s):
    first = int(s[k.DISCARD_LIST])
    s[k.DISC_BOUT + first] = 2
    return f"DISC_BOUT[{first}]"


def luck_discarded_fear(s):
    card = next(c for c in range(1, 36) if s[k.DISC_KIND + c] == k.KIND_LUCK)
    for slot in (k.LOC, k.DISC_ORDER, k.DISC_BOUT, k.DISC_SEAT, k.DISC_KIND):
        s[slot + FEAR], s[slot + card] = s[slot + card], s[slot + FEAR]
    s[k.DISCARD_LIST + int(s[k.DISC_ORDER + FEAR]) - 1] = FEAR
    return f"DISC_KIND[{FEAR}]"


def has_luck_discard(s):
    hidden = s[k.LOC + FEAR] < 4 or s[k.LOC + FEAR] == k.LOC_ASIDE
    fear_free = hidden and not s[k.LAST_HAND_SEAT + FEAR]
    kinds = [s[k.DISC_KIND + c] for c in range(1, 36)]
    return k.KIND_LUCK in kinds and fear_free and s[k.NODE] == k.NODE_PLACE


def remembered_twice(s):
    base = k.ABS_GAVE
    for p, c in itertools.product(range(4), range(1, 36)):
        x = s[base + p * k.CARD_SLOTS + c]
        if x:
            other = next(d for d in range(1, 36) if d != c and s[k.LOC + d] != k.LOC_BOX)
            if not s[base + p * k.CARD_SLOTS + other]:
                s[base + p * k.CARD_SLOTS + other] = x
                return f"ABS_GAVE[{p}]"
    raise AssertionError


def one_exchange(s):
    pairs = s[k.ABS_PAIRS : k.ABS_PAIRS + 36]
    return pairs.sum() == 1 and s[k.NODE] == k.NODE_PLACE


def seen_from_oneself(s):
    p, c = next(
        (p, c)
        for p, c in itertools.product(range(4), range(1, 36))
        if s[k.SEEN_FROM + p * k.CARD_SLOTS + c]
    )
    s[k.SEEN_FROM + p * k.CARD_SLOTS + c] = p + 1
    return f"SEEN_FROM[{p}][{c}]"


def placer_of_hand_card(s):
    card = cards_at(s, lambda loc: loc < 4)[0]
    s[k.PLACER + card] = 1
    return f"PLACER[{card}]"


def last_hand_of_card_in_play(s):
    card = next(int(c) for c in s[k.FRONT : k.FRONT + 4] if c)
    s[k.LAST_HAND_SEAT + card] = 1
    s[k.LAST_HAND_BOUT + card] = 1
    return f"LAST_HAND_SEAT[{card}]"


def last_hand_bout_zero(s):
    card = next(c for c in range(1, 36) if s[k.LAST_HAND_BOUT + c] and s[k.LOC + c] < 4)
    s[k.LAST_HAND_BOUT + card] = 0
    return f"LAST_HAND_BOUT[{card}]"


def wrong_seat_to_place(s):
    s[HDR_CURRENT] = (s[HDR_CURRENT] + 1) % 4
    return "HDR_CURRENT"


def blocked_elsewhere(s):
    victim = s[k.VICTIM]
    s[k.BLOCKED] = next(c for c in range(1, 36) if s[k.LOC + c] not in (victim,))
    return "BLOCKED"


def given_from_target(s):
    s[k.ABS_GIVEN] = next(c for c in range(1, 36) if s[k.LOC + c] == s[k.ABS_TARGET])
    return "ABS_GIVEN"


def another_resolver(s):
    s[HDR_CURRENT] = (s[HDR_CURRENT] + 1) % 4
    return "HDR_CURRENT"


def another_victim_replaces(s):
    another_resolver(s)
    return "VICTIM"


def law_dir_flipped(s):
    s[k.LAW_DIR] = 3 - s[k.LAW_DIR]
    return "LAW_DIR"


def one_card_before_placing(s):
    seat = next(p for p in range(4) if p != s[HDR_CURRENT])
    for card in in_hand_without_record(s, seat)[: s[k.HAND_COUNT + seat] - 1]:
        s[k.LOC + card] = k.LOC_ASIDE
        s[k.HAND_COUNT + seat] -= 1
    return f"HAND_COUNT[{seat}]"


def empty_hand_in_a_bout(s):
    seat = next(p for p in range(4) if s[k.FRONT + p])
    for card in cards_at(s, lambda loc: loc == seat):
        s[k.LOC + card] = k.LOC_ASIDE
        s[k.LAST_HAND_SEAT + card] = s[k.LAST_HAND_BOUT + card] = 0
        s[k.EXCLUDED + card : k.EXCLUDED + k.KNOWERS * k.CARD_SLOTS : k.CARD_SLOTS] = 0
    s[k.HAND_COUNT + seat] = 0
    return f"HAND_COUNT[{seat}]"


def knowledge_excludes_the_truth(s):
    card = next(c for c in range(1, 36) if s[k.LOC + c] < 4)
    s[k.EXCLUDED + k.PUBLIC_KNOWER * k.CARD_SLOTS + card] = 1 << s[k.LOC + card]
    return f"EXCLUDED[{k.PUBLIC_KNOWER}][{card}]"


def knowledge_of_a_card_in_play(s):
    card = next(c for c in range(1, 36) if k.LOC_FRONT <= s[k.LOC + c] < k.LOC_FRONT + 4)
    s[k.EXCLUDED + card] = k.ASIDE_BIT
    return f"EXCLUDED[0][{card}]"


def forgotten_by_all(s, card):
    """Every EXCLUDED row forgets where ``card`` is (so no seat knows less than the public)."""
    s[excluded(0, card) : excluded(k.KNOWERS, card) : k.CARD_SLOTS] = 0


def public_knowledge_beyond_own_hands(s):
    """(seat, card) pairs where the public row knows more than the seat's own hand shows."""
    public = s[excluded(k.PUBLIC_KNOWER, 0) : excluded(k.PUBLIC_KNOWER, k.CARD_SLOTS)]
    return [(p, c) for p in range(4) for c in range(1, 36) if public[c] & ~(1 << p)]


def seat_knows_less_than_the_public(s):
    seat, card = public_knowledge_beyond_own_hands(s)[0]
    s[excluded(seat, card)] = 0
    return f"EXCLUDED[{seat}][{card}]"


def publicly_in_hand_unexchanged(s):
    """Cards publicly moved into a hand whose seat has made no exchange this round."""
    pairs = s[k.ABS_PAIRS : k.ABS_PAIRS + 36].reshape(6, 6)
    return [
        c
        for c in range(1, 36)
        if s[k.LAST_HAND_SEAT + c]
        and not (pairs[s[k.LOC + c]].any() or pairs[:, s[k.LOC + c]].any())
    ]


def public_hand_move_forgotten(s):
    card = publicly_in_hand_unexchanged(s)[0]
    forgotten_by_all(s, card)
    return f"EXCLUDED[{k.PUBLIC_KNOWER}][{card}]"


def forgotten_after_an_earlier_exchange(card_slot):
    """The card Wrath returned or Betrayal took (at ``card_slot``) forgotten by all, its seat
    having exchanged in an earlier, unlogged bout: only the pending node's rule is left."""

    def mutate(s):
        seat, card = int(s[HDR_CURRENT]), int(s[card_slot])
        s[k.ABS_PAIRS + seat * k.MAX_SEATS + (seat + 1) % 4] = 1
        forgotten_by_all(s, card)
        return f"EXCLUDED[{k.PUBLIC_KNOWER}][{card}]"

    return mutate


def one_card_luck_holder(s):
    hidden = s[k.LOC + FEAR] < 4 or s[k.LOC + FEAR] == k.LOC_ASIDE
    return hidden and s[k.HAND_COUNT + s[HDR_CURRENT]] == 1


def fear_not_excluded_from_luck_holder(s):
    bit = 1 << int(s[HDR_CURRENT])
    s[excluded(0, FEAR) : excluded(k.KNOWERS, FEAR) : k.CARD_SLOTS] &= ~bit
    return f"EXCLUDED[{k.PUBLIC_KNOWER}][{FEAR}]"


def luck_holder_holds_only_fear(s):
    seat = s[HDR_CURRENT]
    for card in cards_at(s, lambda loc: loc == seat):
        s[k.LOC + card] = k.LOC_ASIDE
        s[k.LAST_HAND_SEAT + card] = s[k.LAST_HAND_BOUT + card] = 0
        s[k.EXCLUDED + card : k.EXCLUDED + k.KNOWERS * k.CARD_SLOTS : k.CARD_SLOTS] = 0
    s[k.LOC + FEAR] = seat
    s[k.EXCLUDED + FEAR : k.EXCLUDED + k.KNOWERS * k.CARD_SLOTS : k.CARD_SLOTS] = 0
    s[k.HAND_COUNT + seat] = 1
    return "LUCK_HOLDER"


def empty_hand_possible(s):
    seat = next((p for p in range(4) if s[k.FRONT + p]), None)
    return (
        seat is not None
        and s[k.NODE] == k.NODE_PLACE
        and s[k.LOG_LEN] >= 2
        and s[k.ABS_PAIRS : k.ABS_PAIRS + 72].sum() == 0
        and s[k.SEEN_FROM : k.ABS_GAVE + 216].sum() == 0
    )


def log_len_short(s):
    s[k.LOG_LEN] -= 1
    return f"LOG[{s[k.LOG_LEN]}]"


def placed_on_a_taken_seat(s):
    places = [i for i in range(s[k.LOG_LEN]) if s[k.LOG + 4 * i] == k.EV_PLACE]
    first, second = places[0], places[1]
    s[k.LOG + 4 * second + 2] = s[k.LOG + 4 * first + 2]
    return f"LOG[{second}]"


def fronts_swapped(s):
    a, b = [p for p in range(4) if s[k.FRONT + p]][:2]
    ca, cb = int(s[k.FRONT + a]), int(s[k.FRONT + b])
    s[k.FRONT + a], s[k.FRONT + b] = cb, ca
    s[k.LOC + ca], s[k.LOC + cb] = k.LOC_FRONT + b, k.LOC_FRONT + a
    return "FRONT"


def two_in_front(s):
    return mid_bout(s) and np.count_nonzero(s[k.FRONT : k.FRONT + 4]) >= 2


def bout_end_dropped(s):
    end = next(i for i in range(k.LOG_CAP) if s[k.PREV_LOG + 4 * i] == k.EV_BOUT_END)
    s[k.PREV_LOG + 4 * end : k.PREV_LOG + k.LOG_CAP * 4] = 0
    s[k.PREV_LOG_LEN] = end
    return "PREV_LOG"


def bout_end_other_winner(s):
    end = next(i for i in range(k.LOG_CAP) if s[k.PREV_LOG + 4 * i] == k.EV_BOUT_END)
    s[k.PREV_LOG + 4 * end + 1] = s[k.PREV_LOG + 4 * end + 1] % 4 + 1
    return f"PREV_LOG[{end}]"


def extra_absolu_in_round(s):
    a, b = divmod(int(np.flatnonzero(s[k.ABS_PAIRS : k.ABS_PAIRS + 36])[0]), 6)
    s[k.ABS_PAIRS + a * 6 + b] += 1
    return f"ABS_PAIRS[{a}][{b}]"


def past_last_round(s):
    """One past ``setup_position``'s last round plus one round per laurel won since."""
    won = np.count_nonzero(s[k.ROUNDS_WON : k.ROUNDS_WON + 2])
    return validate.MAX_SETUP_ROUND + won + 1


def secrets_beyond_the_logs(s):
    count = int(s[k.SECRET_PAIRS + 1]) + k.LOG_CAP * (int(s[k.BOUT]) - 2) + 1  # seat 0 to seat 1
    assert count <= k.PAIR_COUNT_MAX, "the kernel stops counting there: pick an earlier bout"
    s[k.SECRET_PAIRS + 1] = count
    return "SECRET_PAIRS[0][1]"


def early_absolu(s):
    return s[k.BOUT] <= 2 and s[k.NODE] == k.NODE_PLACE and s[k.ABS_PAIRS : k.ABS_PAIRS + 36].any()


def last_table_sign(s):
    s[k.LAST_TABLE] = -s[k.LAST_TABLE]
    return "LAST_TABLE[0]"


def pride_left_without_pride(s):
    s[k.PRIDE_LEFT] = s[k.NEXT_STARTER]
    return "PRIDE_LEFT"


def boxed_end_loc(s):
    card = cards_at(s, lambda loc: loc == k.LOC_BOX)[0]
    s[k.END_LOC + card] = k.LOC_DISCARD
    return f"END_LOC[{card}]"


def reveal_unshown(s):
    card = next(c for c in range(1, 36) if not s[k.REVEAL + c] and s[k.END_LOC + c] < 4)
    s[k.REVEAL + card] = s[k.END_LOC + card] + 1
    return f"REVEAL[{card}]"


def teammate_won_round(s):
    winner = int(s[k.LAST_ROUND_WINNER])
    s[k.LAST_ROUND_WINNER] = next(p for p in seats_of(s, s[k.TEAM + winner]) if p != winner)
    return "LAST_ROUND_WINNER"


def other_team_won_round(s):
    winner = int(s[k.LAST_ROUND_WINNER])
    s[k.LAST_ROUND_WINNER] = seats_of(s, 1 - s[k.TEAM + winner])[0]
    return "LAST_ROUND_WINNER"


def place_node_of_another_phase(s):
    s[k.NODE] = k.NODE_WRATH_PICK
    return "EFFECT"


def taken_seats_but_current(s):
    return [p for p in range(4) if p != s[HDR_CURRENT] and s[k.FRONT + p]]


def deck_card_moved_past_the_cards_in_use(s):
    s[k.DECK], s[k.DECK + 34] = 0, s[k.DECK]
    return "DECK[34]"


def set_round_reward(milli):
    """The wide round-reward option set to ``milli`` thousandths, byte by byte."""

    def mutate(s):
        s[ROUND_REWARD] = wide_slots(milli, k.ROUND_REWARD_SLOTS)
        return "OPT_ROUND_REWARD_MILLI"

    return mutate


def in_play(card):
    return lambda s: k.LOC_FRONT <= s[k.LOC + card] < k.LOC_FRONT + 4


CASES = {
    # options and teams
    "option flag 2": (mid_bout, set_slot(k.OPT_PRIDE_CARRIES, 2, "OPT_PRIDE_CARRIES")),
    "round reward over 1": (mid_bout, set_round_reward(1001)),  # each byte in range
    "round reward's high byte alone": (
        mid_bout,
        set_slot(k.OPT_ROUND_REWARD_MILLI + 1, 4, "OPT_ROUND_REWARD_MILLI"),
    ),
    "three teams at 4": (mid_bout, set_slot(k.NUM_TEAMS, 3, "NUM_TEAMS")),
    "team index out of range": (mid_bout, set_slot(k.TEAM, 2, "TEAM[0]")),
    "team sizes 3 and 1": (mid_bout, set_slot(k.TEAM, lambda s: 1 - s[k.TEAM], "TEAM")),
    "unused team entry": (mid_bout, set_slot(k.TEAM + 5, 1, "TEAM[5]")),
    "two laurels before the end": (mid_bout, set_slot(k.ROUNDS_WON, 2, "ROUNDS_WON[0]")),
    "laurel of a missing team": (mid_bout, set_slot(k.ROUNDS_WON + 2, 1, "ROUNDS_WON[2]")),
    "winning team before the end": (mid_bout, set_slot(k.WINNING_TEAM, 0, "WINNING_TEAM")),
    "an Absolu dealt twice": (
        mid_bout,
        set_slot(k.START_ABSOLU + 1, lambda s: s[k.START_ABSOLU], "START_ABSOLU"),
    ),
    "face-up Absolus not forming the teams": (mid_bout, start_absolus_across_teams),
    # cards
    "LOC far negative": (mid_bout, set_slot(k.LOC + 15, LEAST, "LOC[15]")),
    "LOC -1": (mid_bout, set_slot(k.LOC + 3, -1, "LOC[3]")),
    "a hand beyond the table": (mid_bout, set_slot(k.LOC + 3, 5, "LOC[3]")),
    "card entry 0": (mid_bout, set_slot(k.LOC, 3, "LOC[0]")),
    "a card in front of two seats": (two_in_front, front_card_twice),
    "hand count off by one": (
        mid_bout,
        set_slot(k.HAND_COUNT, lambda s: s[k.HAND_COUNT] + 1, "HAND_COUNT[0]"),
    ),
    "unused hand count": (mid_bout, set_slot(k.HAND_COUNT + 4, 1, "HAND_COUNT[4]")),
    "a card discarded and in a hand": (mid_bout, discarded_and_in_hand),
    "too few cards for the next deal": (mid_bout, too_few_cards_for_a_deal),
    # counters
    "game over before the end": (mid_bout, set_slot(k.NODE, k.NODE_GAME_OVER, "NODE")),
    "round 0": (mid_bout, set_slot(k.ROUND, 0, "ROUND")),
    "a round later than its laurels allow": (mid_bout, set_slot(k.ROUND, past_last_round, "ROUND")),
    "bout -1": (mid_bout, set_slot(k.BOUT, -1, "BOUT")),
    "starter beyond the table": (mid_bout, set_slot(k.BOUT_STARTER, 4, "BOUT_STARTER")),
    "no bout winner after a bout": (mid_bout, set_slot(k.LAST_BOUT_WINNER, -1, "LAST_BOUT_WINNER")),
    "next starter not the winner": (
        mid_bout,
        set_slot(k.NEXT_STARTER, lambda s: (s[k.NEXT_STARTER] + 1) % 4, "NEXT_STARTER"),
    ),
    "bout starter not the next starter": (
        mid_bout,
        set_slot(k.BOUT_STARTER, lambda s: (s[k.BOUT_STARTER] + 1) % 4, "BOUT_STARTER"),
    ),
    "Pride left in bout 1": (
        lambda s: s[k.BOUT] == 1 and s[k.NODE] == k.NODE_PLACE,
        set_slot(k.PRIDE_LEFT, 0, "PRIDE_LEFT"),
    ),
    "round won for a team without its laurel": (mid_bout, other_team_won_round),
    "no round winner at the end": (
        lambda s: s[HDR_TERMINAL],
        set_slot(k.LAST_ROUND_WINNER, -1, "LAST_ROUND_WINNER"),
    ),
    # discards
    "discard count 36": (mid_bout, set_slot(k.DISCARD_COUNT, 36, "DISCARD_COUNT")),
    "a discarded card missing from the pile": (mid_bout, shorter_pile),
    "a card twice on the pile": (
        mid_bout,
        set_slot(k.DISCARD_LIST + 1, lambda s: s[k.DISCARD_LIST], "DISCARD_LIST[1]"),
    ),
    "pile ranks swapped": (mid_bout, swapped_disc_order),
    "discard kind of a card in hand": (
        mid_bout,
        set_slot(k.DISC_KIND + 1, lambda s: 0 if s[k.LOC + 1] == k.LOC_DISCARD else 1, "DISC_"),
    ),
    "two winning cards in a bout": (
        lambda s: mid_bout(s) and k.KIND_MARKED in s[k.DISC_KIND : k.DISC_KIND + 36],
        two_winners,
    ),
    "a bout skipped on the pile": (mid_bout, bout_skipped),
    "Luck made its holder discard Fear": (has_luck_discard, luck_discarded_fear),
    # pair counts and memories
    "a seat exchanging with itself": (mid_bout, set_slot(k.ABS_PAIRS, 1, "ABS_PAIRS[0][0]")),
    "a Secret beyond the table": (mid_bout, set_slot(k.SECRET_PAIRS + 24, 1, "SECRET_PAIRS[4][0]")),
    "a card shown by oneself": (
        lambda s: s[k.SEEN_FROM : k.SEEN_FROM + 216].any() and s[k.NODE] == k.NODE_PLACE,
        seen_from_oneself,
    ),
    "more cards given than exchanges": (one_exchange, remembered_twice),
    # knowledge
    "knowledge excludes where a hidden card is": (mid_bout, knowledge_excludes_the_truth),
    "knowledge of a card face up": (two_in_front, knowledge_of_a_card_in_play),
    "a seat knowing less than the public": (
        lambda s: mid_bout(s) and bool(public_knowledge_beyond_own_hands(s)),
        seat_knows_less_than_the_public,
    ),
    "a public move into a hand forgotten": (
        lambda s: mid_bout(s) and bool(publicly_in_hand_unexchanged(s)),
        public_hand_move_forgotten,
    ),
    "Wrath's card forgotten in the victim's hand": (
        at_node(k.NODE_WRATH_REPLACE, lambda s: s[k.BOUT] >= 3),
        forgotten_after_an_earlier_exchange(k.BLOCKED),
    ),
    "Betrayal's card forgotten in the taker's hand": (
        at_node(k.NODE_BETRAYAL_GIVE, lambda s: s[k.BOUT] >= 3),
        forgotten_after_an_earlier_exchange(k.TAKEN),
    ),
    "Fear possible in a one-card Luck holder's hand": (
        at_node(k.NODE_LUCK_DISCARD, one_card_luck_holder),
        fear_not_excluded_from_luck_holder,
    ),
    # per-card records
    "placer of a card in hand": (mid_bout, placer_of_hand_card),
    "public hand move of a card in play": (two_in_front, last_hand_of_card_in_play),
    "bout 0 for a card that is no face-up Absolu": (
        lambda s: (
            mid_bout(s) and any(s[k.LAST_HAND_BOUT + c] and s[k.LOC + c] < 4 for c in range(36))
        ),
        last_hand_bout_zero,
    ),
    # the pending node
    "Effect left at PLACE": (mid_bout, set_slot(k.EFFECT, LAW, "EFFECT")),
    "victim left at PLACE": (mid_bout, set_slot(k.VICTIM, 0, "VICTIM")),
    "Luck holder at PLACE": (mid_bout, set_slot(k.LUCK_HOLDER, 0, "LUCK_HOLDER")),
    "PLACE asked of the wrong seat": (mid_bout, wrong_seat_to_place),
    "a node of another phase": (mid_bout, place_node_of_another_phase),
    "Dream destination for Law": (at_node(k.NODE_DREAM_DEST), set_slot(k.EFFECT, LAW, "EFFECT")),
    "Dream reply to oneself": (
        at_node(k.NODE_DREAM_REPLY),
        set_slot(k.DREAM_PLAYER, lambda s: s[HDR_CURRENT], "DREAM_PLAYER"),
    ),
    "Wrath's card not back in hand": (at_node(k.NODE_WRATH_REPLACE), blocked_elsewhere),
    "Wrath replaced by another seat": (at_node(k.NODE_WRATH_REPLACE), another_victim_replaces),
    "Betrayal gift without a taken card": (
        at_node(k.NODE_BETRAYAL_GIVE),
        set_slot(k.TAKEN, 0, "TAKEN"),
    ),
    "Secret mode unset": (at_node(k.NODE_SECRET_TARGET), set_slot(k.SECRET_MODE, 0, "SECRET_MODE")),
    "Secret between a seat and itself": (
        at_node(k.NODE_SECRET_CARD),
        set_slot(k.SECRET_PARTNER, lambda s: s[k.SECRET_HOLDER], "SECRET_PARTNER"),
    ),
    "Absolu exchange with oneself": (
        at_node(k.NODE_ABSOLUTE_GIVE),
        set_slot(k.ABS_TARGET, lambda s: s[k.ABS_ACTOR], "ABS_TARGET"),
    ),
    "Absolu card from the target's hand": (at_node(k.NODE_ABSOLUTE_RETURN), given_from_target),
    "Luck discard by another seat": (at_node(k.NODE_LUCK_DISCARD), another_resolver),
    "Luck discard of a hand holding only Fear": (
        at_node(k.NODE_LUCK_DISCARD, lambda s: s[k.LOC + FEAR] == k.LOC_ASIDE),
        luck_holder_holds_only_fear,
    ),
    "a ⚡ choice by another seat": (at_node(k.NODE_LAW_DIR), another_resolver),
    "Law's direction without Law": (
        lambda s: mid_bout(s) and not in_play(LAW)(s),
        set_slot(k.LAW_DIR, 1, "LAW_DIR"),
    ),
    "Law's direction flipped": (
        lambda s: s[k.LAW_DIR] and s[k.NODE] == k.NODE_PLACE,
        law_dir_flipped,
    ),
    # hands
    "a seat to place holding one card": (
        lambda s: s[k.NODE] == k.NODE_PLACE and s[k.LOG_LEN] == 0 and s[k.ROUND] >= 2,
        one_card_before_placing,
    ),
    "an empty hand during a bout": (empty_hand_possible, empty_hand_in_a_bout),
    # logs
    "log longer than LOG_CAP": (mid_bout, set_slot(k.LOG_LEN, 25, "LOG_LEN")),
    "an event after LOG_LEN": (mid_bout, log_len_short),
    "an unknown event": (mid_bout, set_slot(k.LOG, 11, "LOG[0]")),
    "a placement on a taken seat": (two_in_front, placed_on_a_taken_seat),
    "cards in front swapped": (two_in_front, fronts_swapped),
    "the previous bout never ended": (mid_bout, bout_end_dropped),
    "the bout end names another winner": (mid_bout, bout_end_other_winner),
    "an Absolu the logs do not hold": (early_absolu, extra_absolu_in_round),
    "more Secrets than the bouts before could hold": (mid_bout, secrets_beyond_the_logs),
    # the last bout and round
    "last table sign flipped": (mid_bout, last_table_sign),
    "Pride left without Pride": (
        lambda s: mid_bout(s) and PRIDE not in np.abs(s[k.LAST_TABLE : k.LAST_TABLE + 4]),
        pride_left_without_pride,
    ),
    "a boxed card at the round end": (
        lambda s: mid_bout(s) and k.LOC_BOX in s[k.LOC : k.LOC + 36],
        boxed_end_loc,
    ),
    "a card revealed from a big hand": (
        lambda s: mid_bout(s) and not s[k.OPT_REVEAL_ALL],
        reveal_unshown,
    ),
    "round won by the other member of the team": (mid_bout, teammate_won_round),
    "a round-end pile card twice": (
        mid_bout,
        set_slot(k.LAST_DISCARD_LIST + 1, lambda s: s[k.LAST_DISCARD_LIST], "LAST_DISCARD_LIST"),
    ),
    "a reveal before any round ended": (
        lambda s: s[k.ROUND] == 1 and s[k.NODE] == k.NODE_PLACE,
        set_slot(k.REVEAL + 1, 1, "REVEAL"),
    ),
    # shuffle scratch
    "a card shuffled twice": (mid_bout, set_slot(k.DECK + 1, lambda s: s[k.DECK], "DECK")),
    "a deck card beyond 35": (mid_bout, set_slot(k.DECK, 36, "DECK[0]")),
    "a deck card past the cards in use": (
        lambda s: mid_bout(s) and s[k.DECK + 34] == 0,
        deck_card_moved_past_the_cards_in_use,
    ),
    # Dream and Law: more in-range breaks
    "Dream reply into a taken seat": (
        at_node(k.NODE_DREAM_REPLY, lambda s: bool(taken_seats_but_current(s))),
        set_slot(k.DREAM_PLAYER, lambda s: taken_seats_but_current(s)[0], "DREAM_PLAYER"),
    ),
    "Dream placer is not the Dream player": (
        at_node(k.NODE_DREAM_REPLY),
        set_slot(k.PLACER + DREAM, lambda s: s[HDR_CURRENT] + 1, f"PLACER[{DREAM}]"),
    ),
    "Luck not discarded before its discard": (
        at_node(k.NODE_LUCK_DISCARD),
        set_slot(k.DISC_SEAT + LUCK, lambda s: (s[HDR_CURRENT] + 1) % 4 + 1, "DISC_SEAT"),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_broken_invariant_is_refused_by_its_slot(case):
    predicate, mutate = CASES[case]
    state = find(predicate)
    accept(state)
    slot = mutate(state)
    error = refused_at(state)
    assert error.slot.startswith(slot), f"{case}: refused at {error.slot}, expected {slot}"
    assert isinstance(error, ValueError) and error.slot in str(error)


# ---- fuzz: the one state fuzzer, with Présages's sources, card moves and checks ---------------
def move_cards(rng: np.random.Generator, state: np.ndarray) -> np.ndarray:
    """``state`` with a card moved (with its counts, or not) or two cards' places swapped:
    breaks only Présages's layout knows (the state fuzzer's own corruptions break slots)."""
    s = state.copy()
    n = int(s[HDR_NUM_PLAYERS])
    a, b = (int(x) for x in rng.choice(np.arange(1, 36), size=2, replace=False))
    if rng.integers(2):
        places = [*range(n), *range(k.LOC_FRONT, k.LOC_FRONT + n), 16, 17, 18]
        old, new = int(s[k.LOC + a]), int(rng.choice(places))
        s[k.LOC + a] = new
        if rng.random() < 0.7:  # keep the caches consistent
            s[k.HAND_COUNT + old] -= old < n
            s[k.HAND_COUNT + new] += new < n
            if k.LOC_FRONT <= old < k.LOC_FRONT + n:
                s[k.FRONT + old - k.LOC_FRONT] = 0
            if k.LOC_FRONT <= new < k.LOC_FRONT + n:
                s[k.FRONT + new - k.LOC_FRONT] = a
    else:
        s[k.LOC + a], s[k.LOC + b] = s[k.LOC + b], s[k.LOC + a]
        for card in (a, b):
            loc = int(s[k.LOC + card])
            if k.LOC_FRONT <= loc < k.LOC_FRONT + n:
                s[k.FRONT + loc - k.LOC_FRONT] = card
    return s


def corrupted(rng: np.random.Generator, state: np.ndarray) -> np.ndarray:
    """``state`` broken by one of the state fuzzer's kinds, or with cards moved."""
    kinds = (*state_fuzz.KINDS, "cards")
    kind = kinds[int(rng.integers(len(kinds)))]
    if kind == "cards":
        return move_cards(rng, state)
    return state_fuzz.corrupt(state, kind, rng)[1]


def every_state_valid(observe: bool) -> state_fuzz.StateCheck:
    """Présages's hook on every state a play-out reaches: it is valid again; with
    ``observe``, a search world is sampled and the heuristic picks a legal action."""
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    action = np.zeros(1, dtype=np.int64)

    def check(state: np.ndarray, rng: np.random.Generator) -> None:
        GAME.checked_state(state)
        if not observe:
            return
        n = int(state[HDR_NUM_PLAYERS])
        k.sample_world(
            state, int(rng.integers(n)), np.int64(rng.integers(2**40)), np.zeros_like(state)
        )
        if state[HDR_TERMINAL]:
            return
        obs = np.zeros((1, k.OBS_SIZE), dtype=np.int8)
        k.observe(state, int(state[HDR_CURRENT]), obs[0])
        k.legal_mask(state, mask)
        heuristic_actions(obs, mask[None].copy(), action)
        assert mask[action[0]], "the heuristic chose an illegal action"

    return check


def fuzz_cases(cases: int, seed: int, observe: bool = False) -> tuple[int, int]:
    """Corrupt random real states ``cases`` times; each is refused or plays to the end.
    Returns (refused, played). Run by hand under ``NUMBA_BOUNDSCHECK=1`` with ``observe``
    to check that no accepted state indexes out of bounds in any kernel."""
    rng = np.random.default_rng(seed)
    bases = [
        s
        for n in (4, 5, 6)
        for g in range(4)
        for s in random_game(n, seed + 10 * g + n, **ALL_OPTIONS[(seed + g) % 32])[::7]
    ]
    check = every_state_valid(observe)
    outcomes = [
        state_fuzz.run_case(GAME, corrupted(rng, bases[int(rng.integers(len(bases)))]), case, check)
        for case in range(cases)
    ]
    return outcomes.count("refused"), outcomes.count("played")


def test_fuzzed_states_are_refused_or_play_to_the_end():
    refused, played = fuzz_cases(400, seed=2024)
    assert refused + played == 400 and refused > 200 and played > 20
