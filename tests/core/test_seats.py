"""One name per seat (issue 50, item 3): the lab showed an unnamed person as "player 1 (P0)"
while P1 was another seat, its status said "to act: player_0", the replay header read
"player_0 player 1". Every page now names a seat by one badge, ``P2 · heuristic · partner``
(core/seats.py); tests/ui/test_seat_names.py checks that the lab, the terminal and the
replay page agree for every game."""

from __future__ import annotations

import pytest

from presages_env.core.events import seat_name
from presages_env.core.seats import as_seen_by, relation, row_names, seat_badge, seat_badges


def test_a_seat_is_counted_from_one_as_the_rules_count_players():
    assert [seat_name(s) for s in range(3)] == ["P1", "P2", "P3"]
    assert seat_badge(0, "you") == "P1 · you"
    assert seat_badge(1, "heuristic", "partner") == "P2 · heuristic · partner"
    assert seat_badge(2) == "P3"  # an unnamed seat (a record made without names)


def test_relations_come_from_the_teams_and_only_in_a_team_game():
    teams = [0, 1, 0, 1]
    assert [relation(teams, s, 0) for s in range(4)] == [None, "opponent", "partner", "opponent"]
    assert [relation([0, 1, 2], s, 0) for s in range(3)] == [None, None, None]  # all alone
    assert relation(teams, 1, None) is None  # a referee has no partner


def test_the_badges_name_the_viewer_you_and_a_referee_sees_names_alone():
    names = ["person", "ppo", "heuristic", "ppo"]
    assert seat_badges(names, [0, 1, 0, 1], viewer=0) == [
        "P1 · you",
        "P2 · ppo · opponent",
        "P3 · heuristic · partner",
        "P4 · ppo · opponent",
    ]
    assert seat_badges(names, [0, 1, 0, 1]) == [
        "P1 · person",
        "P2 · ppo",
        "P3 · heuristic",
        "P4 · ppo",
    ]
    assert as_seen_by(names, 2) == ["person", "ppo", "you", "ppo"]
    with pytest.raises(ValueError, match="names must list 4"):
        seat_badges(names[:3], [0, 1, 0, 1])


def test_a_view_row_that_is_not_its_seat_keeps_the_views_name():
    """Président's seat view names the others by their place in turn order once the seating
    changed: row 2 is then not seat 2, and must not get seat 2's badge."""
    badges = ["P1 · you", "P2 · ppo", "P3 · heuristic"]
    assert row_names(["P1", "P2", "P3"], badges) == badges
    assert row_names(["P1", "+1", "+2"], badges) == ["P1 · you", "+1", "+2"]
