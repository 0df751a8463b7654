"""Présages determinisation (``sample_world``): worlds a seat cannot tell from the real game."""

from __future__ import annotations

import numpy as np
import pytest

from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.games.presages import kernel as k
from presages_env.games.presages.game import PresagesGame, hand_sizes, legal_actions, play

GAME = PresagesGame()


def observation(state, seat):
    obs = np.zeros(k.OBS_SIZE, dtype=np.int8)
    GAME.observe(state, seat, obs)
    return obs


def world_of(state, seat, seed):
    world = np.zeros_like(state)
    k.sample_world(state, seat, np.int64(seed), world)
    return world


def decision_states(n, games, seed):
    for g in range(games):
        state = GAME.new_state(n, seed + g)
        rng = np.random.default_rng(seed + g)
        while not state[HDR_TERMINAL]:
            yield state.copy()
            play(state, int(rng.choice(legal_actions(state))))


@pytest.mark.parametrize("n", (4, 5, 6))
def test_worlds_look_the_same_to_the_seat_and_keep_what_it_knows(n):
    changed = 0
    for i, state in enumerate(decision_states(n, 12, seed=40 * n)):
        seat = int(state[HDR_CURRENT]) if i % 2 else i % n
        world = world_of(state, seat, i)
        assert np.array_equal(observation(world, seat), observation(state, seat))
        assert hand_sizes(world) == hand_sizes(state)
        mask, world_mask = np.zeros(45, np.int8), np.zeros(45, np.int8)
        GAME.legal_mask(state, mask)
        GAME.legal_mask(world, world_mask)
        if state[HDR_CURRENT] == seat:
            assert np.array_equal(mask, world_mask)  # the seat's own options are its own
        GAME.checked_state(world)  # every knower's row holds in the world too
        for c in range(1, 36):
            loc = int(state[k.LOC + c])
            if (loc < n and loc != seat) or loc == k.LOC_ASIDE:
                excluded = int(state[k.EXCLUDED + seat * k.CARD_SLOTS + c])
                bit = 1 << loc if loc < n else k.ASIDE_BIT
                assert not excluded & bit  # knowledge is never wrong
                where = int(world[k.LOC + c])
                assert not excluded & (1 << where if where < n else k.ASIDE_BIT)
        changed += not np.array_equal(world[k.LOC : k.LOC + 36], state[k.LOC : k.LOC + 36])
    assert changed > 100


def test_a_pending_absolu_card_is_redrawn_for_everyone_but_its_actor():
    checked = 0
    for state in decision_states(4, 30, seed=3):
        if state[k.NODE] != k.NODE_ABSOLUTE_RETURN:
            continue
        actor = int(state[k.ABS_ACTOR])
        target = int(state[HDR_CURRENT])
        for seed in range(5):
            world = world_of(state, target, seed)
            assert world[k.LOC + world[k.ABS_GIVEN]] == actor
            kept = world_of(state, actor, seed)
            assert kept[k.ABS_GIVEN] == state[k.ABS_GIVEN]
        checked += 1
    assert checked > 10


def test_worlds_play_on_to_the_end():
    rng = np.random.default_rng(0)
    for i, state in enumerate(decision_states(5, 3, seed=9)):
        world = world_of(state, i % int(state[HDR_NUM_PLAYERS]), i)
        for _ in range(2000):
            if world[HDR_TERMINAL]:
                break
            play(world, int(rng.choice(legal_actions(world))))
        assert world[HDR_TERMINAL]
