"""Kuhn poker on the replay page: every move is public (the shared contract:
tests/ui/test_replay_page.py)."""

from __future__ import annotations

from replay_views import check_seat_pages, random_record


def test_no_decision_is_hidden_from_other_seats():
    for seed in range(4):  # a few deals and lines of play
        assert check_seat_pages(random_record("kuhn_poker", seed, num_players=3)) == set()
