"""The deal and setup picks (§2, decision 6), the options, and setup_position's checks."""

import numpy as np
import pytest
from res_arcana_helpers import GAME, legal, position

from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.game import (
    component,
    current_seat,
    deck,
    display,
    first_player,
    hand,
    in_play,
    monument_deck,
    node_name,
    phase_name,
    places_available,
    play,
    pool,
    setup_position,
    supply_items,
    target_kind,
)

SUN_FACES = [
    "Dragon's Lair",
    "Coral Castle",
    "Sacred Grove",
    "Catacombs of the Dead",
    "Cursed Forge",
]
MOON_FACES = [
    "Sorcerer's Bestiary",
    "Sunken Reef",
    "Alchemist's Tower",
    "Sacrificial Pit",
    "Dwarven Mines",
]


def mage_options(state, seat):
    return [
        c
        for c in range(cd.FIRST_MAGE, cd.FIRST_ITEM)
        if state[lay.LOC + c] == lay.LOC_MAGE_OPTION and state[lay.OWNER + c] == seat
    ]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_deal_gives_2_mages_8_artifacts_3_in_hand_and_one_of_each_essence(n):
    state = GAME.new_state(n, seed=n)
    assert phase_name(state) == "setup: mages" and target_kind(state) == "keep a mage"
    assert current_seat(state) == first_player(state)
    for s in range(n):
        assert len(mage_options(state, s)) == 2
        assert len(hand(state, s)) == 3 and len(deck(state, s)) == 5
        assert pool(state, s) == {"E": 1, "L": 1, "C": 1, "D": 1, "G": 1}
    dealt = sum(len(hand(state, s)) + len(deck(state, s)) for s in range(n))
    assert dealt == 8 * n
    assert len(supply_items(state)) == 8
    assert places_available(state) == SUN_FACES  # the first game's faces by default
    assert len(display(state)) == 2 and len(monument_deck(state)) == 8


def test_first_players_vary_with_the_seed():
    assert {first_player(GAME.new_state(4, seed)) for seed in range(40)} == {0, 1, 2, 3}


def test_mages_are_picked_in_turn_order_hidden_then_revealed_together():
    state = GAME.new_state(3, seed=5)
    first = first_player(state)
    order = [(first + k) % 3 for k in range(3)]
    observed = np.zeros(GAME.obs_size(3), dtype=np.int8)
    before = np.zeros_like(observed)
    for k, seat in enumerate(order):
        assert current_seat(state) == seat
        options = mage_options(state, seat)
        assert legal(state) == {lay.A_COMPONENT + c for c in options}
        other = order[(k + 1) % 3]
        GAME.observe(state, other, before)
        play(state, lay.A_COMPONENT + options[1])
        if k < 2:
            GAME.observe(state, other, observed)
            changed = np.flatnonzero(observed != before)
            # the other seat only learns that a pick was made (and who picks next)
            picked = lay.OBS_SEATS + seat * lay.SEAT_FIELDS + lay.SEAT_MAGE_PICKED
            chooser = lay.OBS_PENDING + lay.PENDING_FIELDS.index("TGT_PLAYER")
            assert set(changed) <= {picked, lay.OBS_CURRENT, chooser}
    assert phase_name(state) == "setup: magic items"
    for seat in range(3):
        mages = [x for x in in_play(state, seat) if cd.KIND[cd.cid_of(x)] == cd.MAGE]
        assert len(mages) == 1


def test_magic_items_are_picked_in_reverse_turn_order_from_the_first_players_right():
    state = GAME.new_state(4, seed=2)
    first = first_player(state)
    for _ in range(4):
        play(state, min(legal(state)))
    expected = [(first - 1 - k) % 4 for k in range(4)]
    seen = []
    for _ in range(4):
        assert target_kind(state) == "take a magic item"
        seen.append(current_seat(state))
        play(state, min(legal(state)))
    assert seen == expected
    assert len(supply_items(state)) == 4


