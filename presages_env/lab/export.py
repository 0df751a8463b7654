"""``python -m presages_env lab export --db URL --out DIR``: every finished table as a game
record (``records.load`` reads it back, replayed and checked) and one flat table of
decisions, a row per move with the legal actions it was chosen among and the reaction time,
as CSV and as Parquet (typed columns: the legal actions a list of integers, the receive
time a UTC timestamp, a missing reaction time null)."""

from __future__ import annotations

import csv
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
ANSWER_COLUMNS = ("study", "participant", "game", "question", "answer", "answered_at")
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # as the store makes them: a safe file name
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet would run such a cell


def export(db_url: str | None, out: str | Path) -> tuple[int, int]:
    """Write ``out/records/<table>.json`` per finished table, ``out/decisions.csv`` and
    ``out/decisions.parquet`` (the same rows) and ``out/answers.csv`` (studies'
    questionnaires); returns (games, decisions) written."""
    store = Store(db_url)
    out = Path(out)
    (out / "records").mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    games = 0
    try:
        in_study = store.study_tables()
        for table_id in store.table_ids(finished=True):
            rows += _table_decisions(store, table_id, out, in_study)
            games += 1
        answers = store.answers()
    finally:
        store.close()
    _write_decisions(rows, out)
    with open(out / "answers.csv", "w", newline="", encoding="utf-8") as sheet:
        writer = csv.DictWriter(sheet, ANSWER_COLUMNS)
        writer.writeheader()
        writer.writerows({k: _cell(v) for k, v in answer.items()} for answer in answers)
    return games, len(rows)


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
    with open(out / "decisions.csv", "w", newline="", encoding="utf-8") as sheet:
        writer = csv.writer(sheet)
        writer.writerow(DECISION_COLUMNS)
        for row in rows:
            writer.writerow(
                [
                    " ".join(map(str, value))
                    if name == "legal_actions"
                    else value.isoformat()
                    if name == "received_at"
                    else ""
                    if value is None
                    else _cell(value)
                    for name, value in row.items()
                ]
            )
    pq.write_table(pa.Table.from_pylist(rows, schema=DECISION_SCHEMA), out / "decisions.parquet")
