"""Every power of every component (§4-§8), each through the kernels from an explicit position.

Seat 0 acts unless a test says otherwise; the default mages (Scholar, Transmuter) and items
(Research, Alchemy) have no collect or reaction, so only the named cards act.
"""

import pytest
from res_arcana_helpers import C, D, E, G, L, legal, position

from presages_env.games.res_arcana.game import (
    DONE,
    LOOK_MONUMENTS,
    LOOK_OWN_DECK,
    component,
    current_seat,
    deck,
    discard_pile,
    essences_on,
    hand,
    is_turned,
    monument_deck,
    node_name,
    order_action,
    play,
    pool,
    power,
    seat_action,
    target_kind,
)

# a rival's turn in between: it passes and swaps its item for Divination
RIVAL_PASSES = (183, component("Divination"))


def essences(**counts):
    return {x: counts.get(x, 0) for x in "ELCDG"}


# ---- mages -------------------------------------------------------------------------------------
def test_alchemist_turns_4_any_into_2_gold_then_cannot_use_its_other_power():
    state = position(mages=("Alchemist", "Scholar"), pools=["4E", ""])
    play(state, power("Alchemist", 0))
    assert pool(state, 0) == essences(G=2) and is_turned(state, "Alchemist")
    play(state, *RIVAL_PASSES)
    assert power("Alchemist", 1) not in legal(state)


def test_alchemist_second_power_gains_one_non_gold_essence_of_choice():
    state = position(mages=("Alchemist", "Scholar"))
    play(state, power("Alchemist", 1))
    assert node_name(state) == "GAIN" and legal(state) == {E, L, C, D}
    play(state, D)
    assert pool(state, 0) == essences(D=1)


def test_druid_straightens_one_of_its_creatures_only():
    state = position(
        mages=("Druid", "Scholar"),
        in_play=[["Hawk", "Mermaid", "Horn of Plenty"], []],
        turned=["Hawk", "Mermaid", "Horn of Plenty"],
    )
    play(state, power("Druid"))
    assert target_kind(state) == "straighten a creature"
    assert legal(state) == {component("Hawk"), component("Mermaid")}
    play(state, component("Mermaid"))
    assert not is_turned(state, "Mermaid") and is_turned(state, "Hawk")


def test_druid_may_be_used_with_no_creature_to_straighten():
    state = position(mages=("Druid", "Scholar"))
    play(state, power("Druid"))
    assert is_turned(state, "Druid") and current_seat(state) == 1


def test_duelist_puts_gold_on_itself_for_a_death():
    state = position(mages=("Duelist", "Scholar"), pools=["1D", ""])
    play(state, power("Duelist"))
    assert essences_on(state, "Duelist") == essences(G=1) and pool(state, 0) == essences()


def test_necromancer_puts_3_death_on_itself_for_2_life():
    state = position(mages=("Necromancer", "Scholar"), pools=["2L", ""])
    play(state, power("Necromancer"))
    assert essences_on(state, "Necromancer") == essences(D=3)


def test_scholar_draws_a_card_for_one_any():
    state = position(pools=["1C", ""], decks=[["Hawk", "Vault"], []])
    play(state, power("Scholar"))
    assert hand(state, 0) == ["Hawk"] and deck(state, 0) == ["Vault"]


def test_seer_looks_at_the_top_3_of_its_deck_and_reorders_them():
    state = position(mages=("Seer", "Scholar"), decks=[["Hawk", "Vault", "Prism", "Athanor"], []])
    play(state, power("Seer"))
    assert node_name(state) == "LOOK" and legal(state) == {LOOK_OWN_DECK, LOOK_MONUMENTS}
    play(state, LOOK_OWN_DECK)
    assert node_name(state) == "REORDER" and len(legal(state)) == 6
    play(state, order_action(5))  # reversed: Prism, Vault, Hawk
    assert deck(state, 0) == ["Prism", "Vault", "Hawk", "Athanor"]


