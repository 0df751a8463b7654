"""``sample_world`` against the truth: rejection sampling from deals, chi-square test.

Positions are later manches set up from an explicit deal (:func:`setup_manche`), so the
exchange takes place first; hands are small (the other cards are set aside) and a trick or
two is played. The tested seat is a party to the exchange (the Président or the last
player), so it knows every replayed action (:mod:`presages_env.core.beliefs`). Candidate
starts keep the seat's dealt hand and deal the other dealt cards again uniformly; the key
is every hidden hand. The failure threshold is :data:`~presages_env.core.beliefs.Z_FAIL`,
fixed before running.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from presages_env.core.beliefs import (
    Z_FAIL,
    final_state,
    homogeneity,
    rejection_keys,
    seen_by,
    world_keys,
)
from presages_env.core.header import HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.games.president import kernel as k
from presages_env.games.president.cards import NUM_RANKS
from presages_env.games.president.game import (
    PresidentGame,
    action_for,
    rank_index,
    setup_manche,
)

GAME = PresidentGame()
SAMPLES = 3000

# Four players; player 0 was Président, player 3 last. Seating: 0, 1, 2, 3 (places).
LAST_PLACES = [0, 1, 2, 3]
DEALT = [
    ["3", "5", "9", "9", "K"],  # Président
    ["4", "5", "9", "J"],
    ["3", "4", "5", "J", "K"],
    ["4", "5", "9", "10"],  # last: gives the 10
]
# The Président gives back a 5; a trick of singles that the Président wins with the 10
# received; the Président leads a pair of 9s, which no one follows.
ACTIONS = [
    action_for("5"),  # the give-back
    action_for("3"),  # Président leads a 3
    action_for("4"),  # 1
    action_for("5"),  # 2
    action_for("9"),  # 3 (the last player)
    action_for("10"),  # Président plays the 10 received
    0,  # 1 passes
    0,  # 2 passes
    0,  # 3 passes: the Président leads again
    action_for("9", 2),  # a pair of 9s
    0,
    0,
    0,
]


def start() -> np.ndarray:
    return setup_manche(4, DEALT, LAST_PLACES, seed=1)


def hidden_key(seat: int):
    def key(state: np.ndarray) -> tuple:
        n = int(state[HDR_NUM_PLAYERS])
        return tuple(
            tuple(int(x) for x in state[k.HAND + p * NUM_RANKS : k.HAND + (p + 1) * NUM_RANKS])
            for p in range(n)
            if p != seat
        )

    return key


def played(state: np.ndarray) -> np.ndarray:
    """Cards of each rank each player has played this manche (the public play record)."""
    return np.array([[k.played_count(state, p, r) for r in range(NUM_RANKS)] for p in range(4)])


def candidate_starts(real: np.ndarray, actions, seat: int, seed: int, batch: int = 4096):
    """The real start with the other players' dealt cards dealt again uniformly (the seat
    keeps its own dealt hand), then the exchange, as the kernel makes it.

    Only to save time, deals are drawn in batches and a deal is dropped at once when a
    necessary part of what the seat saw fails (the rank received, a player unable to make
    a play of the record); every deal yielded still goes through the full replay of
    :func:`rejection_keys`."""
    rng = np.random.default_rng(seed)
    needed = played(final_state(GAME, real, actions))
    given = (actions[0] - 1) // k.MAX_SET if actions else -1
    president, last = int(real[k.EXCH_TO]), int(real[k.EXCH_FROM])
    others = [p for p in range(4) if p != seat]
    pool = np.array([rank_index(c) for p in others for c in DEALT[p]])
    own = np.bincount([rank_index(c) for c in DEALT[seat]], minlength=NUM_RANKS)
    ranks = np.arange(NUM_RANKS)
    while True:
        deals = rng.permuted(np.tile(pool, (batch, 1)), axis=1)
        dealt = np.zeros((batch, 4, NUM_RANKS), dtype=np.int64)
        dealt[:, seat] = own
        at = 0
        for p in others:
            cards = deals[:, at : at + len(DEALT[p])]
            dealt[:, p] = (cards[:, :, None] == ranks).sum(axis=1)
            at += len(DEALT[p])
        strongest = NUM_RANKS - 1 - np.argmax(dealt[:, last, ::-1] > 0, axis=1)
        after = dealt.copy()
        rows = np.arange(batch)
        after[rows, last, strongest] -= 1
        after[rows, president, strongest] += 1
        if given >= 0:
            after[:, president, given] -= 1
            after[:, last, given] += 1
        keep = (strongest == real[k.EXCH_RECEIVED]) & (after >= needed).all(axis=(1, 2))
        for index in np.flatnonzero(keep):
            state = real.copy()
            state[k.HAND : k.HAND + 4 * NUM_RANKS] = dealt[index].ravel()
            k.start_exchange(state, None)
            yield state


def wrong_worlds(state: np.ndarray, seat: int, count: int, seed: int) -> Counter:
    """The unseen cards dealt again uniformly, ignoring the exchange and who played what
    (the naive sampler the test must be able to reject)."""
    rng = np.random.default_rng(seed)
    n = int(state[HDR_NUM_PLAYERS])
    hand = lambda p: state[k.HAND + p * NUM_RANKS : k.HAND + (p + 1) * NUM_RANKS]  # noqa: E731
    others = [p for p in range(n) if p != seat]
    pool = np.repeat(np.arange(NUM_RANKS), sum(hand(p) for p in others))
    keys: Counter = Counter()
    for _ in range(count):
        rng.shuffle(pool)
        rows, at = [], 0
        for p in others:
            size = int(hand(p).sum())
            rows.append(tuple(int(x) for x in np.bincount(pool[at : at + size], minlength=13)))
            at += size
        keys[tuple(rows)] += 1
    return keys


class _Replay(PresidentGame):
    """The game with an unchecked ``step``, only to replay the candidates fast: each action
    was just checked legal on the same candidate by :func:`seen_by`."""

    def step(self, state: np.ndarray, action, rewards: np.ndarray) -> None:
        self.kernel.step(state, np.int64(action), rewards)


REPLAY = _Replay()
# (seat, actions replayed): the Président and the last player, at the give-back and after
# the give-back and two tricks.
POSITIONS = [(0, ()), (3, ()), (0, tuple(ACTIONS)), (3, tuple(ACTIONS))]
_truths: dict = {}


def truth(seat: int, actions) -> Counter:
    if (seat, actions) not in _truths:
        real = start()
        starts = candidate_starts(real, list(actions), seat, 10 + seat + len(actions))
        _truths[seat, actions] = rejection_keys(
            REPLAY, real, starts, list(actions), seat, hidden_key(seat), SAMPLES
        )
    return _truths[seat, actions]


def position(actions) -> np.ndarray:
    return final_state(GAME, start(), list(actions))


@pytest.mark.parametrize(("seat", "actions"), POSITIONS)
def test_sample_world_matches_rejection_sampling(seat, actions):
    state = position(actions)
    worlds = world_keys(GAME, state, seat, hidden_key(seat), SAMPLES, seed=1000)
    statistic, dof, z = homogeneity(truth(seat, actions), worlds)
    print(f"seat {seat}, {len(actions)} actions: chi2 {statistic:.1f}, dof {dof}, z {z:.2f}")
    assert dof >= 10 and z < Z_FAIL


@pytest.mark.parametrize(("seat", "actions"), POSITIONS[2:])
def test_the_exact_fallback_matches_rejection_sampling(seat, actions):
    """The dynamic-programming draw alone (no rejection tries) is exact too."""
    state = position(actions)
    keys: Counter = Counter()
    world = np.empty_like(state)
    for i in range(SAMPLES):
        k.draw_world(state, np.int64(seat), np.int64(5000 + i), world, 0)
        keys[hidden_key(seat)(world)] += 1
    statistic, dof, z = homogeneity(truth(seat, actions), keys)
    print(f"fallback, seat {seat}: chi2 {statistic:.1f}, dof {dof}, z {z:.2f}")
    assert dof >= 10 and z < Z_FAIL


def party_hand(keys: Counter, seat: int) -> Counter:
    """The marginal of the other exchange party's hand (fewer categories, more power)."""
    index = [p for p in range(4) if p != seat].index(3 if seat == 0 else 0)
    out: Counter = Counter()
    for key, count in keys.items():
        out[key[index]] += count
    return out


