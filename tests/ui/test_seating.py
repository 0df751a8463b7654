"""``play --partner --opponents`` (issue 50, item 4): ``make play`` promised a heuristic
partner against the PPO team, but the agents filled the other seats in turn while the deal
made the teams, so the partner could be ``ppo``. The agents now sit where the deal put the
teams (ui/seating.py)."""

from __future__ import annotations

import pytest

from presages_env.ui.seating import seat_specs


def test_partners_and_opponents_sit_where_the_teams_are():
    assert seat_specs([0, 1, 0, 1], 0, ["ppo"], ["heuristic"]) == [
        None,
        "ppo",
        "heuristic",
        "ppo",
    ]
    # the deal made seats 0 and 1 partners: the heuristic moves to seat 1
    assert seat_specs([1, 1, 0, 0], 0, ["ppo"], ["heuristic"]) == [None, "heuristic", "ppo", "ppo"]
    # 5 players: two partners, two opponents, each list taken in turn
    assert seat_specs([0, 1, 1, 0, 0], 3, ["ppo", "random"], ["heuristic", "dmc"]) == [
        "heuristic",
        "ppo",
        "random",
        None,
        "dmc",
    ]


def test_a_team_game_without_partner_gives_the_heuristic_as_partner():
    assert seat_specs([0, 1, 0, 1], 1, ["ppo"]) == ["ppo", None, "ppo", "heuristic"]


def test_a_game_without_teams_seats_opponents_in_turn_and_refuses_a_partner():
    assert seat_specs([0, 1, 2], 1, ["ppo", "random"]) == ["ppo", None, "random"]
    with pytest.raises(ValueError, match="Président at 3 players has no teams, so no partner"):
        seat_specs([0, 1, 2], 1, ["ppo"], ["heuristic"], "Président")
    with pytest.raises(ValueError, match="at least one opponent"):
        seat_specs([0, 1, 0, 1], 0, [])
