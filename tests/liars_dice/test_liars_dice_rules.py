"""Liar's dice against pyspiel's own ``liars_dice`` (two players, one die each), where the
rules coincide: random trajectories of theirs replayed in our kernel give the same legal
moves at every decision, the same end and the same returns. And the game's own choices
where OpenSpiel has none (three players, fewer faces), and states no play reaches."""

from __future__ import annotations

import re

import numpy as np
import pytest
from extras import require

import presages_env
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL
from presages_env.core.validation import InvalidStateError
from presages_env.games.liars_dice import kernel as k

GAME = presages_env.get_game("liars_dice")


def ours_of(bid: int, sides: int, players: int) -> int:
    """Our action for pyspiel's: its bids count ``sides`` per count, ours 6; liar is last."""
    return k.LIAR if bid == players * sides else bid // sides * k.MAX_FACES + bid % sides


def rolled(dice: list[int], faces: int) -> np.ndarray:
    state = GAME.new_state(len(dice), 0, faces=faces)
    state[k.DICE : k.DICE + len(dice)] = dice
    return GAME.checked_state(state)


@pytest.mark.parametrize("sides", [6, 4])
def test_random_trajectories_of_pyspiels_liars_dice_replay_alike(sides):
    pyspiel = require("openspiel")
    theirs = pyspiel.load_game("liars_dice", {"players": 2, "numdice": 1, "dice_sides": sides})
    rng = np.random.default_rng(sides)
    for _ in range(200):
        spiel = theirs.new_initial_state()
        dice = [int(rng.integers(sides)) for _ in range(2)]
        for face in dice:
            spiel.apply_action(face)
        ours = rolled(dice, sides)
        rewards, returns = np.zeros(2, dtype=np.float32), np.zeros(2)
        while not spiel.is_terminal():
            assert ours[HDR_CURRENT] == spiel.current_player() and not ours[HDR_TERMINAL]
            mask = np.zeros(GAME.num_actions(2), dtype=np.int8)
            GAME.legal_mask(ours, mask)
            legal = spiel.legal_actions()
            assert sorted(ours_of(a, sides, 2) for a in legal) == np.flatnonzero(mask).tolist()
            action = int(rng.choice(legal))
            spiel.apply_action(action)
            GAME.step(ours, ours_of(action, sides, 2), rewards)
            returns += rewards
        assert ours[HDR_TERMINAL] == 1 and returns.tolist() == spiel.returns()


def test_at_three_players_the_loser_pays_each_other_seat_half():
    state = rolled([2, 5, 5], 6)  # a 3, two 6s (wild)
    rewards = np.zeros(3, dtype=np.float32)
    for action in (2 * k.MAX_FACES + 2, k.LIAR):  # P1 bids 3x3: true with the wild sixes
        GAME.step(state, action, rewards)
    assert rewards.tolist() == [0.5, -1.0, 0.5]  # P2 called a true bid


def test_with_four_faces_the_four_is_wild_and_no_bid_names_a_higher_face():
    state = rolled([3, 0], 4)
    mask = np.zeros(GAME.num_actions(2), dtype=np.int8)
    GAME.legal_mask(state, mask)
    assert [GAME.action_label(state, a) for a in np.flatnonzero(mask)] == [
        f"bid {c}x{f}" for c in (1, 2) for f in (1, 2, 3, 4)
    ]
    rewards = np.zeros(2, dtype=np.float32)
    for action in (k.MAX_FACES, k.LIAR):  # P1 bids 2x1: its 4 is wild, P2 holds a 1
        GAME.step(state, action, rewards)
    assert rewards.tolist() == [1.0, -1.0]


@pytest.mark.parametrize(
    ("slot", "corrupt"),
    [
        ("DICE", lambda s: s.__setitem__(k.DICE, 4)),  # a 5 on a four-faced die
        ("DICE (beyond", lambda s: s.__setitem__(k.DICE + 2, 0)),  # a third die at 2
        ("BIDS", lambda s: s.__setitem__(k.BIDS + 2 * k.MAX_FACES, 1)),  # 3 dice claimed of 2
        ("CALLED", lambda s: s.__setitem__(k.CALLED, 1)),  # a call before any bid
        ("OPT_FACES", lambda s: s.__setitem__(k.OPT_FACES, 7)),
    ],
)
def test_a_state_no_play_reaches_is_refused_naming_its_slot(slot, corrupt):
    bad = rolled([1, 2], 4)
    corrupt(bad)
    with pytest.raises(InvalidStateError, match=re.escape(slot)):
        GAME.checked_state(bad)


def test_its_words_name_no_card_and_every_label_can_be_typed():
    assert GAME.card_texts.CARD_NAMES == () and GAME.card_help("6") is None
    assert all(any(c.isalpha() for c in label) for label in k.ACTION_NAMES)
