"""The lab's store on SQLite and on a real PostgreSQL: the schema from Alembic, seats behind
hashed tokens, moves stored once per step, and a table's game rebuilt from its moves through
the checked replay."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest
from sqlalchemy import inspect, text

import presages_env
from presages_env.agents import RandomAgent
from presages_env.lab import store as store_module
from presages_env.lab.live import LiveGame
from presages_env.lab.store import (
    LinkReplaced,
    Move,
    SeatSpec,
    StaleMove,
    Store,
    database_url,
    hash_token,
    now,
)

SEATS = [SeatSpec("human", "Ada"), *[SeatSpec("heuristic", "heuristic")] * 3]
HEAD = "0004"  # the newest migration


def played(name: str, seed: int, moves: int) -> LiveGame:
    game = presages_env.get_game(name)
    live = LiveGame(game, game.default_players, seed, {})
    agent = RandomAgent(seed)
    for _ in range(moves):
        mask = np.zeros(game.num_actions(live.num_players), dtype=np.int8)
        mask[live.legal()] = 1
        live.play(agent.act(np.zeros(1), mask))
    return live


def test_migrations_make_the_schema_and_run_again_harmlessly(store: Store):
    store.migrate()
    tables = set(inspect(store.engine).get_table_names())
    assert {"lab_tables", "lab_seats", "lab_moves", "lab_studies", "lab_answers"} <= tables
    with store.engine.connect() as connection:
        assert connection.execute(text("select version_num from alembic_version")).scalar() == HEAD


def test_a_seat_opens_with_its_token_only_and_the_database_keeps_no_token(store: Store):
    table_id, tokens = store.create_table("president", 4, {}, 7, SEATS, 60)
    assert list(tokens) == [0]
    assert store.seat_of(table_id, tokens[0]) == 0
    other = "y" if tokens[0].endswith("x") else "x"  # (one token in 64 ends with x)
    assert store.seat_of(table_id, tokens[0][:-1] + other) is None
    assert store.seat_of(table_id, "") is None
    assert store.seat_of("other", tokens[0]) is None
    with store.engine.connect() as connection:
        dump = " ".join(map(str, connection.execute(text("select * from lab_seats")).all()))
    assert tokens[0] not in dump


def test_a_step_is_stored_once_and_the_game_rebuilds_from_the_moves(store: Store):
    live = played("president", 3, 12)
    table_id, _ = store.create_table("president", 4, {}, 3, SEATS, 60)
    for step, action in enumerate(live.actions):
        store.add_move(table_id, step, 0, action, f"move {step}", "human", 250 + step)
    with pytest.raises(StaleMove, match="step 5"):
        store.add_move(table_id, 5, 0, live.actions[5], "again", "human", 1)
    data = store.table(table_id)
    assert data.actions == live.actions and not data.finished
    assert [m["reaction_ms"] for m in data.moves] == [250 + s for s in range(12)]
    assert all(m["received_at"] for m in data.moves)
    game = presages_env.get_game("president")
    rebuilt = LiveGame.rebuilt(game, 4, data.seed, data.options, data.actions)
    assert np.array_equal(rebuilt.state, live.state)
    assert [e.text for e in rebuilt.events(0)] == [e.text for e in live.events(0)]


def test_a_group_commit_stores_every_move_but_a_stale_one(store: Store):
    first, _ = store.create_table("president", 4, {}, 1, SEATS, 60)
    second, _ = store.create_table("president", 4, {}, 2, SEATS, 60)
    store.add_move(first, 0, 0, 7, "played", "human")
    group = [
        Move(second, 0, 0, 3, "a", "agent"),
        Move(first, 0, 0, 8, "double click", "human"),  # step 0 is stored
        Move(first, 1, 1, 9, "last", "agent", None, True),
    ]
    outcomes = store.add_moves(group)
    assert isinstance(outcomes[1], StaleMove) and "step 0 of table" in str(outcomes[1])
    assert not isinstance(outcomes[0], StaleMove) and not isinstance(outcomes[2], StaleMove)
    assert store.table(first).actions == [7, 9] and store.table(first).finished
    assert store.table(second).actions == [3] and not store.table(second).finished


def test_a_persons_move_through_a_replaced_link_is_refused_where_it_would_be_stored(
    store: Store,
):
    table_id, tokens = store.create_table("president", 4, {}, 1, SEATS, 60)
    other, _ = store.create_table("president", 4, {}, 2, SEATS, 60)
    old = hash_token(tokens[0])
    fresh = hash_token(store.reissue_token(table_id, 0))
    group = [
        Move(table_id, 0, 0, 7, "through the old link", "human", 1, token_hash=old),
        Move(other, 0, 0, 3, "an agent's", "agent"),
    ]
    outcomes = store.add_moves(group)
    assert isinstance(outcomes[0], LinkReplaced) and not isinstance(outcomes[1], Exception)
    assert store.table(table_id).actions == [] and store.table(other).actions == [3]
    moved = Move(table_id, 0, 0, 7, "through the new link", "human", 1, token_hash=fresh)
    assert not isinstance(store.add_moves([moved])[0], Exception)
    assert store.table(table_id).actions == [7]


def test_stored_moves_that_the_rules_refuse_are_not_replayed():
    live = played("president", 3, 6)
    game = presages_env.get_game("president")
    illegal = [a for a in range(game.num_actions(4)) if a not in live.legal()][0]
    with pytest.raises(ValueError, match="action #6"):
        LiveGame.rebuilt(game, 4, 3, {}, [*live.actions, illegal])


def test_the_last_move_marks_the_table_finished(store: Store):
    table_id, _ = store.create_table("president", 4, {}, 1, SEATS, 60)
    store.add_move(table_id, 0, 0, 1, "last", "agent", None, finished=True)
    assert store.table(table_id).finished
    assert store.table_ids(finished=True) == [table_id]
    assert store.table_ids(finished=False) == []


def test_database_urls(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert database_url(None) == "sqlite:///runs/lab.sqlite3"
    assert database_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    with pytest.raises(ValueError, match="SQLite or PostgreSQL"):
        database_url("mysql://h/db")


@pytest.mark.parametrize(("durability", "synchronous"), [("process", 1), ("power", 2)])
def test_sqlite_commits_as_durable_as_asked(tmp_path, durability, synchronous):
    store = Store(f"sqlite:///{tmp_path / 'lab.db'}", durability)
    with store.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA synchronous")).scalar() == synchronous
    store.close()
    with pytest.raises(ValueError, match="durability"):
        Store(f"sqlite:///{tmp_path / 'lab.db'}", "sometimes")


def test_a_missing_table_or_seat_is_named_not_taken_for_a_stale_move(store: Store):
    with pytest.raises(LookupError, match="no table 'nope'"):
        store.add_move("nope", 0, 0, 1, "a move", "human")
    with pytest.raises(LookupError, match="no seat 0"):
        store.reissue_token("nope", 0)


def test_a_participant_who_consented_before_keys_is_refused_until_the_owner_issues_one(db_url):
    store = Store(db_url)
    store.migrate("0002")
    study = store.create_study({"name": "older"})
    with store.engine.begin() as connection:
        connection.execute(
            text("insert into lab_participants values (:s, 'p1', 'random', :t)"),
            {"s": study, "t": now()},
        )
    store.migrate()
    assert not store.holds_key(study, "p1", None) and not store.holds_key(study, "p1", "")
    key = store.reissue_key(study, "p1")
    assert store.holds_key(study, "p1", key) and not store.holds_key(study, "p1", key + "x")
    assert store.reissue_key(study, "p1") != key and not store.holds_key(study, "p1", key)
    with pytest.raises(LookupError, match="no participant"):
        store.reissue_key(study, "p2")
    store.close()


def test_a_participants_key_is_given_once_and_kept_as_a_hash(store: Store):
    study = store.create_study({"name": "keys"})
    key = store.add_participant(study, "p1", "random")
    assert key and store.holds_key(study, "p1", key)
    assert store.add_participant(study, "p1", "heuristic") is None  # in already: no new key
    with store.engine.connect() as connection:
        dump = " ".join(map(str, connection.execute(text("select * from lab_participants")).all()))
    assert key not in dump and hash_token(key) in dump


def later(monkeypatch, seconds: float) -> None:
    """The store's clock ``seconds`` on from now."""
    then = now() + dt.timedelta(seconds=seconds)
    monkeypatch.setattr(store_module, "now", lambda: then)


