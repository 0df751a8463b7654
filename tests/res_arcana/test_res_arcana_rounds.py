"""Passing, rounds, victory checks and their tiebreaks, Golden Statue, mid-round checks
(Coral Castle, Sorcerer's Bestiary), scoring, deck reshuffles and the step cap."""

import numpy as np
import pytest
from res_arcana_helpers import GAME, E, legal, position

import presages_env
from presages_env.core.header import HDR_TERMINAL, TRUNCATED
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.game import (
    LOOK_OWN_DECK,
    NO,
    PASS,
    YES,
    component,
    current_seat,
    deck,
    discard_pile,
    first_player,
    hand,
    in_play,
    is_turned,
    node_name,
    passed,
    phase_name,
    play,
    pool,
    power,
    round_number,
    supply_items,
    victory_points,
    winners,
)

NINE_POINTS = ["Great Pyramid", "Colossus", "Mausoleum", "Oracle"]  # 3 + 2 + 2 + 2


def essences(**counts):
    return {x: counts.get(x, 0) for x in "ELCDG"}


# ---- passing -----------------------------------------------------------------------------------
def test_the_first_to_pass_takes_the_token_swaps_the_item_and_draws():
    state = position(decks=[["Hawk", "Vault"], []], first_player=1, to_act=0)
    play(state, PASS)
    assert node_name(state) == "TARGET" and current_seat(state) == 0
    offered = {component(x) for x in supply_items(state)}
    assert legal(state) == offered and component("Research") not in offered
    play(state, component("Divination"))
    assert "Divination" in in_play(state, 0) and "Research" in supply_items(state)
    assert hand(state, 0) == ["Hawk"] and first_player(state) == 0
    assert passed(state) == [True, False] and current_seat(state) == 1


def test_later_passers_do_not_take_the_token_and_passed_seats_are_skipped():
    state = position(
        mages=("Scholar", "Transmuter", "Witch"),
        items=("Research", "Alchemy", "Reanimate"),
        first_player=0,
    )
    play(state, PASS, component("Divination"))
    assert first_player(state) == 0 and current_seat(state) == 1
    play(state, PASS, component("Protection"))
    assert first_player(state) == 0 and current_seat(state) == 2
    play(state, power("Witch") if power("Witch") in legal(state) else PASS)
    assert current_seat(state) == 2 or phase_name(state) != "actions"


def test_the_token_is_worth_a_point_and_the_first_passer_starts_the_next_round():
    state = position(first_player=0, to_act=0)
    assert victory_points(state, 0) == 1 and victory_points(state, 1) == 0
    play(state, PASS, component("Divination"))  # seat 0 keeps the token
    play(state, PASS, component("Protection"))
    assert round_number(state) == 2 and first_player(state) == 0
    state = position(first_player=0, to_act=1)
    play(state, PASS, component("Divination"), PASS, component("Protection"))
    assert round_number(state) == 2 and first_player(state) == 1 and current_seat(state) == 1


def test_a_draw_from_an_empty_deck_reshuffles_the_discard_pile():
    state = position(decks=[[], []], discards=[["Hawk"], []])
    play(state, PASS, component("Divination"))
    assert hand(state, 0) == ["Hawk"] and discard_pile(state, 0) == []


def test_drawing_with_no_deck_and_no_discard_draws_nothing():
    state = position()
    play(state, PASS, component("Divination"))
    assert hand(state, 0) == []


def test_looking_at_a_short_deck_shuffles_the_discard_pile_under_it_first():
    state = position(
        mages=("Seer", "Scholar"), decks=[["Hawk"], []], discards=[["Vault", "Prism"], []], seed=3
    )
    play(state, power("Seer"), LOOK_OWN_DECK)
    assert deck(state, 0)[0] == "Hawk" and sorted(deck(state, 0)) == ["Hawk", "Prism", "Vault"]
    assert node_name(state) == "REORDER"


def test_a_new_round_straightens_everything_and_collects_again():
    state = position(in_play=[["Solomon's Mine", "Hawk"], []], turned=["Hawk"])
    play(
        state, power("Solomon's Mine"), PASS, component("Divination"), PASS, component("Protection")
    )
    assert round_number(state) == 2 and phase_name(state) == "actions"
    assert not is_turned(state, "Solomon's Mine") and not is_turned(state, "Hawk")
    assert pool(state, 0) == essences(G=1, C=1)  # the Hawk collected
    assert passed(state) == [False, False]


