"""Présages observations: exactly what a seat may know (spec section 5), nothing more."""

from __future__ import annotations

import numpy as np
import pytest

from presages_env.core.header import HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.games.presages import kernel as k
from presages_env.games.presages.game import (
    PresagesGame,
    card_action,
    current_seat,
    legal_actions,
    node_name,
    play,
    seat_action,
    setup_position,
)

GAME = PresagesGame()
PLAYER_COUNTS = (4, 5, 6)
PLANE = k.OBS_PLANES
NUM_CARDS = 35


def observation(state, seat):
    """The raw kernel: seat -1 is the public view, and some tests edit slots by hand."""
    obs = np.zeros(GAME.obs_size(int(state[HDR_NUM_PLAYERS])), dtype=GAME.obs_dtype)
    k.observe(state, np.int64(seat), obs)
    return obs


def plane(obs, index):
    start = PLANE + index * NUM_CARDS
    return obs[start : start + NUM_CARDS]


def random_states(n, games, seed=0):
    """Every decision state of ``games`` random games (copies)."""
    for g in range(games):
        state = GAME.new_state(n, seed + g)
        rng = np.random.default_rng(seed + g)
        while not state[HDR_TERMINAL]:
            yield state.copy()
            play(state, int(rng.choice(legal_actions(state))))


def states_at(node, n, games, seed=0):
    return (s for s in random_states(n, games, seed) if node_name(s) == node)


# ---- hidden cards ------------------------------------------------------------------------
def hidden_to(state, seat):
    """Cards whose place ``seat`` cannot know: other hands or set aside, never revealed to it,
    not publicly tracked into a hand, not a pending Absolu card."""
    n = int(state[HDR_NUM_PLAYERS])
    hidden = []
    for c in range(1, NUM_CARDS + 1):
        loc = int(state[k.LOC + c])
        if not ((0 <= loc < n and loc != seat) or loc == k.LOC_ASIDE):
            continue
        private = seat * k.CARD_SLOTS + c
        known = (
            state[k.LAST_HAND_SEAT + c]
            or state[k.SEEN_FROM + private]
            or state[k.SHOWN_TO + private]
            or state[k.ABS_RECV + private]
            or state[k.ABS_GAVE + private]
            or c == state[k.ABS_GIVEN]
        )
        if not known:
            hidden.append(c)
    return hidden


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_permuting_hidden_cards_does_not_change_the_observation(n):
    rng = np.random.default_rng(n)
    checked = 0
    for state in random_states(n, 40, seed=100 * n):
        for seat in range(n):
            hidden = hidden_to(state, seat)
            pairs = [(a, b) for a in hidden for b in hidden if state[k.LOC + a] != state[k.LOC + b]]
            if not pairs:
                continue
            a, b = pairs[rng.integers(len(pairs))]
            other = state.copy()
            other[k.LOC + a], other[k.LOC + b] = state[k.LOC + b], state[k.LOC + a]
            assert np.array_equal(observation(state, seat), observation(other, seat))
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_absolute_target_sees_nothing_of_the_card_it_will_receive(n):
    checked = 0
    for state in states_at("ABSOLUTE_GIVE", n, 60, seed=7 * n):
        actor = current_seat(state)
        target = int(state[k.ABS_TARGET])
        after = []
        for action in legal_actions(state):
            given = state.copy()
            play(given, action)
            assert node_name(given) == "ABSOLUTE_RETURN" and current_seat(given) == target
            after.append(given)
        for seat in range(n):
            views = [observation(s, seat) for s in after]
            same = all(np.array_equal(views[0], v) for v in views)
            # only the actor's own observation remembers which card it committed
            assert same == (seat != actor or len(after) == 1), (seat, actor)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_a_secret_card_is_seen_only_by_the_two_parties(n):
    checked = 0
    for state in states_at("SECRET_CARD", n, 80, seed=11 * n):
        shower = current_seat(state)
        holder = int(state[k.SECRET_HOLDER])
        viewer = int(state[k.SECRET_PARTNER]) if shower == holder else holder
        outcomes = []
        for action in legal_actions(state):
            shown = state.copy()
            play(shown, action)
            outcomes.append((action + 1, shown))
        if len(outcomes) < 2:
            continue
        for seat in set(range(n)) - {shower, viewer}:
            views = [observation(s, seat) for _, s in outcomes]
            assert all(np.array_equal(views[0], v) for v in views), (seat, shower, viewer)
        for card, shown in outcomes:
            if shown[k.ROUND] != state[k.ROUND]:
                continue  # the bout ended the round: a new deal forgets the old hands
            assert plane(observation(shown, viewer), k.PLANE_SEEN_FROM)[card - 1] == shower + 1
            assert plane(observation(shown, shower), k.PLANE_SHOWN_TO)[card - 1] == viewer + 1
        checked += 1
    assert checked > 20


