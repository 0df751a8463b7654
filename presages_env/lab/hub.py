"""The tables in play: each one's game, agents and open sockets, loaded from the store on
first use (so a restarted server resumes every table where its stored moves left it).

A move, a person's or an agent's, is checked (the seat's turn, the step it answers, a legal
action), stored and committed, and only then played on the table and acknowledged; every
seat then gets its new view. Agents think in the pool's threads; a person whose turn lasts
longer than the table's idle time has the heuristic play for them (the table page says so),
as has a remote agent's (a program seated through its link: lab/remote.py).
Each socket's messages wait in its own :class:`Outbox`, so a client that stopped reading
delays no one else; it is dropped, and closed once it can be, when one message waits past
the hub's ``send_seconds`` or ``MAX_QUEUED`` messages wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from presages_env.agents.base import Agent
from presages_env.games import get_game
from presages_env.lab.agents_pool import (
    HUMAN,
    LINKED,
    REMOTE,
    TIMEOUT_AGENT,
    AgentPool,
    seat_agent,
)
from presages_env.lab.live import LiveGame, Proposed, option_values
from presages_env.lab.protocol import messages
from presages_env.lab.protocol.messages import SeatMove
from presages_env.lab.remote import with_observation
from presages_env.lab.store import Move, StaleMove, Store, TableData

LOG = logging.getLogger(__name__)
POLICY_VIOLATION = 1008  # the WebSocket close code for a broken rule
TRY_AGAIN_LATER = 1013  # the WebSocket close code for a socket dropped as too slow
MAX_QUEUED = 64  # messages a socket's client may fall behind before it is dropped


class MoveRefused(ValueError):
    """A move that is not this seat's to play now (its turn, its step, a legal action)."""


class _Illegal(MoveRefused):
    """A move whose action is not legal now."""


