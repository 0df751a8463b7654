"""An agent's answer as one of the legal moves, or a refusal it can be shown; never a guess.

A move is named as the terminal player takes it (:func:`presages_env.core.choice.match_action`:
its number where the moves are numbered, its exact name, or the start of its words, any
case, accents and symbols optional), or by a ``play`` tool call. The answer may reason
first and end with a line ``Move: <move>``: the last such line is read. An answer is
refused, with a reason, when it names nothing, fits several legal moves (they are listed),
names a move that is not legal now, starts both a legal move's name and another move's
(``play XV`` beside a legal ``play XVIII``), or is a number out of range.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from presages_env.core.choice import label_words, match_action, words
from presages_env.text.decision import TIERS, Decision

REFUSALS = ("empty", "number", "unknown", "illegal", "ambiguous", "tool")
MOVE_LINE = re.compile(r"^[\s*_#>]*move[\s*_]*:(.*)$", re.IGNORECASE | re.MULTILINE)
QUOTED = 60  # an answer is quoted in a reason up to this many characters
LISTED = 12  # the most moves a reason lists
# Each tool's parameters (their JSON schemas are in tools.py).
TOOL_PARAMETERS: dict[str, tuple[str, ...]] = {
    "legal_moves": (),
    "describe": ("card",),
    "play": ("move",),
}


@dataclass(frozen=True)
class Parsed:
    """A legal ``action`` (named ``label``), or a refusal: ``action`` None, ``kind`` one of
    :data:`REFUSALS` and ``reason`` the words to show the agent."""

    action: int | None
    label: str | None = None
    kind: str = "move"
    reason: str = ""

    @property
    def refused(self) -> bool:
        return self.action is None


def _refused(kind: str, reason: str) -> Parsed:
    return Parsed(None, None, kind, reason)


def parse_move(decision: Decision, answer: str, numbered: bool) -> Parsed:
    """The legal move ``answer`` names (a number counts only where ``numbered``)."""
    typed = _typed(answer)
    wanted = words(typed)
    if not wanted:
        return _refused("empty", "the answer names no move")
    labels = list(decision.labels)
    found = match_action(typed, labels)
    if found.number:
        if not numbered:
            return _refused("number", "name the move in words: no moves were numbered")
        if not found.indices:
            return _refused("number", f"{_quoted(typed)} is not a number from 1 to {len(labels)}")
        return _move(decision, found.indices[0])
    if len(found.indices) == 1 and label_words(labels[found.indices[0]]) == wanted:
        return _move(decision, found.indices[0])
    named = match_action(typed, list(decision.other_names)).indices
    others = [decision.other_names[i] for i in named]
    exact = [name for name in others if label_words(name) == wanted]
    if exact:
        return _refused("illegal", f"{_quoted(exact[0])} is not a legal move now")
    if len(found.indices) > 1:
        fits = [labels[i] for i in found.indices]
        return _refused("ambiguous", f"{_quoted(typed)} fits {_listed(fits)}: say which")
    if found.indices and others:
        legal = labels[found.indices[0]]
        return _refused(
            "ambiguous",
            f"{_quoted(typed)} starts the legal move {_quoted(legal)} but also {_listed(others)}, "
            "not legal now: type more of its words",
        )
    if found.indices:
        return _move(decision, found.indices[0])
    if others:
        return _refused(
            "illegal", f"{_quoted(typed)} fits only moves not legal now: {_listed(others)}"
        )
    return _refused("unknown", f"{_quoted(typed)} names no legal move")


def _move(decision: Decision, index: int) -> Parsed:
    return Parsed(decision.actions[index], decision.labels[index])


def _typed(answer: str) -> str:
    """What the answer names: its last ``Move:`` line if it has one, else all of it, without
    the quotes, backticks, stars or final full stop a model may put around it."""
    lines = MOVE_LINE.findall(answer)
    typed = (lines[-1] if lines else answer).strip()
    return typed.strip("`'\"*_ ").removesuffix(".").strip()


def _quoted(text: str) -> str:
    return repr(text if len(text) <= QUOTED else text[: QUOTED - 3] + "...")


def _listed(labels: list[str]) -> str:
    shown = "; ".join(labels[:LISTED])
    return shown + (f"; and {len(labels) - LISTED} more" if len(labels) > LISTED else "")


def is_tool_call(answer: Any) -> bool:
    """Whether ``answer`` is a tool call (a mapping, or a JSON object as text) rather than a
    move in words."""
    if isinstance(answer, Mapping):
        return True
    text = answer.strip() if isinstance(answer, str) else ""
    return text.startswith("{") and text.endswith("}")


def read_tool_call(call: Any) -> tuple[str, dict[str, str]]:
    """``(name, arguments)`` of a tool call given as ``{"name", "arguments"}`` (arguments an
    object or its JSON text: OpenAI's function call, whole or as a ``tool_calls`` item) or
    ``{"type": "tool_use", "name", "input"}`` (Anthropic's), or such an object as JSON text.
    ``ValueError`` says what is wrong with any other."""
    if isinstance(call, str):
        call = _json_object(call, "a tool call")
    if not isinstance(call, Mapping):
        raise ValueError(f"a tool call is a JSON object, got {type(call).__name__}")
    if isinstance(call.get("function"), Mapping):
        call = call["function"]
    name = call.get("name")
    if name not in TOOL_PARAMETERS:
        raise ValueError(f"no tool is called {name!r}: the tools are {', '.join(TOOL_PARAMETERS)}")
    arguments = call.get("arguments", call.get("input", {}))
    if isinstance(arguments, str):
        arguments = _json_object(arguments, f"{name}'s arguments") if arguments.strip() else {}
    if not isinstance(arguments, Mapping) or set(arguments) != set(TOOL_PARAMETERS[name]):
        wanted = ", ".join(TOOL_PARAMETERS[name]) or "none"
        raise ValueError(f"{name} takes the arguments: {wanted}")
    values = {}
    for key, value in arguments.items():
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ValueError(f"{name}'s {key} is a string, got {type(value).__name__}")
        values[key] = str(value)
    return name, values


def _json_object(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise ValueError(f"{what} is not valid JSON") from None


def parse_answer(decision: Decision, answer: str | Mapping[str, Any], tier: str) -> Parsed:
    """The move ``answer`` names at ``decision`` asked in ``tier``: a move in words, or a
    ``play`` tool call (numbers count in the tiers that number the moves: ``"moves"``,
    and ``"tools"``, whose ``legal_moves()`` numbers them). Any other tool call is refused
    here: :func:`presages_env.text.tools.run_tool` answers it."""
    if tier not in TIERS:
        raise ValueError(f"tier must be one of {TIERS}, got {tier!r}")
    if not isinstance(answer, (str, Mapping)):
        raise TypeError(f"an answer is a str or a tool call, got {type(answer).__name__}")
    numbered = tier != "observation"
    if not is_tool_call(answer):
        return parse_move(decision, answer, numbered)
    try:
        name, arguments = read_tool_call(answer)
    except ValueError as error:
        return _refused("tool", str(error))
    if name != "play":
        return _refused("tool", f"{name} plays no move: call play(move) to play")
    return parse_move(decision, arguments["move"], numbered)
