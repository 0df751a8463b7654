"""A remote agent's client: any :class:`~presages_env.agents.base.Agent` that acts from a
seat's observation (``agents.specs``: ``dmc``, ``heuristic``, ``random``...) plays a lab seat
through its link, over the seat protocol (lab/remote.py; docs/agents_anywhere.md)::

    python -m presages_env lab client http://HOST/t/TABLE/TOKEN --agent dmc

It sees what the seat's person would: the seat's messages, its observation among them. It
answers each state where the seat is to act with that state's ``step``; after a dropped
connection it connects again and answers the state it is then sent, so a move lost with the
connection is played again and one that was stored is not. A close that retrying cannot
mend (no such seat, a replaced link, a protocol the server does not speak) ends it."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from presages_env.agents.base import Agent
from presages_env.agents.specs import make_agent
from presages_env.core.game import Game
from presages_env.games import get_game
from presages_env.lab.hub import POLICY_VIOLATION
from presages_env.lab.remote import PROTOCOL_VERSION, UNKNOWN_PROTOCOL
from presages_env.lab.routes.socket import UNSUPPORTED_DATA
from presages_env.lab.web import Bucket

LOG = logging.getLogger(__name__)
FINAL_CLOSES = {POLICY_VIOLATION, UNSUPPORTED_DATA, UNKNOWN_PROTOCOL}  # retrying cannot mend
LINK = re.compile(r"/(?:t|ws)/([A-Za-z0-9_-]{1,32})/([A-Za-z0-9_-]{1,64})")
SCHEMES = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}
MOVES_PER_SECOND, MOVE_BURST = 4.0, 10  # under the lab's default bound on a socket's messages
MAX_MESSAGE = 2**22  # bytes of a server message the client reads (a view is a few KB)
OPEN_SECONDS = 300  # a handshake's wait: a server opens a table's game first (a first
# compile of its kernels takes minutes on a busy machine)


class SeatClosed(ConnectionError):
    """The server ended the seat for good, or could not be reached after the retries."""


def socket_url(link: str) -> str:
    """The WebSocket address of a seat's link (``http(s)://HOST/t/TABLE/TOKEN``, as the lobby
    gives it), stating the protocol version this client speaks."""
    parts = urlsplit(link)
    found = LINK.fullmatch(parts.path)
    if parts.scheme not in SCHEMES or not parts.netloc or found is None:
        raise ValueError("a seat link is http(s)://HOST/t/TABLE/TOKEN, as the lobby gives it")
    path = f"/ws/{found[1]}/{found[2]}"
    return urlunsplit(
        (SCHEMES[parts.scheme], parts.netloc, path, f"protocol={PROTOCOL_VERSION}", "")
    )


@dataclasses.dataclass
class RemoteSeat:
    """One seat's decisions: the agent (``spec``, made once the hello names the game, or an
    :class:`Agent` given) answers each state where the seat is to act, from the seat's
    observation, or in words for an agent that ``decide``s (``presages_env.text.TextAgent``:
    a :class:`~presages_env.text.Decision` from the message's view, events and moves)."""

    spec: str | Agent
    seed: int = 0
    agent: Agent | None = None
    game: Game | None = None
    seat: int = -1
    players: int = 0

    def greet(self, hello: dict[str, Any]) -> None:
        """Make the agent for the game and seat ``hello`` names (once: a reconnect keeps it)."""
        self.seat, self.players = hello["seat"], hello["players"]
        if self.agent is None:
            self.game = get_game(hello["game"])
            self.agent = self.spec if isinstance(self.spec, Agent) else self._made(hello["game"])

    def _made(self, game: str) -> Agent:
        _, agent = make_agent(self.spec, game, self.seed, num_players=self.players)
        if agent.needs_state:
            raise ValueError(f"agent {self.spec!r} reads whole states; a seat sees its view")
        return agent

    def answer(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The move for ``state`` if the seat is to act in it, else None."""
        if state["to_act"] != self.seat or not state["actions"]:
            return None
        if state.get("obs") is None:
            raise ValueError("this link's seat is a person's: its messages carry no observation")
        obs = np.asarray(state["obs"], dtype=self.game.obs_dtype)
        mask = np.zeros(self.game.num_actions(self.players), dtype=np.int8)
        mask[[choice["action"] for choice in state["actions"]]] = 1
        if hasattr(self.agent, "decide"):
            action = self.agent.decide(self._decision(state, obs, mask))
        else:
            action = self.agent.act(obs, mask)
        return {"type": "move", "step": state["step"], "action": int(action), "reaction_ms": None}

    def _decision(self, state: dict[str, Any], obs: np.ndarray, mask: np.ndarray) -> Any:
        """The seat's decision in words, as a text agent reads it, from the message alone
        (no names of the moves not legal now: those need the state)."""
        from presages_env.text import Decision

        return Decision(
            game=self.game,
            seat=self.seat,
            num_players=self.players,
            view=self.game.viewer.seat_view(obs, self.seat, self.players),
            events=tuple(state["log"]),
            actions=tuple(choice["action"] for choice in state["actions"]),
            labels=tuple(choice["label"] for choice in state["actions"]),
            other_names=(),
            observation=obs,
            mask=mask,
        )


async def play(link: str, spec: str | Agent, seed: int = 0, retries: int = 5) -> dict[str, Any]:
    """Play the seat ``link`` opens with agent ``spec`` (an agent spec or an :class:`Agent`,
    a ``TextAgent`` among them) to the end of its game; returns the last state (its
    ``result`` set). ``SeatClosed`` if the server ends the seat for good or
    is not reached ``retries`` times in a row."""
    url, seat, failures = socket_url(link), RemoteSeat(spec, seed), 0
    pace = Bucket(MOVES_PER_SECOND, MOVE_BURST)
    while True:
        try:
            async with websockets.connect(
                url, max_size=MAX_MESSAGE, open_timeout=OPEN_SECONDS
            ) as socket:
                failures = 0
                final = await _serve(socket, seat, pace)
                if final is not None:
                    return final
        except ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code in FINAL_CLOSES:
                raise SeatClosed(f"the server closed the seat: {closed.rcvd.reason}") from None
        except InvalidStatus as refused:
            if refused.response.status_code != 503:  # 503: busy, try again
                status = refused.response.status_code
                raise SeatClosed(f"the server refused the seat (HTTP {status})") from None
        except OSError as error:  # not reached
            LOG.info("cannot reach %s: %s", urlsplit(url).netloc, error)
        failures += 1
        if failures > retries:
            raise SeatClosed(f"the server was not reached in {retries + 1} tries")
        await asyncio.sleep(min(2.0**failures, 30.0) / 4)


async def _serve(socket: Any, seat: RemoteSeat, pace: Bucket) -> dict[str, Any] | None:
    """Answer the socket's states until the game's end (its last state) or the socket's."""
    answered = -1  # the step this connection answered last
    async for text in socket:
        message = json.loads(text)
        if message["type"] == "hello":
            seat.greet(message)
        elif message["type"] in ("refused", "error"):
            LOG.warning("the server refused a move: %s", message["reason"])
        elif message["type"] == "state":
            if message["result"] is not None:
                return message
            move = (
                await asyncio.to_thread(seat.answer, message)
                if message["step"] > answered
                else None
            )
            if move is not None:
                while delay := pace.wait():  # a token taken once none is to wait for
                    await asyncio.sleep(delay)
                await socket.send(json.dumps(move))
                answered = move["step"]
    return None  # closed normally (a server's restart): connect again
