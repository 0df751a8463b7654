"""A request for a new table, as the lobby sends it, checked before anything is stored:
the game from the registry, the player count and options by the game's own checks, each
seat a person, a remote agent (a program that connects through the seat's link, as a person
does: lab/remote.py) or an allow-listed agent, names as bounded plain text."""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
from typing import Any

import presages_env
from presages_env.agents.specs import shipped_agents
from presages_env.core.option_space import Draw, OptionInfo
from presages_env.core.seats import PERSON
from presages_env.core.validation import check_display_name, check_int
from presages_env.games import FLAGSHIP_GAME, available_games, get_game, unavailable_games
from presages_env.lab.agents_pool import ALLOWED_AGENTS, HUMAN, LINKED, REMOTE, seat_agent
from presages_env.lab.live import option_values
from presages_env.lab.store import MAX_TEXT, SeatSpec

LOG = logging.getLogger(__name__)
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
    """Each registered game that loads, for the lobby (:func:`games_unavailable` lists the
    others): its player counts, the agents that can sit at each count
    (:func:`~presages_env.agents.specs.shipped_agents`), whether it is the one offered first
    (``FLAGSHIP_GAME``), and the options a table may set (not the training-only ones), each
    with its label, description, range, default and the input that fits it."""
    offered = []
    for name in available_games():
        game = get_game(name)
        counts = range(game.min_players, game.max_players + 1)
        defaults = _json_options(game.make_options(game.default_players))
        offered.append(
            {
                "name": name,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "default_players": game.default_players,
                "default": name == FLAGSHIP_GAME,
                "agents": {str(n): lab_agents(name, n) for n in counts},
                "options": [
                    _option_input(info, game.option_space[info.name], defaults, counts)
                    for info in presages_env.options(name)
                    if not info.training_only
                ],
            }
        )
    return offered


def games_unavailable() -> dict[str, str]:
    """``{name: why}`` for each game offered that does not load (a plug-in naming a missing
    module, say), as :func:`answered_reason` words it."""
    return {name: answered_reason(name, why) for name, why in unavailable_games().items()}


def answered_reason(name: str, why: str) -> str:
    """Why game ``name`` is unavailable, logged whole and answered as is unless it names a
    file (a web answer never carries a server path)."""
    LOG.warning("%s", why)
    if "/" in why or "\\" in why:
        return f"game {name!r:.40} is unavailable: its package does not load (see the log)"
    return why


def lab_agents(game: str, num_players: int) -> list[str]:
    """The allow-listed agent kinds that can sit at ``game`` with ``num_players``."""
    shipped = shipped_agents(game, num_players)
    return [kind for kind, spec in ALLOWED_AGENTS.items() if spec.partition(":")[0] in shipped]


def _check_offered(kind: Any, game: str, num_players: int) -> None:
    """``ValueError`` unless ``kind`` is an agent the lobby offers at ``game`` with
    ``num_players`` (:func:`lab_agents`): an allow-listed one that ships nothing for them
    (``dmc`` but at Présages) is refused as the lobby never offers it, naming those it does."""
    if kind not in ALLOWED_AGENTS:
        seat_agent(kind, game, 0, 0, num_players)  # "unknown agent", naming the allow-list
    offered = lab_agents(game, num_players)
    if kind not in offered:
        raise ValueError(
            f"agent {kind!r} is not offered at {game} with {num_players} players: this "
            f"server ships none for them; choose human or one of {offered}"
        )


def _option_input(
    info: OptionInfo, draw: Draw, defaults: dict[str, Any], counts: range
) -> dict[str, Any]:
    """One option as the lobby draws it: a checkbox (yes or no), a select (one of a few
    values), a number (an int range, its top per player count; empty for ``None`` where
    allowed), or else a list of whole numbers."""
    shown = {
        "name": info.name,
        "label": info.label,
        "description": info.description,
        "range": info.range,
        "default": defaults[info.name],
    }
    values = draw.values or ()
    if set(values) == {False, True}:
        return {**shown, "input": "checkbox"}
    if values and None not in values:
        return {**shown, "input": "select", "choices": list(values)}
    if draw.ints is not None:
        bounds = {str(n): list(draw.int_range(n)) for n in counts}
        return {**shown, "input": "number", "bounds": bounds, "optional": draw.none_ok}
    return {**shown, "input": "list"}


def table_request(data: Any, default_idle: int) -> TableRequest:
    """The checked request (``ValueError``/``TypeError`` naming what is wrong)."""
    if not isinstance(data, dict) or not set(data) <= REQUEST_FIELDS or "game" not in data:
        raise ValueError(f"a table request has the fields {sorted(REQUEST_FIELDS)}")
    name = data["game"]
    if name not in presages_env.list_games():
        raise ValueError(f"unknown game {name!r:.40}; games: {presages_env.list_games()}")
    try:
        game = get_game(name)
    except ValueError as error:  # a plug-in that does not load
        raise ValueError(answered_reason(name, str(error))) from None
    n = game.check_num_players(data.get("players", game.default_players))
    raw = data.get("options", {})
    if not isinstance(raw, dict):
        raise TypeError("options must be an object of option names to values")
    options = game.make_options(n, **option_values(raw))
    kinds = data.get("seats", [HUMAN] + ["heuristic"] * (n - 1))
    if not isinstance(kinds, list) or len(kinds) != n:
        raise ValueError(
            f"seats must list {n} kinds: {', '.join(LINKED)} or {sorted(ALLOWED_AGENTS)}"
        )
    names = data.get("names", [None] * n)
    if not isinstance(names, list) or len(names) != n:
        raise ValueError(f"names must list {n} names (null for the default)")
    seed = secrets.randbelow(2**63)
    seats = []
    for p, (kind, seat_name) in enumerate(zip(kinds, names, strict=True)):
        if kind not in LINKED:
            _check_offered(kind, name, n)
            seat_agent(kind, name, seed, p, n)  # refused here if it fails to load
        default = PERSON if kind == HUMAN else str(kind)
        shown = default
        if seat_name is not None:
            shown = check_display_name(seat_name, f"names[{p}]", MAX_NAME)
        seats.append(SeatSpec(kind, " ".join(shown.split()) or default))
    if not set(LINKED) & set(kinds):
        raise ValueError(f"a table needs at least one person ({HUMAN}) or remote agent ({REMOTE})")
    idle = check_int(data.get("idle_seconds", default_idle), "idle_seconds", MIN_IDLE, MAX_IDLE)
    return TableRequest(name, n, _json_options(options), seats, idle, seed)


def _json_options(options: Any) -> dict[str, Any]:
    """An options dataclass as JSON values (NumPy scalars to numbers, tuples to lists)."""
    return json.loads(json.dumps(dataclasses.asdict(options), default=lambda v: v.item()))
