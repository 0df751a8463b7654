"""Aciliande's ``sample_world`` against rejection sampling from deals (core/beliefs.py).

In Aciliande any card may be played (seed: "une carte de son choix"; ``legal_mask`` allows
every card in hand), so the rules never force a player to reveal a void or "nothing
higher": what a seat knows of the hidden cards is its own hand, who played which card,
and (in a duel) that the face-up Goddesses are nobody's. The truth computed here conditions
on exactly the actions played, all of them public, so the seat knows every replayed action.

Each position is a small manche; the candidate deals keep the seat's own start hand and
permute every other card it cannot see over the same slots (the rivals' hands and the
undealt pile; the face-up Goddesses stay out in a duel), which is ``setup_position`` with
uniformly permuted hands (checked on a few candidates). The failure threshold is
``beliefs.Z_FAIL``, fixed before running. Power: plausible but wrong samplers (an
"inference from play" the rules do not force; a duel deal that forgets the face-up
Goddesses) must fail the same test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from presages_env.core import beliefs
from presages_env.core.header import seed_of
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.cards import NUM_CARDS
from presages_env.games.aciliande.game import (
    LEAVE,
    TAKE,
    AciliandeGame,
    hand,
    setup_position,
)
from presages_env.games.aciliande.game import bid_action as B
from presages_env.games.aciliande.game import card_action as C

GAME = AciliandeGame()
SAMPLES = 2500  # per side


def hidden_cards(state: np.ndarray, seat: int) -> np.ndarray:
    """Cards ``seat`` could not see at the start of the manche: not its own, and not a
    face-up Goddess of a duel."""
    owners = state[k.CARD_OWNER : k.CARD_OWNER + NUM_CARDS]
    goddesses = set(int(c) for c in state[k.OPT_GODDESSES : k.OPT_GODDESSES + 3])
    duel = bool(state[k.DUEL])
    return np.array(
        [c for c in range(NUM_CARDS) if owners[c] != seat and not (duel and c in goddesses)]
    )


def candidates(start: np.ndarray, seat: int, seed: int) -> Iterator[np.ndarray]:
    """Start states with the cards ``seat`` cannot see permuted uniformly over their slots."""
    rng = np.random.default_rng(seed)
    hidden = hidden_cards(start, seat)
    slots = start[k.CARD_OWNER + hidden].copy()
    while True:
        state = start.copy()
        state[k.CARD_OWNER + rng.permutation(hidden)] = slots
        yield state


def rival_hand(seat: int) -> Callable[[np.ndarray], tuple[int, ...]]:
    return lambda state: tuple(hand(state, seat))


class Position:
    def __init__(self, start: np.ndarray, actions: list[int], seat: int) -> None:
        self.start, self.actions, self.seat = start, actions, seat
        self.final = beliefs.final_state(GAME, start, actions)

    def truth(self, key, seed: int = 1):
        starts = candidates(self.start, self.seat, seed)
        return beliefs.rejection_keys(
            GAME, self.start, starts, self.actions, self.seat, key, SAMPLES
        )

    def worlds(self, key, sampler=GAME, seed: int = 10_000):
        return beliefs.world_keys(sampler, self.final, self.seat, key, SAMPLES, seed)


def two_players_goddess_left() -> Position:
    """Ordinary manche, 2 players, 3 cards: the rival leads Goddess XVII declared leave,
    seat 0's V wins. Seat 0 knows the rival held XVII; the rival's 2 cards left are 2 of
    the 18 it cannot see (153 categories)."""
    start = setup_position(2, [[5, 9, 20], [17, 1, 12]], dealer=0, seed=3)
    return Position(start, [B(1), B(1), C(17), LEAVE, C(5)], seat=0)


def three_players_mid_trick() -> Position:
    """Ordinary manche, 3 players, 2 cards: seat 2 leads XII, seat 0 plays Goddess III on
    take; seat 1 is to play. Seat 0 sees one card of seat 2 and none of seat 1."""
    start = setup_position(3, [[3, 10], [6, 19], [12, 0]], dealer=1, seed=4)
    return Position(start, [B(1), B(1), B(1), C(12), C(3), TAKE], seat=0)


def duel_two_face_up() -> Position:
    """Duel manche with two Goddesses face up, 2 cards each: the rival leads IX, seat 0
    takes it with XIV. The rival's last card is one of the 16 non-Goddess cards seat 0
    cannot see: a face-up Goddess is in nobody's hand."""
    start = setup_position(2, [[4, 14], [9, 18]], dealer=0, lives=[2, 1], duel_face_up=2)
    return Position(start, [B(1), B(0), C(9), C(14)], seat=0)


