"""Res Arcana's result in its own terms (the shared contract: tests/core/test_results.py)."""

from __future__ import annotations

import re

import pytest
from played_results import played_result

import presages_env

SCORE_WORDS = re.compile(r"\d+ victory points?")


def test_the_game_has_its_written_name():
    assert presages_env.get_game("res_arcana").title == "Res Arcana"


@pytest.mark.parametrize("seed", [1, 2])
def test_each_seat_scores_in_the_games_terms(seed):
    _, _, words = played_result("res_arcana", seed)
    assert all(SCORE_WORDS.search(line) for line in words.lines), words.lines
