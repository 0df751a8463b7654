"""Remote agents' seats through FastAPI's TestClient: the protocol's version (stated, refused
when unknown), its published JSON Schema (up to date, and real messages of every game hold
to it), a remote seat from the lobby and a study (its link, its observation, its moves
stored as the remote's, the idle rule), hostile messages refused as a person's are, and over
the wire a remote seat's messages are exactly its view (tests/lab/test_no_leak.py shows that
view tells nothing the seat cannot know)."""

from __future__ import annotations

import json
from pathlib import Path

import extras
import pytest

extras.require("lab")

import jsonschema  # noqa: E402
import numpy as np  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from test_app import client_of, move, my_turn, next_state  # noqa: E402
from test_study import ADMIN, STUDY  # noqa: E402

import presages_env  # noqa: E402
from presages_env.agents import RandomAgent  # noqa: E402
from presages_env.lab.live import LiveGame  # noqa: E402
from presages_env.lab.protocol import messages  # noqa: E402
from presages_env.lab.protocol.schema import schema_text, schemas  # noqa: E402
from presages_env.lab.remote import observation, with_observation  # noqa: E402
from presages_env.lab.store import SeatSpec, Store  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol"
TO_SEAT = jsonschema.Draft202012Validator(schemas()["server-to-seat.schema.json"])
FROM_SEAT = jsonschema.Draft202012Validator(schemas()["seat-to-server.schema.json"])
KUHN = {"game": "kuhn_poker", "players": 2}
CHECKED = 30  # steps of a game whose every message is validated


def test_the_published_schema_files_are_the_models_own():
    """Regenerate with ``python -m presages_env.lab.protocol.schema docs/protocol``."""
    for name, schema in schemas().items():
        assert (DOCS / name).read_text(encoding="utf-8") == schema_text(schema), name


@pytest.mark.parametrize("name", presages_env.list_games())
def test_every_message_of_a_whole_game_holds_to_the_schema(name):
    """Every message of its first ``CHECKED`` steps and its end (a whole game of every game
    costs minutes of validation)."""
    game = presages_env.get_game(name)
    n = game.default_players
    names, kinds = [f"seat {p}" for p in range(n)], ["human", "remote", *["heuristic"] * (n - 2)]
    for seat in range(n):
        TO_SEAT.validate(messages.hello(game, seat, names, kinds, "the idle rule"))
    live, agent = LiveGame(game, n, 3, {}), RandomAgent(7)
    while True:
        seat = max(live.current, 0)
        mask = np.zeros(game.num_actions(n), dtype=np.int8)
        mask[live.legal()] = 1
        if live.step >= CHECKED and not live.over:
            live.play(agent.act(np.zeros(1), mask))
            continue
        state = with_observation(messages.seat_state(live, seat, names), live, seat)
        TO_SEAT.validate(state)
        TO_SEAT.validate(messages.seat_state(live, (seat + 1) % n, names))  # a person's
        if live.over:
            break
        chosen = {"type": "move", "step": live.step, "action": state["actions"][-1]["action"]}
        FROM_SEAT.validate({**chosen, "reaction_ms": None})
        assert messages.parse_move(json.dumps({**chosen, "reaction_ms": 5})) == messages.SeatMove(
            chosen["step"], chosen["action"], 5
        )
        live.play(agent.act(np.zeros(1), mask))
    for reply in ({"type": "ack", "step": 3}, {"type": "refused", "reason": "not your turn"}):
        TO_SEAT.validate(reply)


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "move", "step": 0, "action": 1},
        {"type": "move", "step": -1, "action": 1, "reaction_ms": None},
        {"type": "move", "step": 0, "action": "1", "reaction_ms": None},
        {"type": "move", "step": 0, "action": 1, "reaction_ms": None, "peek": True},
    ],
)
def test_what_the_schema_refuses_the_server_refuses(bad):
    with pytest.raises(jsonschema.ValidationError):
        FROM_SEAT.validate(bad)
    with pytest.raises((ValueError, TypeError)):
        messages.parse_move(json.dumps(bad))


def remote_table(client, seats=("remote", "heuristic")) -> dict[str, str]:
    answer = client.post("/api/tables", json={**KUHN, "players": len(seats), "seats": seats})
    assert answer.status_code == 200, answer.text
    return answer.json()["links"]


def ws(link: str, query: str = "") -> str:
    return link.replace("/t/", "/ws/", 1) + query