PRIVATE_PLANES = (
    k.PLANE_MY_HAND,
    k.PLANE_SEEN_FROM,
    k.PLANE_SHOWN_TO,
    k.PLANE_ABS_RECV,
    k.PLANE_ABS_GAVE,
)


def public_part(obs):
    public = obs.copy()
    public[k.OBS_ME] = 0
    public[k.OBS_ABS_MY_GIVEN] = 0
    for index in PRIVATE_PLANES:
        public[PLANE + index * NUM_CARDS : PLANE + (index + 1) * NUM_CARDS] = 0
    return public


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_everything_but_the_private_part_is_the_same_for_every_seat(n):
    for state in random_states(n, 10, seed=3):
        views = [public_part(observation(state, seat)) for seat in range(n)]
        assert all(np.array_equal(views[0], v) for v in views[1:])
        assert np.array_equal(views[0], public_part(observation(state, -1)))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_own_hand_plane_is_the_hand_and_values_fit_int8(n):
    for state in random_states(n, 5, seed=5):
        for seat in range(n):
            obs = observation(state, seat)
            assert obs.shape == (k.OBS_SIZE,) and obs.dtype == np.int8
            assert (obs >= 0).all()
            mine = {c + 1 for c in np.flatnonzero(plane(obs, k.PLANE_MY_HAND))}
            assert mine == {c for c in range(1, 36) if state[k.LOC + c] == seat}


def test_round_end_copy_never_enters_an_observation():
    state = setup_position(4, [[22, 1], [2, 3, 4], [5, 7, 8], [25, 9, 10]], 0, teams=[0, 1, 0, 1])
    play(state, card_action(22), card_action(2), card_action(5), card_action(25))
    assert int(state[k.ROUND]) == 2
    scrambled = state.copy()
    scrambled[k.END_LOC + 1 : k.END_LOC + 36] = np.roll(state[k.END_LOC + 1 : k.END_LOC + 36], 5)
    for seat in range(4):
        assert np.array_equal(observation(state, seat), observation(scrambled, seat))


def test_luck_hand_discard_is_public():
    # W11 with one more card for P1, so that the round goes on after Luck's discard
    state = setup_position(
        4, [[13, 7, 31, 3], [2, 6, 25], [4, 9, 18], [1, 16, 11, 27]], 0, teams=[0, 1, 0, 1]
    )
    play(state, card_action(13), card_action(2), card_action(4), card_action(1))
    assert node_name(state) == "LUCK_DISCARD" and current_seat(state) == 0
    play(state, card_action(7))
    assert int(state[k.ROUND]) == 1
    for seat in range(4):
        obs = observation(state, seat)
        assert plane(obs, k.PLANE_DISC_KIND)[7 - 1] == k.KIND_LUCK
        assert plane(obs, k.PLANE_DISC_SEAT)[7 - 1] == 1
        assert plane(obs, k.PLANE_LAST_HAND_SEAT)[1 - 1] == 4  # Life went back to P4
        assert obs[k.OBS_HAND_COUNTS : k.OBS_HAND_COUNTS + 4].tolist() == [2, 2, 2, 4]


def test_bout_log_records_who_placed_what_in_front_of_whom():
    state = setup_position(
        4, [[21, 1, 2], [20, 3, 4], [19, 7, 8], [5, 9, 10]], 0, teams=[0, 1, 0, 1]
    )
    play(state, card_action(21), seat_action(2), card_action(19))
    log = observation(state, 3)[k.OBS_LOG : k.OBS_LOG + 3 * k.LOG_FIELDS].reshape(3, 4)
    assert log.tolist() == [
        [k.EV_PLACE, 1, 1, 21],
        [k.EV_DREAM, 1, 3, 21],
        [k.EV_PLACE, 3, 1, 19],
    ]
    obs = observation(state, 3)
    assert plane(obs, k.PLANE_HOLDER)[21 - 1] == 3 and plane(obs, k.PLANE_PLACER)[21 - 1] == 1
    assert plane(obs, k.PLANE_HOLDER)[19 - 1] == 1 and plane(obs, k.PLANE_PLACER)[19 - 1] == 3
