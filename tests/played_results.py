"""A random game's result in words, for the shared results contract
(tests/core/test_results.py) and each game's own terms for a score (tests/<game>/)."""

from __future__ import annotations

import presages_env
from presages_env import records
from presages_env.agents import RandomAgent
from presages_env.core.results import ResultWords, SeatResult


def played_result(name: str, seed: int) -> tuple[records.GameRecord, list[SeatResult], ResultWords]:
    """A random game of ``name`` at its default seating, seats named ``bot 0``, ``bot 1``
    ...: its record, its result summary and its result in words."""
    game = presages_env.get_game(name)
    n = game.default_players
    names = [f"bot {p}" for p in range(n)]
    rec = records.play_recorded(name, [RandomAgent(seed + p) for p in range(n)], names, seed)
    final = records.replay(rec)[-1]
    return rec, game.result_summary(final, rec.result), game.result_words(final, rec.result, names)