# ---- victory checks ----------------------------------------------------------------------------
def test_ten_points_at_the_round_end_check_win():
    state = position(in_play=[NINE_POINTS + ["Obelisk"], []], first_player=1, passed=[False, True])
    assert victory_points(state, 0) == 10
    rewards = play(state, PASS, component("Divination"))
    assert state[HDR_TERMINAL] == 1 and winners(state) == [0]
    assert rewards.tolist() == [1.0, -1.0]


def test_under_ten_points_the_game_goes_on():
    state = position(in_play=[NINE_POINTS, []], first_player=1, passed=[False, True])
    rewards = play(state, PASS, component("Divination"))
    assert state[HDR_TERMINAL] == 0 and round_number(state) == 2 and rewards.tolist() == [0, 0]


def test_the_most_points_win_when_several_reach_ten():
    state = position(
        in_play=[NINE_POINTS + ["Temple"], ["Dragon's Lair"]],
        stored={"Dragon's Lair": "10G"},
        first_player=1,
        passed=[False, True],
    )
    assert victory_points(state, 0) == 11 and victory_points(state, 1) == 11
    state = position(
        in_play=[NINE_POINTS + ["Temple"], ["Dragon's Lair"]],
        stored={"Dragon's Lair": "11G"},
        first_player=1,
        passed=[False, True],
    )
    play(state, PASS, component("Divination"))
    assert winners(state) == [1]


def test_a_tie_is_broken_by_pool_essences_with_gold_counting_double():
    common = {
        "in_play": [NINE_POINTS, ["Dragon's Lair"]],
        "stored": {"Dragon's Lair": "9G"},
        "first_player": 1,
        "passed": [False, True],
    }
    # both 9 + token... seat 1 holds the token: 10; seat 0 gets Obelisk: 10
    common["in_play"] = [NINE_POINTS + ["Obelisk"], ["Dragon's Lair"]]
    state = position(pools=["3E", "1G"], **common)  # 3 against 2 (Gold double)
    play(state, PASS, component("Divination"))
    assert winners(state) == [0]
    state = position(pools=["1E", "1G"], **common)  # 1 against 2
    play(state, PASS, component("Divination"))
    assert winners(state) == [1]


def test_a_tie_after_the_tiebreak_is_a_shared_win():
    state = position(
        mages=("Scholar", "Transmuter", "Witch"),
        items=("Research", "Alchemy", "Reanimate"),
        in_play=[NINE_POINTS + ["Obelisk"], ["Dragon's Lair"], []],
        stored={"Dragon's Lair": "9G"},
        pools=["2E", "1G", "9G"],
        first_player=1,
        passed=[False, True, True],
    )
    rewards = play(state, PASS, component("Divination"))
    assert winners(state) == [0, 1]
    assert rewards.tolist() == [0.5, 0.5, -1.0]


def test_golden_statue_reacts_at_the_check_even_after_passing():
    state = position(
        in_play=[["Golden Statue", "Great Pyramid", "Colossus"], []],
        pools=["3G", ""],
        first_player=0,
        passed=[True, False],
        to_act=1,
    )
    assert victory_points(state, 0) == 1 + 3 + 2 + 1
    play(state, PASS, component("Divination"))
    assert node_name(state) == "STATUE" and current_seat(state) == 0
    play(state, YES)  # 7 + 3 = 10
    assert winners(state) == [0] and pool(state, 0)["G"] == 0


def test_golden_statue_points_last_only_for_that_check():
    state = position(
        in_play=[["Golden Statue"], []],
        pools=["3G", ""],
        first_player=0,
        passed=[True, False],
        to_act=1,
    )
    play(state, PASS, component("Divination"), YES)
    assert round_number(state) == 2 and victory_points(state, 0) == 2  # statue + token
    assert not is_turned(state, "Golden Statue")


def test_golden_statue_may_be_declined_and_is_not_asked_without_3_gold():
    state = position(
        in_play=[["Golden Statue"], []],
        pools=["3G", ""],
        first_player=0,
        passed=[True, False],
        to_act=1,
    )
    play(state, PASS, component("Divination"), NO)
    assert pool(state, 0)["G"] == 3 and round_number(state) == 2
    state = position(
        in_play=[["Golden Statue"], []],
        pools=["2G", ""],
        first_player=0,
        passed=[True, False],
        to_act=1,
    )
    play(state, PASS, component("Divination"))
    assert round_number(state) == 2


