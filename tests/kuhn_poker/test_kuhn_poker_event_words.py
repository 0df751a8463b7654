"""Kuhn poker's events name its cards (the shared contract: tests/core/test_event_text.py)."""

from __future__ import annotations

from event_words import check_event_texts, check_no_unlearned_card, played_env

from presages_env.games.kuhn_poker.kernel import CARD_NAMES


def cards_of(a: dict[str, int]) -> list[str]:
    return [CARD_NAMES[a["card"]]] if "card" in a else []


def test_a_seat_never_reads_a_card_it_never_learns():
    check_no_unlearned_card("kuhn_poker", cards_of)


def test_events_name_cards_not_their_ids():
    check_event_texts(
        played_env("kuhn_poker").events(),
        {"dealt": lambda e: f"P{e.args['player'] + 1} was dealt the {CARD_NAMES[e.args['card']]}"},
    )
