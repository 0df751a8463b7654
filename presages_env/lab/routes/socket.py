"""A seat's WebSocket: checked before its handshake (the origin of a browser's page, the
seat, the table that can be opened, the server's and the seat's bounds on sockets), then
each text frame a move, within the socket's message rate."""

from __future__ import annotations

import logging

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected

from presages_env.lab.hub import POLICY_VIOLATION, MoveRefused, Table
from presages_env.lab.protocol import messages
from presages_env.lab.remote import UNKNOWN_PROTOCOL, protocol_refusal
from presages_env.lab.state import Lab, LabState
from presages_env.lab.store import LinkReplaced, hash_token
from presages_env.lab.web import Bucket, origin_allowed, unavailable

UNSUPPORTED_DATA = 1003  # the WebSocket close code for a binary frame
LOG = logging.getLogger(__name__)
router = APIRouter()


@router.websocket("/ws/{table_id}/{token}")
async def table_socket(lab: Lab, socket: WebSocket, table_id: str, token: str) -> None:
    seated = await _admitted(lab, socket, table_id, token)
    if seated is None:
        return
    table, seat = seated
    await socket.accept()
    if refusal := protocol_refusal(socket.query_params.get("protocol")):
        await socket.close(UNKNOWN_PROTOCOL, refusal)
        return
    lab.sockets += 1
    try:
        lab.hub.join(table, seat, socket)
        await _moves(lab, socket, table, seat, hash_token(token))
    except (WebSocketDisconnect, WebSocketDisconnected):  # the latter: a send after the
        pass  # socket was closed meanwhile (a broadcast found it gone, or it was revoked)
    finally:
        lab.sockets -= 1
        lab.hub.leave(table, seat, socket)


async def _admitted(
    lab: LabState, socket: WebSocket, table_id: str, token: str
) -> tuple[Table, int] | None:
    """The table and seat the socket's link opens, or None once its handshake is refused:
    HTTP 403 for what retrying cannot mend, HTTP 503 with ``Retry-After`` for what it may."""
    origin = socket.headers.get("origin")
    host = socket.headers.get("host")
    if origin is not None and not origin_allowed(origin, host, lab.config.allowed_origins):
        await socket.close(POLICY_VIOLATION, "origin not allowed")
        return None
    try:
        seat = await lab.seat(table_id, token)
        table = await lab.hub.table(table_id) if seat is not None else None
    except Exception:  # the database, or the table's game failing to load: logged, and
        # refused as a retry, never answered with a server error
        LOG.exception("table %.32r: a connection could not open it", table_id)
        await unavailable(socket, "the table cannot be opened now")
        return None
    if table is None or seat is None:
        await socket.close(POLICY_VIOLATION, "no such seat")
        return None
    config = lab.config
    if (
        lab.sockets >= config.max_sockets
        or len(table.sockets.get(seat, ())) >= config.max_sockets_per_seat
    ):
        await unavailable(socket, "too many connections")
        return None
    return table, seat


async def _moves(
    lab: LabState, socket: WebSocket, table: Table, seat: int, token_hash: str
) -> None:
    """Play the seat's moves as they come, each answered (``ack``, ``refused`` or ``error``)
    after the views it caused, until the client leaves or breaks a rule (then closed)."""
    bucket = Bucket(lab.config.messages_per_second, lab.config.burst)
    while True:
        frame = await socket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None:
            await socket.close(UNSUPPORTED_DATA, "moves are text frames")
            return
        if not bucket.take():
            await socket.close(POLICY_VIOLATION, "too many messages")
            return
        try:
            move = messages.parse_move(text)
            await lab.hub.human_move(table, seat, move, token_hash)
        except (ValueError, TypeError) as error:  # MoveRefused among them
            refused = "refused" if isinstance(error, MoveRefused) else "error"
            lab.hub.tell(table, seat, socket, {"type": refused, "reason": str(error)})
            continue
        except LinkReplaced:  # its seat's token was reissued meanwhile
            await socket.close(POLICY_VIOLATION, "this link was replaced")
            return
        lab.hub.tell(table, seat, socket, {"type": "ack", "step": move.step})
