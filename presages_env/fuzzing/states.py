"""States and observations from outside, by game name (see :mod:`presages_env.core.fuzz`)."""

from __future__ import annotations

from presages_env.core.fuzz import FuzzReport, fuzz, fuzz_heuristic
from presages_env.games import get_game


def fuzz_states(game_name: str, cases: int, seed: int = 0) -> FuzzReport:
    return fuzz(get_game(game_name), cases, seed)


def fuzz_heuristics(game_name: str, cases: int, seed: int = 0) -> FuzzReport:
    return fuzz_heuristic(get_game(game_name), cases, seed)
