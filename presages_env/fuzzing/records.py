"""Fuzzing of game records from outside: mutated real records are refused or load and work.

Each case takes the record of a random game (a few per run, at every player count, under the
game's ``short_options`` so that its games stay short), changes it with
one mutation of :data:`MUTATIONS` (keys dropped or added, values of the wrong type, deep
nesting, huge integers, floats, NaN, bools where ints go, lone surrogates, very long
strings, actions out of range or illegal, the JSON text truncated or damaged, or a harmless
change: new agent names, the fields in another order), writes it to a file and loads it with
:func:`presages_env.records.load`, the path a user's file takes. The outcome is

- ``refused``: ``ValueError``/``TypeError`` with a message;
- ``loaded``: the record replays, its replay page (every view or one seat's) is written
  whole to a temporary folder, and it saves and loads back equal.

Anything else is a failure: another exception, a refusal without a message, a page or a
record file left half-written or a temporary file left behind, the process's peak memory
grown by more than ``MAX_GROWTH_MB``.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from presages_env import records
from presages_env.agents import RandomAgent
from presages_env.fuzzing import FuzzReport, memory_growth, peak_memory_mb
from presages_env.games import get_game
from presages_env.ui.replay_page import write_replay_page

BASE_RECORDS = 6  # real games each run mutates
DEEP = "__deeply_nested__"  # stands for a nesting built as text (json.dumps would recurse)
HUGE_INTS = (2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30, 10**400, -(10**400))
ODD_FLOATS = (0.5, -0.0, 1e-300, 1e308, 2.0**63)
ODD_STRINGS = ("", "\ud800", "a\udfffb", "\u202e<script>", "\x00", "\x1b[2J", "é" * 3, "🂡" * 2)


class Case:
    """One mutated record: the parsed record to change, or the final bytes of the file."""

    def __init__(self, data: dict[str, Any], num_actions: int, rng: np.random.Generator):
        self.data = data
        self.num_actions = num_actions
        self.rng = rng
        self.raw: bytes | None = None

    def pick(self) -> tuple[Any, Any]:
        """A random (container, key) of the record: a top-level field more often than a
        deeply nested one."""
        parent, key, node = None, None, self.data
        while isinstance(node, (dict, list)) and node and (parent is None or self.coin(0.6)):
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            key = keys[int(self.rng.integers(len(keys)))]
            parent, node = node, node[key]
        return parent, key

    def coin(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def choice(self, values: Any) -> Any:
        return values[int(self.rng.integers(len(values)))]

    def text(self) -> bytes:
        """The file's bytes: the record as JSON, escaped to ASCII or not (a raw lone
        surrogate then makes invalid UTF-8), with any deep nesting written in."""
        if self.raw is not None:
            return self.raw
        text = json.dumps(self.data, ensure_ascii=self.coin(0.5))
        if DEEP in text:
            depth = int(self.rng.integers(9, 200_000))
            opening, closing = ("[", "]") if self.coin(0.5) else ('{"a":', "}")
            text = text.replace(f'"{DEEP}"', opening * depth + "0" + closing * depth, 1)
        return text.encode("utf-8", "surrogatepass")  # a raw lone surrogate: not UTF-8


# ---- the mutations: each changes the case and says how -------------------------------------
def drop_key(case: Case) -> str:
    parent, key = case.pick()
    if not isinstance(parent, dict):
        parent, key = case.data, case.choice(list(case.data))
    del parent[key]
    return f"key {key!r} dropped"


def add_key(case: Case) -> str:
    parent, key = case.pick()
    target = parent if isinstance(parent, dict) else case.data
    name = case.choice(["extra", "steps", "label", "args", "\ud800", "x" * 300])
    target[name] = case.choice([0, "x", None, [], {}])
    return f"key {name[:20]!r} added"


def wrong_type(case: Case) -> str:
    value = case.choice([None, "1", [], [1], {}, {"a": 1}, 1.5, True, -1])
    return _set(case, value)


def deep_nesting(case: Case) -> str:
    return _set(case, DEEP)


def huge_int(case: Case) -> str:
    return _set(case, case.choice(HUGE_INTS))


def odd_float(case: Case) -> str:
    parent, key = case.pick()
    value = parent[key] if parent is not None else None
    new = float(value) if isinstance(value, int) and abs(value) < 2**53 else case.choice(ODD_FLOATS)
    return _set(case, new, (parent, key))


def non_finite(case: Case) -> str:
    return _set(case, case.choice([float("nan"), float("inf"), float("-inf")]))


def bool_for_int(case: Case) -> str:
    field = case.choice(["version", "num_players", "seed", "steps", "seat", "action", "result"])
    if field in ("seat", "action") and case.data.get("actions"):
        return _set(case, case.coin(0.5), (case.choice(case.data["actions"]), field))
    if field == "result":
        return _set(case, case.coin(0.5), (case.data["result"], 0))
    return _set(case, case.coin(0.5), (case.data, field))


def odd_string(case: Case) -> str:
    where = case.choice(["agents", "label", "kind", "game", "format", "anywhere"])
    if where == "agents":
        spot = (case.data["agents"], int(case.rng.integers(len(case.data["agents"]))))
    elif where == "label" and case.data["actions"]:
        spot = (case.choice(case.data["actions"]), "label")
    elif where == "kind" and case.data["events"]:
        spot = (case.choice(case.data["events"]), "kind")
    elif where in ("game", "format"):
        spot = (case.data, where)
    else:
        spot = case.pick()
    return _set(case, case.choice(ODD_STRINGS), spot)


def long_string(case: Case) -> str:
    length = int(case.choice([150, 201, 1001, 10**4, 10**6]))
    value = "x" * length
    if case.coin(0.5):
        return _set(case, value, (case.data["agents"], 0))
    return _set(case, value)


def action_out_of_range(case: Case) -> str:
    if not case.data["actions"]:
        return "no action to change"
    move = case.choice(case.data["actions"])
    field = case.choice(["action", "seat"])
    value = case.choice([-1, case.num_actions, case.num_actions + 1, 2**31, 99])
    return _set(case, value, (move, field))


def illegal_action(case: Case) -> str:
    actions = case.data["actions"]
    if not actions:
        return "no action to change"
    index = int(case.rng.integers(len(actions)))
    change = case.choice(["other", "drop", "duplicate", "swap"])
    if change == "other":
        actions[index]["action"] = int(case.rng.integers(case.num_actions))
    elif change == "drop":
        del actions[index]
    elif change == "duplicate":
        actions.insert(index, copy.deepcopy(actions[index]))
    else:
        other = int(case.rng.integers(len(actions)))
        actions[index], actions[other] = actions[other], actions[index]
    if change != "other" and case.coin(0.7):
        case.data["steps"] = len(actions)  # a consistent count: the replay must catch it
    return f"action #{index}: {change}"


def other_numbers(case: Case) -> str:
    field = case.choice(["seed", "num_players", "result", "version", "steps"])
    if field == "result":
        spot = (case.data["result"], int(case.rng.integers(len(case.data["result"]))))
        return _set(case, spot[0][spot[1]] + case.choice([1e-9, 1e-3, 1.0, -2.0]), spot)
    value = case.data[field]
    return _set(case, case.choice([value + 1, value - 1, 0, -1, 2**63 - 1]), (case.data, field))


def option_value(case: Case) -> str:
    options = case.data["options"]
    if not options:
        return _set(case, {"no_such_option": 1}, (case.data, "options"))
    name = case.choice(list(options))
    value = case.choice([0, 1, 3, -1, 61, 10**6, "random", "moon", None, [1, 2, 3], 0.5, True])
    return _set(case, value, (options, name))


def damaged_text(case: Case) -> str:
    raw = Case(case.data, case.num_actions, case.rng).text()
    where = int(case.rng.integers(len(raw)))
    how = case.choice(["truncated", "byte", "duplicate key"])
    if how == "truncated":
        case.raw = raw[:where]
    elif how == "byte":
        case.raw = raw[:where] + bytes([int(case.rng.integers(256))]) + raw[where + 1 :]
    else:
        case.raw = raw.replace(b'"seed"', b'"seed": 1, "seed"', 1)
    return f"text {how} at byte {where} of {len(raw)}"


def harmless(case: Case) -> str:
    """A change a loader must accept: new agent names, the fields in another order."""
    names = ["<b>&amp;</b>", "名前", "🂡 ace", "a" * records.MAX_NAME, "", "e\u0301mile"]
    names.append("👩🏽\u200d💻")  # an emoji's zero-width joiner
    for seat in range(len(case.data["agents"])):
        case.data["agents"][seat] = case.choice(names)
    if case.coin(0.5):
        case.data = dict(reversed(list(case.data.items())))
    return "agents renamed, fields reordered"


MUTATIONS: tuple[Callable[[Case], str], ...] = (
    drop_key,
    add_key,
    wrong_type,
    deep_nesting,
    huge_int,
    odd_float,
    non_finite,
    bool_for_int,
    odd_string,
    long_string,
    action_out_of_range,
    illegal_action,
    other_numbers,
    option_value,
    damaged_text,
    harmless,
)
MUST_LOAD = (harmless,)  # a refusal of these is a failure too


def _set(case: Case, value: Any, spot: tuple[Any, Any] | None = None) -> str:
    parent, key = spot if spot is not None else case.pick()
    if parent is None:
        case.data = value
        return f"the whole record -> {_short(value)}"
    before = parent[key]
    parent[key] = value
    return f"{key!r}: {_short(before)} -> {_short(value)}"


def _short(value: Any) -> str:
    text = f"{type(value).__name__} {value!r}" if not isinstance(value, int) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# ---- running the cases ---------------------------------------------------------------------
def base_records(game_name: str, rng: np.random.Generator) -> list[str]:
    """:data:`BASE_RECORDS` records of random games, at every player count in turn, as
    JSON text (parsed afresh for each case: faster than a deep copy)."""
    game = get_game(game_name)
    counts = list(range(game.min_players, game.max_players + 1))
    found = []
    for index in range(BASE_RECORDS):
        n = counts[index % len(counts)]
        seed = int(rng.integers(2**62))
        options = game.short_options(rng)  # a few decisions, not hundreds
        agents = [RandomAgent(seed + p) for p in range(n)]
        names = [f"random_{p}" for p in range(n)]
        rec = records.play_recorded(game_name, agents, names, seed, **options)
        found.append(json.dumps(rec.to_json()))
    return found


def fuzz_records(game_name: str, cases: int, seed: int = 0) -> FuzzReport:
    """``cases`` mutated records of ``game_name`` loaded from files (deterministic in
    ``seed``); see the module's docstring for what passes."""
    rng = np.random.default_rng(seed)
    game = get_game(game_name)
    bases = base_records(game_name, rng)
    report = FuzzReport(game_name)
    with tempfile.TemporaryDirectory(prefix="fuzz_records_") as folder:
        for index in range(cases):
            data = json.loads(bases[index % len(bases)])
            case = Case(data, game.num_actions(data["num_players"]), rng)
            mutation = MUTATIONS[index % len(MUTATIONS)]
            description = f"case {index}: {mutation.__name__}: {mutation(case)}"
            outcome, problem = run_case(case, Path(folder) / str(index))
            if outcome == "refused" and mutation in MUST_LOAD:
                outcome, problem = "failed", "a harmless change was refused"
            report.cases += 1
            report.outcomes[outcome] += 1
            if problem:
                report.failures.append(f"{description}: {problem}")
    return report


