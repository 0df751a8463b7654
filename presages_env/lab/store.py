"""The lab's database: tables, seats and moves (SQLAlchemy 2; SQLite by default, PostgreSQL
by URL), its schema kept by Alembic (``migrations/``).

A table is its game, player count, options and deal seed; its seats say who sits there (a
person or an allow-listed agent) and hold only a hash of each seat's token, so the database
never holds a working link. Its moves are the actions in order, each with the server's
receive time and the reaction time the browser measured. ``(table, step)`` is the moves'
primary key, so a move played twice (a double click, a replayed message) can never be
stored twice: :meth:`Store.add_move` raises :class:`StaleMove` instead, after nothing was
written. A person's move carries its link's token hash and is refused in the transaction
that would store it (:class:`LinkReplaced`) if the seat's token was reissued meanwhile. A
table's game is rebuilt from its stored moves (``live.LiveGame.rebuilt``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import hmac
import json
import secrets
from importlib.resources import files
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from presages_env.core.files import in_runs

DEFAULT_DB_NAME = "lab.sqlite3"  # under runs/
TOKEN_BYTES = 24  # a seat token: 192 random bits, URL-safe
MAX_TEXT = 200  # characters of a seat's name
# What an acknowledged move survives on SQLite -> its ``synchronous`` setting (WAL mode).
DURABILITY = {"process": "NORMAL", "power": "FULL"}


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "lab_tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    num_players: Mapped[int] = mapped_column(Integer)
    options: Mapped[str] = mapped_column(Text)  # JSON object
    seed: Mapped[int] = mapped_column(BigInteger)
    idle_seconds: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))
    # until its first move, when the table is abandoned unjoined (None once a move is stored)
    expires_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True))


class SeatRow(Base):
    __tablename__ = "lab_seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("lab_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))  # "human", "remote" or an allowed agent
    name: Mapped[str] = mapped_column(String(MAX_TEXT))
    token_hash: Mapped[str | None] = mapped_column(String(64), index=True)  # linked seats


class MoveRow(Base):
    __tablename__ = "lab_moves"
    table_id: Mapped[str] = mapped_column(ForeignKey("lab_tables.id"), primary_key=True)
    step: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(Text)
    by: Mapped[str] = mapped_column(String(16))  # "human", "remote", "agent", "timeout"...
    received_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    reaction_ms: Mapped[int | None] = mapped_column(Integer)  # as the browser measured it


class StudyRow(Base):
    __tablename__ = "lab_studies"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    spec: Mapped[str] = mapped_column(Text)  # the checked study file, as JSON
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ParticipantRow(Base):
    __tablename__ = "lab_participants"
    study_id: Mapped[str] = mapped_column(ForeignKey("lab_studies.id"), primary_key=True)
    participant: Mapped[str] = mapped_column(String(64), primary_key=True)  # the platform's id
    condition: Mapped[str] = mapped_column(String(40))
    consented_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    key_hash: Mapped[str | None] = mapped_column(String(64))  # their key's (None: none issued)


class StudyGameRow(Base):
    __tablename__ = "lab_study_games"
    study_id: Mapped[str] = mapped_column(ForeignKey("lab_studies.id"), primary_key=True)
    participant: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("lab_tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)


class AnswerRow(Base):
    __tablename__ = "lab_answers"
    study_id: Mapped[str] = mapped_column(ForeignKey("lab_studies.id"), primary_key=True)
    participant: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    question: Mapped[int] = mapped_column(Integer, primary_key=True)
    answer: Mapped[str] = mapped_column(Text)
    answered_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class StaleMove(Exception):
    """A move for a step already played (a double click, a replayed message)."""


class LinkReplaced(Exception):
    """A person's move through a link whose seat token was reissued since it was opened."""


@dataclasses.dataclass(frozen=True)
class SeatSpec:
    kind: str  # "human", "remote" or an agent of the allow-list
    name: str


@dataclasses.dataclass(frozen=True)
class Move:
    """A move to store (:meth:`Store.add_moves`); ``finished``: it ends the game."""

    table_id: str
    step: int
    seat: int
    action: int
    label: str
    by: str  # "human", "remote", "agent", "timeout" or "stand_in"
    reaction_ms: int | None = None
    finished: bool = False
    token_hash: str | None = None  # a person's move: the hash of the token it came with


@dataclasses.dataclass(frozen=True)
class TableData:
    """A stored table: what rebuilds its game, and its seats and moves in order."""

    id: str
    game: str
    num_players: int
    options: dict[str, Any]
    seed: int
    idle_seconds: int
    finished: bool
    seats: list[SeatSpec]
    moves: list[dict[str, Any]]
    in_study: bool = False  # a study's game: its page names no agent (the condition)

    @property
    def actions(self) -> list[int]:
        return [m["action"] for m in self.moves]


