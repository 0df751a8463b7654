"""A request for a new table, as the lobby sends it, checked before anything is stored:
the game from the registry, the player count and options by the game's own checks, each
seat a person or an allow-listed agent, names as bounded plain text."""

from __future__ import annotations

import dataclasses
import json
import secrets
from typing import Any

import presages_env
from presages_env.core.validation import check_display_name, check_int
from presages_env.games import get_game
from presages_env.lab.agents_pool import ALLOWED_AGENTS, HUMAN, seat_agent
from presages_env.lab.live import option_values
from presages_env.lab.store import MAX_TEXT, SeatSpec

MAX_NAME = 40  # characters of a person's name at the table
MIN_IDLE, MAX_IDLE = 10, 3600  # seconds a person may take over one move
REQUEST_FIELDS = {"game", "players", "options", "seats", "names", "idle_seconds"}
assert MAX_NAME <= MAX_TEXT


@dataclasses.dataclass(frozen=True)
class TableRequest:
    game: str
    num_players: int
    options: dict[str, Any]  # the game's whole options dataclass, as JSON values
    seats: list[SeatSpec]
    idle_seconds: int
    seed: int


def games_offered() -> list[dict[str, Any]]:
    """Each registered game with its player counts and options' defaults, for the lobby."""
    offered = []
    for name in presages_env.list_games():
        game = get_game(name)
        defaults = _json_options(game.make_options(game.default_players))
        offered.append(
            {
                "name": name,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "default_players": game.default_players,
                "options": defaults,
            }
        )
    return offered


def table_request(data: Any, default_idle: int) -> TableRequest:
    """The checked request (``ValueError``/``TypeError`` naming what is wrong)."""
    if not isinstance(data, dict) or not set(data) <= REQUEST_FIELDS or "game" not in data:
        raise ValueError(f"a table request has the fields {sorted(REQUEST_FIELDS)}")
    name = data["game"]
    if name not in presages_env.list_games():
        raise ValueError(f"unknown game {name!r:.40}; games: {presages_env.list_games()}")
    game = get_game(name)
    n = game.check_num_players(data.get("players", game.default_players))
    raw = data.get("options", {})
    if not isinstance(raw, dict):
        raise TypeError("options must be an object of option names to values")
    options = game.make_options(n, **option_values(raw))
    kinds = data.get("seats", [HUMAN] + ["heuristic"] * (n - 1))
    if not isinstance(kinds, list) or len(kinds) != n:
        raise ValueError(f"seats must list {n} kinds: human or {sorted(ALLOWED_AGENTS)}")
    names = data.get("names", [None] * n)
    if not isinstance(names, list) or len(names) != n:
        raise ValueError(f"names must list {n} names (null for the default)")
    seed = secrets.randbelow(2**63)
    seats = []
    for p, (kind, seat_name) in enumerate(zip(kinds, names, strict=True)):
        if kind != HUMAN:
            seat_agent(kind, name, seed, p, n)  # refused here if unknown or unavailable
        default = f"player {p + 1}" if kind == HUMAN else str(kind)
        shown = default
        if seat_name is not None:
            shown = check_display_name(seat_name, f"names[{p}]", MAX_NAME)
        seats.append(SeatSpec(kind, " ".join(shown.split()) or default))
    if HUMAN not in kinds:
        raise ValueError("a table needs at least one person")
    idle = check_int(data.get("idle_seconds", default_idle), "idle_seconds", MIN_IDLE, MAX_IDLE)
    return TableRequest(name, n, _json_options(options), seats, idle, seed)


def _json_options(options: Any) -> dict[str, Any]:
    """An options dataclass as JSON values (NumPy scalars to numbers, tuples to lists)."""
    return json.loads(json.dumps(dataclasses.asdict(options), default=lambda v: v.item()))
