"""The collect phase (§3 phase 1): collect abilities, chosen collects, stored essences (all or
nothing per component), Vault, Windup Man and Cursed Forge.

A position in the collect phase starts with the first player (seat 0 here); seats collect in
turn order, then the first player takes the first action.
"""

import pytest
from res_arcana_helpers import C, D, E, L, legal, position

from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana.game import (
    DONE,
    NO,
    YES,
    component,
    current_seat,
    essences_on,
    is_turned,
    node_name,
    phase_name,
    play,
    pool,
    power,
    target_kind,
    victory_points,
)

FIXED_COLLECTS = [
    cd.NAMES[c] for c in range(cd.NUM_COMPONENTS) if cd.COLLECT[c].any() and cd.KIND[c] != cd.ITEM
]
CHOICE_COLLECTS = [
    ("Celestial Horse", 2, "ELC"),
    ("Healer", 1, "LC"),
    ("Witch", 1, "LD"),
    ("Calm / Elan", 1, "EC"),
    ("Death / Life", 1, "LD"),
    ("Hanging Gardens", 3, "ELCD"),
    ("Alchemist's Tower", 3, "ELCD"),
]


def essences(**counts):
    return {x: counts.get(x, 0) for x in "ELCDG"}


def owning(name):
    """Position arguments for seat 0 owning component ``name``."""
    kind = cd.KIND[cd.cid_of(name)]
    if kind == cd.MAGE:
        return {"mages": (name, "Scholar")}
    if kind == cd.ITEM:
        return {"items": (name, "Research")}
    return {"in_play": [[name], []]}


@pytest.mark.parametrize("name", FIXED_COLLECTS)
def test_every_fixed_collect_is_taken_without_a_decision(name):
    state = position(phase="collect", **owning(name))
    fixed = cd.COLLECT[cd.cid_of(name)]
    assert [pool(state, 0)[x] for x in "ELCDG"] == fixed.tolist()
    assert node_name(state) == "ACTION" and current_seat(state) == 0


@pytest.mark.parametrize(("name", "count", "letters"), CHOICE_COLLECTS)
def test_every_chosen_collect_asks_one_essence_at_a_time(name, count, letters):
    state = position(phase="collect", **owning(name))
    assert node_name(state) == "GAIN" and current_seat(state) == 0
    allowed = {"ELCDG".index(x) + 184 for x in letters}
    assert legal(state) == allowed
    first = min(allowed)
    play(state, *[first] * count)
    assert pool(state, 0)["ELCDG"[first - 184]] == count
    assert node_name(state) == "ACTION"


def test_seats_collect_in_turn_order_from_the_first_player():
    state = position(mages=("Healer", "Witch"), phase="collect", first_player=1)
    assert current_seat(state) == 1 and legal(state) == {L, D}
    play(state, D)
    assert current_seat(state) == 0 and legal(state) == {L, C}
    play(state, C)
    assert phase_name(state) == "actions" and current_seat(state) == 1


def test_stored_essences_are_taken_all_or_nothing_per_component():
    state = position(
        phase="collect",
        in_play=[["Athanor", "Cursed Skull"], []],
        stored={"Athanor": "4E", "Cursed Skull": "1C 2D"},
    )
    assert target_kind(state) == "take stored essences"
    assert legal(state) == {component("Athanor"), component("Cursed Skull"), DONE}
    play(state, component("Athanor"))
    assert pool(state, 0) == essences(E=4)
    assert legal(state) == {component("Cursed Skull"), DONE}  # later components only
    play(state, DONE)
    assert essences_on(state, "Cursed Skull") == essences(C=1, D=2)


def test_taking_essences_off_a_place_of_power_loses_its_points():
    state = position(
        phase="collect",
        in_play=[["Catacombs of the Dead"], []],
        stored={"Catacombs of the Dead": "3D"},
    )
    assert victory_points(state, 0) == 1 + 3  # first-player token and 3 Death
    play(state, component("Catacombs of the Dead"))
    assert pool(state, 0) == essences(D=4) and victory_points(state, 0) == 1


def test_vault_pays_2_non_gold_interest_when_its_gold_is_left_on_it():
    state = position(phase="collect", in_play=[["Vault"], []], stored={"Vault": "1G"})
    play(state, DONE)  # leave the Gold
    assert node_name(state) == "GAIN" and legal(state) == {E, L, C, D}
    play(state, L, C)
    assert pool(state, 0) == essences(L=1, C=1) and essences_on(state, "Vault") == essences(G=1)


def test_vault_pays_nothing_when_its_gold_is_taken():
    state = position(phase="collect", in_play=[["Vault"], []], stored={"Vault": "2G"})
    play(state, component("Vault"))
    assert pool(state, 0) == essences(G=2) and node_name(state) == "ACTION"


def test_windup_man_adds_2_of_each_type_left_on_it():
    state = position(phase="collect", in_play=[["Windup Man"], []], stored={"Windup Man": "1E 3G"})
    play(state, DONE)
    assert essences_on(state, "Windup Man") == essences(E=3, G=5)
    state = position(phase="collect", in_play=[["Windup Man"], []], stored={"Windup Man": "1E 3G"})
    play(state, component("Windup Man"))
    assert pool(state, 0) == essences(E=1, G=3) and essences_on(state, "Windup Man") == essences()


def test_cursed_forge_costs_a_death_or_turns_at_collect():
    state = position(phase="collect", in_play=[["Cursed Forge"], []], pools=["1D 2E 1G", ""])
    assert node_name(state) == "FORGE" and legal(state) == {YES, NO}
    play(state, YES)
    assert pool(state, 0)["D"] == 0 and not is_turned(state, "Cursed Forge")
    assert power("Cursed Forge") in legal(state)
    state = position(phase="collect", in_play=[["Cursed Forge"], []], pools=["1D 2E 1G", ""])
    play(state, NO)
    assert is_turned(state, "Cursed Forge") and power("Cursed Forge") not in legal(state)


def test_cursed_forge_turns_without_asking_when_no_death_can_be_paid():
    state = position(phase="collect", in_play=[["Cursed Forge"], []], pools=["2E 1G", ""])
    assert is_turned(state, "Cursed Forge") and node_name(state) == "ACTION"


def test_collects_happen_whether_a_component_is_turned_or_not():
    state = position(in_play=[["Elemental Spring", "Flaming Pit"], []], pools=["1L", ""])
    play(state, power("Flaming Pit"), 183, component("Divination"), 183, component("Protection"))
    # a new round: the Flaming Pit was turned, everything straightened, then collect
    assert not is_turned(state, "Flaming Pit")
    assert pool(state, 0) == essences(E=1 + 1 + 1, L=1, C=1, D=1)