def database_url(url: str | None) -> str:
    """``url`` as SQLAlchemy takes it: None is the SQLite file under ``runs/``, and a plain
    ``postgresql://`` URL uses psycopg 3 (the ``lab`` extra's driver)."""
    if url is None:
        return f"sqlite:///{in_runs(DEFAULT_DB_NAME)}"
    parsed = make_url(url)  # raises ArgumentError (a ValueError) for a malformed URL
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    elif parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise ValueError(f"the lab stores to SQLite or PostgreSQL, not {parsed.drivername!r}")
    return parsed.render_as_string(hide_password=False)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Store:
    """The lab's tables, seats and moves in the database at ``url`` (see :func:`database_url`).

    ``durability`` is how SQLite commits (PostgreSQL keeps its own ``synchronous_commit``):
    ``"process"`` (``synchronous=NORMAL`` in WAL mode) makes a commit survive the server's
    process being killed, not the machine losing power; ``"power"`` (``synchronous=FULL``)
    syncs the log to disk at every commit, about 10 ms more per move (docs/lab.md).
    """

    def __init__(self, url: str | None = None, durability: str = "process") -> None:
        if durability not in DURABILITY:
            raise ValueError(f"durability is one of {sorted(DURABILITY)}, not {durability!r}")
        self.url = database_url(url)
        self.engine: Engine = create_engine(self.url, pool_pre_ping=True)
        if self.engine.dialect.name == "sqlite":
            synchronous = DURABILITY[durability]
            event.listen(self.engine, "connect", lambda c, _: _sqlite_pragmas(c, synchronous))

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to the newest Alembic revision, or ``revision`` (creates it in an
        empty database)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(files("presages_env.lab") / "migrations"))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)

    def close(self) -> None:
        self.engine.dispose()

    def create_table(
        self,
        game: str,
        num_players: int,
        options: dict[str, Any],
        seed: int,
        seats: list[SeatSpec],
        idle_seconds: int,
    ) -> tuple[str, dict[int, str]]:
        """Store a new table; returns its id and each linked seat's token (a person's or a
        remote agent's; only here: the database keeps their hashes)."""
        table_id = secrets.token_urlsafe(12)
        linked = [p for p, spec in enumerate(seats) if spec.kind in ("human", "remote")]
        tokens = {p: secrets.token_urlsafe(TOKEN_BYTES) for p in linked}
        created = now()
        with Session(self.engine) as session, session.begin():
            session.add(
                TableRow(
                    id=table_id,
                    game=game,
                    num_players=num_players,
                    options=json.dumps(options),
                    seed=seed,
                    idle_seconds=idle_seconds,
                    created_at=created,
                    finished_at=None,
                    expires_at=created + dt.timedelta(seconds=idle_seconds),
                )
            )
            session.flush()  # the table before its seats (PostgreSQL checks the foreign key)
            for p, spec in enumerate(seats):
                token = tokens.get(p)
                session.add(
                    SeatRow(
                        table_id=table_id,
                        seat=p,
                        kind=spec.kind,
                        name=spec.name,
                        token_hash=hash_token(token) if token else None,
                    )
                )
        return table_id, tokens

    def seat_of(self, table_id: str, token: str) -> int | None:
        """The seat ``token`` opens at ``table_id``, or None."""
        if not token:
            return None
        with Session(self.engine) as session:
            row = session.scalar(
                select(SeatRow).where(
                    SeatRow.table_id == table_id, SeatRow.token_hash == hash_token(token)
                )
            )
            return None if row is None else row.seat

    def table(self, table_id: str) -> TableData | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            )
            moves = session.scalars(
                select(MoveRow).where(MoveRow.table_id == table_id).order_by(MoveRow.step)
            )
            in_study = select(StudyGameRow.table_id).where(StudyGameRow.table_id == table_id)
            return TableData(
                row.id,
                row.game,
                row.num_players,
                json.loads(row.options),
                row.seed,
                row.idle_seconds,
                row.finished_at is not None,
                [SeatSpec(s.kind, s.name) for s in seats],
                [_move_json(m) for m in moves],
                session.scalar(in_study.limit(1)) is not None,
            )

    def table_ids(self, finished: bool | None = None) -> list[str]:
        """Every table's id, oldest first (only the finished or unfinished ones if asked)."""
        query = select(TableRow.id).order_by(TableRow.created_at)
        if finished is not None:
            query = query.where(
                TableRow.finished_at.is_not(None) if finished else TableRow.finished_at.is_(None)
            )
        with Session(self.engine) as session:
            return list(session.scalars(query))

    def open_tables(self) -> int:
        """How many tables are unfinished and not abandoned: the lobby's bound counts these."""
        query = (
            select(func.count())
            .select_from(TableRow)
            .where(
                TableRow.finished_at.is_(None),
                TableRow.expires_at.is_(None) | (TableRow.expires_at > now()),
            )
        )
        with Session(self.engine) as session:
            return session.scalar(query)

    def abandoned_table_ids(self) -> list[str]:
        """The tables left unjoined (no move stored) past their deadline, oldest first: they
        count no more as open; a seat that opens one later still plays it."""
        query = select(TableRow.id).where(
            TableRow.finished_at.is_(None), TableRow.expires_at <= now()
        )
        with Session(self.engine) as session:
            return list(session.scalars(query.order_by(TableRow.created_at)))

    def add_move(
        self,
        table_id: str,
        step: int,
        seat: int,
        action: int,
        label: str,
        by: str,
        reaction_ms: int | None = None,
        finished: bool = False,
    ) -> dt.datetime:
        """Store move ``step`` of the table (and the table's end with its last move) in one
        transaction, committed on return; raises :class:`StaleMove` if that step is stored."""
        move = Move(table_id, step, seat, action, label, by, reaction_ms, finished)
        outcome = self.add_moves([move])[0]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def add_moves(
        self, moves: list[Move]
    ) -> list[dt.datetime | StaleMove | LinkReplaced | LookupError]:
        """Store the moves in one transaction (one sync to disk for all: a group commit),
        committed on return; each move's receive time, or why it was refused: the
        :class:`StaleMove` it is (a step already stored), :class:`LinkReplaced` (its token
        was reissued) or a ``LookupError`` (no such table). After a refusal the others are
        stored one by one, the refused one not at all."""
        received = now()
        try:
            with Session(self.engine) as session, session.begin():
                for move in moves:
                    _write_move(session, move, received)
            return [received] * len(moves)
        except LinkReplaced as error:
            if len(moves) == 1:
                return [error]
        except IntegrityError:
            if len(moves) == 1:
                move = moves[0]
                if not self._exists(TableRow, move.table_id):  # not a stale move: no table
                    return [LookupError(f"there is no table {move.table_id!r}")]
                return [StaleMove(f"step {move.step} of table {move.table_id} is already played")]
        return [self.add_moves([move])[0] for move in moves]

    # ---- studies (lab/study.py) -------------------------------------------------------
    def create_study(self, spec: dict[str, Any]) -> str:
        study_id = secrets.token_urlsafe(12)
        with Session(self.engine) as session, session.begin():
            session.add(StudyRow(id=study_id, spec=json.dumps(spec), created_at=now()))
        return study_id

    def study(self, study_id: str) -> dict[str, Any] | None:
        with Session(self.engine) as session:
            row = session.get(StudyRow, study_id)
            return None if row is None else json.loads(row.spec)

    def condition_counts(self, study_id: str) -> dict[str, int]:
        with Session(self.engine) as session:
            rows = session.scalars(
                select(ParticipantRow.condition).where(ParticipantRow.study_id == study_id)
            )
            counts: dict[str, int] = {}
            for condition in rows:
                counts[condition] = counts.get(condition, 0) + 1
            return counts

    def add_participant(self, study_id: str, participant: str, condition: str) -> str | None:
        """Store the participant's consent and condition; their key (only here: the database
        keeps its hash), or None if they are already in."""
        key = secrets.token_urlsafe(TOKEN_BYTES)
        try:
            with Session(self.engine) as session, session.begin():
                session.add(
                    ParticipantRow(
                        study_id=study_id,
                        participant=participant,
                        condition=condition,
                        consented_at=now(),
                        key_hash=hash_token(key),
                    )
                )
        except IntegrityError:
            return None
        return key

    def holds_key(self, study_id: str, participant: str, key: str | None) -> bool:
        """Whether ``key`` is the participant's (False for no key, or none issued)."""
        with Session(self.engine) as session:
            row = session.get(ParticipantRow, (study_id, participant))
        if row is None or row.key_hash is None or not key:
            return False
        return hmac.compare_digest(row.key_hash, hash_token(key))

    def reissue_key(self, study_id: str, participant: str) -> str:
        """A new key for the participant (their old one stops working): the study's owner
        gives it to one who lost theirs. ``LookupError`` if they have not consented."""
        key = secrets.token_urlsafe(TOKEN_BYTES)
        with Session(self.engine) as session, session.begin():
            row = session.get(ParticipantRow, (study_id, participant))
            if row is None:
                raise LookupError(f"no participant {participant!r} in this study")
            row.key_hash = hash_token(key)
        return key

    def participant(self, study_id: str, participant: str) -> dict[str, Any] | None:
        """The participant's condition, games (index -> table id, seat) and answered games."""
        with Session(self.engine) as session:
            row = session.get(ParticipantRow, (study_id, participant))
            if row is None:
                return None
            mine = (StudyGameRow.study_id == study_id, StudyGameRow.participant == participant)
            games = {
                g.game_index: (g.table_id, g.seat)
                for g in session.scalars(select(StudyGameRow).where(*mine))
            }
            answered = set(
                session.scalars(
                    select(AnswerRow.game_index).where(
                        AnswerRow.study_id == study_id, AnswerRow.participant == participant
                    )
                )
            )
            return {"condition": row.condition, "games": games, "answered": answered}

    def add_study_game(
        self, study_id: str, participant: str, index: int, table_id: str, seat: int
    ) -> bool:
        """Link game ``index`` of the participant to a table; False if it already has one."""
        try:
            with Session(self.engine) as session, session.begin():
                session.add(
                    StudyGameRow(
                        study_id=study_id,
                        participant=participant,
                        game_index=index,
                        table_id=table_id,
                        seat=seat,
                    )
                )
        except IntegrityError:
            return False
        return True

    def add_answers(self, study_id: str, participant: str, index: int, answers: list[str]) -> bool:
        """Store the answers after game ``index``; False if they were given already."""
        try:
            with Session(self.engine) as session, session.begin():
                for question, answer in enumerate(answers):
                    session.add(
                        AnswerRow(
                            study_id=study_id,
                            participant=participant,
                            game_index=index,
                            question=question,
                            answer=answer,
                            answered_at=now(),
                        )
                    )
        except IntegrityError:
            return False
        return True

    def study_tables(self) -> dict[str, tuple[str, str, str]]:
        """Each study table's id -> (study, participant, condition)."""
        query = select(StudyGameRow.table_id, ParticipantRow).join(
            ParticipantRow,
            (ParticipantRow.study_id == StudyGameRow.study_id)
            & (ParticipantRow.participant == StudyGameRow.participant),
        )
        with Session(self.engine) as session:
            return {
                table_id: (p.study_id, p.participant, p.condition)
                for table_id, p in session.execute(query)
            }

    def answers(self) -> list[dict[str, Any]]:
        """Every answer to a study's questions, in order."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(AnswerRow).order_by(
                    AnswerRow.study_id,
                    AnswerRow.participant,
                    AnswerRow.game_index,
                    AnswerRow.question,
                )
            )
            return [
                {
                    "study": a.study_id,
                    "participant": a.participant,
                    "game": a.game_index,
                    "question": a.question,
                    "answer": a.answer,
                    "answered_at": a.answered_at.isoformat(),
                }
                for a in rows
            ]

    def reissue_token(self, table_id: str, seat: int) -> str:
        """A new token for the seat (its old link stops working): how a participant, who
        holds their key, not a link, gets back to their table. A table still unjoined gets
        a new deadline with it, its idle time from now."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with Session(self.engine) as session, session.begin():
            row = session.get(SeatRow, (table_id, seat))
            if row is None:
                raise LookupError(f"table {table_id!r} has no seat {seat}")
            row.token_hash = hash_token(token)
            table = session.get(TableRow, table_id)
            if table.expires_at is not None:
                table.expires_at = now() + dt.timedelta(seconds=table.idle_seconds)
        return token

    def _exists(self, row_type: type[Base], key: Any) -> bool:
        with Session(self.engine) as session:
            return session.get(row_type, key) is not None


