"""Game records: every game's record round-trips (save, load, replay to the same states and
result), and a record that lies or is malformed is refused with a reason."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import presages_env
from presages_env import records
from presages_env.core.header import HDR_TERMINAL
from presages_env.fuzzing.records import fuzz_records

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
        data = _tampered(name, tmp_path, change)
        with pytest.raises(ValueError, match=message):
            records.from_json(data)  # a record from outside is replayed as it is read
        in_memory = {k: v for k, v in data.items() if k not in ("format", "version", "steps")}
        with pytest.raises(ValueError, match=message):
            records.replay(records.GameRecord(**in_memory))


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


# ---- records from outside (issue 27, defect 6) ----------------------------------------------
def good_record(name: str = "president") -> dict:
    n, actions, _ = random_game(name, seed=2)
    return records.record(name, n, 2, actions).to_json()


@pytest.mark.parametrize(
    "text",
    ['{"format": ' + "[" * 100_000 + "]" * 100_000 + "}", "[" * 100_000, '{"a":' * 50_000],
    ids=["closed", "open", "objects"],
)
def test_deeply_nested_json_is_refused_with_a_reason(text, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="nested"):
        records.load(path)


def test_a_result_too_large_for_a_float_is_refused():
    data = good_record()
    data["result"][0] = 10**400
    with pytest.raises(ValueError, match="result"):
        records.from_json(data)


@pytest.mark.parametrize("version", [True, 1.0, "1", None])
def test_the_version_must_be_the_int_this_library_reads(version):
    with pytest.raises(ValueError, match="version"):
        records.from_json(dict(good_record(), version=version))


def test_a_lone_surrogate_in_an_agent_name_is_refused_by_load(tmp_path):
    data = good_record()
    data["agents"][0] = "bad \ud800 name"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))  # the JSON escape \ud800: valid JSON, not valid text
    with pytest.raises(ValueError, match="agents"):
        records.load(path)


@pytest.mark.parametrize("name", GAMES)
def test_fuzzed_records_are_refused_cleanly_or_load_and_work(name):
    report = fuzz_records(name, 300, seed=1)
    assert not report.failures, "\n".join(report.failures[:10])
    assert report.outcomes["refused"] and report.outcomes["loaded"], report.line()


def test_a_record_larger_than_the_bound_is_refused_unread():
    too_long = " " * (records.MAX_RECORD_BYTES + 1)
    for text in (too_long, too_long.encode()):
        with pytest.raises(ValueError, match="more than"):
            records.loads(text)


def test_save_refuses_what_load_refuses_and_leaves_the_file_as_it_was(tmp_path):
    rec = records.from_json(good_record())
    bad = dataclasses.replace(rec, agents=["bad \ud800 name", *rec.agents[1:]])
    path = tmp_path / "game.json"
    path.write_text("the previous record")
    with pytest.raises(ValueError, match="agents"):
        records.save(bad, path)
    assert path.read_text() == "the previous record"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


@pytest.mark.parametrize(
    ("name", "shown"),
    [("ev\u202eil", "U+202E"), ("a\x00b", "U+0000"), ("\x1b[2J", "U+001B"), ("a\u2066b", "U+2066")],
)
def test_an_agent_name_with_a_control_or_format_character_is_refused_by_load(name, shown):
    data = good_record()
    data["agents"][1] = name
    with pytest.raises(ValueError, match=rf"agents\[1\].*{re.escape(shown)}"):
        records.loads(json.dumps(data))


def test_agent_names_load_normalised_and_legal_names_are_kept():
    data = good_record()
    data["agents"] = ["e\u0301mile", "王小明", "Zoë 🃏", "👩🏽\u200d💻"]
    assert records.loads(json.dumps(data)).agents == ["émile", "王小明", "Zoë 🃏", "👩🏽\u200d💻"]


# ---- unfinished records: a game left before its end (issue 50) ------------------------------
def test_an_unfinished_record_round_trips_and_replays_its_moves(tmp_path):
    n, actions, states = random_game("president", seed=4)
    kept = len(actions) // 2
    rec = records.record("president", n, 4, actions[:kept], ["you"] + ["random"] * (n - 1))
    assert not rec.finished and rec.result is None
    path = tmp_path / "left.json"
    records.save(rec, path)
    data = json.loads(path.read_text())
    assert (data["finished"], data["result"], data["steps"]) == (False, None, kept)
    loaded = records.load(path)
    assert loaded == rec
    replayed = records.replay(loaded)
    assert all(np.array_equal(a, b) for a, b in zip(replayed, states[: kept + 1], strict=True))


def test_an_unfinished_record_with_an_illegal_move_is_refused():
    n, actions, _ = random_game("president", seed=4)
    data = records.record("president", n, 4, actions[:5]).to_json()
    game = presages_env.get_game("president")
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    game.kernel.legal_mask(game.new_state(n, 4), mask)
    data["actions"][0]["action"] = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="action #0"):
        records.from_json(data)


def test_a_record_must_say_truly_whether_its_game_is_finished():
    """An unfinished record whose actions end the game is refused (it would hide a result the
    rules give), as is a finished one whose game is not over; 'finished' is only ever false."""
    n, actions, _ = random_game("president", seed=4)
    whole = records.record("president", n, 4, actions).to_json()
    part = records.record("president", n, 4, actions[:5]).to_json()
    cases = [
        (dict(whole, result=None, finished=False), "unfinished, but its"),
        (dict(part, finished=True), "only as false"),
        (dict(part, finished=0), "only as false"),
        (dict(part, result=whole["result"]), "result must be null"),
        ({k: v for k, v in part.items() if k != "finished"}, "result must list"),
    ]
    for data, message in cases:
        with pytest.raises((ValueError, TypeError), match=message):
            records.from_json(data)


def test_a_finished_record_has_no_finished_key_and_re_saves_byte_for_byte(tmp_path):
    n, actions, _ = random_game("president", seed=4)
    path, again = tmp_path / "game.json", tmp_path / "again.json"
    records.save(records.record("president", n, 4, actions), path)
    assert "finished" not in json.loads(path.read_text())
    records.save(records.load(path), again)
    assert again.read_bytes() == path.read_bytes()
