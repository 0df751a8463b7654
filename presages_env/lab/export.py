"""``python -m presages_env lab export --db URL --out DIR``: every finished table as a game
record (``records.load`` reads it back, replayed and checked) and one flat table of
decisions, a row per move with the legal actions it was chosen among and the reaction time,
as CSV and as Parquet (typed columns: the legal actions a list of integers, the receive
time a UTC timestamp, a missing reaction time null); the studies' answers beside the
question's text and the game's name; and every table left out with the reason
(``skipped.csv``). Every time is ISO 8601 with its zone (UTC) in CSV, a UTC timestamp in
Parquet. The columns are described in docs/lab.md's data dictionary."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import re
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from presages_env import records
from presages_env.games import get_game
from presages_env.lab.live import option_values
from presages_env.lab.store import Store

TEXT, INT = pa.string(), pa.int64()
DECISION_SCHEMA = pa.schema(
    [
        ("study", TEXT),
        ("participant", TEXT),
        ("condition", TEXT),
        ("table", TEXT),
        ("game", TEXT),
        ("seat", INT),
        ("seat_kind", TEXT),
        ("step", INT),
        ("legal_actions", pa.list_(INT)),
        ("action", INT),
        ("label", TEXT),
        ("by", TEXT),
        ("received_at", pa.timestamp("us", tz="UTC")),
        ("reaction_ms", INT),  # null where the browser measured none (an agent's move)
    ]
)
DECISION_COLUMNS = tuple(DECISION_SCHEMA.names)
ANSWER_SCHEMA = pa.schema(
    [
        ("study", TEXT),
        ("participant", TEXT),
        ("condition", TEXT),
        ("game_index", INT),  # the participant's game it follows: 0 first
        ("table", TEXT),  # that game's table; empty if none was stored
        ("game", TEXT),  # the game's name, as in decisions
        ("question_index", INT),
        ("question", TEXT),  # the question's text, from the study file
        ("answer", TEXT),
        ("answered_at", pa.timestamp("us", tz="UTC")),
    ]
)
SKIPPED_COLUMNS = ("table", "game", "moves", "reason")
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # as the store makes them: a safe file name
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet would run such a cell


@dataclasses.dataclass(frozen=True)
class Exported:
    """What ``export`` wrote: the games (records), the decisions, the answers, and each
    table left out as (table, reason)."""

    games: int
    decisions: int
    answers: int
    skipped: list[tuple[str, str]]


def export(db_url: str | None, out: str | Path) -> Exported:
    """Write ``out/records/<table>.json`` per finished table, ``out/decisions.csv`` and
    ``out/decisions.parquet`` (the same rows), ``out/answers.csv`` and
    ``out/answers.parquet`` (studies' questionnaires) and ``out/skipped.csv`` (the tables
    left out, and why)."""
    store = Store(db_url)
    out = Path(out)
    (out / "records").mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    games = 0
    try:
        in_study = store.study_tables()
        for table_id in store.table_ids():
            data = store.table(table_id)
            if not data.finished:
                skipped.append(_skip(data, "unfinished: the game is not over"))
                continue
            try:
                rows += _table_decisions(store, table_id, out, in_study)
                games += 1
            except ValueError as error:  # moves that do not replay: a damaged database
                skipped.append(_skip(data, f"its moves do not replay: {error}"))
        answers = _answers(store, in_study)
    finally:
        store.close()
    _write_decisions(rows, out)
    _write(out / "answers", ANSWER_SCHEMA, answers, ANSWER_SCHEMA.names)
    with open(out / "skipped.csv", "w", newline="", encoding="utf-8") as sheet:
        writer = csv.DictWriter(sheet, SKIPPED_COLUMNS)
        writer.writeheader()
        writer.writerows(skipped)
    left_out = [(row["table"], row["reason"]) for row in skipped]
    return Exported(games, len(rows), len(answers), left_out)


def _skip(data: Any, reason: str) -> dict[str, Any]:
    return {"table": data.id, "game": data.game, "moves": len(data.moves), "reason": reason}


def _answers(store: Store, in_study: dict[str, tuple[str, str, str]]) -> list[dict[str, Any]]:
    """Every answer with its question's text, its game's table and name, and the time in
    UTC: the store keeps the question and the game as indices."""
    specs: dict[str, dict[str, Any]] = {}
    games: dict[tuple[str, str], dict[int, tuple[str, int]]] = {}
    rows = []
    for answer in store.answers():
        study, participant = answer["study"], answer["participant"]
        spec = specs.setdefault(study, store.study(study) or {})
        if (study, participant) not in games:
            mine = store.participant(study, participant)
            games[(study, participant)] = mine["games"] if mine else {}
        table = games[(study, participant)].get(answer["game"], ("", 0))[0]
        questions = spec.get("questions", [])
        index = answer["question"]
        data = store.table(table) if table else None
        rows.append(
            {
                "study": study,
                "participant": participant,
                "condition": in_study.get(table, ("", "", ""))[2],
                "game_index": answer["game"],
                "table": table,
                "game": data.game if data else spec.get("game", ""),
                "question_index": index,
                "question": questions[index] if 0 <= index < len(questions) else "",
                "answer": answer["answer"],
                "answered_at": _utc(answer["answered_at"]),
            }
        )
    return rows


def _table_decisions(
    store: Store, table_id: str, out: Path, in_study: dict[str, tuple[str, str, str]]
) -> list[dict[str, Any]]:
    """Save the table's record; its decisions as rows of :data:`DECISION_SCHEMA`."""
    if not TABLE_ID.fullmatch(table_id):
        raise ValueError(f"table id {table_id!r} is not one the lab makes: no file is named so")
    data = store.table(table_id)
    names = [s.name for s in data.seats]
    rec = records.record(
        data.game, data.num_players, data.seed, data.actions, names, **option_values(data.options)
    )
    records.save(rec, out / "records" / f"{table_id}.json")
    states = records.replay(rec)
    game = get_game(data.game)
    mask = np.zeros(game.num_actions(data.num_players), dtype=np.int8)
    study, participant, condition = in_study.get(table_id, ("", "", ""))
    rows = []
    for move, state in zip(data.moves, states[:-1], strict=True):
        game.kernel.legal_mask(state, mask)
        rows.append(
            {
                "study": study,
                "participant": participant,
                "condition": condition,
                "table": table_id,
                "game": data.game,
                "seat": move["seat"],
                "seat_kind": data.seats[move["seat"]].kind,
                "step": move["step"],
                "legal_actions": [int(a) for a in np.flatnonzero(mask)],
                "action": move["action"],
                "label": move["label"],
                "by": move["by"],
                "received_at": _utc(move["received_at"]),
                "reaction_ms": move["reaction_ms"],
            }
        )
    return rows