def test_seer_may_reorder_the_monument_deck():
    state = position(
        mages=("Seer", "Scholar"),
        display=["Temple", "Library"],
        monument_deck=[
            "Oracle",
            "Colossus",
            "Obelisk",
            "Golden Statue",
            "Great Pyramid",
            "Hanging Gardens",
            "Mausoleum",
            "Solomon's Mine",
        ],
    )
    play(state, power("Seer"), LOOK_MONUMENTS, order_action(2))  # (second, top, third)
    assert monument_deck(state)[:3] == ["Colossus", "Oracle", "Obelisk"]


def test_transmuter_turns_2_any_into_3_non_gold():
    state = position(mages=("Transmuter", "Scholar"), pools=["2G", ""])
    play(state, power("Transmuter"), L, L, C)
    assert pool(state, 0) == essences(L=2, C=1)


def test_witch_may_straighten_herself_just_turned_or_another_component():
    state = position(
        mages=("Witch", "Scholar"),
        in_play=[["Horn of Plenty"], []],
        turned=["Horn of Plenty"],
        pools=["2E", ""],
    )
    play(state, power("Witch"))
    assert legal(state) == {component("Witch"), component("Horn of Plenty")}
    play(state, component("Horn of Plenty"))
    assert not is_turned(state, "Horn of Plenty") and is_turned(state, "Witch")


def test_witch_cannot_straighten_a_rivals_component():
    state = position(
        mages=("Witch", "Scholar"),
        in_play=[[], ["Horn of Plenty"]],
        turned=["Horn of Plenty"],
        pools=["2E", ""],
    )
    play(state, power("Witch"))  # only the Witch herself: straightened without asking
    assert not is_turned(state, "Witch") and is_turned(state, "Horn of Plenty")


# ---- magic items -------------------------------------------------------------------------------
def test_alchemy_item_turns_4_any_into_2_gold():
    state = position(items=("Alchemy", "Research"), pools=["2C 2D", ""])
    play(state, power("Alchemy"))
    assert pool(state, 0) == essences(G=2)


def test_divination_draws_3_then_discards_as_many():
    state = position(
        items=("Divination", "Research"),
        hands=[["Hawk"], []],
        decks=[["Vault", "Prism", "Athanor"], []],
    )
    play(state, power("Divination"))
    assert sorted(hand(state, 0)) == ["Athanor", "Hawk", "Prism", "Vault"]
    assert target_kind(state) == "discard a card"
    play(state, component("Hawk"), component("Prism"), component("Vault"))
    assert hand(state, 0) == ["Athanor"]
    assert sorted(discard_pile(state, 0)) == ["Hawk", "Prism", "Vault"]


def test_divination_discards_only_as_many_as_could_be_drawn():
    state = position(items=("Divination", "Research"), hands=[["Hawk"], []], decks=[["Vault"], []])
    play(state, power("Divination"))
    play(state, component("Hawk"))
    assert hand(state, 0) == ["Vault"] and current_seat(state) == 1


def test_reanimate_straightens_one_of_your_components_for_one_any():
    state = position(
        items=("Reanimate", "Research"), in_play=[["Hawk"], []], turned=["Hawk"], pools=["1E", ""]
    )
    play(state, power("Reanimate"), component("Hawk"))
    assert not is_turned(state, "Hawk") and is_turned(state, "Reanimate")


def test_research_draws_a_card():
    state = position(items=("Research", "Alchemy"), pools=["1G", ""], decks=[["Hawk"], []])
    play(state, power("Research"))
    assert hand(state, 0) == ["Hawk"]


def test_transmutation_turns_3_any_into_3_non_gold():
    state = position(items=("Transmutation", "Research"), pools=["3G", ""])
    play(state, power("Transmutation"), E, E, D)
    assert pool(state, 0) == essences(E=2, D=1)


# ---- artifacts ---------------------------------------------------------------------------------
def test_athanor_builds_elan_on_itself():
    state = position(in_play=[["Athanor"], []], pools=["1E", ""])
    play(state, power("Athanor", 0))
    assert essences_on(state, "Athanor") == essences(E=2) and is_turned(state, "Athanor")


