"""The seat protocol's messages as pydantic models: the one source of the JSON Schema files
published under docs/protocol/ (``python -m presages_env.lab.protocol.schema docs/protocol``
writes them; tests/lab/test_protocol.py checks they are up to date and that real messages of
every game hold to them). The server builds its messages in :mod:`.messages`; these models
describe them, they are not on the server's path."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from presages_env.lab.protocol.messages import MAX_MESSAGE_BYTES, MAX_REACTION_MS
from presages_env.lab.remote import PROTOCOL_VERSION

Count = Annotated[int, Field(ge=0)]
Pair = Annotated[list[str], Field(min_length=2, max_length=2)]  # (symbol, meaning)


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Hello(_Message):
    """The first message on every socket: what does not change during the table."""

    type: Literal["hello"]
    protocol: Literal[PROTOCOL_VERSION]  # type: ignore[valid-type]
    game: str = Field(description="the game's registry name (presages_env.list_games())")
    players: int = Field(ge=1)
    title: str
    seat: Count = Field(description="this socket's seat, from 0")
    badge: str = Field(description='who this seat is, as "P3 · Ada"')
    names: list[str]
    kinds: list[str] = Field(description='"human", "remote", an agent, or at a study "agent"')
    rules: str
    legend: list[Pair]
    idle_rule: str


class PlayerView(_Message):
    name: str
    hand: list[str] | None = Field(description="null: hidden from this seat")
    hand_size: Count
    notes: list[str]
    area: list[str]


class TableView(_Message):
    players: list[PlayerView]
    table: list[str]
    status: list[str]
    to_act: int
    seat: int | None


class Choice(_Message):
    action: Count = Field(description="what a move sends back")
    label: str
    cards: list[str] = Field(description="the seat's own cards the action names")


class Face(_Message):
    name: str
    value: int | str | None
    colour: str | None
    symbols: list[Pair]


class Result(_Message):
    headline: str
    lines: list[str]


class State(_Message):
    """The table as this seat sees it, after every move (and on connecting)."""

    type: Literal["state"]
    step: Count = Field(description="moves played so far: the step a move now must carry")
    to_act: int = Field(ge=-1, description="the seat to act; -1 once the game is over")
    badges: list[str]
    view: TableView
    log: list[str] = Field(description="the newest events this seat saw, oldest first")
    actions: list[Choice] = Field(description="the legal moves when it is this seat's turn")
    help: dict[str, str]
    faces: dict[str, Face]
    result: Result | None
    obs: list[int] | None = Field(
        None, description="a remote agent's seat only: its observation vector (agents read it)"
    )


class Ack(_Message):
    """This socket's move was stored and played."""

    type: Literal["ack"]
    step: Count


class Refused(_Message):
    """A well-formed move that is not this seat's to play now (turn, step, legality)."""

    type: Literal["refused"]
    reason: str


class Error(_Message):
    """A message that is not a move (its fields, their types)."""

    type: Literal["error"]
    reason: str


class Move(_Message):
    """The one message a seat sends (its numbers written without a decimal point)."""

    type: Literal["move"]
    step: Count = Field(description="the step of the state it answers")
    action: Count = Field(description="one of that state's actions")
    reaction_ms: Annotated[int, Field(ge=0, le=MAX_REACTION_MS)] | None = Field(
        description="how long the seat took, if it measured it"
    )


ToSeat = Annotated[Hello | State | Ack | Refused | Error, Field(discriminator="type")]
SCHEMA_FILES = {"server-to-seat.schema.json": ToSeat, "seat-to-server.schema.json": Move}


def schemas() -> dict[str, dict[str, Any]]:
    """Each published schema file's name and contents."""
    made = {}
    for name, model in SCHEMA_FILES.items():
        schema = TypeAdapter(model).json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["title"] = f"presages_env lab seat protocol {PROTOCOL_VERSION}: {name[:-12]}"
        made[name] = schema
    made["seat-to-server.schema.json"]["description"] += f" At most {MAX_MESSAGE_BYTES} bytes."
    return made


def schema_text(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_schemas(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas().items():
        (folder / name).write_text(schema_text(schema), encoding="utf-8")


if __name__ == "__main__":
    write_schemas(Path(sys.argv[1]))