def test_round_1_begins_with_a_collect_phase_then_the_first_player_acts():
    state = GAME.new_state(2, seed=0)
    while phase_name(state).startswith("setup"):
        play(state, min(legal(state)))
    assert phase_name(state) in ("collect", "actions")
    while phase_name(state) == "collect":
        play(state, min(legal(state)))
    assert node_name(state) == "ACTION" and current_seat(state) == first_player(state)


def test_starter_sets_preset_the_mage_and_hand_and_deal_5_unseen_cards():
    state = GAME.new_state(4, seed=1, starter_sets=True)
    assert phase_name(state) == "setup: magic items"
    sets = set()
    for s in range(4):
        mage = [x for x in in_play(state, s) if cd.KIND[cd.cid_of(x)] == cd.MAGE][0]
        number = cd.STARTER_SET[cd.cid_of(mage)]
        sets.add(int(number))
        assert sorted(hand(state, s)) == sorted(
            cd.NAMES[c] for c in range(cd.NUM_ARTIFACTS) if cd.STARTER_SET[c] == number
        )
        assert len(deck(state, s)) == 5
        own_deck = [cd.cid_of(x) for x in deck(state, s)]
        assert all(state[lay.SEEN + c] == 0 for c in own_deck)
    assert sets == {1, 2, 3, 4}
    obs = np.zeros(GAME.obs_size(4), dtype=np.int8)
    GAME.observe(state, 0, obs)
    zones = obs[lay.OBS_COMPONENTS : lay.OBS_COMPONENTS + cd.NUM_COMPONENTS]
    assert not (zones == lay.Z_MY_DECK).any()  # the player has not seen its deck


def test_place_of_power_faces_option():
    assert places_available(GAME.new_state(2, 0, places_of_power="moon")) == MOON_FACES
    faces = {
        tuple(places_available(GAME.new_state(2, s, places_of_power="random"))) for s in range(20)
    }
    assert len(faces) > 1
    for face_set in faces:
        tiles = sorted((cd.cid_of(x) - cd.FIRST_PLACE) // 2 for x in face_set)
        assert tiles == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"places_of_power": "stars"}, ValueError),
        ({"starter_sets": 1}, TypeError),
        ({"step_cap": 0}, ValueError),
        ({"step_cap": lay.MAX_STEP_CAP + 1}, ValueError),
        ({"step_cap": 10.0}, TypeError),
        ({"colour": "red"}, TypeError),
    ],
)
def test_bad_options_are_refused(options, error):
    with pytest.raises(error):
        GAME.new_state(2, 0, **options)


@pytest.mark.parametrize("n", [1, 5])
def test_res_arcana_is_for_2_to_4_players(n):
    with pytest.raises(ValueError, match="2 to 4"):
        GAME.new_state(n, 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"hands": [["Hawk"], ["Hawk"]]}, "Hawk is named in"),
        ({"in_play": [["Witch"], []]}, "not a"),
        ({"hands": [["Temple"], []]}, "not a"),
        ({"pools": ["2X", ""]}, "cannot read"),
        ({"passed": [True, False], "to_act": 0}, "has passed"),
        ({"passed": [False, True], "to_act": 0}, "the token is with a seat that passed"),
        ({"stored": {"Hawk": "1E"}}, "not in play"),
        ({"places": ["Dragon's Lair", "Sorcerer's Bestiary"]}, "one face per tile"),
        ({"hands": [["Nessie"], []]}, "unknown"),
    ],
)
def test_setup_position_refuses_impossible_positions(kwargs, message):
    with pytest.raises(ValueError, match=message):
        position(**kwargs)


def test_setup_position_fills_the_centre_and_validates():
    state = setup_position(
        3,
        mages=["Witch", "Seer", "Druid"],
        items=["Research", "Alchemy", "Protection"],
        in_play=[["Temple"], ["Coral Castle"], []],
        seed=4,
    )
    assert "Coral Castle" not in places_available(state)
    assert len(places_available(state)) == 4
    assert len(display(state)) == 2 and len(monument_deck(state)) == 7
    assert sorted(supply_items(state)) == sorted(
        ["Calm / Elan", "Death / Life", "Divination", "Reanimate", "Transmutation"]
    )
    GAME.validate_state(state)
    assert component("Witch") not in legal(state)