@dataclasses.dataclass
class Table:
    data: TableData
    live: LiveGame
    agents: dict[int, Agent]
    lock: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    sockets: dict[int, dict[WebSocket, Outbox]] = dataclasses.field(default_factory=dict)
    runner: asyncio.Task | None = None
    moved: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    stand_in: Agent | None = None  # plays for a person who let their time run out
    # each seat's last view as sent: (step, JSON text)
    views: dict[int, tuple[int, str]] = dataclasses.field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The seats' names as shown; at a study's table neutral ones, which tell no
        condition (its agents are named after their kind)."""
        if self.data.in_study:
            return [f"player {p + 1}" for p in range(len(self.data.seats))]
        return [s.name for s in self.data.seats]

    @property
    def kinds(self) -> list[str]:
        """Who sits where as shown: ``human`` or the agent, at a study's table only
        ``agent`` (the condition is told to the study's owner alone)."""
        if self.data.in_study:
            return [s.kind if s.kind == HUMAN else "agent" for s in self.data.seats]
        return [s.kind for s in self.data.seats]

    def idle_rule(self) -> str:
        return (
            f"If a person or a remote agent does not move within {self.data.idle_seconds} "
            f"seconds, the {TIMEOUT_AGENT} agent plays that move for them."
        )


class Hub:
    """Every open table of one server."""

    def __init__(self, store: Store, pool: AgentPool, send_seconds: float = 10.0) -> None:
        self.store = store
        self.pool = pool
        self.send_seconds = send_seconds  # how long one message may wait for its client
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}  # per table id: one table's load
        # (a PPO checkpoint, a replay) never holds up another's
        self._committer = Committer(store)
        self._dropping: set[asyncio.Task] = set()  # closes of sockets dropped (_drop)

    async def table(self, table_id: str) -> Table | None:
        """The table, rebuilt from the store on first use; None if there is none. A finished
        table is not kept: it is rebuilt each time an old link opens it."""
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                table = self.tables.get(table_id)
                if table is None:
                    data = await asyncio.to_thread(self.store.table, table_id)
                    if data is None:
                        return None
                    table = await asyncio.to_thread(_rebuilt, data)
                    if table.live.over:
                        return table
                    table = self.tables.setdefault(table_id, table)  # one Table per id
        finally:  # (a load that waited on it meanwhile is safe: one Table per id)
            if self._loading.get(table_id) is lock:
                del self._loading[table_id]
        self._wake(table)
        return table

    def join(self, table: Table, seat: int, socket: WebSocket) -> None:
        """Seat ``socket`` at the table: it is sent the hello, then the seat's views."""

        def too_slow() -> None:
            LOG.warning("table %s: a socket of seat %d fell behind; dropped", table.data.id, seat)
            self._drop(table, seat, socket, TRY_AGAIN_LATER, "too slow")

        outbox = Outbox(socket, self.send_seconds, too_slow)
        table.sockets.setdefault(seat, {})[socket] = outbox
        hello = messages.hello(table.live.game, seat, table.names, table.kinds, table.idle_rule())
        outbox.put(json.dumps(hello))
        outbox.put(self._state(table, seat))

    def tell(self, table: Table, seat: int, socket: WebSocket, message: dict[str, Any]) -> None:
        """Send ``message`` to ``socket`` after what it was sent before (nothing if it left)."""
        outbox = table.sockets.get(seat, {}).get(socket)
        if outbox is not None:
            outbox.put(json.dumps(message))

    def leave(self, table: Table, seat: int, socket: WebSocket) -> None:
        outbox = table.sockets.get(seat, {}).pop(socket, None)
        if outbox is not None:
            outbox.stop()

    async def revoke(self, table_id: str, seat: int) -> None:
        """Drop the seat's open sockets: its token was reissued, so their link is void."""
        table = self.tables.get(table_id)
        for socket in list(table.sockets.get(seat, ())) if table else ():
            self._drop(table, seat, socket, POLICY_VIOLATION, "this link was replaced")

    def _drop(self, table: Table, seat: int, socket: WebSocket, code: int, reason: str) -> None:
        """Send the socket no more views, and close it once its client reads (a close, like
        a send, waits for that: nothing waits for the close)."""
        self.leave(table, seat, socket)
        closing = asyncio.create_task(_closed(socket, code, reason))
        self._dropping.add(closing)
        closing.add_done_callback(self._dropping.discard)

    async def human_move(self, table: Table, seat: int, move: SeatMove, token_hash: str) -> None:
        """Play the move of a seat a link opens, a person's or a remote agent's (parsed by
        ``messages.parse_move``), once it is stored;
        ``LinkReplaced`` if the seat's token is no longer ``token_hash``'s (checked as it is
        stored, so a move costs no lookup of its own)."""
        async with table.lock:
            live = table.live
            if move.step != live.step:
                raise MoveRefused(f"step {move.step} is not the current step {live.step}")
            if live.current != seat:
                raise MoveRefused("it is not your turn")
            by = table.data.seats[seat].kind  # "human" or "remote"
            await self._commit(table, seat, move.action, by, move.reaction_ms, token_hash)
        self._broadcast(table)
        self._wake(table)

    async def _commit(
        self,
        table: Table,
        seat: int,
        action: Any,
        by: str,
        reaction_ms: int | None,
        token_hash: str | None = None,
    ) -> None:
        """Check the move is legal, store it (committed), then play it: under the table's
        lock, so no path (a person, an agent, the stand-in) stores a move the replay refuses.
        The move is checked and stepped once (``LiveGame.propose``), and played only once
        stored (``LiveGame.keep``)."""
        move = _proposed(table.live, action)
        try:
            await self._committer.commit(
                Move(
                    table.data.id,
                    move.step,
                    seat,
                    move.action,
                    move.label,
                    by,
                    reaction_ms,
                    finished=move.over,
                    token_hash=token_hash,
                )
            )
        except StaleMove as error:
            raise MoveRefused(str(error)) from None
        table.live.keep(move)
        table.moved.set()
        if table.live.over:  # its sockets and runner hold it until they finish; the hub lets go
            self.tables.pop(table.data.id, None)

    def _wake(self, table: Table) -> None:
        """Start the table's runner (agents' moves, the idle timer) unless it runs."""
        if table.runner is None or table.runner.done():
            table.runner = asyncio.create_task(self._run(table))
            table.runner.add_done_callback(_report_failure)

    async def _run(self, table: Table) -> None:
        """Play agents' turns; on a person's turn wait for their move, at most the idle
        time, then have the stand-in play it."""
        live = table.live
        while not live.over:
            seat, step = live.current, live.step
            agent, by = table.agents.get(seat), "agent"
            if agent is None:
                table.moved.clear()
                try:
                    await asyncio.wait_for(table.moved.wait(), table.data.idle_seconds)
                    continue
                except TimeoutError:
                    agent, by = self._stand_in(table, seat), "timeout"
            action = await self.pool.choose(agent, live.game, live.state, seat)
            async with table.lock:
                if live.step != step:
                    continue  # the person moved meanwhile
                try:
                    await self._commit(table, seat, action, by, None)
                except _Illegal:  # a faulty agent: the stand-in plays instead
                    what = "table %s, step %d: seat %d's agent chose the illegal action %r"
                    LOG.warning(what + "; the stand-in plays", table.data.id, step, seat, action)
                    stand_in = self._stand_in(table, seat)
                    action = await self.pool.choose(stand_in, live.game, live.state, seat)
                    await self._commit(table, seat, action, "stand_in", None)
            self._broadcast(table)

    @staticmethod
    def _stand_in(table: Table, seat: int) -> Agent:
        if table.stand_in is None:
            live = table.live
            table.stand_in = seat_agent(TIMEOUT_AGENT, live.game.name, 0, seat, live.num_players)
        return table.stand_in

    @staticmethod
    def _state(table: Table, seat: int) -> str:
        """The seat's view as sent, built once per seat and step (reconnects reuse it)."""
        step = table.live.step
        built = table.views.get(seat)
        if built is None or built[0] != step:
            message = messages.seat_state(table.live, seat, table.names)
            if table.data.seats[seat].kind == REMOTE:
                message = with_observation(message, table.live, seat)
            built = (step, json.dumps(message))
            table.views[seat] = built
        return built[1]

    def _broadcast(self, table: Table) -> None:
        """Queue every socket its seat's view (sent by each socket's own outbox)."""
        for seat, sockets in list(table.sockets.items()):
            for outbox in list(sockets.values()):
                outbox.put(self._state(table, seat))

    async def close(self) -> None:
        for table in self.tables.values():
            if table.runner is not None:
                table.runner.cancel()
            for sockets in table.sockets.values():
                for outbox in sockets.values():
                    outbox.stop()
        for closing in list(self._dropping):
            closing.cancel()
        self._committer.close()


