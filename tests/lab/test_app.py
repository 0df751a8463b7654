"""The lab's server through FastAPI's TestClient: a whole game over the WebSocket with every
move stored before its acknowledgement, a restart that resumes the table, the lobby's checks,
and the bounds (stale, illegal and oversized moves, message rate, origin, admin token, CSP)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import extras
import pytest

extras.require("lab")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from presages_env.lab.app import LabConfig, create_app  # noqa: E402
from presages_env.lab.store import SeatSpec, Store  # noqa: E402

STATIC = Path(__file__).resolve().parents[2] / "presages_env" / "lab" / "static"
HEURISTICS = ["human", "heuristic", "heuristic", "heuristic"]


TEST_HOST = "testserver"  # the Host header of Starlette's test client


def client_of(url: str, **config) -> TestClient:
    """A server on ``url`` that allows the test client's host; a test client answers at
    once, so its rate is bounded loosely."""
    config = {"messages_per_second": 1000.0, "allowed_hosts": (TEST_HOST,), **config}
    return TestClient(create_app(LabConfig(db_url=url, admin_token="sesame", **config)))


def open_table(client: TestClient, **request) -> tuple[str, str]:
    body = {"game": "president", "players": 4, "seats": HEURISTICS, **request}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 200, answer.text
    _, _, table_id, token = answer.json()["links"]["0"].split("/")
    return table_id, token


def next_state(socket) -> dict:
    while (message := socket.receive_json())["type"] != "state":
        assert message["type"] in ("ack", "hello"), message
    return message


def my_turn(socket) -> dict:
    """The next state where it is this seat's turn, or the last one."""
    while not ((state := next_state(socket))["actions"] or state["result"]):
        pass
    return state


def move(state: dict, index: int = 0) -> str:
    action = state["actions"][index]["action"]
    return json.dumps({"type": "move", "step": state["step"], "action": action, "reaction_ms": 321})


def test_a_whole_game_every_move_stored_before_it_is_acknowledged(db_url):
    with client_of(db_url) as client:
        table_id, token = open_table(client)
        store: Store = client.app.state.lab.store
        with client.websocket_connect(f"/ws/{table_id}/{token}") as socket:
            hello = socket.receive_json()
            assert hello["title"] == "Président" and hello["seat"] == 0
            assert "heuristic agent plays" in hello["idle_rule"]
            played, state = 0, my_turn(socket)
            while not state["result"]:
                socket.send_text(move(state))
                latest = None  # the agents may play up to this seat's turn before the ack
                while (answer := socket.receive_json())["type"] != "ack":
                    assert answer["type"] == "state"
                    latest = answer
                stored = store.table(table_id).moves
                assert stored[state["step"]]["by"] == "human"
                assert stored[state["step"]]["reaction_ms"] == 321
                played += 1
                turn = latest is not None and (latest["actions"] or latest["result"])
                state = latest if turn else my_turn(socket)
        assert played > 3
        assert state["result"]["headline"].endswith("won")
        data = store.table(table_id)
        assert data.finished and {m["by"] for m in data.moves} == {"human", "agent"}
        assert table_id not in client.app.state.lab.hub.tables  # rebuilt from the store on demand
        replay = client.get(f"/replay/{table_id}/{token}")
        assert replay.status_code == 200 and "Président" in replay.text
        assert "'unsafe-inline'" not in replay.headers["content-security-policy"].split("style")[0]
        with client.websocket_connect(f"/ws/{table_id}/{token}") as socket:  # an old link
            socket.receive_json()
            assert next_state(socket)["result"] == state["result"]
        assert table_id not in client.app.state.lab.hub.tables


def test_a_restarted_server_resumes_the_table_where_its_moves_left_it(db_url):
    with client_of(db_url) as client:
        table_id, token = open_table(client)
        with client.websocket_connect(f"/ws/{table_id}/{token}") as socket:
            socket.receive_json()
            state = my_turn(socket)
            socket.send_text(move(state))
            before = my_turn(socket)
    with (
        client_of(db_url) as client,  # a new server on the same database
        client.websocket_connect(f"/ws/{table_id}/{token}") as socket,
    ):
        socket.receive_json()
        after = my_turn(socket)
    assert after == before


