"""The server's answers to a review's findings: a reissued token ends the old link's
sockets and moves, a study GET changes nothing, deep or binary input is refused cleanly,
and the lobby is bounded (open tables, admin only if configured)."""

from __future__ import annotations

import json

import extras
import pytest

extras.require("lab")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from test_app import TEST_HOST, client_of, my_turn, open_table  # noqa: E402
from test_study import ADMIN, STUDY  # noqa: E402

from presages_env.lab.app import LabConfig, create_app  # noqa: E402

DEEP = b"[" * 2000 + b"]" * 2000
TABLE = {"game": "president", "players": 4, "seats": ["human", "random", "random", "random"]}


def closing_code(socket) -> int:
    """The code the server closes ``socket`` with, before it answers a move (so a server
    that acknowledges the move fails the test rather than hangs it)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        while socket.receive_json()["type"] not in ("ack", "refused", "error"):
            pass
    return closed.value.code


def test_a_move_from_a_socket_whose_token_was_reissued_is_refused(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}", idle_seconds=3600) as client:
        table_id, token = open_table(client)
        store = client.app.state.lab.store
        with client.websocket_connect(f"/ws/{table_id}/{token}") as old:
            state = my_turn(old)
            store.reissue_token(table_id, 0)  # the hub is not told: the move is checked
            action = state["actions"][0]["action"]
            move = {"type": "move", "step": state["step"], "action": action, "reaction_ms": 1}
            old.send_text(json.dumps(move))
            assert closing_code(old) == 1008
        assert all(m["seat"] != 0 for m in store.table(table_id).moves)


def test_issuing_a_study_link_closes_the_old_links_sockets_and_a_get_issues_none(tmp_path):
    config = LabConfig(
        db_url=f"sqlite:///{tmp_path / 'lab.db'}", admin_token="sesame", allowed_hosts=(TEST_HOST,)
    )
    with TestClient(create_app(config)) as client:
        made = client.post("/api/admin/studies", json=STUDY, headers=ADMIN).json()
        api = f"/api/study/{made['study']}/worker-7"
        store = client.app.state.lab.store
        assert client.get(api).json()["stage"] == "consent"
        consented = client.post(f"{api}/consent").json()  # records them, then deals game 1
        key = {"authorization": f"Bearer {consented['key']}"}
        tables = store.table_ids()
        for _ in range(3):
            assert "link" not in client.get(api, headers=key).json()
        assert store.table_ids() == tables  # a GET deals nothing and voids no link
        first = client.post(f"{api}/play", headers=key).json()["link"].partition("?")[0]
        _, _, table_id, token = first.split("/")
        with client.websocket_connect(f"/ws/{table_id}/{token}") as old:
            assert old.receive_json()["type"] == "hello"
            second = client.post(f"{api}/play", headers=key).json()["link"]
            assert second.split("/")[2] == table_id
            assert closing_code(old) == 1008
        assert client.get(first).status_code == 404  # the old link stops working


def test_a_refused_answer_changes_nothing(tmp_path):
    config = LabConfig(
        db_url=f"sqlite:///{tmp_path / 'lab.db'}", admin_token="sesame", allowed_hosts=(TEST_HOST,)
    )
    with TestClient(create_app(config)) as client:
        made = client.post("/api/admin/studies", json=STUDY, headers=ADMIN).json()
        store = client.app.state.lab.store
        key = store.add_participant(made["study"], "p1", "random")  # consented, no game yet
        answered = client.post(
            f"/api/study/{made['study']}/p1/answers",
            json={"junk": 1},
            headers={"authorization": f"Bearer {key}"},
        )
        assert answered.status_code == 400
        assert store.table_ids() == []
        assert store.participant(made["study"], "p1")["games"] == {}


def test_deeply_nested_bodies_are_refused_not_a_server_error(tmp_path):
    config = LabConfig(
        db_url=f"sqlite:///{tmp_path / 'lab.db'}", admin_token="sesame", allowed_hosts=(TEST_HOST,)
    )
    with TestClient(create_app(config), raise_server_exceptions=False) as client:
        made = client.post("/api/admin/studies", json=STUDY, headers=ADMIN).json()
        for path in ("/api/tables", f"/api/study/{made['study']}/p1/answers"):
            answer = client.post(path, content=DEEP)
            assert answer.status_code == 400 and "nested" in answer.json()["error"], path


def test_a_binary_frame_closes_the_socket_as_unsupported_data(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        table_id, token = open_table(client)
        with client.websocket_connect(f"/ws/{table_id}/{token}") as socket:
            assert socket.receive_json()["type"] == "hello"
            socket.send_bytes(b"\x00")
            assert closing_code(socket) == 1003


def test_the_lobby_is_bounded_in_open_tables_and_can_be_admin_only(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'a.db'}", max_open_tables=1) as client:
        open_table(client)
        refused = client.post("/api/tables", json=TABLE)
        assert refused.status_code == 503 and "open tables" in refused.json()["error"]
    with client_of(f"sqlite:///{tmp_path / 'b.db'}", lobby_admin_only=True) as client:
        assert client.post("/api/tables", json=TABLE).status_code == 403
        assert client.post("/api/tables", json=TABLE, headers=ADMIN).status_code == 200


def test_serve_reads_its_database_and_admin_token_from_the_environment(monkeypatch):
    from presages_env.__main__ import main
    from presages_env.lab import cli

    given = []
    monkeypatch.setattr(cli, "serve", lambda *settings, **named: given.append(settings))
    monkeypatch.setenv("PRESAGES_LAB_DB", "sqlite:///lab.db")
    monkeypatch.setenv("PRESAGES_LAB_ADMIN_TOKEN", "sesame")
    assert main(["serve"]) == 0
    assert given[0][2:4] == ("sqlite:///lab.db", "sesame")
    assert main(["serve", "--admin-token", "other"]) == 0  # the command line comes first
    assert given[1][3] == "other"


def server_paths() -> list[str]:
    """Where the server is installed and runs: no answer to a client may name them."""
    import sys
    from pathlib import Path

    import presages_env

    package_parent = Path(presages_env.__file__).resolve().parents[1]
    return [str(package_parent), sys.prefix, str(Path.cwd())]


def test_a_seat_for_an_agent_the_game_ships_none_of_is_refused_in_words_not_a_path(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        body = {"game": "kuhn_poker", "players": 2, "seats": ["human", "ppo"]}
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 400
        assert "'ppo' is not offered at kuhn_poker with 2 players" in answer.json()["error"]
        assert not any(path in answer.text for path in server_paths())


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("ev\u202eil", "U+202E"),
        ("a\x00b", "U+0000"),
        ("\x1b[31mred", "U+001B"),
        ("z\u200bw", "U+200B"),
    ],
)
def test_a_seat_name_with_a_control_or_format_character_is_refused(tmp_path, name, shown):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        answer = client.post("/api/tables", json={**TABLE, "names": [name, None, None, None]})
        assert answer.status_code == 400
        assert "names[0]" in answer.json()["error"] and shown in answer.json()["error"]
        assert client.app.state.lab.store.table_ids() == []


def test_legal_seat_names_are_kept_normalised(tmp_path):
    names = ["Zoë", "e\u0301mile 🃏", "王小明", "👩🏽\u200d💻 ada"]
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        answer = client.post("/api/tables", json={**TABLE, "names": names})
        assert answer.status_code == 200, answer.text
        table = client.app.state.lab.store.table(answer.json()["table"])
        assert [seat.name for seat in table.seats] == ["Zoë", "émile 🃏", "王小明", names[3]]


def test_a_file_error_is_refused_without_its_text(tmp_path, monkeypatch):
    from presages_env.lab import lobby

    def missing(*args):
        raise FileNotFoundError(2, "No such file or directory", f"{server_paths()[0]}/x.pt")

    monkeypatch.setattr(lobby, "seat_agent", missing)
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        answer = client.post("/api/tables", json=TABLE)
        assert answer.status_code == 400 and "cannot be loaded" in answer.json()["error"]
        assert not any(path in answer.text for path in server_paths())


def test_an_unknown_card_part_is_refused_with_a_reason(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        answer = client.get("/cards.py")
        assert answer.status_code == 404 and answer.json()["error"]