def test_coral_castle_checks_victory_in_the_middle_of_the_round():
    state = position(in_play=[["Coral Castle", "Great Pyramid", "Colossus", "Mausoleum"], []])
    assert victory_points(state, 0) == 3 + 3 + 2 + 2 + 1
    rewards = play(state, power("Coral Castle"))
    assert state[HDR_TERMINAL] == 1 and winners(state) == [0] and rewards[0] == 1


def test_a_mid_round_check_under_ten_lets_the_round_go_on():
    state = position(in_play=[["Coral Castle"], ["Golden Statue"]], pools=["", "3G"])
    play(state, power("Coral Castle"))
    assert node_name(state) == "STATUE" and current_seat(state) == 1
    play(state, YES)
    assert state[HDR_TERMINAL] == 0 and current_seat(state) == 1
    assert node_name(state) == "ACTION" and victory_points(state, 1) == 1


def test_sorcerers_bestiary_scores_beasts_and_checks_victory():
    beasts = ["Hawk", "Nightingale", "Fire Dragon", "Sea Serpent"]
    state = position(in_play=[["Sorcerer's Bestiary", *beasts], []])
    # token, 1 per creature and 2 per dragon (Sea Serpent both), printed VP of 3 cards
    assert victory_points(state, 0) == 1 + (1 + 1 + 2 + 3) + 3
    play(state, power("Sorcerer's Bestiary", 0))
    assert winners(state) == [0]


@pytest.mark.parametrize(
    ("place", "stored", "points"),
    [
        ("Dragon's Lair", "2G", 2),
        ("Coral Castle", "", 3),
        ("Sunken Reef", "3C 1G", 3),
        ("Sacred Grove", "2L", 4),
        ("Alchemist's Tower", "1G", 1),
        ("Catacombs of the Dead", "4D", 4),
        ("Sacrificial Pit", "1D", 3),
        ("Cursed Forge", "2G", 3),
        ("Dwarven Mines", "5G", 5),
    ],
)
def test_places_of_power_score_their_points_and_stored_essences(place, stored, points):
    state = position(in_play=[[], [place]], stored={place: stored} if stored else {})
    assert victory_points(state, 1) == points


def test_printed_points_of_artifacts_and_monuments_count_even_turned():
    vp_cards = [cd.NAMES[c] for c in range(cd.NUM_ARTIFACTS) if cd.VP[c]]
    state = position(in_play=[[], vp_cards], turned=vp_cards[:3])
    assert victory_points(state, 1) == len(vp_cards) == 12


# ---- the step cap ------------------------------------------------------------------------------
def test_a_game_still_going_at_the_step_cap_is_truncated_with_no_winner():
    state = position(step_cap=2)
    rewards = play(state, PASS, component("Divination"))
    assert state[HDR_TERMINAL] == TRUNCATED and winners(state) == []
    assert rewards.tolist() == [0.0, 0.0] and GAME.is_over(state)


def test_both_envs_report_the_cap_as_a_truncation():
    env = presages_env.make("res_arcana", num_players=2, step_cap=5)
    env.reset(seed=0)
    for _ in range(5):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    vec = presages_env.make_vec("res_arcana", 3, num_players=2, step_cap=5)
    for _ in range(5):
        out = vec.step(np.argmax(vec.masks, axis=1))
    assert out.truncated.all() and out.done.all() and (out.rewards == 0).all()


def test_a_seat_holding_more_than_the_essence_ceiling_truncates_the_game():
    """Runaway engines end like the step cap, before any count nears what int16 holds."""
    ceiling = lay.ESSENCE_CEILING
    below = position(mages=("Alchemist", "Scholar"), pools=[f"4E {ceiling - 2}G", ""])
    play(below, power("Alchemist", 0), E, E, E, E)  # pays its 4 "any" with Elan
    assert pool(below, 0)["G"] == ceiling and below[HDR_TERMINAL] == 0
    above = position(mages=("Alchemist", "Scholar"), pools=[f"4E {ceiling - 1}G", ""])
    rewards = play(above, power("Alchemist", 0), E, E, E, E)
    assert above[HDR_TERMINAL] == TRUNCATED and winners(above) == []
    assert rewards.tolist() == [0.0, 0.0]


def test_a_position_beyond_the_essence_ceiling_is_refused():
    with pytest.raises(ValueError, match=r"pools\[0\]\['G'\] must be \[0, 4000\]"):
        position(pools=[f"{lay.ESSENCE_CEILING + 1}G", ""])
