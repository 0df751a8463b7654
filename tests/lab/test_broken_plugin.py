"""A plug-in game whose package does not load leaves the lobby working: ``/api/games`` lists
it as unavailable with the reason (never a server path), offers every other game, and a
table request for it is refused with that reason."""

from __future__ import annotations

import extras

extras.require("lab")

from test_app import client_of  # noqa: E402

from presages_env import games  # noqa: E402


def test_the_lobby_lists_a_plugin_that_does_not_load_as_unavailable(monkeypatch, tmp_path):
    monkeypatch.setitem(games.GAME_CLASSES, "broken_game", "broken_game_no_such_module:Game")
    failing = tmp_path / "failing_lab_plugin.py"
    failing.write_text(f"raise RuntimeError('cannot read {tmp_path}/weights')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(games.GAME_CLASSES, "failing_game", "failing_lab_plugin:Game")
    with client_of(f"sqlite:///{tmp_path / 'lab.db'}") as client:
        answer = client.get("/api/games")
        assert answer.status_code == 200, answer.text
        listed = answer.json()
        assert {game["name"] for game in listed["games"]} == set(games.BUILT_IN_GAMES)
        unavailable = listed["unavailable"]
        assert "No module named 'broken_game_no_such_module'" in unavailable["broken_game"]
        assert str(tmp_path) not in answer.text and "failing_game" in unavailable
        refused = client.post("/api/tables", json={"game": "broken_game"})
        assert refused.status_code == 400
        assert "'broken_game' is unavailable" in refused.json()["error"]
        refused = client.post("/api/tables", json={"game": "failing_game"})
        assert refused.status_code == 400 and str(tmp_path) not in refused.text
        assert "'failing_game' is unavailable" in refused.json()["error"]