def _write_move(session: Session, move: Move, received: dt.datetime) -> None:
    fields = dataclasses.asdict(move)
    finished, token_hash = fields.pop("finished"), fields.pop("token_hash")
    if token_hash is not None:  # checked where it is stored: no reissue slips in between
        seat = session.get(SeatRow, (move.table_id, move.seat))
        if seat is not None and seat.token_hash != token_hash:
            raise LinkReplaced(
                f"the link to seat {move.seat} of table {move.table_id} was replaced"
            )
    session.add(MoveRow(**fields, received_at=received))
    session.flush()  # the move first: a stored step stops here, and the table row exists
    if finished or move.step == 0:  # its end, or its first move: joined, it never expires
        table = session.get(TableRow, move.table_id)
        if table is None:  # where foreign keys are not enforced
            raise LookupError(f"there is no table {move.table_id!r}")
        table.expires_at = None
        if finished:
            table.finished_at = received


def _move_json(move: MoveRow) -> dict[str, Any]:
    return {
        "step": move.step,
        "seat": move.seat,
        "action": move.action,
        "label": move.label,
        "by": move.by,
        "received_at": move.received_at.isoformat(),
        "reaction_ms": move.reaction_ms,
    }


def _sqlite_pragmas(connection: Any, synchronous: str) -> None:
    """Foreign keys checked, a write-ahead log so readers never wait on the writer, and
    commits synced as the store's durability asks."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={synchronous}")
    cursor.close()
