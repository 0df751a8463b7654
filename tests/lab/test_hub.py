"""The hub's checks on every path a move takes: an agent's illegal move is never stored
(the stand-in plays instead), so the table still loads after a restart; a table is never
held up by one table's load or one client that stopped reading."""

from __future__ import annotations

import asyncio
import threading

import extras
import numpy as np

extras.require("lab")

from presages_env.lab.agents_pool import AgentPool  # noqa: E402
from presages_env.lab.hub import Hub  # noqa: E402
from presages_env.lab.protocol.messages import SeatMove  # noqa: E402
from presages_env.lab.store import SeatSpec, Store, hash_token  # noqa: E402


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


class Client:
    """A socket's client that takes ``reads`` messages, then stops reading (a frozen tab):
    a send or a close past those never completes."""

    def __init__(self, reads: int) -> None:
        self.reads, self.texts = reads, []
        self.closed = asyncio.Event()
        self.close_code = None

    async def send_text(self, text: str) -> None:
        if len(self.texts) == self.reads:
            await asyncio.Event().wait()
        self.texts.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.close_code = code
        self.closed.set()
        if len(self.texts) == self.reads:
            await asyncio.Event().wait()


async def received(client: Client, count: int) -> None:
    """Until ``client`` took ``count`` messages (at most 5 s: a view held up behind a
    stopped socket waits the hub's whole send time, set far longer by the tests)."""

    async def taken() -> None:
        while len(client.texts) < count:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(taken(), 5)


def test_a_client_that_stopped_reading_holds_up_neither_its_table_nor_a_revoke(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'lab.db'}")
    store.migrate()
    table_id, tokens = store.create_table("president", 4, {}, 3, [SeatSpec("human", "p")] * 4, 60)

    async def main() -> None:
        pool = AgentPool(1)
        hub = Hub(store, pool, send_seconds=0.1)
        try:
            table = await hub.table(table_id)
            mover = table.live.current
            frozen, reading = Client(reads=2), Client(reads=1000)  # 2: the hello, a view
            hub.join(table, (mover + 1) % 4, frozen)
            hub.join(table, (mover + 2) % 4, reading)
            move = SeatMove(0, table.live.legal()[0], 1)
            await asyncio.wait_for(
                hub.human_move(table, mover, move, hash_token(tokens[mover])), 30
            )
            await received(reading, 3)
            assert '"step": 1' in reading.texts[-1]
            await asyncio.wait_for(frozen.closed.wait(), 30)  # to be closed as it reads again
            assert frozen.close_code == 1013 and frozen not in table.sockets[(mover + 1) % 4]
            reading.reads = len(reading.texts)  # it freezes, then its link is replaced
            await asyncio.wait_for(hub.revoke(table_id, (mover + 2) % 4), 30)
            await asyncio.wait_for(reading.closed.wait(), 30)
            assert reading.close_code == 1008 and not table.sockets[(mover + 2) % 4]
        finally:
            await hub.close()
            pool.close()

    asyncio.run(main())


def test_a_client_that_stopped_reading_delays_no_view_of_another_seat(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'lab.db'}")
    store.migrate()
    table_id, tokens = store.create_table("president", 4, {}, 3, [SeatSpec("human", "p")] * 4, 60)

    async def main() -> None:
        pool = AgentPool(1)
        hub = Hub(store, pool, send_seconds=600)  # a stall behind it would be plain
        try:
            table = await hub.table(table_id)
            frozen, reading = Client(reads=2), Client(reads=1000)  # 2: the hello, a view
            first = table.live.current
            hub.join(table, (first + 1) % 4, frozen)
            hub.join(table, (first + 2) % 4, reading)
            for step in range(3):  # each move's view reaches the reading seat at once
                mover = table.live.current
                move = SeatMove(step, table.live.legal()[0], 1)
                await asyncio.wait_for(
                    hub.human_move(table, mover, move, hash_token(tokens[mover])), 5
                )
                await received(reading, 3 + step)
                assert f'"step": {step + 1}' in reading.texts[-1]
            assert len(frozen.texts) == 2 and frozen in table.sockets[(first + 1) % 4]
        finally:
            await hub.close()
            pool.close()

    asyncio.run(main())


def test_a_client_too_far_behind_is_dropped_before_its_send_time(tmp_path, monkeypatch):
    from presages_env.lab import hub as hub_module

    monkeypatch.setattr(hub_module, "MAX_QUEUED", 2)
    store = Store(f"sqlite:///{tmp_path / 'lab.db'}")
    store.migrate()
    table_id, tokens = store.create_table("president", 4, {}, 3, [SeatSpec("human", "p")] * 4, 60)

    async def main() -> None:
        pool = AgentPool(1)
        hub = Hub(store, pool, send_seconds=600)
        try:
            table = await hub.table(table_id)
            frozen = Client(reads=0)  # its first message never goes: 2 wait, then 1 more
            seat = (table.live.current + 1) % 4
            hub.join(table, seat, frozen)
            mover = table.live.current
            move = SeatMove(0, table.live.legal()[0], 1)
            await hub.human_move(table, mover, move, hash_token(tokens[mover]))
            mover = table.live.current
            move = SeatMove(1, table.live.legal()[0], 1)
            await hub.human_move(table, mover, move, hash_token(tokens[mover]))
            await asyncio.wait_for(frozen.closed.wait(), 5)
            assert frozen.close_code == 1013 and frozen not in table.sockets[seat]
        finally:
            await hub.close()
            pool.close()

    asyncio.run(main())


def test_a_move_is_checked_and_stepped_once_and_played_only_once_stored(tmp_path, monkeypatch):
    """One legality check and one kernel step per move (it was two of each: a check before
    storing and one in playing, a step on a copy to see if it ends the game and one in
    playing); a move the store refuses (a replaced link) leaves the table as it was."""
    from presages_env.games.president import kernel
    from presages_env.lab.store import LinkReplaced

    store = Store(f"sqlite:///{tmp_path / 'lab.db'}")
    store.migrate()
    table_id, tokens = store.create_table("president", 4, {}, 3, [SeatSpec("human", "p")] * 4, 60)
    calls = {"legal_mask": 0, "step": 0, "step_logged": 0}
    for name in calls:
        monkeypatch.setattr(kernel, name, counted(calls, name, getattr(kernel, name)))

    async def main() -> None:
        pool = AgentPool(1)
        hub = Hub(store, pool)
        try:
            table = await hub.table(table_id)
            mover, before = table.live.current, table.live.state.copy()
            seen = len(table.live.events(mover))
            move = SeatMove(0, table.live.legal()[0], 1)
            with np.testing.assert_raises(LinkReplaced):
                await hub.human_move(table, mover, move, hash_token("another link"))
            assert table.live.step == 0 and np.array_equal(table.live.state, before)
            assert len(table.live.events(mover)) == seen  # nor its events
            calls.update(dict.fromkeys(calls, 0))
            await hub.human_move(table, mover, move, hash_token(tokens[mover]))
            assert calls == {"legal_mask": 1, "step": 0, "step_logged": 1}
            assert table.live.step == 1 and store.table(table_id).actions == [move.action]
        finally:
            await hub.close()
            pool.close()

    asyncio.run(main())


def counted(calls: dict[str, int], name: str, function):
    def call(*args):
        calls[name] += 1
        return function(*args)

    return call