@pytest.mark.parametrize(("seat", "actions"), POSITIONS)
def test_the_test_rejects_a_sampler_that_ignores_the_exchange_and_the_plays(seat, actions):
    """Power: the naive re-deal (uniform over the unseen cards) fails on every position, on
    the other exchange party's hand."""
    state = position(actions)
    naive = party_hand(wrong_worlds(state, seat, SAMPLES, 7), seat)
    statistic, dof, z = homogeneity(party_hand(truth(seat, actions), seat), naive)
    print(f"naive, seat {seat}, {len(actions)} actions: chi2 {statistic:.1f}, dof {dof}, z {z:.2f}")
    assert z >= Z_FAIL


def test_the_worlds_are_valid_and_continue_to_valid_states():
    state = position(ACTIONS)
    for seat in range(4):
        for seed in range(20):
            world = GAME.sample_world(state, seat, seed)
            GAME.checked_state(world)


# ---- a seat outside the exchange -----------------------------------------------------------
# The outsider sees neither exchanged card. Its truth needs a give-back policy: the worlds
# take the give-back as a uniformly chosen card of the Président's (every deal and every
# give-back card equally likely), so the candidates here draw it that way, and the replayed
# give-back is each candidate's own; the key adds the exchanged ranks to the hidden hands.
OUTSIDER = 2