def test_an_unjoined_table_is_abandoned_at_its_deadline_until_a_move_or_a_new_link(
    store: Store, monkeypatch
):
    unjoined, _ = store.create_table("president", 4, {}, 1, SEATS, 60)
    joined, _ = store.create_table("president", 4, {}, 2, SEATS, 60)
    store.add_move(joined, 0, 0, 3, "a first move", "agent")
    assert store.open_tables() == 2 and store.abandoned_table_ids() == []
    later(monkeypatch, 61)
    assert store.open_tables() == 1 and store.abandoned_table_ids() == [unjoined]
    store.reissue_token(unjoined, 0)  # a participant's fresh link: a fresh deadline
    assert store.open_tables() == 2
    later(monkeypatch, 130)
    assert store.open_tables() == 1 and store.abandoned_table_ids() == [unjoined]
    assert set(store.table_ids(finished=False)) == {unjoined, joined}


def test_the_deadline_migration_gives_unjoined_tables_theirs(db_url, monkeypatch):
    store = Store(db_url)
    store.migrate("0003")
    created = now()
    insert = "insert into lab_tables values (:id, 'president', 4, '{}', 1, 60, :t, :end)"
    with store.engine.begin() as connection:
        for table_id, end in (("unjoined", None), ("joined", None), ("over", created)):
            connection.execute(text(insert), {"id": table_id, "t": created, "end": end})
        connection.execute(
            text("insert into lab_moves values ('joined', 0, 1, 3, 'x', 'agent', :t, null)"),
            {"t": created},
        )
    store.migrate()
    assert store.open_tables() == 2 and store.abandoned_table_ids() == []
    later(monkeypatch, 61)
    assert store.open_tables() == 1 and store.abandoned_table_ids() == ["unjoined"]
    store.close()