def test_athanor_removes_6_elan_from_itself_to_turn_x_of_one_type_into_gold():
    state = position(in_play=[["Athanor"], []], stored={"Athanor": "7E"}, pools=["3D 1C", ""])
    assert power("Athanor", 1) in legal(state)
    play(state, power("Athanor", 1))
    assert node_name(state) == "PAY_X" and legal(state) == {C, D, DONE}
    play(state, D, D)
    assert legal(state) == {D, DONE}  # one type only
    play(state, DONE)
    assert pool(state, 0) == essences(C=1, D=1, G=2)
    assert essences_on(state, "Athanor") == essences(E=1)


def test_athanor_needs_6_elan_on_it_and_x_may_be_zero():
    assert power("Athanor", 1) not in legal(
        position(in_play=[["Athanor"], []], stored={"Athanor": "5E"})
    )
    state = position(in_play=[["Athanor"], []], stored={"Athanor": "6E"}, pools=["1L", ""])
    play(state, power("Athanor", 1), DONE)
    assert pool(state, 0) == essences(L=1) and is_turned(state, "Athanor")


def test_chalice_of_fire_straightens_a_component_for_an_elan():
    state = position(in_play=[["Chalice of Fire", "Hawk"], []], turned=["Hawk"], pools=["1E", ""])
    play(state, power("Chalice of Fire"))
    assert legal(state) == {component("Chalice of Fire"), component("Hawk")}
    play(state, component("Hawk"))
    assert not is_turned(state, "Hawk")


def test_chalice_of_life_power_is_repeatable_and_does_not_turn_it():
    state = position(in_play=[["Chalice of Life"], []], pools=["4C", ""])
    play(state, power("Chalice of Life"), *RIVAL_PASSES, power("Chalice of Life"))
    assert essences_on(state, "Chalice of Life") == essences(L=2, C=4)
    assert not is_turned(state, "Chalice of Life")


def test_corrupt_altar_puts_3_elan_on_itself_for_2_life():
    state = position(in_play=[["Corrupt Altar"], []], pools=["2L", ""])
    play(state, power("Corrupt Altar", 0))
    assert essences_on(state, "Corrupt Altar") == essences(E=3)


def test_corrupt_altar_destroys_an_artifact_for_its_printed_cost_plus_2():
    state = position(in_play=[["Corrupt Altar", "Fire Dragon"], []], stored={"Fire Dragon": "1G"})
    play(state, power("Corrupt Altar", 1))
    assert legal(state) == {component("Corrupt Altar"), component("Fire Dragon")}
    play(state, component("Fire Dragon"))  # 6 + 2 = 8 non-Gold essences
    assert discard_pile(state, 0) == ["Fire Dragon"]
    play(state, *[E] * 8)
    assert pool(state, 0) == essences(E=8)


def test_corrupt_altar_may_destroy_itself():
    state = position(in_play=[["Corrupt Altar"], []])
    play(state, power("Corrupt Altar", 1))  # the only artifact: destroyed without asking
    assert discard_pile(state, 0) == ["Corrupt Altar"]
    play(state, *[C] * 7)  # 2 Death + 3 any + 2
    assert pool(state, 0) == essences(C=7)


def test_crypt_gains_2_death():
    state = position(in_play=[["Crypt"], []])
    play(state, power("Crypt", 0))
    assert pool(state, 0) == essences(D=2)


def test_crypt_may_place_nothing_after_paying():
    state = position(in_play=[["Crypt"], []], discards=[["Hawk"], []], pools=["1D 1L 1C", ""])
    play(state, power("Crypt", 1), DONE)
    assert discard_pile(state, 0) == ["Hawk"] and pool(state, 0) == essences(L=1, C=1)


