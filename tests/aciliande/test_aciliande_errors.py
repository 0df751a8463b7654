"""Bad input gives a clear error and leaves the state as it was."""

import numpy as np
import pytest

from presages_env.games.aciliande.game import (
    AciliandeGame,
    bid_action,
    card_action,
    hand_size_action,
    play,
    setup_position,
)

GAME = AciliandeGame()


@pytest.mark.parametrize(
    ("num_players", "options", "message"),
    [
        (4, {"goddesses": (2, 2, 17)}, "3 different ints from 0 to 21"),
        (4, {"goddesses": (2, 3, 22)}, "3 different ints from 0 to 21"),
        (4, {"goddesses": (2, 3)}, "3 different ints from 0 to 21"),
        (4, {"lives": 0}, "lives must be 1 to 99 or one per player"),
        (4, {"lives": (3, 3, 3)}, "one per player"),
        (4, {"lives": "3"}, "one per player"),
        (4, {"stake": 0}, "stake must be an int from 1"),
        (4, {"stake": 2.5}, "stake must be an int"),
        (4, {"fixed_hand_size": 6}, "from 1 to 5 for 4 players"),
        (7, {"fixed_hand_size": 4}, "from 1 to 3 for 7 players"),
        (4, {"fixed_hand_size": 0}, "fixed_hand_size"),
        (5, {"teams": True}, "team variant needs 4 or 6 players"),
        (4, {"teams": "yes"}, "teams must be True or False"),
        (4, {"duel_tiebreak": "coin"}, "duel_tiebreak must be one of"),
    ],
)
def test_bad_options_are_rejected_with_what_is_allowed(num_players, options, message):
    with pytest.raises(ValueError, match=message):
        GAME.new_state(num_players, 0, **options)


def test_unknown_option_and_bad_player_count():
    with pytest.raises(TypeError, match="unknown option"):
        GAME.new_state(4, 0, trumps=True)
    for bad in (1, 8):
        with pytest.raises(ValueError, match="2 to 7 players"):
            GAME.new_state(bad, 0)


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    state = setup_position(3, [[0, 21], [4, 5], [17, 7]], dealer=2)
    before = state.copy()
    with pytest.raises(ValueError, match="node BID .*legal actions: 11 \\(bid 0\\)"):
        play(state, card_action(0))
    with pytest.raises(ValueError, match="out of range"):
        play(state, 47)
    with pytest.raises(TypeError, match="an action is an int"):
        play(state, "bid 1")
    assert np.array_equal(state, before)
    with pytest.raises(ValueError, match="action #1"):
        play(state, bid_action(1), bid_action(5))
    assert np.array_equal(state, before)  # all or nothing: the legal first bid is not kept


def test_no_action_after_the_end_of_the_game():
    state = setup_position(3, [[2], [3], [17]], dealer=2, bids=[0, 0, 0])
    play(state, card_action(2), 45, card_action(3), card_action(17))
    with pytest.raises(ValueError, match="after the end of the game"):
        play(state, 45)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": [[0], [0], [1]]}, "a card appears in two places"),
        ({"hands": [[0], [1, 4], [5]]}, "same number of cards"),
        ({"hands": [[0], [1], [22]]}, "cards are ints 0..21"),
        ({"hands": [[0], [1]]}, "hands must list 3 entries"),
        ({"hands": [[0], [1], [5]], "lives": [0, 3, 3], "dealer": 1}, "no lives left"),
        ({"dealer": 3}, "dealer must be a seat"),
        ({"lives": [0, 0, 3]}, "at least two players"),
        ({"lives": [3, 3, 100]}, "lives are ints from 0 to 99"),
        ({"hands": [[0], [1], [5]], "bids": [1, 0, 0]}, "may not allow that"),
        ({"hands": [[0], [1], [5]], "bids": [1, 0, 2]}, "bid must be an int from 0 to 1"),
        ({"bids": [1, 1, 1]}, "bids need hands"),
        ({"duel_face_up": 3}, "exactly two players"),
        ({"duel_face_up": 4}, "duel_face_up must be 0"),
        (
            {
                "hands": [[], [2, 5, 6], [7, 8, 9]],
                "lives": [0, 3, 3],
                "dealer": 1,
                "duel_face_up": 3,
            },
            "Goddesses are face up",
        ),
    ],
)
def test_setup_position_rejects_impossible_positions(kwargs, message):
    with pytest.raises(ValueError, match=message):
        setup_position(3, **kwargs)


def test_team_position_needs_both_teams_in_the_game():
    with pytest.raises(ValueError, match="both teams need a player in"):
        setup_position(4, lives=[3, 0, 3, 0], teams=True)


def test_hands_must_match_the_hand_size_rule():
    with pytest.raises(ValueError, match="from 1 to 7"):
        setup_position(3, [[], [], []])
    with pytest.raises(ValueError, match="from 3 to 3"):
        setup_position(3, [[0, 1], [4, 5], [6, 7]], fixed_hand_size=3)


def test_action_helpers_check_their_argument():
    with pytest.raises(ValueError, match="hand size is an int from 1 to 11"):
        hand_size_action(12)
    with pytest.raises(ValueError, match="bid is an int from 0 to 11"):
        bid_action(-1)
    with pytest.raises(ValueError, match="card is an int from 0 to 21"):
        card_action(22)
