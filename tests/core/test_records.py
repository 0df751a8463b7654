"""Game records: every game's record round-trips (save, load, replay to the same states and
result), and a record that lies or is malformed is refused with a reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import presages_env
from presages_env import records
from presages_env.core.header import HDR_TERMINAL

GAMES = presages_env.list_games()


def random_game(name: str, seed: int) -> tuple[int, list[int], list[np.ndarray]]:
    game = presages_env.get_game(name)
    n = game.default_players
    rng = np.random.default_rng(seed)
    state = game.new_state(n, seed)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    actions, states = [], [state.copy()]
    while not state[HDR_TERMINAL]:
        game.kernel.legal_mask(state, mask)
        actions.append(int(rng.choice(np.flatnonzero(mask))))
        game.kernel.step(state, np.int64(actions[-1]), rewards)
        states.append(state.copy())
    return n, actions, states


@pytest.mark.parametrize("name", GAMES)
def test_a_record_round_trips(name, tmp_path):
    n, actions, states = random_game(name, seed=11)
    agents = ["<script>alert(1)</script>"] + [f"heuristic_{p}" for p in range(1, n)]
    rec = records.record(name, n, 11, actions, agents)
    path = tmp_path / "game.json"
    records.save(rec, path)
    loaded = records.load(path)
    assert loaded == rec
    replayed = records.replay(loaded)
    assert len(replayed) == len(states)
    assert all(np.array_equal(a, b) for a, b in zip(replayed, states, strict=True))
    data = json.loads(path.read_text())
    assert data["version"] == records.FORMAT_VERSION and data["steps"] == len(actions)
    assert data["agents"][0] == "<script>alert(1)</script>"  # data, escaped where shown
    assert all(e["kind"] for e in data["events"])


def _tampered(name: str, tmp_path, change) -> dict:
    n, actions, _ = random_game(name, seed=3)
    data = records.record(name, n, 3, actions).to_json()
    change(data)
    return data


@pytest.mark.parametrize("name", GAMES)
def test_a_record_that_disagrees_with_the_rules_is_refused(name, tmp_path):
    def illegal(d):
        game = presages_env.get_game(name)
        state = game.new_state(d["num_players"], d["seed"])
        mask = np.zeros(game.num_actions(d["num_players"]), dtype=np.int8)
        game.kernel.legal_mask(state, mask)
        d["actions"][0]["action"] = int(np.flatnonzero(mask == 0)[0])

    def label(d):
        d["actions"][-1]["label"] = "something else"

    def result(d):
        d["result"][0] += 1

    def event(d):
        d["events"][0]["args"] = {"forged": 1}

    def short(d):
        d["actions"] = d["actions"][:-1]
        d["steps"] -= 1

    for change, message in (
        (illegal, "action #0"),
        (label, "the rules give"),
        (result, "result"),
        (event, "events"),
        (short, "not over"),
    ):
        rec = records.from_json(_tampered(name, tmp_path, change))
        with pytest.raises(ValueError, match=message):
            records.replay(rec)


def test_malformed_records_are_refused_before_any_replay(tmp_path):
    name = GAMES[0]
    n, actions, _ = random_game(name, seed=2)
    good = records.record(name, n, 2, actions).to_json()
    cases = [
        ({"format": "other"}, "not a game record"),
        (dict(good, version=99), "version"),
        (dict(good, game="chess"), "unknown game"),
        (dict(good, num_players=99), "num_players"),
        (dict(good, options={"no_such_option": 1}), "unknown option"),
        (dict(good, seed=-5), "seed"),
        (dict(good, agents=["a"]), "agents"),
        (dict(good, agents=["x" * 1000] * n), "agents"),
        (dict(good, actions=[{"seat": True, "action": 0, "label": ""}]), "action #0"),
        (dict(good, actions="0 1 2"), "actions"),
        (dict(good, result=[float("nan")] * n), "result"),
        (dict(good, steps=1), "steps"),
    ]
    for data, message in cases:
        with pytest.raises((ValueError, TypeError), match=message):
            records.from_json(data)
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        records.load(path)


def test_evaluate_writes_sample_games_that_replay(tmp_path):
    root = Path(__file__).resolve().parents[2]
    subprocess.run(
        [
            sys.executable,
            str(root / "baselines" / "evaluate.py"),
            "--game",
            "president",
            "--agents",
            "random",
            "heuristic",
            "--games",
            "4",
            "--num-envs",
            "4",
            "--record",
            "2",
            "--out",
            str(tmp_path),
        ],
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(root)),
    )
    saved = sorted((tmp_path / "records").glob("*.json"))
    assert [p.name for p in saved] == [
        "heuristic-vs-random-0.json",
        "heuristic-vs-random-1.json",
        "random-vs-heuristic-0.json",
        "random-vs-heuristic-1.json",
    ]
    for path in saved:
        rec = records.load(path)
        records.replay(rec)
        first = path.name.split("-vs-")[0]
        assert rec.agents.count(first) == 1  # one seat, rotating