def outsider_key(state: np.ndarray) -> tuple:
    return hidden_key(OUTSIDER)(state) + (int(state[k.EXCH_RECEIVED]), int(state[k.EXCH_GIVEN]))


def outsider_truth(actions, wanted: int, seed: int, batch: int = 4096) -> Counter:
    """Rejection sampling for the outsider: uniform deals (its own dealt hand kept), the
    forced give, a uniformly chosen card given back, the plays replayed; kept when the
    outsider sees what it saw."""
    real = start()
    plays = list(actions[1:])
    truth = seen_by(GAME, real, list(actions), OUTSIDER)
    needed = played(final_state(GAME, real, list(actions)))
    rng = np.random.default_rng(seed)
    president, last = int(real[k.EXCH_TO]), int(real[k.EXCH_FROM])
    others = [p for p in range(4) if p != OUTSIDER]
    pool = np.array([rank_index(c) for p in others for c in DEALT[p]])
    own = np.bincount([rank_index(c) for c in DEALT[OUTSIDER]], minlength=NUM_RANKS)
    ranks = np.arange(NUM_RANKS)
    keys: Counter = Counter()
    while True:
        deals = rng.permuted(np.tile(pool, (batch, 1)), axis=1)
        dealt = np.zeros((batch, 4, NUM_RANKS), dtype=np.int64)
        dealt[:, OUTSIDER] = own
        at = 0
        for p in others:
            cards = deals[:, at : at + len(DEALT[p])]
            dealt[:, p] = (cards[:, :, None] == ranks).sum(axis=1)
            at += len(DEALT[p])
        rows = np.arange(batch)
        strongest = NUM_RANKS - 1 - np.argmax(dealt[:, last, ::-1] > 0, axis=1)
        after = dealt.copy()
        after[rows, last, strongest] -= 1
        after[rows, president, strongest] += 1
        # a uniformly chosen card of the Président's hand goes back
        cumulative = after[:, president].cumsum(axis=1)
        pick = rng.integers(0, cumulative[:, -1])
        given = (cumulative <= pick[:, None]).sum(axis=1)
        if actions:
            after[rows, president, given] -= 1
            after[rows, last, given] += 1
            fits = (after >= needed).all(axis=(1, 2))
        else:
            fits = np.ones(batch, dtype=bool)
        for index in np.flatnonzero(fits):
            state = real.copy()
            state[k.HAND : k.HAND + 4 * NUM_RANKS] = dealt[index].ravel()
            k.start_exchange(state, None)
            replay = [action_for(int(given[index]))] + plays if actions else []
            if seen_by(REPLAY, state, replay, OUTSIDER) == truth:
                keys[outsider_key(final_state(REPLAY, state, replay))] += 1
                if sum(keys.values()) == wanted:
                    return keys


