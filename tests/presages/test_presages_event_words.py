"""Présages' events name its cards (the shared contract: tests/core/test_event_text.py)."""

from __future__ import annotations

from event_words import check_event_texts, check_no_unlearned_card, played_env

from presages_env.games.presages.event_text import card_text


def cards_of(a: dict[str, int]) -> list[str]:
    return [card_text(a[f], colour=False) for f in ("card", "given", "returned") if a.get(f)]


def test_a_seat_never_reads_a_card_it_never_learns():
    check_no_unlearned_card("presages", cards_of)


def test_events_name_cards_not_their_ids():
    check_event_texts(
        played_env("presages").events(),
        {
            "dealt": lambda e: (
                f"P{e.args['seat'] + 1} was dealt {card_text(e.args['card'], False)}"
            ),
            "bout_won": lambda e: (
                f"bout won by P{e.args['winner'] + 1} with {card_text(e.args['card'], False)}; "
                f"next starter P{e.args['next_starter'] + 1}"
            ),
        },
    )