class Outbox:
    """One socket's messages, sent in order by a task of its own: a client that stopped
    reading holds up only its own messages. ``too_slow`` is called once one message waits
    past ``send_seconds`` or ``MAX_QUEUED`` messages wait; a socket found closed under a send
    is left to its handler, which sees the close."""

    def __init__(self, socket: WebSocket, send_seconds: float, too_slow: Callable[[], None]):
        self.socket = socket
        self._send_seconds = send_seconds
        self._too_slow = too_slow
        self._waiting: asyncio.Queue[str] = asyncio.Queue(MAX_QUEUED)
        self._sender = asyncio.create_task(self._send_all())

    def put(self, text: str) -> None:
        try:
            self._waiting.put_nowait(text)
        except asyncio.QueueFull:
            self._too_slow()

    def stop(self) -> None:
        if self._sender is not asyncio.current_task():
            self._sender.cancel()

    async def _send_all(self) -> None:
        while True:
            text = await self._waiting.get()
            try:
                await asyncio.wait_for(self.socket.send_text(text), self._send_seconds)
            except asyncio.TimeoutError:  # its client stopped reading (an alias of TimeoutError
                # from Python 3.11 on): the table goes on without it
                self._too_slow()
                return
            except (WebSocketDisconnect, RuntimeError, OSError) as error:
                # closed under the send (Starlette, or uvicorn's ClientDisconnected, an OSError)
                LOG.debug("a socket closed before its message was sent: %r", error)
                return


class Committer:
    """Every table's moves, committed by one thread, as many to a transaction as are
    waiting when it starts one: a commit's sync to disk (about 10 ms with a full sync)
    is paid once for a group of moves, and writers never wait on SQLite's lock by sleeping.
    Each move's ``commit`` returns once it is committed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._waiting: list[tuple[Move, asyncio.Future]] = []
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="lab-commit")
        self._draining: asyncio.Task | None = None

    async def commit(self, move: Move) -> None:
        """Store ``move`` (``StaleMove`` if its step is stored, or the database's error)."""
        done = asyncio.get_running_loop().create_future()
        self._waiting.append((move, done))
        if self._draining is None or self._draining.done():
            self._draining = asyncio.create_task(self._drain())
        await done

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting:
            group, self._waiting = self._waiting, []
            try:
                outcomes = await loop.run_in_executor(
                    self._writer, self.store.add_moves, [move for move, _ in group]
                )
            except Exception as error:  # the database gone: each mover hears it
                outcomes = [error] * len(group)
            for (_, done), outcome in zip(group, outcomes, strict=True):
                if done.done():
                    continue  # its mover was cancelled
                if isinstance(outcome, Exception):
                    done.set_exception(outcome)
                else:
                    done.set_result(outcome)

    def close(self) -> None:
        self._writer.shutdown(wait=True)  # a group being committed is finished, not dropped


async def _closed(socket: WebSocket, code: int, reason: str) -> None:
    """Close ``socket`` once its client reads (or its connection is lost)."""
    with contextlib.suppress(Exception):  # closed or gone meanwhile
        await socket.close(code, reason)


def _report_failure(runner: asyncio.Task) -> None:
    """A runner that failed (the database gone): logged; the table's next move or
    connection starts it again."""
    if not runner.cancelled() and runner.exception() is not None:
        LOG.error("a table's runner failed", exc_info=runner.exception())


def _proposed(live: LiveGame, action: Any) -> Proposed:
    """``action`` checked and stepped on a copy (``LiveGame.propose``); ``_Illegal`` if it
    is not legal now, in words of its own: the check's may name a hidden card in a label."""
    try:
        return live.propose(action)
    except (ValueError, TypeError):
        raise _Illegal(f"action {action!r} is not legal now") from None


def _rebuilt(data: TableData) -> Table:
    game = get_game(data.game)
    options = option_values(data.options)
    live = LiveGame.rebuilt(game, data.num_players, data.seed, options, data.actions)
    agents = {
        p: seat_agent(s.kind, data.game, data.seed, p, data.num_players)
        for p, s in enumerate(data.seats)
        if s.kind not in LINKED
    }
    return Table(data, live, agents)