@pytest.mark.parametrize("actions", [(), tuple(ACTIONS)])
def test_an_outsider_s_worlds_match_rejection_sampling(actions):
    state = position(actions)
    worlds = world_keys(GAME, state, OUTSIDER, outsider_key, SAMPLES, seed=3000)
    truth = outsider_truth(actions, SAMPLES, 77 + len(actions))
    statistic, dof, z = homogeneity(truth, worlds)
    print(f"outsider, {len(actions)} actions: chi2 {statistic:.1f}, dof {dof}, z {z:.2f}")
    assert dof >= 10 and z < Z_FAIL
    # the exact fallback alone
    keys: Counter = Counter()
    world = np.empty_like(state)
    for i in range(SAMPLES // 3):
        k.draw_world(state, np.int64(OUTSIDER), np.int64(9000 + i), world, 0)
        GAME.checked_state(world)
        keys[outsider_key(world)] += 1
    statistic, dof, z = homogeneity(truth, keys)
    print(f"outsider fallback, {len(actions)} actions: chi2 {statistic:.1f}, dof {dof}, z {z:.2f}")
    assert z < Z_FAIL
    # power: a sampler that forgets the exchange (the plays still weighed) fails
    forgetful = state.copy()
    forgetful[k.EXCH_RECEIVED] = forgetful[k.EXCH_GIVEN] = -1
    naive: Counter = Counter()
    for i in range(SAMPLES):
        k.draw_world(forgetful, np.int64(OUTSIDER), np.int64(20000 + i), world, 4096)
        naive[hidden_key(OUTSIDER)(world)] += 1
    hands_only: Counter = Counter()
    for key, count in truth.items():
        hands_only[key[:3]] += count
    statistic, dof, z = homogeneity(hands_only, naive)
    print(f"outsider forgetting, {len(actions)} actions: chi2 {statistic:.1f}, z {z:.2f}")
    assert z >= Z_FAIL


# ---- positions at any round -------------------------------------------------------------
def test_setup_manche_carries_the_match_and_makes_the_exchange():
    state = setup_manche(4, DEALT, [3, 2, 1, 0], scores=[1, 0, 2, 3], manche=2, num_manches=5)
    assert [int(x) for x in state[k.PLAYER_AT_SEAT : k.PLAYER_AT_SEAT + 4]] == [3, 2, 1, 0]
    assert int(state[k.MANCHE]) == 2 and int(state[k.DEALER]) == 0
    assert [int(x) for x in state[k.SCORE : k.SCORE + 4]] == [1, 0, 2, 3]
    # player 0, last, gave their K to player 3, the Président, who is to give one back
    assert int(state[k.EXCH_FROM]) == 0 and int(state[k.EXCH_TO]) == 3
    assert int(state[k.EXCH_RECEIVED]) == rank_index("K") and state[k.PHASE] == k.PHASE_GIVE_BACK
    assert int(state[k.HAND + 3 * NUM_RANKS + rank_index("K")]) == 1


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"last_places": [0, 1, 1, 3]}, "last_places"),
        ({"manche": 0}, "manche"),
        ({"manche": 3, "num_manches": 3}, "manche"),
        ({"scores": [9, 0, 0, 0]}, "SCORE"),
    ],
)
def test_setup_manche_refuses_a_bad_history(kwargs, message):
    args = {"last_places": LAST_PLACES, **kwargs}
    with pytest.raises(ValueError, match=message):
        setup_manche(4, DEALT, **args)


def test_the_docs_replay_of_an_external_log_runs():
    text = (Path(__file__).parents[2] / "docs" / "president.md").read_text()
    section = text[text.index("## Positions at any round") :]
    code = section[section.index("```python") + len("```python") : section.index("```\n\n")]
    scope: dict = {}
    exec(code, scope)
    state = scope["state"]
    assert state[HDR_TERMINAL] == 1
    assert [int(x) for x in state[k.SCORE : k.SCORE + 3]] == [0, 4, 2]
