"""The text round trip over every registered game: at thousands of decisions reached by random
play, at every player count, each legal move's name and number parse back to that move, and
nothing else parses (numbers out of range, names of moves that are not legal now)."""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.text import Decision, parse_answer

NUM_ENVS = 10
STEPS = 10  # random vector steps per player count: 100 decisions each, 1,800 in all


def decisions(name: str, num_players: int):
    """The decisions of ``NUM_ENVS`` random games along ``STEPS`` steps, every seat's."""
    game = presages_env.get_game(name)
    vec = presages_env.make_vec(name, NUM_ENVS, num_players, seed=num_players)
    rng = np.random.default_rng(num_players).integers(1, 2**62, size=NUM_ENVS).astype(np.int64)
    for _ in range(STEPS):
        for state in vec.states:
            yield Decision.at(game, state)
        vec.step(vec.random_actions(rng))


def round_trip(decision: Decision) -> None:
    count = len(decision.labels)
    for number, (action, label) in enumerate(
        zip(decision.actions, decision.labels, strict=True), 1
    ):
        assert parse_answer(decision, label, "moves").action == action, label
        assert parse_answer(decision, label, "observation").action == action, label
        assert parse_answer(decision, str(number), "moves").action == action, number
        call = {"name": "play", "arguments": {"move": str(number)}}
        assert parse_answer(decision, call, "tools").action == action, number
    for typed in ("0", str(count + 1), "-1", "99999"):
        assert parse_answer(decision, typed, "moves").kind == "number", typed
    assert parse_answer(decision, "1", "observation").kind == "number"
    for name in decision.other_names:
        parsed = parse_answer(decision, name, "moves")
        assert parsed.refused and parsed.kind == "illegal", (name, parsed)


@pytest.mark.parametrize("name", presages_env.list_games())
def test_every_legal_move_parses_back_and_nothing_else_does(name):
    game = presages_env.get_game(name)
    seats = set()
    for n in range(game.min_players, game.max_players + 1):
        for decision in decisions(name, n):
            seats.add((n, decision.seat))
            round_trip(decision)
    assert len(seats) == sum(range(game.min_players, game.max_players + 1))  # every seat
