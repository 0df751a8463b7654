"""Placement costs, claims and discounts (§3 phase 2, §6-§8): every card's cost is paid exactly.

Costs are paid one essence per decision in E, L, C, D, G order; a payment with a single
possible result is applied without asking.
"""

import pytest
from res_arcana_helpers import C, D, E, G, L, legal, position

from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana.game import (
    CLAIM_MONUMENT_TOP,
    claim_monument,
    claim_place,
    current_seat,
    display,
    hand,
    in_play,
    monument_deck,
    node_name,
    place,
    play,
    pool,
    power,
)

ARTIFACTS = cd.NAMES[: cd.NUM_ARTIFACTS]
PLACES = cd.NAMES[cd.FIRST_PLACE :]
EMPTY = {"E": 0, "L": 0, "C": 0, "D": 0, "G": 0}


def exact_pool(name: str) -> str:
    """The card's cost with its "any" part paid in Elan: a payment with one outcome."""
    fixed, any_count = cd.parse_essences(cd.ROWS[cd.cid_of(name)].cost)
    fixed[0] += any_count
    return " ".join(f"{n}{cd.ESSENCES[e]}" for e, n in enumerate(fixed) if n)


def short_pool(name: str) -> str:
    fixed, any_count = cd.parse_essences(cd.ROWS[cd.cid_of(name)].cost)
    fixed[0] += any_count
    first = next(e for e, n in enumerate(fixed) if n)
    fixed[first] -= 1
    return " ".join(f"{n}{cd.ESSENCES[e]}" for e, n in enumerate(fixed) if n)


@pytest.mark.parametrize("name", ARTIFACTS)
def test_every_artifact_costs_exactly_its_printed_cost(name):
    state = position(hands=[[name], []], pools=[exact_pool(name), ""])
    play(state, place(name))
    assert name in in_play(state, 0) and hand(state, 0) == []
    assert pool(state, 0) == EMPTY
    assert current_seat(state) == 1 and node_name(state) == "ACTION"
    if cd.PRINTED_COST[cd.cid_of(name)]:
        short = position(hands=[[name], []], pools=[short_pool(name), ""])
        assert place(name) not in legal(short)


@pytest.mark.parametrize("name", PLACES)
def test_every_place_of_power_is_claimed_for_its_cost(name):
    state = position(places=[name], pools=[exact_pool(name), ""])
    play(state, claim_place(name))
    assert name in in_play(state, 0) and pool(state, 0) == EMPTY
    assert claim_place(name) not in legal(position(places=[name], pools=[short_pool(name), ""]))


def test_a_face_up_monument_costs_4_gold_and_the_display_is_refilled_from_the_deck():
    state = position(
        display=["Temple", "Library"],
        monument_deck=[
            "Oracle",
            "Colossus",
            "Golden Statue",
            "Great Pyramid",
            "Hanging Gardens",
            "Mausoleum",
            "Obelisk",
            "Solomon's Mine",
        ],
        pools=["4G 1E", ""],
    )
    assert claim_monument("Temple") in legal(state) and CLAIM_MONUMENT_TOP in legal(state)
    play(state, claim_monument("Library"))
    assert "Library" in in_play(state, 0) and pool(state, 0)["G"] == 0
    assert display(state) == ["Temple", "Oracle"]
    assert monument_deck(state)[0] == "Colossus"


def test_the_top_of_the_monument_deck_is_claimed_unseen_and_the_display_stays():
    state = position(
        display=["Temple", "Library"],
        monument_deck=[
            "Oracle",
            "Colossus",
            "Golden Statue",
            "Great Pyramid",
            "Hanging Gardens",
            "Mausoleum",
            "Obelisk",
            "Solomon's Mine",
        ],
        pools=["4G", ""],
    )
    play(state, CLAIM_MONUMENT_TOP)
    assert "Oracle" in in_play(state, 0)
    assert display(state) == ["Temple", "Library"] and len(monument_deck(state)) == 7


def test_monuments_need_4_gold_and_an_empty_deck_is_never_refilled():
    state = position(
        display=["Temple"],
        monument_deck=[],
        pools=["3G 5E", ""],
        in_play=[
            [
                "Colossus",
                "Golden Statue",
                "Great Pyramid",
                "Hanging Gardens",
                "Mausoleum",
                "Obelisk",
                "Oracle",
                "Solomon's Mine",
                "Library",
            ],
            [],
        ],
    )
    assert claim_monument("Temple") not in legal(state) and CLAIM_MONUMENT_TOP not in legal(state)
    state = position(
        display=["Temple"],
        monument_deck=[],
        pools=["4G", ""],
        in_play=[
            [
                "Colossus",
                "Golden Statue",
                "Great Pyramid",
                "Hanging Gardens",
                "Mausoleum",
                "Obelisk",
                "Oracle",
                "Solomon's Mine",
                "Library",
            ],
            [],
        ],
    )
    assert CLAIM_MONUMENT_TOP not in legal(state)
    play(state, claim_monument("Temple"))
    assert display(state) == []


def test_any_essences_are_chosen_one_by_one_in_canonical_order():
    """Tree of Life costs 1 Life + 2 any; essences are paid in E, L, C, D, G order, so each
    payment is reached one way, and a forced step (the Life) is not asked."""
    state = position(hands=[["Tree of Life"], []], pools=["1L 1E 1C 1G", ""])
    play(state, place("Tree of Life"))
    assert node_name(state) == "PAY" and legal(state) == {E, L}
    play(state, E)  # then the fixed Life is forced, and one of Calm or Gold
    assert legal(state) == {C, G}
    play(state, G)
    assert pool(state, 0) == {"E": 0, "L": 0, "C": 1, "D": 0, "G": 0}
    assert "Tree of Life" in in_play(state, 0)


