"""Results in words, not floats (issue 42, item 4): every game says who won and each seat's
place and score in its own terms, rounded, with no internal id; games are named as they are
written (each game's own terms for a score and its title: tests/<game>/test_<game>_results.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from played_results import played_result

import presages_env
from presages_env import records
from presages_env.agents import RandomAgent
from presages_env.core.results import SeatResult, ordinal, places_by, result_words, reward_summary

LONG_FLOAT = re.compile(r"\d\.\d{3,}")
# a place, the seat and its score, in the game's own terms (tests/<game>/test_<game>_results.py)
SEAT_LINE = re.compile(r"\d+(st|nd|rd|th) +P\d · bot \d: \S")
INTERNAL_ID = re.compile(r"[a-z]+_\d+|\w=\w")  # absolute_34, key=value


@pytest.mark.parametrize("name", presages_env.list_games())
@pytest.mark.parametrize("seed", [1, 2])
def test_the_result_names_the_winners_places_and_scores_in_words(name, seed):
    n = presages_env.get_game(name).default_players
    rec, summary, words = played_result(name, seed)
    text = words.text()
    assert not LONG_FLOAT.search(text), text
    assert not INTERNAL_ID.search(text.replace("bot ", "")), text
    assert len(words.lines) == n and all(SEAT_LINE.match(line) for line in words.lines)
    winners = [r.seat for r in summary if r.place == 1]
    named = {s for s in range(n) if f"P{s + 1} · bot {s}" in words.headline}
    assert named == set(winners) and words.headline.endswith(" won"), words.headline
    best = np.flatnonzero(np.isclose(rec.result, max(rec.result)))
    assert set(best.tolist()) <= set(winners), (rec.result, summary)  # the top reward won
    places = [int(re.match(r"(\d+)", line).group(1)) for line in words.lines]
    assert places == sorted(places) and places[0] == 1


def test_the_default_wording_rounds_rewards():
    """Président's replay title read ``result -0.3333333432674408 / 1 / 0.3333333432674408
    / -1``: the default summary, from rewards alone, rounds them and ranks the seats."""
    totals = [-0.3333333432674408, 1.0, 0.3333333432674408, -1.0]
    words = result_words(reward_summary(totals), ["you", "ppo", "heuristic", "random"])
    assert words.headline == "P2 · ppo won"  # each seat by its badge (core/seats.py)
    assert words.lines == (
        "1st  P2 · ppo: reward +1",
        "2nd  P3 · heuristic: reward +0.33",
        "3rd  P1 · you: reward -0.33",
        "4th  P4 · random: reward -1",
    )


def test_ties_share_a_place_and_a_cut_game_has_no_winner():
    assert places_by([(2,), (5,), (5,), (1,)]) == [3, 1, 1, 4]
    assert [ordinal(p) for p in (1, 2, 3, 4, 11, 12, 13, 21, 22, 102)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "102nd",
    ]  # fmt: skip
    tied = [SeatResult(0, 1, "x"), SeatResult(1, 1, "x"), SeatResult(2, 3, "y")]
    assert result_words(tied, ["a", "b", "c"]).headline == "P1 · a and P2 · b won"
    assert result_words(tied[:2], ["a", "b"]).headline == "A draw"
    cut = result_words(tied, ["a", "b", "c"], no_winner="the game reached its step cap")
    assert cut.headline == "No winner: the game reached its step cap"
    with pytest.raises(ValueError, match="names must list 3"):
        result_words(tied, ["a"])


def test_a_game_not_over_has_no_result_yet():
    game = presages_env.get_game("president")
    state = game.new_state(4, 0)
    with pytest.raises(ValueError, match="Président game is not over"):
        game.result_words(state, [0.0] * 4, ["a", "b", "c", "d"])


def test_a_game_cut_at_its_step_cap_has_no_winner():
    game = presages_env.get_game("res_arcana")
    agents = [RandomAgent(p) for p in range(2)]
    rec = records.play_recorded("res_arcana", agents, ["a", "b"], 0, step_cap=30)
    words = game.result_words(records.replay(rec)[-1], rec.result, rec.agents)
    assert words.headline == "No winner: the game reached its step cap"
    assert len(words.lines) == 2 and all("victory point" in line for line in words.lines)
