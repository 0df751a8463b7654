"""The hub's checks on every path a move takes: an agent's illegal move is never stored
(the stand-in plays instead), so the table still loads after a restart."""

from __future__ import annotations

import asyncio
import threading

import extras
import numpy as np

extras.require("lab")

from presages_env.lab.agents_pool import AgentPool  # noqa: E402
from presages_env.lab.hub import Hub  # noqa: E402
from presages_env.lab.store import SeatSpec, Store  # noqa: E402


def test_an_agents_illegal_move_is_never_stored_and_the_stand_in_plays_it(tmp_path, caplog):
    store = Store(f"sqlite:///{tmp_path / 'lab.db'}")
    store.migrate()
    seats = [SeatSpec("heuristic", "a")] * 3 + [SeatSpec("human", "me")]
    options = {"num_manches": 1, "reward_scheme": "places"}
    table_id, _ = store.create_table("president", 4, options, 5, seats, 60)

    async def main() -> None:
        pool = AgentPool(1)
        fair_choose = pool.choose

        async def choose(agent, game, state, seat):
            if agent is hub.tables[table_id].stand_in:
                return await fair_choose(agent, game, state, seat)
            mask = np.zeros(game.num_actions(game.num_players_of(state)), dtype=np.int8)
            game.kernel.legal_mask(state, mask)
            return int(np.flatnonzero(mask == 0)[0])  # an illegal action

        pool.choose = choose
        hub = Hub(store, pool)
        try:
            table = await hub.table(table_id)
            while table.live.current != 3:  # the agents' seats played up to the person's turn
                await asyncio.wait_for(table.moved.wait(), 30)
                table.moved.clear()
            hub.tables.clear()  # a restart: the table loads from its stored moves
            again = await hub.table(table_id)
            assert again.live.actions == table.live.actions
        finally:
            await hub.close()
            pool.close()

    asyncio.run(main())
    moves = store.table(table_id).moves
    assert moves and {m["by"] for m in moves} == {"stand_in"}
    assert "the illegal action" in caplog.text


def test_a_table_that_loads_slowly_holds_up_no_other_table(tmp_path, monkeypatch):
    from presages_env.lab import hub as hub_module

    store = Store(f"sqlite:///{tmp_path / 'lab.db'}")
    store.migrate()
    seats = [SeatSpec("human", "me")] * 4
    slow, quick = (store.create_table("president", 4, {}, s, seats, 60)[0] for s in (1, 2))
    released = threading.Event()
    rebuilt = hub_module._rebuilt

    def blocking(data):
        if data.id == slow:
            released.wait(60)  # as a PPO checkpoint's load would, until the other table is up
        return rebuilt(data)

    monkeypatch.setattr(hub_module, "_rebuilt", blocking)

    async def main() -> None:
        pool = AgentPool(1)
        hub = Hub(store, pool)
        try:
            loading = asyncio.create_task(hub.table(slow))
            await asyncio.sleep(0)
            assert (await asyncio.wait_for(hub.table(quick), 30)).data.id == quick
            released.set()
            assert (await loading).data.id == slow
        finally:
            released.set()
            await hub.close()
            pool.close()

    asyncio.run(main())