def test_cursed_skull_puts_3_essences_but_no_life_or_gold_on_itself():
    state = position(in_play=[["Cursed Skull"], []], pools=["1L", ""])
    play(state, power("Cursed Skull"))
    assert legal(state) == {E, C, D}
    play(state, E, D)  # after a Death only Death is left in E, L, C, D order
    assert essences_on(state, "Cursed Skull") == essences(E=1, D=2)


def test_dragon_egg_may_be_destroyed_with_no_dragon_to_place():
    state = position(in_play=[["Dragon Egg"], []], hands=[["Hawk"], []])
    play(state, power("Dragon Egg"))
    # still asked (only DONE is legal): skipping would tell the rivals no dragon is in hand
    assert legal(state) == {DONE}
    play(state, DONE)
    assert discard_pile(state, 0) == ["Dragon Egg"] and hand(state, 0) == ["Hawk"]


def test_dragon_teeth_builds_elan():
    state = position(in_play=[["Dragon Teeth"], []], pools=["2E", ""])
    play(state, power("Dragon Teeth", 0))
    assert essences_on(state, "Dragon Teeth") == essences(E=3)


def test_dwarven_pickaxe_turns_an_elan_into_gold():
    state = position(in_play=[["Dwarven Pickaxe"], []], pools=["1E", ""])
    play(state, power("Dwarven Pickaxe"))
    assert pool(state, 0) == essences(G=1)


def test_elvish_bow_draws_a_card():
    state = position(in_play=[["Elvish Bow"], []], decks=[["Hawk"], []])
    play(state, power("Elvish Bow", 1))
    assert hand(state, 0) == ["Hawk"]


def test_fiery_whip_gains_3_elan_and_each_rival_even_passed_gains_1():
    state = position(
        mages=("Scholar", "Transmuter", "Witch"),
        items=("Research", "Alchemy", "Reanimate"),
        in_play=[["Fiery Whip"], [], []],
        first_player=1,  # seat 1 passed first: it took the token
        passed=[False, True, False],
        to_act=0,
    )
    play(state, power("Fiery Whip", 0))
    assert [pool(state, s)["E"] for s in range(3)] == [3, 1, 1]


def test_fiery_whip_destroys_another_artifact_not_itself():
    state = position(in_play=[["Fiery Whip", "Hawk"], []])
    play(state, power("Fiery Whip", 1))  # Hawk is the only other: no choice
    assert discard_pile(state, 0) == ["Hawk"] and node_name(state) == "GAIN"
    play(state, L, L, L, L)  # 2 + 2
    assert pool(state, 0) == essences(L=4)
    assert power("Fiery Whip", 1) not in legal(position(in_play=[["Fiery Whip"], []]))


def test_flaming_pit_turns_a_life_into_elan_and_death():
    state = position(in_play=[["Flaming Pit"], []], pools=["1L", ""])
    play(state, power("Flaming Pit"))
    assert pool(state, 0) == essences(E=1, D=1)


def test_fountain_of_youth_puts_2_calm_and_1_life_for_2_death():
    state = position(in_play=[["Fountain of Youth"], []], pools=["2D", ""])
    play(state, power("Fountain of Youth"))
    assert essences_on(state, "Fountain of Youth") == essences(L=1, C=2)


def test_guard_dog_straightens_itself_only_while_turned():
    straight = position(in_play=[["Guard Dog"], []], pools=["1E", ""])
    assert power("Guard Dog") not in legal(straight)
    state = position(in_play=[["Guard Dog"], []], turned=["Guard Dog"], pools=["1E", ""])
    play(state, power("Guard Dog"))
    assert not is_turned(state, "Guard Dog") and pool(state, 0) == essences()


def test_hand_of_glory_gains_2_death_and_each_rival_1():
    state = position(in_play=[["Hand of Glory"], []])
    play(state, power("Hand of Glory"))
    assert pool(state, 0) == essences(D=2) and pool(state, 1) == essences(D=1)


