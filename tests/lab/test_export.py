"""``python -m presages_env lab export``: finished tables as records that load, replay and
pass their checks, and one row per decision in CSV and in Parquet (typed); unfinished
tables are left out. And the lab's commands' refusals."""

from __future__ import annotations

import csv

import extras
import pytest

extras.require("lab")

import pyarrow.parquet as pq  # noqa: E402

from presages_env import records  # noqa: E402
from presages_env.__main__ import main  # noqa: E402
from presages_env.agents import RandomAgent  # noqa: E402
from presages_env.lab.export import DECISION_SCHEMA  # noqa: E402
from presages_env.lab.store import SeatSpec, Store  # noqa: E402


def test_finished_tables_export_as_records_and_decisions(store: Store, tmp_path, capsys):
    rec = records.play_recorded("president", [RandomAgent(p) for p in range(4)], ["x"] * 4, 9)
    seats = [SeatSpec("human", "Ada <i>"), *[SeatSpec("random", "random")] * 3]
    table_id, _ = store.create_table("president", 4, {}, 9, seats, 60)
    last = len(rec.actions) - 1
    for step, move in enumerate(rec.actions):
        by = "human" if move["seat"] == 0 else "agent"
        reaction = 700 if by == "human" else None
        store.add_move(
            table_id, step, move["seat"], move["action"], move["label"], by, reaction, step == last
        )
    unfinished, _ = store.create_table("president", 4, {}, 1, seats, 60)  # not exported
    out = tmp_path / "out"
    assert main(["lab", "export", "--db", store.url, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "wrote 1 records" in printed and "skipped 1 tables" in printed
    assert f"skipped table {unfinished}: unfinished" in printed  # said, not silent
    with open(out / "skipped.csv", encoding="utf-8") as sheet:
        skipped = list(csv.DictReader(sheet))
    assert skipped == [
        {"table": unfinished, "game": "president", "moves": "0", "reason": skipped[0]["reason"]}
    ]
    assert skipped[0]["reason"].startswith("unfinished")
    loaded = records.load(out / "records" / f"{table_id}.json")
    assert loaded.actions == rec.actions and loaded.agents == ["Ada <i>", *["random"] * 3]
    with open(out / "decisions.csv", encoding="utf-8") as sheet:
        rows = list(csv.DictReader(sheet))
    assert len(rows) == len(rec.actions)
    assert all(r["action"] in r["legal_actions"].split() for r in rows)
    human = [r for r in rows if r["seat"] == "0"]
    assert human and {r["reaction_ms"] for r in human} == {"700"}
    assert {r["seat_kind"] for r in human} == {"human"}
    table = pq.read_table(out / "decisions.parquet")
    assert table.schema == DECISION_SCHEMA and table.num_rows == len(rows)
    typed = table.to_pylist()
    assert [r["action"] for r in typed] == [int(r["action"]) for r in rows]
    assert all(r["action"] in r["legal_actions"] for r in typed)
    assert [r["reaction_ms"] for r in typed] == [700 if r["seat"] == 0 else None for r in typed]
    # the same UTC times in both files, on either database
    assert [r["received_at"].isoformat() for r in typed] == [r["received_at"] for r in rows]
    assert all(r["received_at"].endswith("+00:00") for r in rows)


def test_the_commands_refuse_bad_settings_in_one_line(tmp_path, capsys):
    assert main(["lab", "migrate", "--db", "mysql://h/db"]) == 1
    assert main(["serve", "--idle-seconds", "1"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "SQLite or PostgreSQL" in err[0] and "idle seconds" in err[1]
    url = f"sqlite:///{tmp_path / 'lab.db'}"
    assert main(["lab", "migrate", "--db", url]) == 0
    assert main(["lab", "export", "--db", url, "--out", str(tmp_path / "out")]) == 0
    assert "wrote 0 records" in capsys.readouterr().out
    assert (tmp_path / "out" / "skipped.csv").read_text(encoding="utf-8").strip() == (
        "table,game,moves,reason"
    )


def test_formula_like_cells_are_quoted_and_a_table_id_is_checked_before_naming_a_file(
    store: Store, tmp_path
):
    from presages_env.lab import export

    study_id = store.create_study({"name": "s"})
    store.add_participant(study_id, "-p1", "random")
    store.add_answers(study_id, "-p1", 0, ['=HYPERLINK("http://evil")', "+1", "@x", "fine"])
    out = tmp_path / "out"
    export.export(store.url, out)
    with open(out / "answers.csv", encoding="utf-8") as sheet:
        rows = list(csv.DictReader(sheet))
    assert [r["answer"] for r in rows] == ['\'=HYPERLINK("http://evil")', "'+1", "'@x", "fine"]
    assert {r["participant"] for r in rows} == {"'-p1"}
    with pytest.raises(ValueError, match="not one the lab makes"):
        export._table_decisions(store, "../../etc/x", out, {})


def test_answers_carry_the_question_text_the_game_name_and_a_time_zone(store: Store, tmp_path):
    """answers.csv gave the question as an index, the game as an index (a name in
    decisions) and its time without a zone: now the text beside the index, the game's name
    and table, and ISO 8601 with +00:00 (a UTC timestamp in answers.parquet)."""
    from presages_env.lab import export

    spec = {"name": "s", "game": "president", "questions": ["How fair?", "Again?"]}
    study_id = store.create_study(spec)
    store.add_participant(study_id, "p1", "heuristic")
    seats = [SeatSpec("human", "p1"), *[SeatSpec("heuristic", "heuristic")] * 3]
    table_id, _ = store.create_table("president", 4, {}, 3, seats, 60)
    store.add_study_game(study_id, "p1", 0, table_id, 0)
    store.add_answers(study_id, "p1", 0, ["quite", "yes"])
    out = tmp_path / "out"
    done = export.export(store.url, out)
    assert done.answers == 2 and done.skipped == [(table_id, done.skipped[0][1])]
    with open(out / "answers.csv", encoding="utf-8") as sheet:
        rows = list(csv.DictReader(sheet))
    assert [(r["question_index"], r["question"], r["answer"]) for r in rows] == [
        ("0", "How fair?", "quite"),
        ("1", "Again?", "yes"),
    ]
    assert {(r["game_index"], r["game"], r["table"], r["condition"]) for r in rows} == {
        ("0", "president", table_id, "heuristic")
    }
    assert all(r["answered_at"].endswith("+00:00") for r in rows)
    typed = pq.read_table(out / "answers.parquet")
    assert typed.schema == export.ANSWER_SCHEMA
    assert [r["answered_at"].isoformat() for r in typed.to_pylist()] == [
        r["answered_at"] for r in rows
    ]
