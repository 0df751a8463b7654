"""Tier (c): three tools a model calls at its decision, as plain JSON-able dicts.

``legal_moves()`` lists the legal moves, numbered; ``describe(card)`` gives a card's text
(``Game.card_help``, by its name or a label showing it); ``play(move)`` plays a move by its
number or its name (:func:`presages_env.text.parse.parse_answer`). :func:`tool_definitions`
gives them in OpenAI's or Anthropic's form, to pass to a client; :func:`run_tool` answers
one call against the current :class:`~presages_env.text.decision.Decision`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from presages_env.core.card_face import face_name
from presages_env.text.decision import Decision
from presages_env.text.parse import TOOL_PARAMETERS, parse_answer, read_tool_call

STYLES = ("openai", "anthropic")
DESCRIPTIONS = {
    "legal_moves": "List your legal moves now, numbered, by name.",
    "describe": "The text of a card: its kind, cost and effect.",
    "play": "Play one of your legal moves, by its number in legal_moves() or its name.",
}
PARAMETER_DESCRIPTIONS = {
    "card": "The card's name, as the table or a move shows it.",
    "move": "The move's number in legal_moves(), or its name (the start is enough when "
    "only one legal move fits).",
}


def _schema(name: str) -> dict[str, Any]:
    parameters = TOOL_PARAMETERS[name]
    return {
        "type": "object",
        "properties": {
            key: {"type": "string", "description": PARAMETER_DESCRIPTIONS[key]}
            for key in parameters
        },
        "required": list(parameters),
        "additionalProperties": False,
    }


def tool_definitions(style: str = "openai") -> list[dict[str, Any]]:
    """The three tools, as OpenAI's ``tools`` list (``{"type": "function", "function":
    {...}}``) or Anthropic's (``{"name", "description", "input_schema"}``)."""
    if style not in STYLES:
        raise ValueError(f"style must be one of {STYLES}, got {style!r}")
    if style == "anthropic":
        return [
            {"name": name, "description": DESCRIPTIONS[name], "input_schema": _schema(name)}
            for name in TOOL_PARAMETERS
        ]
    return [
        {
            "type": "function",
            "function": {
                "name": name,
                "description": DESCRIPTIONS[name],
                "parameters": _schema(name),
            },
        }
        for name in TOOL_PARAMETERS
    ]


def run_tool(decision: Decision, call: str | Mapping[str, Any]) -> dict[str, Any]:
    """The JSON-able result of ``call`` at ``decision``: ``{"tool", "ok": True, ...}`` with
    the moves, the card's text or the move played (``action``, ``move``), or ``{"tool",
    "ok": False, "error"}`` saying why the call was refused. Nothing is played here: the
    caller plays ``action``."""
    try:
        name, arguments = read_tool_call(call)
    except ValueError as error:
        return {"tool": None, "ok": False, "error": str(error)}
    if name == "legal_moves":
        moves = [{"number": i, "name": label} for i, label in enumerate(decision.labels, 1)]
        return {"tool": name, "ok": True, "moves": moves}
    if name == "describe":
        card = arguments["card"]
        text = decision.game.card_help(card) or decision.game.card_help(face_name(card))
        if text is None:
            return {"tool": name, "ok": False, "error": f"no card is named {card[:60]!r}"}
        return {"tool": name, "ok": True, "card": card, "text": text}
    parsed = parse_answer(decision, {"name": name, "arguments": arguments}, "tools")
    if parsed.refused:
        return {"tool": name, "ok": False, "error": parsed.reason, "refusal": parsed.kind}
    return {"tool": name, "ok": True, "action": parsed.action, "move": parsed.label}