def test_hawk_looks_at_a_deck_and_draws_for_2_calm():
    state = position(in_play=[["Hawk"], []], decks=[["Vault", "Prism"], []])
    play(state, power("Hawk", 0), LOOK_OWN_DECK, order_action(1))
    assert deck(state, 0) == ["Prism", "Vault"]
    state = position(in_play=[["Hawk"], []], decks=[["Vault"], []], pools=["2C", ""])
    play(state, power("Hawk", 1))
    assert hand(state, 0) == ["Vault"]


def test_horn_of_plenty_gains_3_non_gold_or_1_gold():
    state = position(in_play=[["Horn of Plenty"], []])
    play(state, power("Horn of Plenty", 0), E, L, C)
    assert pool(state, 0) == essences(E=1, L=1, C=1)
    state = position(in_play=[["Horn of Plenty"], []])
    play(state, power("Horn of Plenty", 1))
    assert pool(state, 0) == essences(G=1)


def test_hypnotic_basin_gains_calm_for_a_chosen_rivals_elan():
    state = position(
        mages=("Scholar", "Transmuter", "Witch"),
        items=("Research", "Alchemy", "Reanimate"),
        in_play=[["Hypnotic Basin"], [], []],
        pools=["", "2E", "5E"],
    )
    play(state, power("Hypnotic Basin"))
    assert node_name(state) == "RIVAL" and legal(state) == {seat_action(1), seat_action(2)}
    play(state, seat_action(2))
    assert pool(state, 0) == essences(C=5) and pool(state, 2) == essences(E=5)


def test_jeweled_statuette_gains_death_or_is_destroyed_for_gold_and_elan():
    state = position(in_play=[["Jeweled Statuette"], []])
    play(state, power("Jeweled Statuette", 0))
    assert pool(state, 0) == essences(D=3) and pool(state, 1) == essences(D=1)
    state = position(in_play=[["Jeweled Statuette"], []])
    play(state, power("Jeweled Statuette", 1))
    assert pool(state, 0) == essences(E=1, G=2) and discard_pile(state, 0) == ["Jeweled Statuette"]


def test_magical_shard_gains_one_non_gold():
    state = position(in_play=[["Magical Shard"], []])
    play(state, power("Magical Shard"), C)
    assert pool(state, 0) == essences(C=1)


def test_mermaid_puts_a_paid_calm_life_or_gold_on_one_of_your_components():
    state = position(in_play=[["Mermaid", "Sunken Reef"], ["Vault"]], pools=["1E 1C 1G", ""])
    play(state, power("Mermaid"))
    assert legal(state) == {C, G}  # not Elan
    play(state, C)
    assert component("Vault") not in legal(state)
    play(state, component("Sunken Reef"))
    assert essences_on(state, "Sunken Reef") == essences(C=1)
    assert pool(state, 0) == essences(E=1, G=1)


def test_philosophers_stone_pays_2_any_then_x_of_one_type_for_x_gold():
    state = position(in_play=[["Philosopher's Stone"], []], pools=["2E 3L", ""])
    play(state, power("Philosopher's Stone"), E, E)  # the 2 any
    assert node_name(state) == "PAY_X"
    play(state, L, L, L)  # nothing left to pay X with: the payment stops by itself
    assert pool(state, 0) == essences(G=3)


def test_prism_turns_an_any_into_2_non_gold_or_x_into_x_of_one_type():
    state = position(in_play=[["Prism"], []], pools=["1G", ""])
    play(state, power("Prism", 0), D)  # the second is then Death too
    assert pool(state, 0) == essences(D=2)
    state = position(in_play=[["Prism"], []], pools=["3G", ""])
    play(state, power("Prism", 1), G, G, DONE)
    assert node_name(state) == "GAIN" and legal(state) == {E, L, C, D}
    play(state, L)
    assert pool(state, 0) == essences(L=2, G=1)


def test_ring_of_midas_puts_gold_on_itself():
    state = position(in_play=[["Ring of Midas"], []], pools=["2L", ""])
    play(state, power("Ring of Midas", 0), *RIVAL_PASSES, power("Ring of Midas", 1))
    assert essences_on(state, "Ring of Midas") == essences(G=2)


