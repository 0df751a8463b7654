"""An agent that plays by text: any ``prompt -> answer`` function at a seat.

:class:`TextAgent` words each decision (:func:`presages_env.text.decision.prompt`), asks
``complete`` (an API client, a local model, a person), and parses the answer
(:func:`presages_env.text.parse.parse_answer`). A refused answer is asked again with the
reason shown, ``retries`` times; then the declared ``fallback`` plays. In the tools tier, a
``legal_moves()`` or ``describe(card)`` call is answered and the model asked again (up to
``max_tool_calls`` a decision). Every exchange goes to :attr:`TextAgent.transcript`: the
prompt, the answer, the move parsed or the refusal, the legal moves, and (once the game is
over, :meth:`TextAgent.finish`) the seat's result: fine-tuning data, saved as JSONL by
:func:`save_transcript`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from presages_env.agents.base import Agent, RandomAgent
from presages_env.core.files import check_output_path
from presages_env.core.validation import check_int
from presages_env.games import get_game
from presages_env.text.decision import LAST_EVENTS, TIERS, Decision, prompt
from presages_env.text.parse import Parsed, parse_answer
from presages_env.text.tools import run_tool

Answer = str | Mapping[str, Any]
Complete = Callable[[str], Answer]
FALLBACKS = ("random", "first")
MAX_RETRIES = 100


class TextAgent(Agent):
    """Plays ``game`` by asking ``complete`` in ``tier`` (one of
    :data:`~presages_env.text.decision.TIERS`); after ``retries`` refused answers in one
    decision it plays ``fallback``: ``"random"`` (a seeded uniform legal move), ``"first"``
    (the first legal move) or an :class:`Agent` that acts on observations.

    :meth:`decide` takes a :class:`Decision` with the events the seat saw
    (:func:`presages_env.text.table.play_game` gives them); :meth:`act_states`, which
    tournaments and records call, words the table without events.
    """

    needs_state = True

    def __init__(
        self,
        game: str,
        complete: Complete,
        *,
        tier: str = "moves",
        retries: int = 2,
        fallback: str | Agent = "random",
        seed: int = 0,
        last_events: int = LAST_EVENTS,
        max_tool_calls: int = 8,
        name: str = "text",
    ) -> None:
        if not callable(complete):
            raise TypeError(f"complete must be a function prompt -> answer, got {complete!r}")
        if tier not in TIERS:
            raise ValueError(f"tier must be one of {TIERS}, got {tier!r}")
        self.game = get_game(game)
        self.complete = complete
        self.tier = tier
        self.retries = check_int(retries, "retries", 0, MAX_RETRIES)
        self.fallback = _checked_fallback(fallback)
        self.last_events = check_int(last_events, "last_events", 0, 10**6)
        self.max_tool_calls = check_int(max_tool_calls, "max_tool_calls", 0, MAX_RETRIES)
        self.name = name
        self._random = RandomAgent(seed)
        self.transcript: list[dict[str, Any]] = []
        self.answers = 0  # every answer complete gave
        self.illegal_answers = 0  # those refused
        self.fallbacks = 0  # decisions the fallback played
        self._game_start = 0  # the first transcript entry of the game in play

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        raise TypeError(
            f"{type(self).__name__} reads the table in words, which need the game's state: "
            "call act_states(states) or decide(decision)"
        )

    def act_states(self, states: np.ndarray) -> np.ndarray:
        """One action per row of ``states`` (``[B, S]``), for the seat to act in each, from
        that seat's view alone (no events: the state does not hold them)."""
        if not isinstance(states, np.ndarray) or states.ndim != 2:
            shape = getattr(states, "shape", type(states).__name__)
            raise TypeError(f"states must be a 2-d numpy array [B, S], got {shape}")
        return np.array([self.decide(Decision.at(self.game, s)) for s in states], np.int64)

    def decide(self, decision: Decision) -> int:
        """The action played at ``decision``: the first answer accepted, or the fallback's."""
        base = prompt(decision, self.tier, self.last_events)
        notes: list[str] = []  # tool answers and refusals, shown in the next prompt
        refused = tool_calls = 0
        while refused <= self.retries:
            asked = base + "".join(notes)
            answer = self.complete(asked)
            self.answers += 1
            parsed = parse_answer(decision, answer, self.tier)
            entry = self._entry(decision, asked, answer)
            if parsed.kind == "tool" and tool_calls < self.max_tool_calls:
                result = run_tool(decision, answer)
                entry["tool_result"] = result
                if result["ok"]:
                    tool_calls += 1
                    notes.append(_tool_note(result))
                    continue
                parsed = Parsed(None, None, "tool", result["error"])
            entry.update(action=parsed.action, parsed=parsed.label, refusal=parsed.reason or None)
            if not parsed.refused:
                return int(parsed.action)
            self.illegal_answers += 1
            refused += 1
            notes.append(f"\n\nYour answer {_short(answer)} was refused: {parsed.reason}.")
        return self._fall_back(decision)

    def _fall_back(self, decision: Decision) -> int:
        self.fallbacks += 1
        if self.fallback == "first":
            action = decision.actions[0]
        else:
            agent = self._random if self.fallback == "random" else self.fallback
            action = agent.act(decision.observation, decision.mask)
        label = decision.labels[decision.actions.index(action)]
        entry = self._entry(decision, None, None)
        entry.update(action=int(action), parsed=label, fallback=_fallback_name(self.fallback))
        return int(action)

    def _entry(self, decision: Decision, asked: str | None, answer: Answer | None) -> dict:
        entry = {
            "game": decision.game.name,
            "seat": decision.seat,
            "tier": self.tier,
            "prompt": asked,
            "answer": answer if isinstance(answer, str | None) else dict(answer),
            "action": None,
            "parsed": None,
            "refusal": None,
            "legal": list(decision.labels),
            "fallback": None,
            "tool_result": None,
            "outcome": None,
        }
        self.transcript.append(entry)
        return entry

    def finish(self, outcomes: Mapping[int, Mapping[str, Any]]) -> None:
        """Write each seat's result of the game just over (``outcomes[seat]``: ``{"reward",
        "place", "score"}``) into that seat's exchanges of that game."""
        for entry in self.transcript[self._game_start :]:
            entry["outcome"] = dict(outcomes[entry["seat"]])
        self._game_start = len(self.transcript)


