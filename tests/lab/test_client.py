"""The remote agents' client (presages_env.lab.client) against a real server: it plays a
seat to the end, from the command line too; after its server went away mid-game it
connects again and plays the move then due, once; it stops on a close retrying cannot mend.
The 20-line bot of docs/agents_anywhere.md plays a whole game."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import subprocess
import sys
import threading
from pathlib import Path

import extras
import numpy as np
import pytest

extras.require("lab")

from lab_server import free_port, running  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

import presages_env  # noqa: E402
from presages_env.__main__ import main  # noqa: E402
from presages_env.agents.specs import make_agent  # noqa: E402
from presages_env.lab.app import LabConfig, create_app  # noqa: E402
from presages_env.lab.client import SeatClosed, play, socket_url  # noqa: E402
from presages_env.lab.store import SeatSpec  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "agents_anywhere.md"


def lab(tmp_path: Path):
    return create_app(LabConfig(db_url=f"sqlite:///{tmp_path / 'lab.db'}", admin_token="x"))


def kuhn_table(app, kinds: list[str], seed: int = 3) -> tuple[str, dict[int, str]]:
    seats = [SeatSpec(kind, kind) for kind in kinds]
    table_id, tokens = app.state.lab.store.create_table(
        "kuhn_poker", len(kinds), {}, seed, seats, 3600
    )
    return table_id, {p: f"/t/{table_id}/{token}" for p, token in tokens.items()}


def test_a_seat_link_becomes_its_socket_address_and_a_bad_one_is_refused():
    link = "https://lab.example/t/abc/t0k-en"
    assert socket_url(link) == "wss://lab.example/ws/abc/t0k-en?protocol=1"
    for bad in ("ftp://x/t/a/b", "http://x/t/a", "http://x/t/a/b/c", "/t/a/b", "http://x/t/a/b!"):
        with pytest.raises(ValueError, match="seat link"):
            socket_url(bad)


async def both(first: str, second: str) -> list[dict]:
    plays = asyncio.gather(play(first, "heuristic"), play(second, "random"))
    return await asyncio.wait_for(plays, 60)


def test_the_client_plays_a_seat_to_the_end_and_stops_on_a_final_close(tmp_path):
    app = lab(tmp_path)
    with running(app) as base:
        table_id, links = kuhn_table(app, ["remote", "remote"])
        finals = asyncio.run(both(base + links[0], base + links[1]))
        assert all(f["result"] and f["to_act"] == -1 for f in finals)
        moves = app.state.lab.store.table(table_id).moves
        assert moves and {m["by"] for m in moves} == {"remote"}
        with pytest.raises(SeatClosed, match="HTTP 403"):  # no such seat
            asyncio.run(play(base + links[0][:-3] + "xyz", "random"))


def test_the_command_line_client_plays_a_seat(tmp_path, capsys):
    app = lab(tmp_path)
    with running(app) as base:
        table_id, links = kuhn_table(app, ["remote", "random"])
        assert main(["lab", "client", base + links[0], "--agent", "heuristic"]) == 0
        assert "won" in capsys.readouterr().out.splitlines()[0]
        assert app.state.lab.store.table(table_id).finished
        assert main(["lab", "client", base + links[0] + "x", "--agent", "heuristic"]) == 1
        assert "HTTP 403" in capsys.readouterr().err
        assert main(["lab", "client", base + links[0], "--agent", "search"]) == 1
        assert "reads whole states" in capsys.readouterr().err


def checks_first(seed: int) -> str:
    """A ``random`` agent spec whose first move at the deal of ``seed`` is a check."""
    game = presages_env.get_game("kuhn_poker")
    state = game.new_state(2, seed)
    obs, mask = np.zeros(game.obs_size(2), dtype=game.obs_dtype), np.zeros(4, dtype=np.int8)
    game.kernel.observe(state, np.int64(0), obs)
    game.kernel.legal_mask(state, mask)
    return next(
        f"random:{s}"
        for s in range(100)
        if make_agent(f"random:{s}", "kuhn_poker")[1].act(obs, mask) == 0
    )


def test_a_client_whose_server_went_away_mid_game_plays_the_move_then_due_once(tmp_path, caplog):
    """The remote checks (step 0); the server goes away and comes back; the person bets
    (step 1); the client, connected again, answers step 2: a move of its own, no refusal."""
    app, port, seed = lab(tmp_path), free_port(), 3
    table_id, links = kuhn_table(app, ["remote", "human"], seed)
    finals: list = []
    with running(app, port) as base:
        client = threading.Thread(
            target=lambda: finals.append(
                asyncio.run(play(base + links[0], checks_first(seed), retries=20))
            )
        )
        client.start()
        with connect(socket_url(base + links[1])) as person:
            while not (state := _state(person))["actions"]:
                pass
    assert state["step"] == 1  # the remote's check is stored; the server goes away
    with (
        caplog.at_level(logging.INFO, "presages_env.lab.client"),
        running(lab(tmp_path), port) as base,
        connect(socket_url(base + links[1])) as person,
    ):
        bet = next(a["action"] for a in _state(person)["actions"] if a["label"] == "bet")
        person.send(json.dumps({"type": "move", "step": 1, "action": bet, "reaction_ms": None}))
        client.join(timeout=60)
    assert finals and finals[0]["result"]
    moves = lab(tmp_path).state.lab.store.table(table_id).moves
    assert [(m["seat"], m["by"]) for m in moves] == [(0, "remote"), (1, "human"), (0, "remote")]
    assert not [r for r in caplog.records if "refused" in r.getMessage()]


def _state(socket) -> dict:
    while (message := json.loads(socket.recv(timeout=60)))["type"] != "state":
        pass
    return message


def doc_snippet() -> str:
    """The doc's bot: its first python block under the heading "A bot in 20 lines"."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## A bot in 20 lines", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S)[1]


def test_the_documented_20_line_bot_plays_a_whole_game(tmp_path):
    code = doc_snippet()
    assert len(code.strip().splitlines()) <= 20
    bot = tmp_path / "bot.py"
    bot.write_text(code, encoding="utf-8")
    app = lab(tmp_path)
    with running(app) as base:
        table_id, links = kuhn_table(app, ["random", "remote"])
        done = subprocess.run(
            [sys.executable, str(bot), base + links[1]], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert app.state.lab.store.table(table_id).finished
        assert {m["by"] for m in app.state.lab.store.table(table_id).moves if m["seat"] == 1} == {
            "remote"
        }


def test_a_text_agent_plays_a_remote_seat_in_words(tmp_path):
    """A language model's stand-in reads the tier (b) prompt built from the seat's messages
    and names a listed move; each is taken (docs/agents_anywhere.md)."""
    from presages_env.text import TextAgent

    prompts: list[str] = []

    def complete(prompt: str) -> str:
        prompts.append(prompt)
        listed = prompt.split("Your legal moves:\n")[1]
        return "Move: " + re.findall(r"^ *\d+\. (.*)$", listed, re.MULTILINE)[-1]

    model = TextAgent("kuhn_poker", complete, tier="moves", retries=0, fallback="first")
    app = lab(tmp_path)
    with running(app) as base:
        table_id, links = kuhn_table(app, ["random", "remote"])
        final = asyncio.run(play(base + links[1], model))
    assert final["result"] and model.answers >= 1
    assert model.illegal_answers == model.fallbacks == 0
    assert "was dealt the" in prompts[0]  # the events the seat saw
    stored = app.state.lab.store.table(table_id).moves
    assert {m["by"] for m in stored if m["seat"] == 1} == {"remote"}
