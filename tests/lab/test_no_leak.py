"""No message to a seat names anything that seat cannot know, over whole games of every
game: each message is the same when the rest of the table is redealt to any world the seat
cannot tell from the real one (``Game.sample_world``). So a hidden card can only reach a
seat's browser by the rules (which events a seat sees is each game's events tests'). A remote
agent's seat gets its observation vector too (lab/remote.py): the same holds of it (its
messages over the wire are these: tests/lab/test_remote.py)."""

from __future__ import annotations

import copy

import extras
import numpy as np
import pytest

extras.require("lab")

import presages_env  # noqa: E402
from presages_env.agents import RandomAgent  # noqa: E402
from presages_env.lab.live import LiveGame  # noqa: E402
from presages_env.lab.protocol.messages import seat_state  # noqa: E402
from presages_env.lab.remote import with_observation  # noqa: E402


def in_world(live: LiveGame, state: np.ndarray) -> LiveGame:
    """``live`` with another state and the same event log."""
    other = copy.copy(live)
    other.state = state
    return other


@pytest.mark.parametrize("name", presages_env.list_games())
def test_a_seat_message_is_built_from_that_seat_view_only(name):
    """A remote seat's message, which holds a person's and the seat's observation."""
    game = presages_env.get_game(name)
    n = game.default_players
    live = LiveGame(game, n, 11, {})
    names = [f"seat {p}" for p in range(n)]
    agents = [RandomAgent(5 + p) for p in range(n)]
    redealt = 0
    while True:
        for seat in range(n):
            message = with_observation(seat_state(live, seat, names), live, seat)
            if live.over:
                continue
            world = game.sample_world(live.state, seat, live.step * n + seat)
            redealt += not np.array_equal(world, live.state)
            other = in_world(live, world)
            assert with_observation(seat_state(other, seat, names), other, seat) == message, (
                f"step {live.step}: seat {seat}'s message depends on what it cannot see"
            )
        if live.over:
            break
        mask = np.zeros(game.num_actions(n), dtype=np.int8)
        mask[live.legal()] = 1
        live.play(agents[live.current].act(np.zeros(1), mask))
    assert redealt > live.step  # the worlds did differ: the test could fail
