"""Présages ``sample_world`` against the truth (``presages_env.core.beliefs``): rejection
sampling from deals, compared with a chi-square test whose threshold (``Z_FAIL``) is fixed.

Each position is small (``setup_position`` with cards set aside) and the tested seat is a
party to every private event replayed (the Secret shows it a card or it shows one; it gives
or receives the Absolu cards), so it knows every action replayed. Candidate deals keep the
seat's own hand and deal every other card of the position uniformly, except that the cards
the replayed actions name (placed, shown, exchanged) start in the hand that plays them: every
deal under which the seat sees what it saw has them there, so conditioning the prior on it
changes nothing but the acceptance rate. The rest (the Law inference, the Luck discard, the
uniform spread of the other cards) is left to the rejection test. A power check runs the same
comparison with a sampler that forgets the seat's private knowledge and must fail.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from presages_env.core.beliefs import Z_FAIL, homogeneity, rejection_keys, world_keys
from presages_env.core.rng import rng_seed
from presages_env.games.presages import beliefs
from presages_env.games.presages import kernel as k
from presages_env.games.presages.game import (
    LAW_ABOVE,
    SECRET_ASK,
    SECRET_SHOW,
    PresagesGame,
    card_action,
    legal_actions,
    seat_action,
    setup_position,
)

GAME = PresagesGame()
SAMPLES = 2000
CHECKED = 100  # worlds also put through the state validator (slow in Python)


class Unchecked(PresagesGame):
    """The game without validating every state from outside (the validator is Python and
    slow): ``rejection_keys`` checks every action against the mask before stepping, and
    :func:`compare` validates the first ``CHECKED`` worlds."""

    def step(self, state, action, rewards):
        k.step(state, np.int64(action), rewards)

    def sample_world(self, state, seat, seed):
        world = np.zeros_like(state)
        k.sample_world(state, np.int64(seat), np.int64(seed), world)
        return world


FAST = Unchecked()


def hidden_places(state, seat):
    n = int(state[k.HDR_NUM_PLAYERS])
    return [
        c
        for c in range(1, 36)
        if (int(state[k.LOC + c]) < n and int(state[k.LOC + c]) != seat)
        or int(state[k.LOC + c]) == k.LOC_ASIDE
    ]


def candidates(start, seat, pinned, seed):
    """Deals of ``start``: the seat's hand and the ``pinned`` cards kept, the other hidden
    cards permuted uniformly (hand sizes and the set-aside count are kept)."""
    rng = np.random.default_rng(seed)
    free = [c for c in hidden_places(start, seat) if c not in pinned]
    places = start[[k.LOC + c for c in free]].copy()
    while True:
        state = start.copy()
        state[[k.LOC + c for c in free]] = rng.permutation(places)
        yield state


def locations(*cards):
    """Key: where each of ``cards`` is (a seat, or the set-aside cards)."""
    return lambda state: tuple(int(state[k.LOC + c]) for c in cards)


def forgetful(state, seat, row):
    """The state with ``seat``'s knowledge replaced by ``row`` (None: knows nothing)."""
    out = state.copy()
    base = k.EXCLUDED + seat * k.CARD_SLOTS
    if row is None:
        out[base : base + k.CARD_SLOTS] = 0
    else:
        public = k.EXCLUDED + k.PUBLIC_KNOWER * k.CARD_SLOTS
        out[base : base + k.CARD_SLOTS] = out[public : public + k.CARD_SLOTS]
    return out


def compare(start, actions, seat, pinned, key, seed, forget="keep"):
    real = start.copy()
    for action in actions:
        assert action in legal_actions(real), (action, legal_actions(real))
        GAME.step(real, action, np.zeros(4, np.float32))
    truth = rejection_keys(
        FAST, start, candidates(start, seat, pinned, seed), actions, seat, key, SAMPLES
    )
    state = real if forget == "keep" else forgetful(real, seat, forget)
    if forget == "keep":  # a forgetful world breaks the others' knowledge: not validated
        for i in range(CHECKED):
            GAME.checked_state(GAME.sample_world(state, seat, seed + i))
    worlds = world_keys(FAST, state, seat, key, SAMPLES, seed)
    return homogeneity(truth, worlds)


# ---- position A: a Secret shows the seat a card, the seat is the target of an Absolu -------
def position_a():
    """Seat 0 asks seat 1 (Secret) and sees Truth 16; seat 2's Absolu 31 gives seat 0 Enigma
    10 for Spring 7; the bout ends (31 and Friendship discarded, Death back to seat 3)."""
    start = setup_position(
        4,
        [[24, 2, 5, 6, 7], [16, 3, 9, 12], [31, 10, 13, 14], [8, 17, 18, 19]],
        0,
        teams=[0, 1, 0, 1],
        set_aside=[20, 21, 22, 23, 25],
    )
    c, s = card_action, seat_action
    actions = [c(24), SECRET_ASK, s(1), c(16), c(3), c(31), s(0), c(10), c(7), c(8)]
    pinned = {3, 16, 31, 10, 8}
    key = locations(16, 7, 8, 9, 20, 12)
    return start, actions, pinned, key


def test_secret_seen_and_absolu_received_match_rejection():
    start, actions, pinned, key = position_a()
    statistic, dof, z = compare(start, actions, 0, pinned, key, seed=1)
    print(f"A: chi2={statistic:.1f} dof={dof} z={z:.2f}")
    assert dof >= 10 and z < Z_FAIL


