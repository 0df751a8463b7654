"""Positions at any round: ``setup_position`` carrying the match history (round, laurels,
the box, face-up Absolus of round 1), and the docs' replay of an external log."""

from __future__ import annotations

import pytest

from presages_env.games.presages import kernel as k
from presages_env.games.presages.game import (
    PresagesGame,
    card_action,
    current_seat,
    discard_pile,
    hand_sizes,
    play,
    round_number,
    rounds_won,
    setup_position,
    teams,
)

# W25 of the spec, round 2: face-up Absolus P1 32, P2 35, P3 30, P4 34, P5 31 (33 in the box),
# P4 won round 1 for {P1, P4, P5} and starts round 2 (seats are P1..P5 = 0..4).
HANDS = [
    [1, 5, 9, 20, 32],
    [2, 14, 22, 35],
    [3, 10, 26, 30],
    [4, 8, 18, 24, 34],
    [6, 11, 16, 27, 31],
]
ASIDE = [7, 12, 13, 15, 17, 19, 21, 23, 25, 28, 29]
LOG = """\
P4 plays 18
P5 plays 27
P1 plays 5
P2 plays 2
P3 plays 10
"""


def round_two(**changes):
    kwargs = dict(
        num_players=5,
        hands=HANDS,
        starter=3,
        round_number=2,
        rounds_won=[0, 1],
        set_aside=ASIDE,
        start_absolus=[32, 35, 30, 34, 31],
    )
    kwargs.update(changes)
    return setup_position(**kwargs)


def test_the_docs_replay_of_an_external_log_in_round_two():
    state = round_two()
    assert teams(state) == [1, 0, 0, 1, 1]  # 35 and 30 hold the pair, as in round 1
    assert round_number(state) == 2 and rounds_won(state) == [0, 1]
    assert list(state[k.START_ABSOLU : k.START_ABSOLU + 5]) == [32, 35, 30, 34, 31]
    assert not state[k.LAST_HAND_SEAT : k.LAST_HAND_SEAT + k.CARD_SLOTS].any()  # reshuffled
    actions = [card_action(int(line.split()[-1])) for line in LOG.splitlines()]
    play(state, *actions)
    # Winter wins; Day marks itself (highest red), Winter every yellow, Feast and Love mark
    # themselves: the whole table is discarded
    assert discard_pile(state) == [27, 18, 5, 2, 10]
    assert hand_sizes(state) == [4, 3, 3, 4, 4]
    assert current_seat(state) == 4 and state[k.BOUT] == 2
    PresagesGame().checked_state(state)


def test_later_round_history_is_checked():
    with pytest.raises(ValueError, match="form teams"):
        round_two(teams=[0, 1, 0, 1, 1])
    with pytest.raises(ValueError, match="exactly those in the hands"):
        round_two(start_absolus=[32, 35, 30, 34, 33])
    with pytest.raises(ValueError, match="rounds_won"):
        round_two(rounds_won=[2, 0])
    same = round_two(teams=[1, 0, 0, 1, 1])
    assert teams(same) == [1, 0, 0, 1, 1]
