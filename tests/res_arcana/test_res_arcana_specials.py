"""Obelisk, placements that place nothing (decision 9), every monument's claim, and the
re-deal of hidden cards for search (sample_world)."""

import numpy as np
import pytest
from res_arcana_helpers import GAME, C, D, E, L, legal, position

from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.game import (
    DONE,
    LOOK_OWN_DECK,
    claim_monument,
    current_seat,
    deck,
    discard_pile,
    display,
    hand,
    in_play,
    node_name,
    order_action,
    play,
    pool,
    power,
)

MONUMENTS = cd.NAMES[cd.FIRST_MONUMENT : cd.FIRST_PLACE]
OTHERS = [m for m in MONUMENTS if m not in ("Temple", "Library")]


@pytest.mark.parametrize("name", MONUMENTS)
def test_every_monument_is_claimed_from_the_display_for_4_gold(name):
    rest = [m for m in MONUMENTS if m != name]
    state = position(display=[name], monument_deck=rest, pools=["4G", ""])
    play(state, claim_monument(name))
    if cd.CLAIM_CHOICE[cd.cid_of(name)]:
        play(state, *[E] * 6)
    assert name in in_play(state, 0) and pool(state, 0)["G"] == 0
    assert display(state) == [rest[0]]


def test_obelisk_gains_6_non_gold_chosen_before_the_display_is_refilled():
    state = position(
        display=["Obelisk", "Temple"],
        monument_deck=OTHERS[:1] + ["Library"] + [m for m in OTHERS if m not in ("Obelisk",)][1:],
        pools=["4G", ""],
    )
    play(state, claim_monument("Obelisk"))
    assert node_name(state) == "GAIN" and legal(state) == {E, L, C, D}
    assert display(state) == ["Temple"]  # not refilled yet
    play(state, E, E, L, C, D)  # the sixth must then be Death too
    assert pool(state, 0) == {"E": 2, "L": 1, "C": 1, "D": 2, "G": 0}
    assert len(display(state)) == 2


def test_dragon_teeth_may_be_used_with_no_dragon_in_hand():
    state = position(in_play=[["Dragon Teeth"], []], hands=[["Hawk"], []], pools=["3E", ""])
    play(state, power("Dragon Teeth", 1), DONE)  # asked: the hand's content is hidden
    assert hand(state, 0) == ["Hawk"] and pool(state, 0)["E"] == 0


def test_placing_from_an_empty_hand_is_not_asked():
    state = position(in_play=[["Dragon Teeth"], []], pools=["3E", ""])
    play(state, power("Dragon Teeth", 1))
    assert node_name(state) == "ACTION" and current_seat(state) == 1


def test_sorcerers_bestiary_places_nothing_when_no_dragon_is_affordable():
    state = position(
        in_play=[["Sorcerer's Bestiary"], []], discards=[[], ["Fire Dragon"]], pools=["4C", ""]
    )
    play(state, power("Sorcerer's Bestiary", 1))
    assert discard_pile(state, 1) == ["Fire Dragon"] and pool(state, 0)["C"] == 0


def test_a_placement_may_be_declined_even_when_affordable():
    state = position(in_play=[["Dragon Egg"], []], hands=[["Fire Dragon"], []], pools=["2E", ""])
    play(state, power("Dragon Egg"), DONE)
    assert hand(state, 0) == ["Fire Dragon"] and pool(state, 0)["E"] == 2


def test_sample_world_keeps_what_a_seat_knows_and_redeals_the_rest():
    state = position(
        mages=("Seer", "Scholar"),
        hands=[["Hawk"], ["Vault", "Prism"]],
        decks=[["Athanor", "Crypt", "Mermaid", "Treant"], ["Horn of Plenty"]],
    )
    play(state, power("Seer"), LOOK_OWN_DECK, order_action(0))  # seat 0 knows its top 3
    world = np.zeros_like(state)
    changed = 0
    for seed in range(20):
        GAME.kernel.sample_world(state, np.int64(0), np.int64(seed), world)
        GAME.validate_state(world)
        assert hand(world, 0) == ["Hawk"] and deck(world, 0)[:3] == deck(state, 0)[:3]
        assert sorted(deck(world, 0)) == sorted(deck(state, 0))
        assert len(hand(world, 1)) == 2 and len(deck(world, 1)) == 1
        changed += hand(world, 1) != hand(state, 1)
    assert changed > 0


def test_sample_world_redeals_rival_mage_options_and_picks_before_the_reveal():
    state = GAME.new_state(3, seed=1)
    play(state, min(legal(state)))  # the first player picks
    world = np.zeros_like(state)
    picker = int(state[lay.FIRST_PLAYER])
    observer = (picker + 1) % 3
    seen = set()
    for seed in range(10):
        GAME.kernel.sample_world(state, np.int64(observer), np.int64(seed), world)
        GAME.validate_state(world)
        seen.add(int(world[lay.MAGE_PICK + picker]))
    assert len(seen) > 1
