"""Connections under load or trouble (issue 43): what a connection meets before its
handshake (a database busy past its timeout, a table whose game cannot load, the sockets'
bounds) is refused with HTTP 503 and Retry-After, never a server error (HTTP 500); a move
needs no lookup besides the transaction that stores it; a socket closed while its move is
played ends quietly."""

from __future__ import annotations

import sqlite3

import extras
import pytest

extras.require("lab")

from sqlalchemy.exc import OperationalError  # noqa: E402
from starlette.testclient import WebSocketDenialResponse  # noqa: E402
from test_app import client_of, move, my_turn, open_table  # noqa: E402
from test_app_hardening import closing_code  # noqa: E402

from presages_env.lab import hub as hub_module  # noqa: E402
from presages_env.lab.app import RETRY_AFTER  # noqa: E402
from presages_env.lab.hub import Hub  # noqa: E402


def locked(*args) -> None:
    """The store's answer while SQLite stays locked past its busy timeout."""
    raise OperationalError("SELECT", {}, sqlite3.OperationalError("database is locked"))


def unloadable(data) -> None:
    raise ValueError("the stored moves do not replay to one state")


def refusal(client, path: str) -> WebSocketDenialResponse:
    with (
        pytest.raises(WebSocketDenialResponse) as refused,
        client.websocket_connect(path) as socket,
    ):
        socket.receive_json()
    answer = refused.value
    assert answer.status_code == 503 and answer.headers["retry-after"] == str(RETRY_AFTER)
    return answer


def test_a_table_that_cannot_be_opened_now_is_a_retry_never_a_server_error(tmp_path, monkeypatch):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        table_id, token = open_table(client)
        path, store = f"/ws/{table_id}/{token}", client.app.state.lab.store
        with monkeypatch.context() as patched:
            patched.setattr(store, "seat_of", locked)
            assert "cannot be opened now" in refusal(client, path).json()["error"]
        with monkeypatch.context() as patched:
            patched.setattr(hub_module, "_rebuilt", unloadable)
            assert "cannot be opened now" in refusal(client, path).json()["error"]
        assert table_id not in client.app.state.lab.hub.tables
        with client.websocket_connect(path) as socket:  # the retry, once the trouble is over
            assert socket.receive_json()["type"] == "hello"


def test_a_page_that_meets_the_database_busy_is_a_retry_never_a_server_error(tmp_path, monkeypatch):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        table_id, token = open_table(client)
        monkeypatch.setattr(client.app.state.lab.store, "seat_of", locked)
        for path in (f"/t/{table_id}/{token}", f"/replay/{table_id}/{token}"):
            answer = client.get(path)
            assert answer.status_code == 503, path
            assert answer.headers["retry-after"] == str(RETRY_AFTER)
            assert "database is unavailable" in answer.json()["error"]


def test_a_connection_past_a_seats_bound_is_told_to_retry(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}", max_sockets_per_seat=1) as client:
        table_id, token = open_table(client)
        path = f"/ws/{table_id}/{token}"
        with client.websocket_connect(path) as socket:
            assert socket.receive_json()["type"] == "hello"
            assert "too many connections" in refusal(client, path).json()["error"]


def test_a_move_needs_no_lookup_besides_its_commit(tmp_path, monkeypatch):
    """A move is checked against its link's token where it is stored: it never waits for a
    lookup thread (after a restart, every table's load fills those threads)."""
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        table_id, token = open_table(client)
        with client.websocket_connect(f"/ws/{table_id}/{token}") as socket:
            state = my_turn(socket)
            monkeypatch.setattr(client.app.state.lab.store, "seat_of", locked)
            socket.send_text(move(state))
            while (answer := socket.receive_json())["type"] != "ack":
                assert answer["type"] == "state"
        assert client.app.state.lab.store.table(table_id).moves[state["step"]]["by"] == "human"


def test_a_socket_closed_while_its_move_is_played_ends_quietly(tmp_path, monkeypatch):
    played = Hub.human_move

    async def closed_meanwhile(self, table, seat, move, token_hash):
        await played(self, table, seat, move, token_hash)
        for socket in list(table.sockets[seat]):  # as its link's reissue or a shutdown does
            await socket.close(1008, "this link was replaced")

    monkeypatch.setattr(Hub, "human_move", closed_meanwhile)
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        table_id, token = open_table(client)
        with client.websocket_connect(f"/ws/{table_id}/{token}") as socket:
            socket.send_text(move(my_turn(socket)))
            assert closing_code(socket) == 1008  # and the server raised nothing
