"""Aciliande's events name its cards (the shared contract: tests/core/test_event_text.py)."""

from __future__ import annotations

from event_words import check_event_texts, check_no_unlearned_card, played_env

from presages_env.games.aciliande.cards import card_name


def cards_of(a: dict[str, int]) -> list[str]:
    fields = ("card", "goddess_a", "goddess_b", "goddess_c")
    return [card_name(a[f]) for f in fields if f in a]


def test_a_seat_never_reads_a_card_it_never_learns():
    check_no_unlearned_card("aciliande", cards_of)


def test_events_name_cards_not_their_ids():
    check_event_texts(
        played_env("aciliande").events(),
        {
            "play": lambda e: (
                f"P{e.actor + 1} played {card_name(e.args['card'])} in trick {e.args['trick'] + 1}"
            ),
            "dealt": lambda e: f"P{e.args['player'] + 1} was dealt {card_name(e.args['card'])}",
        },
    )