def _utc(stored: str) -> dt.datetime:
    """A stored time in UTC: SQLite gives it back without its zone (it was stored in UTC),
    PostgreSQL with it; both export alike."""
    time = dt.datetime.fromisoformat(stored)
    return time.replace(tzinfo=dt.UTC) if time.tzinfo is None else time.astimezone(dt.UTC)


def _cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet shows as text: one starting like a formula gets a
    leading quote (``'=...``); the Parquet file keeps the value as stored."""
    return f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_START) else value


def _write_decisions(rows: list[dict[str, Any]], out: Path) -> None:
    _write(out / "decisions", DECISION_SCHEMA, rows, DECISION_COLUMNS)


def _write(stem: Path, schema: pa.Schema, rows: list[dict[str, Any]], columns: Any) -> None:
    """``rows`` as ``stem.csv`` (lists space-separated, times ISO 8601 with their zone,
    null empty, formula-like text quoted) and ``stem.parquet`` (typed by ``schema``)."""
    with open(stem.with_suffix(".csv"), "w", newline="", encoding="utf-8") as sheet:
        writer = csv.writer(sheet)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_csv_value(row[name]) for name in columns])
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), stem.with_suffix(".parquet"))


def _csv_value(value: Any) -> Any:
    if isinstance(value, list):
        return " ".join(map(str, value))
    if isinstance(value, dt.datetime):
        return value.isoformat()
    return "" if value is None else _cell(value)