def test_position_a_catches_a_sampler_that_forgets_the_secret_and_the_exchange():
    start, actions, pinned, key = position_a()
    statistic, dof, z = compare(start, actions, 0, pinned, key, seed=2, forget="public")
    print(f"A power: chi2={statistic:.1f} dof={dof} z={z:.2f}")
    assert z >= Z_FAIL


# ---- position B: Law shows a hand lacks high cards, the seat is shown a card and gives ------
def position_b():
    """Seat 1 places Law ABOVE; seat 2 has nothing above 15 and places Hope 6 (so it holds no
    card above 15); seat 3 shows seat 0 Day 18 (Secret); seat 0's Absolu 30 gives seat 1
    Summer 11 for Lie 9. Hope and 30 are discarded; seat 0 starts bout 2."""
    start = setup_position(
        4,
        [[30, 11, 2, 5, 7], [15, 9, 3, 16], [6, 4, 8, 10], [24, 18, 19, 12]],
        1,
        teams=[0, 1, 0, 1],
        set_aside=[1, 13, 20, 21, 25],
    )
    c, s = card_action, seat_action
    actions = [c(15), LAW_ABOVE, c(6), c(24), SECRET_SHOW, s(0), c(18), c(30), s(1)]
    actions += [c(11), c(9)]
    pinned = {15, 9, 6, 24, 18}
    key = locations(18, 11, 16, 20, 4)
    return start, actions, pinned, key


def test_law_inference_secret_shown_and_absolu_given_match_rejection():
    start, actions, pinned, key = position_b()
    statistic, dof, z = compare(start, actions, 0, pinned, key, seed=3)
    print(f"B: chi2={statistic:.1f} dof={dof} z={z:.2f}")
    assert dof >= 10 and z < Z_FAIL


def test_position_b_catches_a_sampler_that_forgets_the_law_inference():
    start, actions, pinned, key = position_b()
    statistic, dof, z = compare(start, actions, 0, pinned, key, seed=4, forget=None)
    print(f"B power: chi2={statistic:.1f} dof={dof} z={z:.2f}")
    assert z >= Z_FAIL


# ---- position C: the Luck discard (the old sampler could leave the holder only Fear) -------
def position_c():
    start = setup_position(
        4,
        [[13, 5], [3, 4, 6], [12, 8, 9], [1, 16, 11]],
        0,
        teams=[0, 1, 0, 1],
        set_aside=[2, 7, 10, 14, 15, 17, 18, 19, 20, 25, 26, 27],
    )
    actions = [card_action(c) for c in (13, 3, 8, 1)]
    pinned = {13, 8, 1}
    return (
        start,
        actions,
        pinned,
        lambda state: tuple(np.flatnonzero(state[k.LOC : k.LOC + 36] == 0)),
    )


def test_luck_discard_worlds_match_rejection_and_always_have_a_legal_action():
    start, actions, pinned, key = position_c()
    statistic, dof, z = compare(start, actions, 1, pinned, key, seed=5)
    print(f"C: chi2={statistic:.1f} dof={dof} z={z:.2f}")
    assert dof >= 10 and z < Z_FAIL
    real = start.copy()
    for action in actions:
        GAME.step(real, action, np.zeros(4, np.float32))
    assert real[k.NODE] == k.NODE_LUCK_DISCARD
    for seed in range(200):
        assert legal_actions(GAME.sample_world(real, 1, seed))


def test_position_c_catches_the_old_sampler():
    start, actions, pinned, key = position_c()
    statistic, dof, z = compare(start, actions, 1, pinned, key, seed=6, forget=None)
    print(f"C power: chi2={statistic:.1f} dof={dof} z={z:.2f}")
    assert z >= Z_FAIL


@pytest.mark.parametrize("seed", range(3))
def test_counted_dealing_is_uniform_when_rejection_gives_up(seed):
    """Force the counted deal (no rejection round) on B and compare it with rejection."""
    start, actions, pinned, key = position_b()
    real = start.copy()
    for action in actions:
        GAME.step(real, action, np.zeros(4, np.float32))
    n = 4
    seat = 0
    allowed = np.zeros(35, np.int64)
    cards = np.zeros(35, np.int64)
    room = np.zeros(beliefs.PLACES, np.int64)
    free = 0
    places = ((1 << n) - 1 | k.ASIDE_BIT) & ~(1 << seat)
    for c in hidden_places(real, seat):
        may = places & ~int(real[k.EXCLUDED + seat * k.CARD_SLOTS + c])
        if may & (may - 1) == 0:
            continue
        cards[free], allowed[free] = c, may
        loc = int(real[k.LOC + c])
        room[loc if loc < n else k.MAX_SEATS] += 1
        free += 1
    counted = Counter()
    for i in range(SAMPLES):
        world = real.copy()
        rng_seed(world, np.int64(seed * 100000 + i))
        beliefs._deal_by_counting(world, cards, allowed, room, free)
        if i < CHECKED:
            GAME.checked_state(world)
        counted[key(world)] += 1
    worlds = world_keys(FAST, real, 0, key, SAMPLES, seed + 50)
    statistic, dof, z = homogeneity(counted, worlds)
    print(f"counted vs rejection deal: chi2={statistic:.1f} dof={dof} z={z:.2f}")
    assert dof >= 10 and z < Z_FAIL
