"""Who may open what: a study participant's seat only with their own key (issued at
consent), the condition told to the study's owner alone; the lobby bounded per client and
in open tables (an unjoined table expires, across restarts); the Host header and a
WebSocket's origin checked against the allowed hosts."""

from __future__ import annotations

import datetime as dt

import extras
import pytest

extras.require("lab")

from starlette.testclient import WebSocketDenialResponse  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from test_app import client_of, move, my_turn, next_state, open_table  # noqa: E402
from test_app_hardening import TABLE  # noqa: E402
from test_study import ADMIN, STUDY  # noqa: E402

from presages_env.lab import store as store_module  # noqa: E402


def test_a_participant_id_alone_opens_no_seat_and_tells_no_condition(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        study = client.post("/api/admin/studies", json=STUDY, headers=ADMIN).json()["study"]
        api = f"/api/study/{study}/worker-1"
        mine = client.post(f"{api}/consent").json()
        link = mine["link"].partition("?")[0]
        assert client.get(api).status_code == 403  # someone else who knows the id
        for step in ("play", "consent", "answers"):
            assert client.post(f"{api}/{step}", json={}).status_code == 403, step
        assert (
            client.post(f"{api}/play", headers={"authorization": "Bearer guess"}).status_code == 403
        )
        assert client.get(link).status_code == 200  # the participant's link still works
        key = {"authorization": f"Bearer {mine['key']}"}
        _, _, table_id, token = link.split("/")
        with client.websocket_connect(f"/ws/{table_id}/{token}") as socket:
            hello = socket.receive_json()
        condition = client.app.state.lab.store.participant(study, "worker-1")["condition"]
        shown = " ".join(hello["kinds"] + hello["names"])
        assert condition not in shown and set(hello["kinds"]) == {"human", "agent"}
        again = client.post(f"{api}/play", headers=key).json()  # resuming with the key
        assert again["link"].split("/")[2] == table_id and "key" not in again
        assert client.get(api, headers=key).json()["stage"] == "play"


def test_the_owner_issues_a_participant_a_new_key_which_voids_the_old(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        study = client.post("/api/admin/studies", json=STUDY, headers=ADMIN).json()["study"]
        api = f"/api/study/{study}/worker-1"
        old = {"authorization": f"Bearer {client.post(f'{api}/consent').json()['key']}"}
        route = f"/api/admin/studies/{study}/worker-1/key"
        assert client.post(route).status_code == 403
        assert client.post(route, headers=old).status_code == 403
        assert (
            client.post(f"/api/admin/studies/{study}/nobody/key", headers=ADMIN).status_code == 404
        )
        issued = client.post(route, headers=ADMIN).json()
        assert issued["link"] == f"/study/{study}?participant=worker-1#key={issued['key']}"
        assert client.get(api, headers=old).status_code == 403
        new = {"authorization": f"Bearer {issued['key']}"}
        assert client.get(api, headers=new).json()["stage"] == "play"


def test_a_client_creating_tables_too_fast_is_told_when_to_come_back(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:  # 10 at once, 10 a minute
        for _ in range(10):
            open_table(client)
        refused = client.post("/api/tables", json=TABLE)
        assert refused.status_code == 429 and "too many tables" in refused.json()["error"]
        assert 1 <= int(refused.headers["retry-after"]) <= 6
        assert client.post("/api/tables", json=TABLE, headers=ADMIN).status_code == 200


def test_an_unjoined_table_expires_after_its_idle_time_even_across_a_restart(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    with client_of(url, max_open_tables=2, idle_seconds=60) as client:
        unjoined, _ = open_table(client)
        joined, token = open_table(client)
        with client.websocket_connect(f"/ws/{joined}/{token}") as socket:
            socket.receive_json()
            assert client.post("/api/tables", json=TABLE).status_code == 503  # 2 open
            socket.send_text(move(my_turn(socket)))  # a move: the table is in play
            next_state(socket)
    later = store_module.now() + dt.timedelta(seconds=61)
    monkeypatch.setattr(store_module, "now", lambda: later)
    with client_of(url, max_open_tables=2, idle_seconds=60) as client:  # restarted
        open_table(client)  # the expired table no longer counts
        listed = client.get("/api/admin/tables", headers=ADMIN).json()
        assert listed["abandoned"] == [unjoined] and joined in listed["unfinished"]
        refused = client.post("/api/tables", json=TABLE)
        assert refused.status_code == 503 and "open tables" in refused.json()["error"]


def refused_socket(client, path: str, headers: dict) -> int:
    """The HTTP status (a denial) or WebSocket close code the server refuses ``path`` with."""
    with (
        pytest.raises((WebSocketDenialResponse, WebSocketDisconnect)) as refused,
        client.websocket_connect(path, headers=headers) as socket,
    ):
        socket.receive_json()
    error = refused.value
    return error.status_code if isinstance(error, WebSocketDenialResponse) else error.code


def test_a_host_not_allowed_is_refused_and_an_origin_checked_against_the_allowed_hosts(
    tmp_path,
):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:  # allowed: testserver
        table_id, token = open_table(client)
        path = f"/ws/{table_id}/{token}"
        rebound = {"host": "evil.example:8000"}  # a DNS-rebinding page's requests
        assert client.get("/", headers=rebound).status_code == 400
        assert client.post("/api/tables", json=TABLE, headers=rebound).status_code == 400
        origin = {"origin": "http://evil.example:8000"}
        assert refused_socket(client, path, rebound | origin) == 400
        assert refused_socket(client, path, {"origin": "http://evil.example"}) == 1008
        # a page of another port of an allowed host is another origin (the lab fuzz's find)
        assert refused_socket(client, path, {"origin": "https://testserver:8443"}) == 1008
        for allowed in ("http://testserver", "https://testserver"):
            with client.websocket_connect(path, headers={"origin": allowed}) as socket:
                assert socket.receive_json()["type"] == "hello"


def test_enrolments_deal_tables_so_they_share_the_clients_rate(tmp_path):
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        study = client.post("/api/admin/studies", json=STUDY, headers=ADMIN).json()["study"]
        keys = [client.post(f"/api/study/{study}/p{i}/consent").json()["key"] for i in range(10)]
        for key in (None, "guess"):  # a key, even a made-up one, is no way around it
            given = {"authorization": f"Bearer {key}"} if key else {}
            refused = client.post(f"/api/study/{study}/p10/consent", headers=given)
            assert refused.status_code == 429 and "retry-after" in refused.headers
        assert client.app.state.lab.store.participant(study, "p10") is None
        mine = {"authorization": f"Bearer {keys[0]}"}  # an enrolled participant goes on
        assert client.post(f"/api/study/{study}/p0/play", headers=mine).status_code == 200