def test_a_payment_never_offers_an_essence_that_makes_the_cost_unpayable():
    """Corrupt Altar: 2 Death + 3 any, holding 2 Death and 3 Elan and 1 Gold: Death cannot
    go to the "any" part (the fixed 2 Death need both)."""
    state = position(hands=[["Corrupt Altar"], []], pools=["2D 3E 1G", ""])
    play(state, place("Corrupt Altar"))
    # two Elan are forced (with Death first, 3 "any" could not follow in order)
    assert pool(state, 0) == {"E": 1, "L": 0, "C": 0, "D": 2, "G": 1}
    assert legal(state) == {E, D}
    play(state, D)  # then Death and the Gold are forced
    assert "Corrupt Altar" in in_play(state, 0)
    assert pool(state, 0) == {"E": 1, "L": 0, "C": 0, "D": 0, "G": 0}


def test_artificer_discounts_the_non_gold_part_of_artifacts_only():
    state = position(
        mages=("Artificer", "Scholar"), hands=[["Dragon Egg", "Fire Dragon"], []], pools=["5E", ""]
    )
    assert place("Dragon Egg") not in legal(state)  # 1 Gold: not discounted
    play(state, place("Fire Dragon"))
    assert pool(state, 0)["E"] == 0 and "Fire Dragon" in in_play(state, 0)


def test_artificer_does_not_discount_places_of_power_or_monuments():
    state = position(
        mages=("Artificer", "Scholar"),
        places=["Alchemist's Tower"],
        pools=["2G", ""],
        display=["Temple"],
    )
    assert claim_place("Alchemist's Tower") not in legal(state)
    assert claim_monument("Temple") not in legal(state)


def test_dragon_bridle_and_dragons_lair_each_take_3_from_dragons_and_stack():
    state = position(
        in_play=[["Dragon Bridle", "Dragon's Lair"], []],
        hands=[["Earth Dragon", "Hawk"], []],
        pools=["1L", ""],
    )
    assert place("Hawk") not in legal(state)  # not a dragon
    play(state, place("Earth Dragon"))  # 4 Elan + 3 Life - 6: 1 essence of the fixed part
    assert "Earth Dragon" in in_play(state, 0) and pool(state, 0)["L"] == 0


def test_a_discount_of_any_part_leaves_the_choice_of_which_part_to_waive():
    state = position(
        in_play=[["Dragon Bridle"], []], hands=[["Earth Dragon"], []], pools=["4E 3L", ""]
    )
    play(state, place("Earth Dragon"))  # 7 - 3: any 4 of the 4 Elan + 3 Life
    assert node_name(state) == "PAY" and legal(state) == {E, L}  # after a forced Elan
    play(state, L)  # then the other two Life
    assert pool(state, 0) == {"E": 3, "L": 0, "C": 0, "D": 0, "G": 0}


def test_discounts_never_take_a_cost_below_zero():
    state = position(
        mages=("Artificer", "Scholar"),
        in_play=[["Dragon Bridle", "Dragon's Lair"], []],
        hands=[["Water Dragon"], []],
        pools=["", ""],
    )
    play(state, place("Water Dragon"))  # 6 Calm - 3 - 3
    assert "Water Dragon" in in_play(state, 0)


def test_crypt_places_from_the_discard_pile_at_2_less_never_reducing_gold():
    state = position(
        in_play=[["Crypt"], []], discards=[["Vault", "Fire Dragon"], []], pools=["1D 1G", ""]
    )
    play(state, power("Crypt", 1))  # turn + 1 Death
    assert node_name(state) == "TARGET"
    assert legal(state) == {cd.CID["Vault"] + 190, 189}  # Fire Dragon needs 4 Elan; or none
    play(state, 190 + cd.CID["Vault"])  # 1 Gold + 1 any - 2 (not Gold): 1 Gold
    assert "Vault" in in_play(state, 0) and pool(state, 0)["G"] == 0


def test_dragon_egg_places_a_dragon_from_hand_at_4_less():
    state = position(in_play=[["Dragon Egg"], []], hands=[["Fire Dragon"], []], pools=["2E", ""])
    play(state, power("Dragon Egg"), 190 + cd.CID["Fire Dragon"])
    assert "Fire Dragon" in in_play(state, 0) and "Dragon Egg" not in in_play(state, 0)
    assert pool(state, 0)["E"] == 0


def test_dragon_teeth_places_a_dragon_for_free_after_its_3_elan():
    state = position(in_play=[["Dragon Teeth"], []], hands=[["Sea Serpent"], []], pools=["3E", ""])
    play(state, power("Dragon Teeth", 1), 190 + cd.CID["Sea Serpent"])
    assert "Sea Serpent" in in_play(state, 0) and pool(state, 0) == EMPTY


def test_sorcerers_bestiary_places_a_dragon_from_any_discard_paying_its_cost_too():
    state = position(
        in_play=[["Sorcerer's Bestiary", "Dragon Bridle"], []],
        discards=[[], ["Fire Dragon"]],
        pools=["4C 3E", ""],
    )
    play(state, power("Sorcerer's Bestiary", 1))  # turn + 4 any: the Calm, not the Elan
    assert legal(state) == {E, C}
    play(state, C, 190 + cd.CID["Fire Dragon"])  # 6 Elan - 3 (Dragon Bridle)
    assert "Fire Dragon" in in_play(state, 0) and pool(state, 0) == EMPTY
