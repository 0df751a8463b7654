"""Res Arcana's events name its components and essences (the shared contract:
tests/core/test_event_text.py)."""

from __future__ import annotations

from event_words import check_event_texts, check_no_unlearned_card, played_env

from presages_env.games.res_arcana.cards import ESSENCE_NAMES, NAMES, POWER_TEXTS

SHORTER = {"step_cap": 400}  # the same kinds, a faster game


def components_of(a: dict[str, int]) -> list[str]:
    fields = ("card", "mage", "item", "returned", "monument", "place", "comp")
    return [NAMES[a[f]] for f in fields if a.get(f, -1) >= 0]


def test_a_seat_never_reads_a_card_it_never_learns():
    check_no_unlearned_card("res_arcana", components_of, **SHORTER)


def test_events_name_components_not_their_ids():
    def gain(e) -> str:
        a = e.args
        on = f" on {NAMES[a['comp']]}" if a["comp"] >= 0 else ""
        return f"P{a['seat'] + 1} gained {a['count']} {ESSENCE_NAMES[a['essence']]}{on}"

    check_event_texts(
        played_env("res_arcana", **SHORTER).events(),
        {
            "power": lambda e: (
                f"P{e.args['seat'] + 1} used {NAMES[e.args['comp']]}'s power: "
                f"{POWER_TEXTS[e.args['power']]}"
            ),
            "gain": gain,
            "deal_mage": lambda e: (
                f"P{e.args['seat'] + 1} was dealt the mage {NAMES[e.args['mage']]}"
            ),
        },
    )
