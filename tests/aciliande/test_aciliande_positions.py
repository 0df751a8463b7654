"""Positions at any manche: ``setup_position`` carries the match so far (lives, eliminated
players, the duel, the manche number, the last scoring), so external logs replay as is."""

import numpy as np
import pytest

from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.game import (
    LEAVE,
    AciliandeGame,
    bid_action,
    card_action,
    current_seat,
    dealer,
    eliminated,
    face_up_goddesses,
    in_duel,
    lives,
    lives_lost_last_manche,
    manche_number,
    node_name,
    play,
    pot,
    setup_position,
    tricks_won,
)

GAME = AciliandeGame()


def test_replaying_a_logged_manche_from_the_middle_of_a_game():
    # the log of docs/aciliande.md: manche 4 of a 3-player game, stake 2; Bo lost a life
    # in manche 3; Cy deals, so Ana leads
    state = setup_position(
        3,
        [[21, 5], [2, 10], [8, 12]],
        dealer=2,
        lives=[2, 1, 3],
        manche=4,
        lives_lost_last=[0, 1, 0],
        stake=2,
    )
    assert manche_number(state) == 4 and pot(state) == 6
    assert [info["lives_lost_last_manche"] for info in GAME.infos(state)] == [0, 1, 0]
    play(state, bid_action(1), bid_action(0), bid_action(0))
    play(state, card_action(21), card_action(10), card_action(8))  # Ana takes with XXI
    play(state, card_action(5), card_action(2), LEAVE, card_action(12))  # Cy's XII takes
    # Cy bid 0 and took a trick: one life lost; the next manche starts, Ana deals
    assert lives(state) == [2, 1, 2]
    assert lives_lost_last_manche(state) == [0, 0, 1]
    assert manche_number(state) == 5 and dealer(state) == 0
    assert node_name(state) == "HAND_SIZE" and tricks_won(state) == [0, 0, 0]


def test_a_later_manche_with_an_eliminated_player_and_the_dealer_choosing():
    state = setup_position(4, dealer=3, lives=[1, 0, 2, 3], manche=6, lives_lost_last=[1, 1, 0, 0])
    assert manche_number(state) == 6 and eliminated(state) == [False, True, False, False]
    assert node_name(state) == "HAND_SIZE" and current_seat(state) == 3


@pytest.mark.parametrize("face_up, first", [(3, 2), (2, 3), (1, 4)])
def test_a_duel_manche_comes_after_the_ordinary_one_and_the_earlier_duel_manches(face_up, first):
    hands = [[4, 14, 9][:face_up], [18, 0, 6][:face_up]]
    state = setup_position(2, hands, dealer=1, lives=[2, 1], duel_face_up=face_up)
    assert manche_number(state) == first and in_duel(state)
    assert face_up_goddesses(state) == face_up
    later = setup_position(2, hands, dealer=1, lives=[2, 1], duel_face_up=face_up, manche=7)
    assert manche_number(later) == 7
    with pytest.raises(ValueError, match=f"manche must be an int from {first}"):
        setup_position(2, hands, dealer=1, lives=[2, 1], duel_face_up=face_up, manche=first - 1)


def test_the_default_manche_is_the_first():
    state = setup_position(3, [[0, 21], [4, 5], [17, 7]], dealer=2)
    assert manche_number(state) == 1 and lives_lost_last_manche(state) == [0, 0, 0]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"manche": 0}, "manche must be an int from 1 to 10"),
        ({"manche": 11}, "manche must be an int from 1 to 10"),
        ({"manche": 2.0}, "manche must be an int"),
        ({"manche": 2, "lives_lost_last": [0, 1]}, "lives_lost_last must list 3 entries"),
        ({"manche": 2, "lives_lost_last": [0, -1, 0]}, "lives_lost_last are ints"),
        ({"lives_lost_last": [0, 1, 0]}, "no manche was scored before manche 1"),
    ],
)
def test_bad_match_history_is_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        setup_position(3, [[0, 21], [4, 5], [17, 7]], dealer=2, **kwargs)


def test_a_later_manche_plays_like_the_same_deal_at_manche_one():
    """The match history changes no rule of the manche: same deal, same play, same tricks."""
    hands = [[0, 21, 9], [4, 5, 17], [7, 11, 13]]
    first = setup_position(3, hands, dealer=0, lives=[3, 3, 3])
    later = setup_position(3, hands, dealer=0, lives=[1, 2, 3], manche=5)
    actions = [bid_action(1), bid_action(1), bid_action(0)]
    actions += [card_action(c) for c in (5, 13, 0)]  # seat 1 leads V, XIII wins
    for state in (first, later):
        play(state, *actions)
    np.testing.assert_array_equal(
        first[k.CARD_TRICK : k.CARD_TRICK + 22], later[k.CARD_TRICK : k.CARD_TRICK + 22]
    )
    assert tricks_won(first) == tricks_won(later) == [0, 0, 1]