def test_a_client_states_its_protocol_and_an_unknown_one_is_refused_with_the_reason(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        link = remote_table(client)["0"]
        with client.websocket_connect(ws(link, "?protocol=1")) as socket:
            hello = socket.receive_json()
            assert (hello["protocol"], hello["game"], hello["players"]) == (1, "kuhn_poker", 2)
            assert hello["kinds"] == ["remote", "heuristic"]
        for asked in ("2", "one", "1" * 100):
            with (
                pytest.raises(WebSocketDisconnect) as closed,
                client.websocket_connect(ws(link, f"?protocol={asked}")) as socket,
            ):
                socket.receive_json()
            assert closed.value.code == 4001
            assert "this server speaks version 1" in closed.value.reason
            assert len(closed.value.reason) < 123  # a close frame's reason fits


def test_a_remote_seat_plays_through_its_link_with_its_observation(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        links = remote_table(client, ("remote", "human"))
        store: Store = client.app.state.lab.store
        table_id = links["0"].split("/")[2]
        with (
            client.websocket_connect(ws(links["0"])) as remote,
            client.websocket_connect(ws(links["1"])) as person,
        ):
            remote.receive_json(), person.receive_json()
            state, seen = my_turn(remote), next_state(person)
            assert len(state["obs"]) == presages_env.get_game("kuhn_poker").obs_size(2)
            assert "obs" not in seen  # a person's page gets no vector
            remote.send_text(move(state))
            while remote.receive_json()["type"] != "ack":
                pass
        assert store.table(table_id).moves[0]["by"] == "remote"
        assert store.table(table_id).seats[0].kind == "remote"


def test_tables_of_remote_agents_only_are_opened_and_an_idle_remote_has_the_stand_in(tmp_path):
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    with client_of(url) as client:
        assert set(remote_table(client, ("remote", "remote"))) == {"0", "1"}
        refused = client.post("/api/tables", json={**KUHN, "seats": ["heuristic", "random"]})
        assert "at least one person" in refused.json()["error"]
    store = Store(url)
    seats = [SeatSpec("remote", "bot"), SeatSpec("heuristic", "heuristic")]
    table_id, tokens = store.create_table("kuhn_poker", 2, {}, 5, seats, 1)  # one second
    with client_of(url) as client, client.websocket_connect(f"/ws/{table_id}/{tokens[0]}") as s:
        assert "a remote agent does not move within 1 seconds" in s.receive_json()["idle_rule"]
        while "timeout" not in {m["by"] for m in store.table(table_id).moves}:
            next_state(s)


def test_hostile_messages_from_a_remote_seat_are_refused_as_a_persons_are(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}", burst=6, messages_per_second=0.01) as c:
        links = remote_table(c)
        table_id = links["0"].split("/")[2]
        with c.websocket_connect(ws(links["0"])) as socket:
            state = my_turn(socket)
            for text, kind in (
                ('{"type": "move"}', "error"),
                ("[" * 600, "error"),
                (move({**state, "step": state["step"] + 1}), "refused"),
                (json.dumps({**json.loads(move(state)), "action": 99}), "refused"),
            ):
                socket.send_text(text)
                answer = socket.receive_json()
                assert answer["type"] == kind, answer
            socket.send_bytes(b"\x00")
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 1003
        with c.websocket_connect(ws(links["0"])) as socket:
            for _ in range(7):
                socket.send_text("{}")
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    socket.receive_json()
            assert closed.value.code == 1008
        assert c.app.state.lab.store.table(table_id).moves == []


def test_over_the_wire_a_remote_seat_gets_exactly_its_view(tmp_path):
    """Each state a remote seat receives equals its view built in process from the moves
    stored (messages.seat_state with its observation): nothing more reaches the socket."""
    game = presages_env.get_game("kuhn_poker")
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        links = remote_table(client, ("random", "random", "remote"))
        table_id = links["2"].split("/")[2]
        received = []
        with client.websocket_connect(ws(links["2"])) as socket:
            hello = socket.receive_json()
            while not (state := next_state(socket))["result"]:
                received.append(state)
                if state["actions"]:
                    socket.send_text(move(state, -1))
            received.append(state)
        data = client.app.state.lab.store.table(table_id)
    names = hello["names"]
    for state in received:
        live = LiveGame(game, 3, data.seed, {})
        for action in data.actions[: state["step"]]:
            live.play(action)
        assert state == with_observation(messages.seat_state(live, 2, names), live, 2)
        assert state["obs"] == observation(live, 2)


def test_a_studys_remote_seat_gets_its_link_from_the_admin(tmp_path):
    study = {**STUDY, "conditions": {"remote": ["human", "remote", "heuristic", "heuristic"]}}
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        made = client.post("/api/admin/studies", json=study, headers=ADMIN)
        assert made.status_code == 200, made.text
        api = f"/api/study/{made.json()['study']}/worker-1"
        client.post(f"{api}/consent")
        (table_id,) = client.app.state.lab.store.table_ids()
        path = f"/api/admin/tables/{table_id}/1/link"
        assert client.post(path).status_code == 403
        assert client.post(f"/api/admin/tables/{table_id}/2/link", headers=ADMIN).status_code == 404
        link = client.post(path, headers=ADMIN).json()["link"]
        with client.websocket_connect(ws(link)) as socket:
            hello = socket.receive_json()
            assert hello["seat"] == 1 and hello["kinds"] == ["human", "agent", "agent", "agent"]
            assert "obs" in next_state(socket)
