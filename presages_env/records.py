"""Game records: one played game as a JSON document that replays exactly.

A game is its deal's seed plus its actions (the RNG lives in the state), so a record stores
those, with what a reader wants without replaying: who played which seat, each action's
label, the public events and the result. Format (``"format": "presages_env.record"``,
``"version"`` :data:`FORMAT_VERSION`)::

    game, num_players, options {name: value}, seed (the deal's), agents [name per seat],
    actions [{"seat", "action", "label"}], events [{"kind", "actor", "args"}] (public
    events only, in order), result [total reward per seat], steps

Records are untrusted input: :func:`load` parses JSON only (no code runs), checks every
field's type and size, and :func:`replay` re-plays the actions through the rules, refusing
an illegal action or a stored label, event list or result that disagrees.
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
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT
from presages_env.core.validation import check_int, check_seed
from presages_env.games import GAME_CLASSES, get_game

FORMAT = "presages_env.record"
FORMAT_VERSION = 1
MAX_ACTIONS = 1_000_000  # far above any legal game; bounds what a crafted file can ask for
MAX_NAME = 200


@dataclasses.dataclass(frozen=True)
class GameRecord:
    game: str
    num_players: int
    options: dict[str, Any]
    seed: int
    agents: list[str]
    actions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    result: list[float]

    def to_json(self) -> dict[str, Any]:
        body = dataclasses.asdict(self)
        return {"format": FORMAT, "version": FORMAT_VERSION, **body, "steps": len(self.actions)}


def record(
    game_name: str,
    num_players: int,
    seed: int,
    actions: list[int],
    agents: list[str] | None = None,
    **options: Any,
) -> GameRecord:
    """The record of the game dealt from ``seed`` and played with ``actions``."""
    game = get_game(game_name)
    opts = game.make_options(num_players, **options)
    names = agents if agents is not None else [f"player_{p}" for p in range(num_players)]
    played = _play(game, num_players, seed, actions, opts)
    moves = [
        {"seat": s, "action": int(a), "label": label}
        for s, a, label in zip(played.seats, actions, played.labels, strict=True)
    ]
    return GameRecord(
        game_name, num_players, _plain(opts), seed, list(names), moves, played.events, played.result
    )


def play_recorded(
    game_name: str,
    seat_agents: list[Any],
    names: list[str],
    seed: int,
    **options: Any,
) -> GameRecord:
    """Play one game from the deal of ``seed``, seat p played by ``seat_agents[p]`` (any
    agent with ``act``, or ``act_states`` when it ``needs_state``), and record it."""
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
    """Every state of the recorded game, from the deal to the end.

    Raises ``ValueError`` if an action is illegal where it was played, or if the stored
    labels, public events or result are not what the rules give.
    """
    return _checked_play(rec).states


def transitions(rec: GameRecord) -> tuple[list[np.ndarray], list[list[ev.Event]]]:
    """Every state of a recorded game and, for each, the events (all, with who saw them)
    of the deal or the action that led to it: what a replay viewer shows. Checked like
    :func:`replay`."""
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
    if not game.is_over(played.states[-1]):
        raise ValueError(f"the game is not over after its {len(actions)} recorded actions")
    if played.events != rec.events:
        raise ValueError("the recorded events are not the ones the rules give for these actions")
    pairs = zip(played.result, rec.result, strict=True)
    if not all(math.isclose(a, b, abs_tol=1e-6) for a, b in pairs):
        raise ValueError(
            f"the recorded result {rec.result} disagrees with the game's {played.result}"
        )
    return played


def save(rec: GameRecord, path: str | Path) -> None:
    Path(path).write_text(json.dumps(rec.to_json(), indent=1))


def load(path: str | Path) -> GameRecord:
    """A record read from ``path`` (JSON; shapes and types checked, not yet replayed)."""
    text = Path(path).read_text()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{path} is not JSON: {err}") from None
    return from_json(data)


def from_json(data: Any) -> GameRecord:
    """Check a parsed record's fields (types, sizes, known game) and build it."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a game record (its 'format' must be {FORMAT!r})")
    if data.get("version") != FORMAT_VERSION:
        raise ValueError(
            f"record version {data.get('version')!r}; this library reads {FORMAT_VERSION}"
        )
    name = data.get("game")
    if name not in GAME_CLASSES:
        raise ValueError(f"unknown game {name!r}; games: {sorted(GAME_CLASSES)}")
    game = get_game(name)
    n = check_int(data.get("num_players"), "num_players", game.min_players, game.max_players)
    options = data.get("options")
    if not isinstance(options, dict):
        raise TypeError("options must be an object of option names to values")
    game.make_options(n, **_options_in(options))
    seed = check_seed(data.get("seed"))
    agents = data.get("agents")
    if not isinstance(agents, list) or len(agents) != n or not all(_is_name(a) for a in agents):
        raise ValueError(f"agents must list {n} names (strings of at most {MAX_NAME} characters)")
    actions = _checked_list(data.get("actions"), "actions", MAX_ACTIONS)
    for index, move in enumerate(actions):
        if not (
            isinstance(move, dict)
            and _is_int(move.get("seat"))
            and _is_int(move.get("action"))
            and isinstance(move.get("label"), str)
        ):
            raise ValueError(
                f"action #{index} must be {{'seat': int, 'action': int, 'label': str}}"
            )
    events = _checked_list(data.get("events"), "events", MAX_ACTIONS * 64)
    result = data.get("result")
    if not isinstance(result, list) or len(result) != n or not all(_is_number(r) for r in result):
        raise ValueError(f"result must list {n} numbers")
    if data.get("steps") != len(actions):
        raise ValueError(f"steps is {data.get('steps')!r} but {len(actions)} actions are listed")
    return GameRecord(name, n, options, seed, agents, actions, events, [float(r) for r in result])


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
    kinds = game.kernel.EVENT_KINDS
    every = [ev.decode(kinds, r, n) for r in log.records]
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


def _checked_list(value: Any, name: str, limit: int) -> list:
    if not isinstance(value, list) or len(value) > limit:
        raise ValueError(f"{name} must be a list of at most {limit} entries")
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_name(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_NAME
