"""The answer parser: what it takes (a number, a name, its unambiguous start, a ``Move:``
line, a ``play`` tool call in OpenAI's or Anthropic's form) and what it refuses, with the
reason an agent is shown; it never guesses."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import presages_env
from presages_env.core.choice import match_action
from presages_env.text import Decision, parse_answer


@pytest.fixture(scope="module")
def dealer_bid() -> Decision:
    """Aciliande, 2 players, 10 cards each: the first bid is 9, so the dealer may bid
    anything from 0 to 10 but 1 (the bids may not add up to the hand size)."""
    env = presages_env.make("aciliande", num_players=2, fixed_hand_size=10)
    env.reset(seed=0)
    first = Decision.at(env.game, env.get_state())
    env.step(first.actions[first.labels.index("bid 9")])
    return Decision.at(env.game, env.get_state(), env.events(0))


def action_of(decision: Decision, label: str) -> int:
    return decision.actions[decision.labels.index(label)]


def test_a_move_is_taken_by_its_number_its_name_or_the_unambiguous_start_of_it(dealer_bid):
    bid_ten = action_of(dealer_bid, "bid 10")
    for answer in ("bid 10", "BID 10", "  bid 10. ", "`bid 10`", "10", "**10**"):
        assert parse_answer(dealer_bid, answer, "moves").action == bid_ten, answer
    reasoned = "My partner bid 9, so...\nI will take them all.\nMove: bid 10"
    assert parse_answer(dealer_bid, reasoned, "moves").action == bid_ten
    assert parse_answer(dealer_bid, "**Move:** 2\n", "moves").action == action_of(
        dealer_bid, "bid 2"
    )
    assert parse_answer(dealer_bid, "bid 10", "observation").action == bid_ten


def test_the_name_of_a_move_not_legal_now_is_refused_though_it_starts_a_legal_one(dealer_bid):
    labels = list(dealer_bid.labels)
    assert match_action("bid 1", labels).indices == (labels.index("bid 10"),)  # the terminal's
    parsed = parse_answer(dealer_bid, "bid 1", "moves")
    assert parsed.refused and parsed.kind == "illegal"
    assert parsed.reason == "'bid 1' is not a legal move now"


def test_a_start_of_a_legal_and_of_an_illegal_name_is_refused_as_ambiguous(dealer_bid):
    lone = dataclasses.replace(
        dealer_bid,
        actions=(7,),
        labels=("play XVIII La Lune",),
        other_names=("play XV Le Diable", "play V Le Pape"),
    )
    parsed = parse_answer(lone, "play XV", "moves")
    assert parsed.kind == "ambiguous"
    assert "'play XVIII La Lune'" in parsed.reason and "play XV Le Diable" in parsed.reason
    assert parse_answer(lone, "play XVI", "moves").action == 7
    assert parse_answer(lone, "la lune", "moves").action == 7


def test_refusals_say_why(dealer_bid):
    cases = {
        "bid": ("ambiguous", "'bid' fits bid 0; bid 2; bid 3"),
        "fly to the moon": ("unknown", "'fly to the moon' names no legal move"),
        "": ("empty", "the answer names no move"),
        "??": ("empty", "the answer names no move"),
        "0": ("number", "'0' is not a number from 1 to 10"),
        "11": ("number", "'11' is not a number from 1 to 10"),
        "-1": ("number", "'-1' is not a number from 1 to 10"),
    }
    for answer, (kind, reason) in cases.items():
        parsed = parse_answer(dealer_bid, answer, "moves")
        assert (parsed.action, parsed.kind) == (None, kind), answer
        assert parsed.reason.startswith(reason), parsed.reason
    numbered_nowhere = parse_answer(dealer_bid, "3", "observation")
    assert numbered_nowhere.kind == "number" and "in words" in numbered_nowhere.reason


@pytest.mark.parametrize(
    "call",
    [
        {"name": "play", "arguments": {"move": "bid 10"}},
        {"name": "play", "arguments": json.dumps({"move": "10"})},
        {"type": "function", "function": {"name": "play", "arguments": '{"move": "bid 10"}'}},
        {"type": "tool_use", "id": "toolu_1", "name": "play", "input": {"move": 10}},
        json.dumps({"name": "play", "arguments": {"move": "bid 10"}}),
    ],
)
def test_a_play_tool_call_in_either_form_plays(dealer_bid, call):
    assert parse_answer(dealer_bid, call, "tools").action == action_of(dealer_bid, "bid 10")


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        ("{not json}", "a tool call is not valid JSON"),
        ({"name": "fold"}, "no tool is called 'fold'"),
        ({"name": "play", "arguments": {}}, "play takes the arguments: move"),
        ({"name": "play", "arguments": {"move": "1", "why": "x"}}, "play takes the arguments"),
        ({"name": "play", "arguments": {"move": True}}, "play's move is a string, got bool"),
        ({"name": "play", "arguments": "[1]"}, "play takes the arguments: move"),
        ({"name": "legal_moves"}, "legal_moves plays no move"),
    ],
)
def test_a_bad_tool_call_is_refused_with_its_fault(dealer_bid, call, reason):
    parsed = parse_answer(dealer_bid, call, "tools")
    assert parsed.refused and parsed.kind == "tool"
    assert parsed.reason.startswith(reason), parsed.reason


def test_a_decision_is_refused_an_event_its_seat_does_not_see_and_a_finished_game():
    env = presages_env.make("president", num_players=3)
    env.reset(seed=1)
    state = env.get_state()
    seat = Decision.at(env.game, state).seat
    hidden = [e for e in env.events() if not e.seen_by(seat)]
    assert hidden  # the other seat's cards
    with pytest.raises(ValueError, match=f"seat {seat} does not see"):
        Decision.at(env.game, state, hidden)
    with pytest.raises(TypeError, match="an answer is a str or a tool call"):
        parse_answer(Decision.at(env.game, state), None, "moves")
    with pytest.raises(ValueError, match="tier must be one of"):
        parse_answer(Decision.at(env.game, state), "1", "chat")
    kuhn = presages_env.get_game("kuhn_poker")
    over = kuhn.new_state(2, 0)
    while not kuhn.is_over(over):
        kuhn.step(over, Decision.at(kuhn, over).actions[0], np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="is over"):
        Decision.at(kuhn, over)