def _checked_fallback(fallback: Any) -> str | Agent:
    if isinstance(fallback, Agent):
        if fallback.needs_state:
            raise TypeError(f"the fallback {fallback!r} must act on observations, not states")
        return fallback
    if fallback not in FALLBACKS:
        raise ValueError(f"fallback must be one of {FALLBACKS} or an Agent, got {fallback!r}")
    return fallback


def _fallback_name(fallback: str | Agent) -> str:
    return fallback if isinstance(fallback, str) else fallback.name


def _tool_note(result: dict[str, Any]) -> str:
    """A tool's answer, as the next prompt shows it."""
    if result["tool"] == "legal_moves":
        body = "\n".join(f"{m['number']:>3}. {m['name']}" for m in result["moves"])
        return f"\n\nlegal_moves() answered:\n{body}"
    return f"\n\ndescribe({result['card']!r}) answered:\n{result['text']}"


def _short(answer: Answer) -> str:
    text = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
    return repr(text if len(text) <= 80 else text[:77] + "...")


def save_transcript(entries: Iterable[Mapping[str, Any]], path: str | Path) -> Path:
    """Write ``entries`` (a :class:`TextAgent`'s transcript) to ``path``, one JSON object
    a line."""
    path = check_output_path(path, "the transcript path")
    with path.open("w", encoding="utf-8") as out:
        for entry in entries:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")
    return path
