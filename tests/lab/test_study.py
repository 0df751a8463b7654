"""Study mode: a checked study file, consent, a seeded balanced assignment of conditions,
games in the participant's condition, the questions after each game, and resuming with the
participant's id."""

from __future__ import annotations

import csv
import json

import extras
import pytest

extras.require("lab")

from fastapi.testclient import TestClient  # noqa: E402
from test_app import TEST_HOST  # noqa: E402

from presages_env.__main__ import main  # noqa: E402
from presages_env.lab.app import LabConfig, create_app  # noqa: E402
from presages_env.lab.study import assign, load_study  # noqa: E402

ADMIN = {"authorization": "Bearer sesame"}
STUDY = {
    "name": "partners",
    "game": "president",
    "players": 4,
    "options": {},
    "conditions": {
        "heuristic": ["human", "heuristic", "heuristic", "heuristic"],
        "random": ["human", "random", "random", "random"],
    },
    "games_per_participant": 2,
    "consent": "You agree that your moves are stored <b>anonymously</b>.",
    "questions": ["How well did your opponents play?", "Anything else?"],
    "seed": 7,
    "idle_seconds": 60,
}


def test_assignment_is_balanced_and_seeded():
    study = load_study(json.dumps(STUDY))
    counts: dict[str, int] = {}
    for i in range(10):
        condition = assign(study, counts, f"p{i}")
        assert condition == assign(study, dict(counts), f"p{i}")  # the same arrivals, the same
        counts[condition] = counts.get(condition, 0) + 1
        assert max(counts.values()) - min(counts.get(c, 0) for c in study.conditions) <= 1


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"conditions": {"x": ["human", "human", "random", "random"]}}, "one human"),
        ({"conditions": {"x": ["human", "ppo:/tmp/x.pt", "random", "random"]}}, "unknown agent"),
        ({"games_per_participant": 0}, "games_per_participant"),
        ({"questions": ["?"] * 21}, "questions"),
        ({"extra": 1}, "fields"),
        ({"name": "part\u202eners"}, "U\\+202E"),
        ({"conditions": {"a\x1b[2J": ["human", "random", "random", "random"]}}, "U\\+001B"),
        ({"conditions": {"\u00e9": ["human"] + ["random"] * 3, "e\u0301": ["human"] * 4}}, "twice"),
    ],
)
def test_a_bad_study_file_is_refused(change, error):
    with pytest.raises((ValueError, TypeError), match=error):
        load_study(json.dumps(STUDY | change))


def play_to_the_end(client: TestClient, link: str) -> None:
    path, _, _ = link.partition("?")
    _, _, table_id, token = path.split("/")
    with client.websocket_connect(f"/ws/{table_id}/{token}") as socket:
        while True:
            message = socket.receive_json()
            if message["type"] != "state":
                continue
            if message["result"]:
                return
            if message["actions"]:
                move = {"type": "move", "step": message["step"], "reaction_ms": 5}
                move["action"] = message["actions"][0]["action"]
                socket.send_text(json.dumps(move))


def test_a_participant_goes_from_consent_through_games_and_questions_and_can_resume(
    db_url, tmp_path
):
    config = LabConfig(
        db_url=db_url, admin_token="sesame", allowed_hosts=(TEST_HOST,), messages_per_second=1000.0
    )
    with TestClient(create_app(config)) as client:
        assert client.post("/api/admin/studies", json=STUDY).status_code == 403
        made = client.post("/api/admin/studies", json=STUDY, headers=ADMIN).json()
        api = f"/api/study/{made['study']}/worker-42"
        assert client.get(api).json()["stage"] == "consent"
        assert client.get(f"/api/study/{made['study']}/bad id!").status_code == 400
        assert client.get("/api/study/nope/worker-42").status_code == 404
        now = client.post(f"{api}/consent").json()
        assert now["stage"] == "play" and now["game"] == 1
        key = {"authorization": f"Bearer {now['key']}"}  # every later call carries it
        assert "link" not in client.get(api, headers=key).json()  # reading issues no link
        again = client.post(f"{api}/play", headers=key).json()  # resuming: the same table
        assert again["link"].split("/")[2] == now["link"].split("/")[2]
        assert client.get(now["link"].partition("?")[0]).status_code == 404  # the old link
        early = client.post(f"{api}/answers", json={"game": 0, "answers": ["a", "b"]}, headers=key)
        assert early.status_code == 400 and "no questions" in early.json()["error"]
        play_to_the_end(client, again["link"])
        now = client.get(api, headers=key).json()
        assert now["stage"] == "questionnaire" and now["questions"] == STUDY["questions"]
        answers = f"{api}/answers"
        assert (
            client.post(answers, json={"game": 0, "answers": ["a"]}, headers=key).status_code == 400
        )
        now = client.post(answers, json={"game": 0, "answers": ["fine", ""]}, headers=key).json()
        assert now["stage"] == "play" and now["game"] == 2
        play_to_the_end(client, now["link"])
        client.post(answers, json={"game": 1, "answers": ["ok", "no"]}, headers=key)
        assert client.get(api, headers=key).json()["stage"] == "done"
        store = client.app.state.lab.store
        mine = store.participant(made["study"], "worker-42")
        assert len(mine["games"]) == 2 and mine["answered"] == {0, 1}
        kinds = {store.table(t).seats[1].kind for t, _ in mine["games"].values()}
        assert kinds == {mine["condition"]}
    out = tmp_path / "out"
    assert main(["lab", "export", "--db", db_url, "--out", str(out)]) == 0
    with open(out / "decisions.csv", encoding="utf-8") as sheet:
        rows = [r for r in csv.DictReader(sheet) if r["seat"] == "0"]
    assert rows and {(r["participant"], r["condition"]) for r in rows} == {
        ("worker-42", mine["condition"])
    }
    with open(out / "answers.csv", encoding="utf-8") as sheet:
        answers = [
            (r["game_index"], r["question_index"], r["answer"]) for r in csv.DictReader(sheet)
        ]
    assert answers == [("0", "0", "fine"), ("0", "1", ""), ("1", "0", "ok"), ("1", "1", "no")]
