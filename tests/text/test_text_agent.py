"""TextAgent: a scripted agent that reads only the numbered-moves text plays whole games of
every game; refused answers are retried with the reason shown, then the fallback plays; the
tools tier; the transcript, with each seat's result, exported as JSONL."""

from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest

import presages_env
from presages_env import records
from presages_env.agents import HeuristicAgent, ISMCTSAgent, RandomAgent
from presages_env.text import (
    Decision,
    TextAgent,
    play_game,
    run_tool,
    save_transcript,
    tool_definitions,
)

MOVES = re.compile(r"^Your legal moves:\n((?:\s*\d+\. .*\n?)+)", re.MULTILINE)
MOVE = re.compile(r"^\s*(\d+)\. (.*)$", re.MULTILINE)


class Script:
    """Reads the prompt's numbered moves with a regex (never an observation array), picks
    one at random and answers its number, its name, or reasoning ending in a Move: line."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.chosen: list[str] = []

    def __call__(self, prompt: str) -> str:
        moves = MOVE.findall(MOVES.search(prompt).group(1))
        number, name = self.rng.choice(moves)
        self.chosen.append(name)
        return self.rng.choice([number, name, f"Let me think.\nMove: {name}"])


@pytest.mark.parametrize("name", presages_env.list_games())
def test_a_script_reading_the_numbered_moves_text_plays_whole_games(name):
    game = presages_env.get_game(name)
    options = game.short_options(np.random.default_rng(0))
    n = game.default_players
    scripts = [Script(seat) for seat in range(n)]
    agents = [
        TextAgent(name, script, tier="moves", seed=seat) for seat, script in enumerate(scripts)
    ]
    rec = play_game(name, agents, seed=5, **options)
    assert records.replay(rec)[-1] is not None  # a whole game, by the rules
    for seat, (agent, script) in enumerate(zip(agents, scripts, strict=True)):
        assert (agent.illegal_answers, agent.fallbacks) == (0, 0)
        assert [entry["parsed"] for entry in agent.transcript] == script.chosen
        assert all(entry["outcome"]["reward"] == rec.result[seat] for entry in agent.transcript)
    assert sum(len(agent.transcript) for agent in agents) == len(rec.actions)


def answers(*given):
    """A complete function answering ``given`` in turn, keeping the prompts it was asked."""
    queue = list(given)

    def complete(prompt: str):
        complete.prompts.append(prompt)
        return queue.pop(0)

    complete.prompts = []
    return complete


@pytest.fixture(scope="module")
def opening() -> Decision:
    """Président, 3 players: the first decision."""
    game = presages_env.get_game("president")
    return Decision.at(game, game.new_state(3, 7))


def test_a_refused_answer_is_asked_again_with_its_reason(opening):
    complete = answers("fly to the moon", "0", opening.labels[1])
    agent = TextAgent("president", complete, retries=2)
    assert agent.decide(opening) == opening.actions[1]
    assert (agent.answers, agent.illegal_answers, agent.fallbacks) == (3, 2, 0)
    assert "was refused: 'fly to the moon' names no legal move" in complete.prompts[1]
    assert "'0' is not a number from 1 to" in complete.prompts[2]
    assert [e["refusal"] is None for e in agent.transcript] == [False, False, True]


@pytest.mark.parametrize(
    ("fallback", "expected"),
    [("first", lambda d: d.actions[0]), (HeuristicAgent("president"), None), ("random", None)],
)
def test_after_its_retries_the_fallback_plays(opening, fallback, expected):
    agent = TextAgent("president", answers("pass me", "zzz"), retries=1, fallback=fallback)
    action = agent.decide(opening)
    if isinstance(fallback, HeuristicAgent):
        assert action == fallback.act(opening.observation, opening.mask)
    if expected is not None:
        assert action == expected(opening)
    assert action in opening.actions
    assert (agent.illegal_answers, agent.fallbacks) == (2, 1)
    last = agent.transcript[-1]
    assert last["prompt"] is None and last["action"] == action
    assert last["fallback"] == (fallback if isinstance(fallback, str) else fallback.name)


def test_a_text_agent_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="tier must be one of"):
        TextAgent("president", str, tier="chat")
    with pytest.raises(ValueError, match="fallback must be one of"):
        TextAgent("president", str, fallback="best")
    with pytest.raises(TypeError, match="must act on observations"):
        TextAgent("president", str, fallback=ISMCTSAgent("president", simulations=2))
    with pytest.raises(ValueError, match="retries"):
        TextAgent("president", str, retries=-1)
    with pytest.raises(TypeError, match="complete must be a function"):
        TextAgent("president", "gpt")
    with pytest.raises(TypeError, match="call act_states"):
        TextAgent("president", str).act(np.zeros(3, np.int8), np.ones(3, np.int8))


def test_the_tools_tier_answers_legal_moves_and_describe_then_plays(opening):
    card = opening.view.players[opening.seat].hand[0]
    complete = answers(
        {"name": "legal_moves", "arguments": {}},
        {"type": "tool_use", "name": "describe", "input": {"card": card}},
        {"name": "describe", "arguments": {"card": "no such card"}},
        json.dumps({"name": "play", "arguments": {"move": "2"}}),
    )
    agent = TextAgent("president", complete, tier="tools")
    assert agent.decide(opening) == opening.actions[1]
    assert f"legal_moves() answered:\n  1. {opening.labels[0]}" in complete.prompts[1]
    assert f"describe({card!r}) answered:\n" in complete.prompts[2]
    assert "was refused: no card is named 'no such card'" in complete.prompts[3]
    assert agent.illegal_answers == 1
    assert agent.transcript[0]["tool_result"]["moves"][0] == {
        "number": 1,
        "name": opening.labels[0],
    }


def test_tool_calls_past_the_limit_are_refused(opening):
    listing = {"name": "legal_moves", "arguments": {}}
    agent = TextAgent(
        "president", answers(*[listing] * 4), tier="tools", max_tool_calls=2, retries=1
    )
    agent.decide(opening)
    assert (agent.illegal_answers, agent.fallbacks) == (2, 1)


def test_tool_definitions_and_results_are_plain_json(opening):
    for style, key in (("openai", "function"), ("anthropic", "input_schema")):
        tools = tool_definitions(style)
        assert json.loads(json.dumps(tools)) == tools
        assert all(key in tool for tool in tools)
    names = [tool["function"]["name"] for tool in tool_definitions()]
    assert names == ["legal_moves", "describe", "play"]
    for call in ({"name": "legal_moves"}, {"name": "play", "arguments": {"move": "1"}}, "{}"):
        result = run_tool(opening, call)
        assert json.loads(json.dumps(result)) == result
    assert (
        run_tool(opening, {"name": "play", "arguments": {"move": "1"}})["action"]
        == (opening.actions[0])
    )
    assert not run_tool(opening, "{}")["ok"]


def test_the_transcript_exports_as_jsonl_with_each_seat_result(tmp_path):
    seats = [TextAgent("president", Script(0)), RandomAgent(1), HeuristicAgent("president")]
    rec = play_game("president", seats, seed=2)
    path = save_transcript(seats[0].transcript, tmp_path / "president.jsonl")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines == seats[0].transcript and lines
    fields = {"game", "seat", "tier", "prompt", "answer", "action", "parsed", "refusal"}
    fields |= {"legal", "fallback", "tool_result", "outcome"}
    for line in lines:
        assert set(line) == fields
        assert line["game"] == "president" and line["seat"] == 0
        assert line["parsed"] in line["legal"] and "Your legal moves" in line["prompt"]
        assert line["outcome"]["reward"] == rec.result[0]
        assert line["outcome"]["place"] in (1, 2, 3) and line["outcome"]["score"]
    with pytest.raises(ValueError, match="does not exist"):
        save_transcript([], tmp_path / "missing" / "t.jsonl")


def test_where_only_states_are_given_a_text_agent_plays_from_the_view_alone():
    script = Script(3)
    seats = [TextAgent("president", script), RandomAgent(1), RandomAgent(2)]
    rec = records.play_recorded("president", seats, ["text", "r1", "r2"], seed=4)
    assert script.chosen and seats[0].illegal_answers == 0
    assert records.replay(rec)
    assert "What you saw, oldest first:\n-" in seats[0].transcript[0]["prompt"]
