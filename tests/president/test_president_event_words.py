"""Président's events name its ranks (the shared contract: tests/core/test_event_text.py)."""

from __future__ import annotations

from event_words import check_event_texts, check_no_unlearned_card, played_env

from presages_env.games.president.cards import RANK_NAMES, SET_NAMES

# A rank is a word after "a" or "of": "2" alone is also a number of points.
NAMING = r"\b(?:a|of) {}(?!\w)"


def ranks_of(a: dict[str, int]) -> list[str]:
    return [RANK_NAMES[a["rank"]]] if "rank" in a else []


def test_a_seat_never_reads_a_card_it_never_learns():
    check_no_unlearned_card("president", ranks_of, NAMING)


def test_events_name_ranks_not_their_ids():
    check_event_texts(
        played_env("president").events(),
        {
            "play": lambda e: (
                f"P{e.actor + 1} played a {SET_NAMES[e.args['count'] - 1]} of "
                f"{RANK_NAMES[e.args['rank']]}"
            ),
            "dealt": lambda e: f"P{e.args['player'] + 1} was dealt a {RANK_NAMES[e.args['rank']]}",
        },
    )