def run_case(case: Case, folder: Path) -> tuple[str, str | None]:
    """``(outcome, problem)``: ``"refused"``, ``"loaded"`` or ``"failed"``, and what went
    wrong, if anything. ``folder`` is created for the case and removed after it."""
    folder.mkdir()
    path = folder / "record.json"
    path.write_bytes(case.text())
    peak = peak_memory_mb()
    try:
        try:
            rec = records.load(path)
        except (TypeError, ValueError) as error:
            if not str(error):
                return "failed", f"refused without a message ({type(error).__name__})"
            return "refused", memory_growth(peak)
        except Exception as error:  # every other exception is what the fuzz looks for
            return "failed", f"load raised {type(error).__name__}: {error}"
        try:
            check_loaded(rec, folder, case.rng)
        except Exception as error:  # a loaded record must work
            return "failed", f"loaded, then {type(error).__name__}: {error}"
        return "loaded", memory_growth(peak)
    finally:
        for file in folder.iterdir():
            file.unlink()
        folder.rmdir()


def check_loaded(rec: records.GameRecord, folder: Path, rng: np.random.Generator) -> None:
    """A loaded record replays, makes a whole page and saves and loads back equal."""
    records.replay(rec)
    seat = None if rng.random() < 0.1 else int(rng.integers(rec.num_players))
    page = folder / "page.html"
    write_replay_page(rec, page, seat)
    if not page.read_text(encoding="utf-8").endswith("</html>\n"):
        raise AssertionError("the page was written, but not whole")
    saved = folder / "saved.json"
    records.save(rec, saved)
    if records.load(saved) != rec:
        raise AssertionError("the record saved and loaded back differs")
    left = sorted(p.name for p in folder.iterdir())
    if left != ["page.html", "record.json", "saved.json"]:
        raise AssertionError(f"files left in the folder: {left}")
