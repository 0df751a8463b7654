"""The lab's allow-listed agents: each one plays a legal move from a copy of the table's
state; anything off the list (a path, a spec with arguments) is refused."""

from __future__ import annotations

import asyncio

import extras
import numpy as np
import pytest

extras.require("lab")

import presages_env  # noqa: E402
from presages_env.lab.agents_pool import ALLOWED_AGENTS, AgentPool, seat_agent  # noqa: E402
from presages_env.lab.live import LiveGame  # noqa: E402


@pytest.mark.parametrize("kind", sorted(ALLOWED_AGENTS))
def test_each_allowed_agent_plays_a_legal_move_off_the_event_loop(kind):
    if kind in ("ppo", "dmc"):
        extras.require("train")
    name = "presages" if kind == "dmc" else "president"  # dmc: shipped for Présages only
    game = presages_env.get_game(name)
    live = LiveGame(game, 4, 3, {})
    agent = seat_agent(kind, name, 3, live.current, 4)
    before = live.state.copy()
    pool = AgentPool(1)
    try:
        action = asyncio.run(pool.choose(agent, game, live.state, live.current))
    finally:
        pool.close()
    assert action in live.legal()
    assert np.array_equal(live.state, before)


def test_an_agent_not_shipped_for_the_table_is_refused():
    extras.require("train")
    with pytest.raises(ValueError, match="no action scorer is shipped for 'president'"):
        seat_agent("dmc", "president", 0, 0, 4)


@pytest.mark.parametrize("kind", ["ppo:/etc/passwd", "search:100000", "dmc:x.pt", "human", ""])
def test_anything_off_the_list_is_refused(kind):
    with pytest.raises(ValueError, match="unknown agent"):
        seat_agent(kind, "president", 0, 0, 4)
