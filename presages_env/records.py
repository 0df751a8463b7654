"""Game records: one played game as a JSON document that replays exactly.

A game is its deal's seed plus its actions (the RNG lives in the state), so a record stores
those, with what a reader wants without replaying: who played which seat, each action's
label, the public events and the result. Format (``"format": "presages_env.record"``,
``"version"`` :data:`FORMAT_VERSION`)::

    game, num_players, options {name: value}, seed (the deal's), agents [name per seat],
    actions [{"seat", "action", "label"}], events [{"kind", "actor", "args"}] (public
    events only, in order), result [total reward per seat], steps

A game left before its end (the terminal's ``q``) is an unfinished record: its ``result``
is ``null`` and it carries one more key, ``"finished": false`` (the only value it takes; a
finished record has no such key, so files written before it existed load and re-save byte
for byte). Its actions are replayed and checked like a finished game's; a record that says
it is unfinished when its actions end the game is refused, as is one with a result whose
game is not over: each says what it is, and the rules must agree.

Records are untrusted input: :func:`load` and :func:`loads` parse JSON only (no code runs),
within bounds of size and nesting (:func:`~presages_env.core.files.parse_json`), and
:func:`from_json`, the one check every record from outside goes through, checks every
field's exact type, range and size, then re-plays the actions through the rules, refusing
an illegal action or a stored label, event list or result that disagrees (:func:`replay`
does the same for a record built in memory). :func:`save` writes a file whole or not at all.

A game played through the AEC env becomes a record with :func:`from_env` (its deal's seed
is ``env.game_seed``); ``presages_env.ui.replay_page.write_replay_page`` draws any record.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from presages_env.core import events as ev
from presages_env.core.actions import check_action
from presages_env.core.files import parse_json, read_json, write_text_atomically
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT
from presages_env.core.validation import check_display_name, check_int, check_seed, check_text
from presages_env.games import GAME_CLASSES, get_game

FORMAT = "presages_env.record"
FORMAT_VERSION = 1
MAX_ACTIONS = 1_000_000  # far above any legal game; bounds what a crafted file can ask for
MAX_EVENTS = 64 * MAX_ACTIONS
MAX_NAME = 200  # characters of an agent's, an option's or an event's name
MAX_LABEL = 1_000  # characters of an action's label (the rules' labels are far shorter)
MAX_RESULT = 10**9  # a seat's total reward; no game's comes near
MAX_OPTIONS = 64
MAX_OPTION_ITEMS = 64  # values of a per-seat option
MAX_OPTION_INT = 2**31 - 1
EVENT_INT = np.iinfo(ev.EVENT_DTYPE)  # an event's arguments are stored in this type
MAX_RECORD_BYTES = 64 * 2**20
MAX_DEPTH = 8  # a record nests 4 deep: record, events, an event, its args
FIELDS = (
    "format",
    "version",
    "game",
    "num_players",
    "options",
    "seed",
    "agents",
    "actions",
    "events",
    "result",
    "steps",
)
UNFINISHED = "finished"  # the optional key of an unfinished record, always false


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """One played game: what :func:`save` writes and :func:`load` reads.

    Attributes:
        game: the game's name.
        num_players: the table's size.
        options: the game's options, by name.
        seed: the deal's seed.
        agents: who played each seat, by name.
        actions: each action in order: ``{"seat", "action", "label"}``.
        events: the public events in order: ``{"kind", "actor", "args"}``.
        result: each seat's total reward.
    """

    game: str
    num_players: int
    options: dict[str, Any]
    seed: int
    agents: list[str]
    actions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    result: list[float] | None  # None: the game was left before its end

    @property
    def finished(self) -> bool:
        """Whether the game was played to its end (an unfinished one has no result)."""
        return self.result is not None

    def to_json(self) -> dict[str, Any]:
        """The record as the JSON document :func:`save` writes.

        Returns:
            A dict of plain values: the format's name and version, the fields, ``steps``.
        """
        body = dataclasses.asdict(self)
        data = {"format": FORMAT, "version": FORMAT_VERSION, **body, "steps": len(self.actions)}
        return data if self.finished else {**data, UNFINISHED: False}


def record(
    game_name: str,
    num_players: int,
    seed: int,
    actions: list[int],
    agents: list[str] | None = None,
    **options: Any,
) -> GameRecord:
    """The record of a game played from its deal (to its end, or as far as ``actions`` go).

    Args:
        game_name: the game, one of ``presages_env.list_games()``.
        num_players: the table's size.
        seed: the deal's seed.
        actions: the actions in the order they were played.
        agents: who played each seat, by name; None: unnamed (``""``: a page then names the
            seat ``P1`` alone, :mod:`presages_env.core.seats`).
        **options: the game's options.

    Returns:
        The :class:`GameRecord`, with each action's label, the public events and the result;
        actions that do not end the game make an unfinished record (its ``result`` None):
        what a person who left kept.

    Raises:
        ValueError: an option, a name or an action the rules refuse.
    """
    game = get_game(game_name)
    opts = game.make_options(num_players, **options)
    names = [""] * num_players if agents is None else agents
    names = _checked_agents(names, num_players)
    played = _play(game, num_players, seed, actions, opts)
    moves = [
        {"seat": s, "action": int(a), "label": label}
        for s, a, label in zip(played.seats, actions, played.labels, strict=True)
    ]
    return GameRecord(
        game_name,
        num_players,
        _plain(opts),
        seed,
        names,
        moves,
        played.events,
        played.result if game.is_over(played.states[-1]) else None,
    )


def from_env(env: Any, agents: list[str] | None = None, unfinished: bool = False) -> GameRecord:
    """The record of the game an AEC env played from its deal to its end.

    Args:
        env: a :class:`~presages_env.core.aec.CardGameEnv`, or a PettingZoo wrapper of one.
        agents: who played each seat, by name; None: unnamed, as the env does not know who
            played (pages name the seats ``P1`` ...).
        unfinished: allow a game that is not over: an unfinished record of the moves so far
            (a person left the game).

    Returns:
        The :class:`GameRecord` of the game.

    Raises:
        TypeError: ``env`` is not a presages_env AEC env.
        ValueError: the game is not over by its rules and ``unfinished`` is False (a record
            replays a whole game: one cut by ``max_steps`` or ended by an illegal action is
            not), or it started from a position (``env.actions_since_deal()`` says why).
    """
    from presages_env.core.aec import CardGameEnv  # PettingZoo is loaded only when needed

    base = getattr(env, "unwrapped", env)
    if not isinstance(base, CardGameEnv):
        raise TypeError(f"from_env needs a presages_env AEC env, got {type(env).__name__}")
    actions = base.actions_since_deal()
    if not unfinished and not base.game.is_over(base.get_state()):
        raise ValueError(
            f"the game is not over after {len(actions)} actions (cut by max_steps, ended by "
            "an illegal action or still going): a record replays a game to its end"
        )
    options = dataclasses.asdict(base.game_options)
    return record(base.game.name, base.num_players, base.game_seed, actions, agents, **options)


def play_recorded(
    game_name: str,
    seat_agents: list[Any],
    names: list[str],
    seed: int,
    **options: Any,
) -> GameRecord:
    """Play one game from its deal and record it.

    Args:
        game_name: the game, one of ``presages_env.list_games()``.
        seat_agents: the agent of each seat (any agent with ``act``, or ``act_states`` when
            it ``needs_state``).
        names: each seat's name in the record.
        seed: the deal's seed.
        **options: the game's options.

    Returns:
        The :class:`GameRecord` of the game played.

    Raises:
        ValueError: an agent's illegal move, or an option the game refuses.
    """
    game = get_game(game_name)
    n = len(seat_agents)
    state = game.new_state(n, seed, **options)
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    actions: list[int] = []
    while not game.is_over(state):
        seat = int(state[HDR_CURRENT])
        agent = seat_agents[seat]
        if agent.needs_state:
            action = int(agent.act_states(state[None, :])[0])
        else:
            game.kernel.observe(state, np.int64(seat), obs)
            game.kernel.legal_mask(state, mask)
            action = agent.act(obs, mask)
        game.step(state, action, rewards)  # checked: an agent's illegal move raises
        actions.append(action)
    return record(game_name, n, seed, actions, names, **options)


def replay(rec: GameRecord) -> list[np.ndarray]:
    """Every state of a recorded game, from the deal to the end.

    Args:
        rec: the record.

    Returns:
        The states, the deal's first.

    Raises:
        ValueError: an action illegal where it was played, or stored labels, public events
            or a result that are not what the rules give.
    """
    return _checked_play(rec).states


def transitions(rec: GameRecord) -> tuple[list[np.ndarray], list[list[ev.Event]]]:
    """Every state of a recorded game, with the events that led to each (a replay's view).

    Args:
        rec: the record, checked like :func:`replay`.

    Returns:
        The states (the deal's first) and, for each, the events (all of them, with who saw
        them) of the deal or the action that led to it.

    Raises:
        ValueError: as :func:`replay`.
    """
    played = _checked_play(rec)
    return played.states, played.transitions


def _checked_play(rec: GameRecord) -> _Played:
    game = get_game(rec.game)
    opts = game.make_options(rec.num_players, **_options_in(rec.options))
    actions = [m["action"] for m in rec.actions]
    played = _play(game, rec.num_players, rec.seed, actions, opts)
    for index, (move, seat, label) in enumerate(
        zip(rec.actions, played.seats, played.labels, strict=True)
    ):
        if move["seat"] != seat or move["label"] != label:
            raise ValueError(
                f"action #{index} is recorded as seat {move['seat']} {move['label']!r}; "
                f"the rules give seat {seat} {label!r}"
            )
    over = game.is_over(played.states[-1])
    if rec.finished and not over:
        raise ValueError(f"the game is not over after its {len(actions)} recorded actions")
    if over and not rec.finished:
        raise ValueError(
            f"the record says the game is unfinished, but its {len(actions)} actions end it"
        )
    if played.events != rec.events:
        raise ValueError("the recorded events are not the ones the rules give for these actions")
    if rec.result is None:
        return played
    pairs = zip(played.result, rec.result, strict=True)
    if not all(math.isclose(a, b, abs_tol=1e-6) for a, b in pairs):
        raise ValueError(
            f"the recorded result {rec.result} disagrees with the game's {played.result}"
        )
    return played


def save(rec: GameRecord, path: str | Path) -> None:
    """Write a record to a file as JSON, whole or not at all.

    Args:
        rec: the record.
        path: the file to write (replaced if it exists).

    Raises:
        ValueError: a field :func:`load` would refuse, before anything is written.
        TypeError: as ``ValueError``, a field of the wrong type.
        OSError: the file cannot be written.
    """
    data = rec.to_json()
    _checked_fields(data)
    write_text_atomically(path, json.dumps(data, indent=1))


def load(path: str | Path) -> GameRecord:
    """Read a record file.

    Args:
        path: the JSON file :func:`save` wrote.

    Returns:
        The :class:`GameRecord`, checked like :func:`from_json`.

    Raises:
        ValueError: the file is not a record the rules replay (the message says why).
        TypeError: a field of the wrong type.
        OSError: the file cannot be read.
    """
    return from_json(read_json(path, "the record", MAX_RECORD_BYTES, MAX_DEPTH))


def loads(text: str | bytes) -> GameRecord:
    """Read a record from JSON text.

    Args:
        text: the JSON document.

    Returns:
        The :class:`GameRecord`, checked like :func:`from_json`.

    Raises:
        ValueError: the text is not a record the rules replay (the message says why).
        TypeError: a field of the wrong type.
    """
    return from_json(parse_json(text, "the record", MAX_RECORD_BYTES, MAX_DEPTH))


def from_json(data: Any) -> GameRecord:
    """Check a record from outside: the one check :func:`load` and :func:`loads` call.

    Every field's exact type, range and size first, then a replay through the rules
    (:func:`replay`).

    Args:
        data: the parsed JSON document.

    Returns:
        The :class:`GameRecord`.

    Raises:
        ValueError: a field out of its range, or a game the rules do not replay.
        TypeError: a field of the wrong type.
    """
    rec = _checked_fields(data)
    _checked_play(rec)
    return rec


# ---- internals ---------------------------------------------------------------------------
class _Played(NamedTuple):
    states: list[np.ndarray]
    seats: list[int]
    labels: list[str]
    events: list[dict[str, Any]]  # public ones, as JSON objects
    result: list[float]
    transitions: list[list[ev.Event]]  # every event of the deal, then of each action


def _play(game: Game, n: int, seed: int, actions: list[int], opts: Any) -> _Played:
    """Replay through the logged kernels, refusing an illegal action."""
    state = game.blank_state(n, opts)
    log = ev.EventLog(game.kernel.MAX_STEP_EVENTS)
    game.kernel.reset_logged(state, np.int64(check_seed(seed)), log.buffer)
    log.collect()
    ends = [len(log.records)]
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    total = np.zeros(n, dtype=np.float64)
    states, seats, labels = [state.copy()], [], []
    for index, action in enumerate(actions):
        if game.is_over(state):
            raise ValueError(f"action #{index} comes after the end of the game")
        game.kernel.legal_mask(state, mask)
        try:
            action = check_action(action, mask, lambda a: game.action_label(state, a))
        except (TypeError, ValueError) as err:
            raise ValueError(f"action #{index}: {err}") from None
        seats.append(int(state[HDR_CURRENT]))
        labels.append(game.action_label(state, action))
        game.kernel.step_logged(state, np.int64(action), rewards, log.buffer)
        log.collect()
        ends.append(len(log.records))
        total += rewards
        states.append(state.copy())
    every = game.decode_events(log.records, n)
    public = [_event_json(e) for e in every if e.visible_to == "all"]
    transitions = [every[start:end] for start, end in zip([0, *ends], ends, strict=False)]
    return _Played(states, seats, labels, public, [float(x) for x in total], transitions)


def _event_json(event: ev.Event) -> dict[str, Any]:
    return {"kind": event.kind, "actor": event.actor, "args": event.args}


def _plain(options: Any) -> dict[str, Any]:
    """The options as JSON values (NumPy scalars to numbers, tuples to lists)."""
    return json.loads(json.dumps(dataclasses.asdict(options), default=_number))


def _number(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"option value {value!r} is not JSON")


def _options_in(options: dict[str, Any]) -> dict[str, Any]:
    """JSON lists back to the tuples option dataclasses hold."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}


def _checked_fields(data: Any) -> GameRecord:
    """A record built from checked fields, its actions not replayed yet.

    Types are exact (no bool for an int, no float for an int), numbers in their ranges,
    strings valid Unicode of bounded length, no key missing or unknown.

    Returns:
        The :class:`GameRecord`.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a game record (its 'format' must be {FORMAT!r})")
    missing, unknown = set(FIELDS) - set(data), set(data) - {*FIELDS, UNFINISHED}
    if missing or unknown:
        raise ValueError(
            f"a record has exactly the fields {list(FIELDS)} (and {UNFINISHED!r} when "
            f"unfinished); missing {sorted(missing)}, unknown {sorted(map(repr, unknown))[:5]}"
        )
    if UNFINISHED in data and data[UNFINISHED] is not False:
        raise ValueError(
            f"{UNFINISHED!r} is written only as false (a finished record has no such key), "
            f"got {data[UNFINISHED]!r:.40}"
        )
    version = data["version"]
    if type(version) is not int or version != FORMAT_VERSION:
        raise ValueError(f"record version {version!r}; this library reads {FORMAT_VERSION}")
    name = data["game"]
    if not isinstance(name, str) or name not in GAME_CLASSES:
        raise ValueError(f"unknown game {name!r:.80}; games: {sorted(GAME_CLASSES)}")
    game = get_game(name)
    n = check_int(data["num_players"], "num_players", game.min_players, game.max_players)
    options = _checked_options(game, n, data["options"])
    seed = check_seed(data["seed"])
    agents = _checked_agents(data["agents"], n)
    actions = _checked_actions(data["actions"], n, game.num_actions(n))
    events = _checked_events(data["events"], n)
    result = _checked_result(data["result"], n, finished=UNFINISHED not in data)
    if type(data["steps"]) is not int or data["steps"] != len(actions):
        raise ValueError(f"steps is {data['steps']!r:.40} but {len(actions)} actions are listed")
    return GameRecord(name, n, options, seed, agents, actions, events, result)


def _checked_options(game: Game, n: int, options: Any) -> dict[str, Any]:
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise TypeError(f"options must be an object of at most {MAX_OPTIONS} names to values")
    checked = {
        check_text(key, "an option name", MAX_NAME): _option_value(key, value)
        for key, value in options.items()
    }
    game.make_options(n, **_options_in(checked))
    return checked


def _option_value(name: str, value: Any) -> Any:
    """A JSON scalar, or a short list of scalars (a per-seat option)."""
    if isinstance(value, list):
        if len(value) > MAX_OPTION_ITEMS:
            raise ValueError(f"option {name!r} lists more than {MAX_OPTION_ITEMS} values")
        return [_option_scalar(name, item) for item in value]
    return _option_scalar(name, value)


def _option_scalar(name: str, value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return check_text(value, f"option {name!r}", MAX_NAME)
    if isinstance(value, int):
        return check_int(value, f"option {name!r}", -MAX_OPTION_INT, MAX_OPTION_INT)
    if isinstance(value, float) and math.isfinite(value):
        return value
    raise TypeError(
        f"option {name!r} must be null, a bool, an int, a finite number or a string, "
        f"got {type(value).__name__}"
    )


def _checked_agents(agents: Any, n: int) -> list[str]:
    if not isinstance(agents, list) or len(agents) != n:
        raise ValueError(f"agents must list {n} names (strings of at most {MAX_NAME} characters)")
    return [check_display_name(a, f"agents[{p}]", MAX_NAME) for p, a in enumerate(agents)]


def _checked_actions(actions: Any, n: int, num_actions: int) -> list[dict[str, Any]]:
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise ValueError(f"actions must be a list of at most {MAX_ACTIONS} entries")
    return [_checked_move(index, move, n, num_actions) for index, move in enumerate(actions)]


def _checked_move(index: int, move: Any, n: int, num_actions: int) -> dict[str, Any]:
    if not isinstance(move, dict) or set(move) != {"seat", "action", "label"}:
        raise ValueError(f"action #{index} must be {{'seat': int, 'action': int, 'label': str}}")
    return {
        "seat": check_int(move["seat"], f"action #{index}: seat", 0, n - 1),
        "action": check_int(move["action"], f"action #{index}: action", 0, num_actions - 1),
        "label": check_text(move["label"], f"action #{index}: label", MAX_LABEL),
    }


def _checked_events(events: Any, n: int) -> list[dict[str, Any]]:
    if not isinstance(events, list) or len(events) > MAX_EVENTS:
        raise ValueError(f"events must be a list of at most {MAX_EVENTS} entries")
    return [_checked_event(index, event, n) for index, event in enumerate(events)]


def _checked_event(index: int, event: Any, n: int) -> dict[str, Any]:
    what = f"event #{index}"
    if not isinstance(event, dict) or set(event) != {"kind", "actor", "args"}:
        raise ValueError(f"{what} must be {{'kind': str, 'actor': int, 'args': {{str: int}}}}")
    args = event["args"]
    if not isinstance(args, dict) or len(args) > ev.NUM_ARGS:
        raise ValueError(f"{what}: args must map at most {ev.NUM_ARGS} names to ints")
    low, high = EVENT_INT.min, EVENT_INT.max
    return {
        "kind": check_text(event["kind"], f"{what}: kind", MAX_NAME),
        "actor": check_int(event["actor"], f"{what}: actor", -1, n - 1),
        "args": {
            check_text(key, f"{what}: an argument name", MAX_NAME): check_int(
                value, f"{what}: args[{key!r}]", low, high
            )
            for key, value in args.items()
        },
    }


def _checked_result(result: Any, n: int, finished: bool) -> list[float] | None:
    if not finished:
        if result is not None:
            raise ValueError("an unfinished record's result must be null")
        return None
    if not isinstance(result, list) or len(result) != n:
        raise ValueError(f"result must list {n} numbers")
    return [_checked_total(p, value) for p, value in enumerate(result)]


def _checked_total(seat: int, value: Any) -> float:
    """A seat's total reward: an int or a float within ``MAX_RESULT``.

    It is compared before any conversion (``float(10**400)`` overflows).

    Returns:
        The total as a float.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"result[{seat}] must be a number, got {type(value).__name__}")
    if not -MAX_RESULT <= value <= MAX_RESULT:  # false for NaN too
        raise ValueError(f"result[{seat}] must be a number in [-{MAX_RESULT}, {MAX_RESULT}]")
    return float(value)