def test_sacrificial_dagger_puts_death_or_trades_itself_and_a_card_for_its_cost():
    state = position(in_play=[["Sacrificial Dagger"], []], pools=["1L", ""])
    play(state, power("Sacrificial Dagger", 0))
    assert essences_on(state, "Sacrificial Dagger") == essences(D=3)
    state = position(in_play=[["Sacrificial Dagger"], []], hands=[["Wind Dragon", "Hawk"], []])
    play(state, power("Sacrificial Dagger", 1))
    assert target_kind(state) == "discard a card (cost)"
    play(state, component("Wind Dragon"), *[E] * 8)  # 4 Calm + 4 any
    assert pool(state, 0) == essences(E=8)
    assert sorted(discard_pile(state, 0)) == ["Sacrificial Dagger", "Wind Dragon"]
    no_card = position(in_play=[["Sacrificial Dagger"], []])
    assert power("Sacrificial Dagger", 1) not in legal(no_card)


def test_treant_gains_elan_for_a_rivals_death():
    state = position(in_play=[["Treant"], []], pools=["", "4D"])
    play(state, power("Treant"))  # two players: the only rival
    assert pool(state, 0) == essences(E=4)


def test_tree_of_life_gains_3_life_and_each_rival_1():
    state = position(in_play=[["Tree of Life"], []])
    play(state, power("Tree of Life"))
    assert pool(state, 0) == essences(L=3) and pool(state, 1) == essences(L=1)


def test_vault_puts_gold_on_itself():
    state = position(in_play=[["Vault"], []])
    play(state, power("Vault"))
    assert essences_on(state, "Vault") == essences(G=1)


def test_windup_man_puts_the_paid_essence_on_itself():
    state = position(in_play=[["Windup Man"], []], pools=["1L 1D", ""])
    play(state, power("Windup Man"), D)
    assert essences_on(state, "Windup Man") == essences(D=1) and pool(state, 0) == essences(L=1)


# ---- monuments ---------------------------------------------------------------------------------
def test_colossus_puts_gold_for_one_any():
    state = position(in_play=[["Colossus"], []], pools=["1E", ""])
    play(state, power("Colossus"))
    assert essences_on(state, "Colossus") == essences(G=1)


def test_library_draws_a_card():
    state = position(in_play=[["Library"], []], decks=[["Hawk"], []])
    play(state, power("Library"))
    assert hand(state, 0) == ["Hawk"]


def test_mausoleum_puts_death_for_one_any_repeatedly():
    state = position(in_play=[["Mausoleum"], []], pools=["2E", ""])
    play(state, power("Mausoleum"), *RIVAL_PASSES, power("Mausoleum"))
    assert essences_on(state, "Mausoleum") == essences(D=2) and not is_turned(state, "Mausoleum")


def test_oracle_looks_at_the_monument_deck():
    state = position(
        in_play=[["Oracle"], []],
        display=["Temple", "Library"],
        monument_deck=[
            "Colossus",
            "Obelisk",
            "Golden Statue",
            "Great Pyramid",
            "Hanging Gardens",
            "Mausoleum",
            "Solomon's Mine",
        ],
    )
    play(state, power("Oracle"), LOOK_MONUMENTS, order_action(4))
    assert monument_deck(state)[:3] == ["Golden Statue", "Colossus", "Obelisk"]


def test_solomons_mine_gains_gold():
    state = position(in_play=[["Solomon's Mine"], []])
    play(state, power("Solomon's Mine"))
    assert pool(state, 0) == essences(G=1)