def test_stale_illegal_and_foreign_moves_are_refused_and_not_stored(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        table_id, token = open_table(client)
        store: Store = client.app.state.lab.store
        with client.websocket_connect(f"/ws/{table_id}/{token}") as socket:
            socket.receive_json()
            state = my_turn(socket)
            stored = len(store.table(table_id).moves)
            legal = {a["action"] for a in state["actions"]}
            illegal = next(a for a in range(1000) if a not in legal)
            for bad, reason in (
                ({"step": state["step"] + 1}, "not the current step"),
                ({"action": illegal}, "not legal"),
            ):
                message = json.loads(move(state)) | bad
                socket.send_text(json.dumps(message))
                answer = socket.receive_json()
                assert answer["type"] == "refused" and reason in answer["reason"]
            for junk in (
                "[]",
                "{",
                json.dumps({"type": "move", "step": True, "action": 1, "reaction_ms": None}),
                "x" * 600,
            ):
                socket.send_text(junk)
                assert socket.receive_json()["type"] == "error"
            assert len(store.table(table_id).moves) == stored
            socket.send_text(move(state))  # then the double click
            socket.send_text(move(state))
            kinds = set()
            while not {"ack", "refused"} <= kinds:  # agents' states come in between
                kinds.add(socket.receive_json()["type"])
        assert [m["by"] for m in store.table(table_id).moves].count("human") == 1


def test_a_socket_is_closed_past_its_message_rate(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}", burst=3, messages_per_second=0.01) as client:
        table_id, token = open_table(client)
        with client.websocket_connect(f"/ws/{table_id}/{token}") as socket:
            socket.receive_json()
            for _ in range(4):
                socket.send_text("{}")
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    socket.receive_json()
            assert closed.value.code == 1008


def test_sockets_need_a_seat_token_the_origin_and_stay_bounded(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}", max_sockets_per_seat=1) as client:
        table_id, token = open_table(client)
        for path, headers in (
            (f"/ws/{table_id}/{token[:-2]}", {}),
            (f"/ws/nope/{token}", {}),
            (f"/ws/{table_id}/{token}", {"origin": "https://evil.example"}),
        ):
            with (
                pytest.raises(WebSocketDisconnect) as closed,
                client.websocket_connect(path, headers=headers) as socket,
            ):
                socket.receive_json()
            assert closed.value.code == 1008
        origin = {"origin": "http://testserver"}
        with client.websocket_connect(f"/ws/{table_id}/{token}", headers=origin) as socket:
            assert socket.receive_json()["type"] == "hello"
            with (
                pytest.raises(WebSocketDisconnect),
                client.websocket_connect(f"/ws/{table_id}/{token}") as second,
            ):
                second.receive_json()
        assert client.get(f"/t/{table_id}/{token}x").status_code == 404


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"players": 9}, "num_players"),
        ({"seats": ["human", "heuristic", "heuristic", "ppo:/etc/passwd"]}, "unknown agent"),
        ({"seats": ["heuristic"] * 4}, "at least one person"),
        ({"options": {"no_such": 1}}, "unknown option"),
        ({"names": [{"a": 1}, None, None, None]}, "names[0]"),
        ({"names": ["x" * 41, None, None, None]}, "names[0]"),
        ({"idle_seconds": 1}, "idle_seconds"),
        ({"code": "import os"}, "fields"),
    ],
)
def test_the_lobby_refuses_a_bad_table(tmp_path, change, error):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        body = {"game": "president", "players": 4, "seats": HEURISTICS} | change
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 400 and error in answer.json()["error"]
        assert client.app.state.lab.store.table_ids() == []
        assert client.post("/api/tables", content=b"{" * 5000).status_code == 413


def test_pages_allow_no_inline_script_and_admin_needs_the_token(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        for path in ("/", "/api/games", "/static/table.js"):
            answer = client.get(path)
            assert answer.status_code == 200
            policy = answer.headers["content-security-policy"]
            assert "script-src 'self'" in policy and "unsafe" not in policy
        assert client.get("/api/admin/tables").status_code == 403
        wrong = {"authorization": "Bearer sesam"}
        assert client.get("/api/admin/tables", headers=wrong).status_code == 403
        right = {"authorization": "Bearer sesame"}
        assert client.get("/api/admin/tables", headers=right).json() == {
            "finished": [],
            "unfinished": [],
            "abandoned": [],
        }
    for page in STATIC.glob("*.html"):
        html = page.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", html)  # scripts come from files
        assert not re.search(r"\son\w+=", html)  # and no handler attributes
    for script in STATIC.glob("*.js"):
        assert "innerHTML" not in script.read_text()  # text is drawn as text, never markup


def test_an_idle_person_has_the_heuristic_play_for_them(tmp_path):
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    store = Store(url)
    store.migrate()
    seats = [SeatSpec("human", "Ada"), *[SeatSpec("heuristic", "heuristic")] * 3]
    table_id, token = store.create_table("president", 4, {}, 5, seats, 1)  # one second
    with client_of(url) as client, client.websocket_connect(f"/ws/{table_id}/{token[0]}") as ws:
        ws.receive_json()
        while "timeout" not in {m["by"] for m in store.table(table_id).moves}:
            next_state(ws)