def three_players_key(state: np.ndarray) -> tuple[int, int]:
    """Seat 2's last card, and how many of seat 1's two cards are above XII."""
    (last,) = hand(state, 2)
    return last, sum(c > 12 for c in hand(state, 1))


class InferenceFromPlay:
    """A wrong sampler: ``sample_world`` plus an inference the rules do not force (a rival
    holds no card below ``below``, as if it would have played it), by rejection, applied
    to a fraction ``weight`` of the worlds (a small weight is a mild bias)."""

    def __init__(self, rival: int, below: int, weight: float = 1.0) -> None:
        self.rival, self.below, self.weight = rival, below, weight

    def sample_world(self, state: np.ndarray, seat: int, seed: int) -> np.ndarray:
        applies = np.random.default_rng(seed).random() < self.weight
        for attempt in range(1000):
            world = GAME.sample_world(state, seat, seed * 1000 + attempt)
            if not applies or min(hand(world, self.rival)) >= self.below:
                return world
        raise AssertionError("the wrong inference found no world")


class DuelGoddessesDealt:
    """A wrong sampler: re-deals the unseen cards with the face-up Goddesses among them."""

    def sample_world(self, state: np.ndarray, seat: int, seed: int) -> np.ndarray:
        world = state.copy()
        owners = state[k.CARD_OWNER : k.CARD_OWNER + NUM_CARDS]
        played = state[k.CARD_TRICK : k.CARD_TRICK + NUM_CARDS] >= 0
        unseen = np.array([c for c in range(NUM_CARDS) if owners[c] != seat and not played[c]])
        rng = np.random.default_rng(seed)
        world[k.CARD_OWNER + rng.permutation(unseen)] = state[k.CARD_OWNER + unseen]
        return world


def test_candidates_are_setup_positions_with_permuted_hands():
    for position in (two_players_goddess_left(), three_players_mid_trick(), duel_two_face_up()):
        start = position.start
        n = GAME.num_players_of(start)
        generator = candidates(start, position.seat, 0)
        for _ in range(5):
            candidate = next(generator)
            hands = [hand(candidate, seat) for seat in range(n)]
            lives = [int(x) for x in start[k.LIVES : k.LIVES + n]]
            rebuilt = setup_position(
                n,
                hands,
                dealer=int(start[k.DEALER]),
                lives=lives,
                duel_face_up=int(start[k.FACE_UP]),
                seed=seed_of(start),
            )
            np.testing.assert_array_equal(rebuilt, candidate)


CASES = {
    "two_players_goddess_left": (two_players_goddess_left, rival_hand(1)),
    "three_players_mid_trick": (three_players_mid_trick, three_players_key),
    "duel_two_face_up": (duel_two_face_up, rival_hand(1)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_sample_world_matches_rejection_sampling(case):
    make, key = CASES[case]
    position = make()
    statistic, dof, z = beliefs.homogeneity(position.truth(key), position.worlds(key))
    print(f"{case}: chi2 {statistic:.1f}, dof {dof}, z {z:.2f}")
    assert dof >= 10  # enough categories for the test to mean something
    assert z < beliefs.Z_FAIL


@pytest.mark.parametrize(
    "case, sampler",
    [
        # seat 1 left its Goddess to seat 0's V: "so it had no card below V" is not forced
        ("two_players_goddess_left", InferenceFromPlay(rival=1, below=5)),
        # seat 2 led XII: "so it had no lower card" is not forced
        ("three_players_mid_trick", InferenceFromPlay(rival=2, below=12)),
        # the same inference in a quarter of the worlds only: a mild bias is caught too
        ("three_players_mid_trick", InferenceFromPlay(rival=2, below=12, weight=0.25)),
        ("duel_two_face_up", DuelGoddessesDealt()),
    ],
)
def test_wrong_samplers_fail_the_same_test(case, sampler):
    make, key = CASES[case]
    position = make()
    statistic, dof, z = beliefs.homogeneity(position.truth(key), position.worlds(key, sampler))
    name = f"{type(sampler).__name__} {vars(sampler)}"
    print(f"{case} with {name}: chi2 {statistic:.1f}, dof {dof}, z {z:.2f}")
    assert z >= beliefs.Z_FAIL