# ---- places of power ---------------------------------------------------------------------------
def test_dragons_lair_gains_gold_or_stores_it_by_turning_a_dragon():
    state = position(in_play=[["Dragon's Lair"], []])
    play(state, power("Dragon's Lair", 0))
    assert pool(state, 0) == essences(G=2)
    assert power("Dragon's Lair", 1) not in legal(position(in_play=[["Dragon's Lair"], []]))
    state = position(in_play=[["Dragon's Lair", "Fire Dragon"], []])
    play(state, power("Dragon's Lair", 1))
    assert essences_on(state, "Dragon's Lair") == essences(G=2) and is_turned(state, "Fire Dragon")


def test_sunken_reef_stores_calm():
    state = position(in_play=[["Sunken Reef"], []], pools=["2C 1L", ""])
    play(state, power("Sunken Reef"))
    assert essences_on(state, "Sunken Reef") == essences(C=1)


def test_sacred_grove_gains_5_life_or_stores_life_by_turning_a_creature():
    state = position(in_play=[["Sacred Grove"], []], pools=["1C", ""])
    play(state, power("Sacred Grove", 0))
    assert pool(state, 0) == essences(L=5)
    state = position(in_play=[["Sacred Grove", "Hawk", "Sea Serpent"], []], turned=["Hawk"])
    play(state, power("Sacred Grove", 1))  # the straight creature: Sea Serpent
    assert is_turned(state, "Sea Serpent") and essences_on(state, "Sacred Grove") == essences(L=1)


def test_alchemists_tower_stores_gold_for_one_of_each_other_essence():
    state = position(in_play=[["Alchemist's Tower"], []], pools=["1E 1L 1C 1D", ""])
    play(state, power("Alchemist's Tower"))
    assert essences_on(state, "Alchemist's Tower") == essences(G=1)


def test_catacombs_store_death():
    state = position(in_play=[["Catacombs of the Dead"], []], pools=["5D", ""])
    play(state, power("Catacombs of the Dead", 0), *RIVAL_PASSES, power("Catacombs of the Dead", 1))
    assert essences_on(state, "Catacombs of the Dead") == essences(D=2)


def test_sacrificial_pit_stores_death_or_destroys_a_beast_for_its_cost_in_gold():
    state = position(in_play=[["Sacrificial Pit"], []], pools=["3L", ""])
    play(state, power("Sacrificial Pit", 0))
    assert essences_on(state, "Sacrificial Pit") == essences(D=1)
    state = position(in_play=[["Sacrificial Pit", "Sea Serpent", "Vault"], []], pools=["1D", ""])
    play(state, power("Sacrificial Pit", 1))  # Vault is not a beast
    assert pool(state, 0) == essences(G=9) and discard_pile(state, 0) == ["Sea Serpent"]


def test_cursed_forge_stores_gold():
    state = position(in_play=[["Cursed Forge"], []], pools=["2E 1G", ""])
    play(state, power("Cursed Forge"))
    assert essences_on(state, "Cursed Forge") == essences(G=1)


def test_dwarven_mines_gain_or_store_gold():
    state = position(in_play=[["Dwarven Mines"], []], pools=["5E", ""])
    play(state, power("Dwarven Mines", 0))
    assert pool(state, 0) == essences(G=3)
    state = position(in_play=[["Dwarven Mines"], []], pools=["3E 3D", ""])
    play(state, power("Dwarven Mines", 1))
    assert essences_on(state, "Dwarven Mines") == essences(G=2)


@pytest.mark.parametrize("name", ["Hawk", "Alchemist", "Solomon's Mine"])
def test_a_turned_component_cannot_use_its_powers(name):
    kwargs = (
        {"mages": ("Alchemist", "Scholar")} if name == "Alchemist" else {"in_play": [[name], []]}
    )
    state = position(turned=[name], pools=["5E 2C", ""], decks=[["Vault"], []], **kwargs)
    assert not any(power(name, i) in legal(state) for i in range(2 if name == "Alchemist" else 1))


def test_no_power_of_a_rivals_component_is_offered():
    state = position(in_play=[[], ["Solomon's Mine", "Horn of Plenty"]])
    assert power("Solomon's Mine") not in legal(state)
    assert power("Horn of Plenty", 1) not in legal(state)
