"""Edge cases of Présages spec sections 3.3-3.8, 4.2 and 9 that the worked scenarios skip.

Each test is one small 4-player bout built with ``setup_position`` and driven with ``play``,
with the same conventions as ``test_presages_scenarios.py`` (whose helpers it reuses):
seat 0 is the spec's P1, and cards besides the ones placed are inert fillers.
"""

from __future__ import annotations

import pytest
from test_presages_scenarios import (
    ABS30,
    ABS35,
    BETRAYAL,
    CALM,
    DAY,
    DEATH,
    DREAM,
    FEAR,
    FEAST,
    FRIENDSHIP,
    HARMONY,
    HOPE,
    JEALOUSY,
    LAW,
    LOVE,
    LUCK,
    MIRROR,
    NIGHT,
    PRIDE,
    SECRET,
    SPRING,
    SUMMER,
    TEAMS_4P,
    TRUTH,
    WINTER,
    WRATH,
    absolute,
    assert_bout_ended,
    choose_card,
    decide,
    expect_decision,
    law,
    place,
    secret,
)

from presages_env.games.presages.game import (
    LAW_ABOVE,
    LAW_BELOW,
    card_action,
    in_front,
    last_round_winner,
    law_direction,
    node_name,
    play,
    seat_action,
    setup_position,
)


def four_players(hands, starter=0, **options):
    return setup_position(4, hands, starter=starter, teams=TEAMS_4P, **options)


# ---- 3.3 effects that cannot apply -------------------------------------------------------
@pytest.mark.parametrize("card", [BETRAYAL, JEALOUSY])
def test_betrayal_or_jealousy_as_first_card_does_nothing(card):
    state = four_players([[card, 1, 2], [FRIENDSHIP, 4, 5], [HOPE, 7, 8], [9, 10, 11]])
    place(state, 0, card)
    place(state, 1, FRIENDSHIP)  # no pick decision: the next seat places at once
    place(state, 2, HOPE)
    place(state, 3, 9)
    # Friendship and Lie(9) mark themselves (a yellow is in play; Lie is the highest yellow)
    assert_bout_ended(
        state,
        winner=0,
        discards=[card, FRIENDSHIP, 9],
        next_starter=0,
        hands=[[1, 2], [4, 5], [HOPE, 7, 8], [10, 11]],
    )


def test_law_as_last_card_asks_no_direction():
    state = four_players([[DAY, 1, 2], [NIGHT, 3, 4], [HOPE, 5, 7], [LAW, 8, 9]])
    for seat, card in enumerate([DAY, NIGHT, HOPE, LAW]):
        place(state, seat, card)
    # Day and Night mark each other; Hope is the lowest card
    assert_bout_ended(
        state,
        winner=1,
        discards=[NIGHT, DAY, HOPE],
        next_starter=1,
        hands=[[1, 2], [3, 4], [5, 7], [LAW, 8, 9]],
    )


def test_dream_as_last_card_can_only_go_in_front_of_its_placer():
    state = four_players([[DAY, 1, 2], [CALM, 3, 5], [HOPE, 7, 8], [DREAM, 9, 10]])
    for seat, card in enumerate([DAY, CALM, HOPE, DREAM]):
        place(state, seat, card)
    # spec 3.3: "in front of self" is the only destination; the engine may ask it or not
    if node_name(state) == "DREAM_DEST":
        decide(state, "DREAM_DEST", 3, seat_action(3), {seat_action(3)})
    # Day marks the highest red, Dream, which wins anyway; Calm sees a red card
    assert_bout_ended(
        state,
        winner=3,
        discards=[DREAM, CALM],
        next_starter=3,
        hands=[[DAY, 1, 2], [3, 5], [HOPE, 7, 8], [9, 10]],
    )


# ---- 3.4 Law -----------------------------------------------------------------------------
def test_law_above_is_strict():
    state = four_players([[LAW, 1, 2], [TRUTH, MIRROR, FEAR], [SUMMER, 3, 4], [5, 6, 7]])
    place(state, 0, LAW)
    law(state, 0, LAW_ABOVE)
    place(state, 1, TRUTH, [TRUTH])  # 16 > 15; Mirror(14) and Fear(12) are not
    place(state, 2, SUMMER, [SUMMER, 3, 4])  # the teammate has nothing above 15: free
    place(state, 3, 5, [5, 6, 7])
    # Truth marks the lowest yellow: Summer(11); Feast(5) is the lowest card, no marks on it
    assert_bout_ended(
        state,
        winner=1,
        discards=[TRUTH, SUMMER],
        next_starter=1,
        hands=[[LAW, 1, 2], [MIRROR, FEAR], [3, 4], [5, 6, 7]],
    )


def test_wrath_replacement_is_bound_by_law_placed_after_the_replacer():
    hands = [[NIGHT, HOPE, HARMONY], [LAW, 1, 2], [WRATH, DAY, ABS30], [3, 4, 5]]
    state = four_players(hands)
    place(state, 0, NIGHT)
    place(state, 1, LAW)
    law(state, 1, LAW_BELOW)
    place(state, 2, WRATH, [WRATH, DAY, ABS30])  # nothing below 15: free
    choose_card(state, "WRATH_PICK", 2, NIGHT, [NIGHT, LAW])
    # P1 played before Law, yet the replacement must be below 15 (spec 3.4)
    choose_card(state, "WRATH_REPLACE", 0, HOPE, [HOPE])
    place(state, 3, FRIENDSHIP, [3, 4, 5])
    # Friendship sees a yellow (Law); Hope is above Friendship
    assert_bout_ended(
        state,
        winner=2,
        discards=[WRATH, FRIENDSHIP],
        next_starter=2,
        hands=[[NIGHT, HOPE, HARMONY], [LAW, 1, 2], [DAY, ABS30], [4, 5]],
    )


def test_wrath_replacement_is_free_when_only_the_returned_card_obeyed_law():
    hands = [[HOPE, DAY, 19], [LAW, 1, 2], [WRATH, NIGHT, ABS30], [3, 4, 5]]
    state = four_players(hands)
    place(state, 0, HOPE)
    place(state, 1, LAW)
    law(state, 1, LAW_BELOW)
    place(state, 2, WRATH)
    choose_card(state, "WRATH_PICK", 2, HOPE, [HOPE, LAW])
    # the returned card is removed first; no other card is below 15, so any is legal
    choose_card(state, "WRATH_REPLACE", 0, DAY, [DAY, 19])
    place(state, 3, FRIENDSHIP, [3, 4, 5])
    # Day is the highest (only) red; Friendship sees Law, a yellow
    assert_bout_ended(
        state,
        winner=2,
        discards=[WRATH, DAY, FRIENDSHIP],
        next_starter=2,
        hands=[[HOPE, 19], [LAW, 1, 2], [NIGHT, ABS30], [4, 5]],
    )


def test_law_placed_again_after_betrayal_and_wrath_gets_a_fresh_direction():
    hands = [[LAW, 1, 2], [BETRAYAL, HOPE, HARMONY], [WRATH, 3, 5], [DAY, SPRING, CALM]]
    state = four_players(hands)
    place(state, 0, LAW)
    law(state, 0, LAW_ABOVE)
    place(state, 1, BETRAYAL, [BETRAYAL, HARMONY])
    choose_card(state, "BETRAYAL_TAKE", 1, LAW, [LAW])
    choose_card(state, "BETRAYAL_GIVE", 1, HOPE, [HOPE, HARMONY])
    place(state, 2, WRATH, [WRATH, 3, 5])  # the old ABOVE is gone
    choose_card(state, "WRATH_PICK", 2, BETRAYAL, [HOPE, BETRAYAL])
    choose_card(state, "WRATH_REPLACE", 1, LAW, [LAW, HARMONY])
    # P4 has no card yet, so Law's new holder chooses afresh
    law(state, 1, LAW_BELOW)
    assert law_direction(state) == 1
    place(state, 3, SPRING, [SPRING, CALM])
    # Hope is the lowest card; Spring is not the only green
    assert_bout_ended(
        state,
        winner=2,
        discards=[WRATH, HOPE],
        next_starter=2,
        hands=[[1, 2], [LAW, HARMONY, BETRAYAL], [3, 5], [DAY, SPRING, CALM]],
    )


# ---- 3.5 Dream ---------------------------------------------------------------------------
def test_dream_cannot_target_a_player_who_has_played_and_self_has_no_effect():
    state = four_players([[HOPE, 1, 2], [DREAM, 3, 4], [DAY, 5, 7], [DEATH, 9, 10]])
    place(state, 0, HOPE)
    place(state, 1, DREAM)
    decide(state, "DREAM_DEST", 1, seat_action(1), {seat_action(s) for s in (1, 2, 3)})
    place(state, 2, DAY)  # no reply: P3 simply plays next
    place(state, 3, DEATH)
    # Day marks Dream (highest red); Death and Hope both mark Hope
    assert_bout_ended(
        state,
        winner=1,
        discards=[DREAM, HOPE],
        next_starter=1,
        hands=[[1, 2], [3, 4], [DAY, 5, 7], [DEATH, 9, 10]],
    )


def test_dream_reply_is_bound_by_law():
    hands = [[LAW, 1, 2], [DREAM, NIGHT, ABS30], [DAY, HOPE, SPRING], [CALM, 3, 5]]
    state = four_players(hands)
    place(state, 0, LAW)
    law(state, 0, LAW_BELOW)
    place(state, 1, DREAM, [DREAM, NIGHT, ABS30])  # nothing below 15: free
    decide(state, "DREAM_DEST", 1, seat_action(2), {seat_action(s) for s in (1, 2, 3)})
    choose_card(state, "DREAM_REPLY", 2, HOPE, [HOPE, SPRING])
    assert in_front(state) == [LAW, HOPE, DREAM, 0]
    place(state, 3, CALM, [CALM, 3, 5])
    # Calm sees a red (Dream); Hope is above Calm
    assert_bout_ended(
        state,
        winner=2,
        discards=[DREAM, CALM],
        next_starter=2,
        hands=[[LAW, 1, 2], [HOPE, NIGHT, ABS30], [DAY, SPRING], [3, 5]],
    )


def test_law_replied_to_dream_is_directed_by_the_dream_player():
    hands = [[DREAM, 1, 2], [NIGHT, HOPE, 3], [LAW, 4, 5], [DAY, SPRING, 8]]
    state = four_players(hands)
    place(state, 0, DREAM)
    decide(state, "DREAM_DEST", 0, seat_action(2), {seat_action(s) for s in range(4)})
    choose_card(state, "DREAM_REPLY", 2, LAW)
    law(state, 0, LAW_ABOVE)  # Law lies in front of P1, who resolves it (spec 3.2)
    place(state, 1, NIGHT, [NIGHT])
    place(state, 3, DAY, [DAY])
    # Day and Night mark each other
    assert_bout_ended(
        state,
        winner=1,
        discards=[NIGHT, DAY],
        next_starter=1,
        hands=[[LAW, 1, 2], [HOPE, 3], [DREAM, 4, 5], [SPRING, 8]],
    )


def test_absolute_replied_to_dream_is_resolved_by_the_dream_player():
    hands = [[DREAM, 1, 2], [HOPE, 3, 4], [ABS35, 5, 7], [DEATH, 9, 10]]
    state = four_players(hands)
    place(state, 0, DREAM)
    decide(state, "DREAM_DEST", 0, seat_action(2), {seat_action(s) for s in range(4)})
    choose_card(state, "DREAM_REPLY", 2, ABS35)
    # P1 is the Absolute's holder: P1 targets and gives from P1's own hand
    absolute(state, 0, 1, 1, 3)
    place(state, 1, HOPE)
    place(state, 3, DEATH)
    # Abs35 wins for P1; Death and Hope both mark Hope
    assert_bout_ended(
        state,
        winner=0,
        discards=[ABS35, HOPE],
        next_starter=0,
        hands=[[3, 2], [1, 4], [DREAM, 5, 7], [DEATH, 9, 10]],
    )


# ---- 3.6 Jealousy ------------------------------------------------------------------------
def test_jealousy_replied_to_dream_may_swap_with_dream_which_does_not_retrigger():
    state = four_players([[DREAM, 1, 2], [JEALOUSY, 3, 4], [HOPE, 5, 7], [DEATH, 9, 10]])
    place(state, 0, DREAM)
    decide(state, "DREAM_DEST", 0, seat_action(1), {seat_action(s) for s in range(4)})
    choose_card(state, "DREAM_REPLY", 1, JEALOUSY)
    choose_card(state, "JEALOUSY_PICK", 0, DREAM, [DREAM])
    assert in_front(state) == [DREAM, JEALOUSY, 0, 0]
    place(state, 2, HOPE)  # Dream moved, not placed: no destination decision
    place(state, 3, DEATH)
    assert_bout_ended(
        state,
        winner=1,
        discards=[JEALOUSY, HOPE],
        next_starter=1,
        hands=[[DREAM, 1, 2], [3, 4], [5, 7], [DEATH, 9, 10]],
    )


def test_jealousy_taking_pride_moves_the_next_starter():
    state = four_players([[PRIDE, 1, 2], [JEALOUSY, 3, 4], [HOPE, 5, 7], [WINTER, 8, 9]])
    place(state, 0, PRIDE)
    place(state, 1, JEALOUSY)
    choose_card(state, "JEALOUSY_PICK", 1, PRIDE, [PRIDE])
    assert in_front(state) == [JEALOUSY, PRIDE, 0, 0]
    place(state, 2, HOPE)
    place(state, 3, WINTER)
    # Winter wins for P4; Pride's holder is now P2, so P3 starts; Pride returns to P2
    assert_bout_ended(
        state,
        winner=3,
        discards=[WINTER, HOPE],
        next_starter=2,
        hands=[[JEALOUSY, 1, 2], [PRIDE, 3, 4], [5, 7], [8, 9]],
    )


def test_jealousy_taking_luck_makes_its_player_discard_and_fear_is_excluded():
    hands = [[LUCK, 1, 3], [JEALOUSY, FEAR, 4, 5], [WINTER, 6, 7], [LOVE, 8, 9]]
    state = four_players(hands)
    place(state, 0, LUCK)
    place(state, 1, JEALOUSY)
    choose_card(state, "JEALOUSY_PICK", 1, LUCK, [LUCK])
    place(state, 2, WINTER)
    place(state, 3, LOVE)
    # Winter marks Luck, now held by P2, who discards a non-Fear hand card
    choose_card(state, "LUCK_DISCARD", 1, 4, [4, 5])
    assert_bout_ended(
        state,
        winner=2,
        discards=[WINTER, LUCK, 4],
        next_starter=2,
        hands=[[JEALOUSY, 1, 3], [FEAR, 5], [6, 7], [LOVE, 8, 9]],
    )


def test_bout_winner_is_the_holder_after_jealousy():
    state = four_players([[WINTER, 1, 3], [JEALOUSY, 4, 5], [LOVE, 7, 8], [HOPE, 9, 10]])
    place(state, 0, WINTER)
    place(state, 1, JEALOUSY)
    choose_card(state, "JEALOUSY_PICK", 1, WINTER, [WINTER])
    place(state, 2, LOVE)
    place(state, 3, HOPE)
    # spec 9.1: the holder of the winning card (P2) wins, not the player who placed it
    assert_bout_ended(
        state,
        winner=1,
        discards=[WINTER, LOVE],
        next_starter=1,
        hands=[[JEALOUSY, 1, 3], [4, 5], [7, 8], [HOPE, 9, 10]],
    )


# ---- 3.7 Secret --------------------------------------------------------------------------
def test_secret_as_last_card_may_ask_a_player_who_has_played():
    state = four_players([[HOPE, 1, 2], [DEATH, 3, 4], [SPRING, 5, 9], [SECRET, 10, 11]])
    for seat, card in enumerate([HOPE, DEATH, SPRING, SECRET]):
        place(state, seat, card)
    secret(state, 3, "ask", 0, 1)
    # Death marks Hope (lowest green), which is also the lowest card
    assert_bout_ended(
        state,
        winner=3,
        discards=[SECRET, HOPE],
        next_starter=3,
        hands=[[1, 2], [DEATH, 3, 4], [SPRING, 5, 9], [10, 11]],
    )


# ---- 3.8 Wrath and Betrayal --------------------------------------------------------------
def test_wrath_returns_the_card_to_its_holder_after_jealousy():
    state = four_players([[HOPE, 1, 2], [JEALOUSY, 3, 4], [WRATH, 5, 7], [DEATH, 9, 10]])
    place(state, 0, HOPE)
    place(state, 1, JEALOUSY)
    choose_card(state, "JEALOUSY_PICK", 1, HOPE, [HOPE])
    place(state, 2, WRATH)
    choose_card(state, "WRATH_PICK", 2, HOPE, [JEALOUSY, HOPE])
    # Hope lay in front of P2: it goes to P2's hand and P2 replaces it
    choose_card(state, "WRATH_REPLACE", 1, FRIENDSHIP, [FRIENDSHIP, 4])
    place(state, 3, DEATH)
    # Death marks Friendship, the lowest green
    assert_bout_ended(
        state,
        winner=2,
        discards=[WRATH, FRIENDSHIP],
        next_starter=2,
        hands=[[JEALOUSY, 1, 2], [HOPE, 4], [5, 7], [DEATH, 9, 10]],
    )


def test_wrath_replacement_may_be_a_dream_with_a_new_target():
    state = four_players([[HOPE, DREAM, 1], [WRATH, 2, 3], [DAY, 4, 5], [SPRING, 8, 9]])
    place(state, 0, HOPE)
    place(state, 1, WRATH)
    choose_card(state, "WRATH_PICK", 1, HOPE, [HOPE])
    choose_card(state, "WRATH_REPLACE", 0, DREAM, [DREAM, 1])
    decide(state, "DREAM_DEST", 0, seat_action(3), {seat_action(s) for s in (0, 2, 3)})
    choose_card(state, "DREAM_REPLY", 3, SPRING, [SPRING, 8, 9])
    assert in_front(state) == [SPRING, WRATH, 0, DREAM]
    place(state, 2, DAY)
    # Day marks Dream (highest red); Spring is the only green
    assert_bout_ended(
        state,
        winner=1,
        discards=[WRATH, DREAM, SPRING],
        next_starter=1,
        hands=[[HOPE, 1], [2, 3], [DAY, 4, 5], [8, 9]],
    )


def test_wrath_returns_a_dream_reply_to_the_dream_player_who_replaces_it():
    state = four_players([[DREAM, 1, 2], [HOPE, 3, 4], [WRATH, 5, 7], [DEATH, 9, 10]])
    place(state, 0, DREAM)
    decide(state, "DREAM_DEST", 0, seat_action(1), {seat_action(s) for s in range(4)})
    choose_card(state, "DREAM_REPLY", 1, HOPE)
    place(state, 2, WRATH)
    choose_card(state, "WRATH_PICK", 2, HOPE, [HOPE, DREAM])
    # Hope lay in front of P1 (the Dream player): it goes into P1's hand, P1 replaces it
    choose_card(state, "WRATH_REPLACE", 0, 1, [1, 2])
    assert in_front(state) == [1, DREAM, WRATH, 0]
    place(state, 3, DEATH)
    # Life(1) and Death mark each other
    assert_bout_ended(
        state,
        winner=2,
        discards=[WRATH, DEATH, 1],
        next_starter=2,
        hands=[[2, HOPE], [DREAM, 3, 4], [5, 7], [9, 10]],
    )


def test_law_binds_the_card_a_betrayal_player_gives():
    hands = [[HOPE, BETRAYAL, DAY], [LAW, 1, 2], [WRATH, NIGHT, ABS30], [3, 4, 5]]
    state = four_players(hands)
    place(state, 0, HOPE)
    place(state, 1, LAW)
    law(state, 1, LAW_BELOW)
    place(state, 2, WRATH, [WRATH, NIGHT, ABS30])
    choose_card(state, "WRATH_PICK", 2, HOPE, [HOPE, LAW])
    # without Hope, P1 has nothing below 15: Betrayal is a legal replacement
    choose_card(state, "WRATH_REPLACE", 0, BETRAYAL, [BETRAYAL, DAY])
    choose_card(state, "BETRAYAL_TAKE", 0, WRATH, [LAW, WRATH])
    # Law is still in play: the gift must be below 15 (Hope), not Day
    choose_card(state, "BETRAYAL_GIVE", 0, HOPE, [HOPE])
    assert in_front(state) == [BETRAYAL, LAW, HOPE, 0]
    place(state, 3, FRIENDSHIP, [3, 4, 5])
    # Friendship sees Law (yellow); Hope returns to P3, in front of whom it lies
    assert_bout_ended(
        state,
        winner=0,
        discards=[BETRAYAL, FRIENDSHIP],
        next_starter=0,
        hands=[[DAY, WRATH], [LAW, 1, 2], [NIGHT, ABS30, HOPE], [4, 5]],
    )


def test_betrayal_victim_resolves_the_wrath_it_receives():
    state = four_players([[HOPE, 1, 2], [BETRAYAL, WRATH, CALM], [DAY, 3, 5], [SPRING, 8, 9]])
    place(state, 0, HOPE)
    place(state, 1, BETRAYAL)
    choose_card(state, "BETRAYAL_TAKE", 1, HOPE, [HOPE])
    choose_card(state, "BETRAYAL_GIVE", 1, WRATH, [WRATH, CALM])
    # Wrath lies in front of P1, who resolves it and sends Betrayal back to P2
    choose_card(state, "WRATH_PICK", 0, BETRAYAL, [BETRAYAL])
    choose_card(state, "WRATH_REPLACE", 1, CALM, [HOPE, CALM])
    place(state, 2, DAY)
    place(state, 3, SPRING)
    # Day is the only red; Calm sees it
    assert_bout_ended(
        state,
        winner=0,
        discards=[WRATH, DAY, CALM],
        next_starter=0,
        hands=[[1, 2], [HOPE, BETRAYAL], [3, 5], [SPRING, 8, 9]],
    )


def test_dream_given_through_betrayal_does_nothing():
    state = four_players([[HOPE, 1, 2], [BETRAYAL, DREAM, 3], [DAY, 4, 5], [SPRING, 8, 9]])
    place(state, 0, HOPE)
    place(state, 1, BETRAYAL)
    choose_card(state, "BETRAYAL_TAKE", 1, HOPE, [HOPE])
    choose_card(state, "BETRAYAL_GIVE", 1, DREAM, [DREAM, 3])
    place(state, 2, DAY)  # no destination decision: P3 plays next
    place(state, 3, SPRING)
    # Day marks Dream; Spring is the only green
    assert_bout_ended(
        state,
        winner=1,
        discards=[BETRAYAL, DREAM, SPRING],
        next_starter=1,
        hands=[[1, 2], [HOPE, 3], [DAY, 4, 5], [8, 9]],
    )


def test_law_given_through_betrayal_is_directed_by_the_victim():
    hands = [[HOPE, 1, 2], [BETRAYAL, LAW, 3], [DAY, SPRING, 4], [FEAST, 8, 9]]
    state = four_players(hands)
    place(state, 0, HOPE)
    place(state, 1, BETRAYAL)
    choose_card(state, "BETRAYAL_TAKE", 1, HOPE, [HOPE])
    choose_card(state, "BETRAYAL_GIVE", 1, LAW, [LAW, 3])
    law(state, 0, LAW_BELOW)  # spec 6 G16: the victim holds Law and a seat is empty
    place(state, 2, SPRING, [SPRING, 4])
    place(state, 3, FEAST, [FEAST, 8, 9])
    # Feast sees a blue (Betrayal); Spring is not the only green
    assert_bout_ended(
        state,
        winner=1,
        discards=[BETRAYAL, FEAST],
        next_starter=1,
        hands=[[LAW, 1, 2], [HOPE, 3], [DAY, SPRING, 4], [8, 9]],
    )


def test_law_given_through_betrayal_as_last_placement_asks_no_direction():
    hands = [[HOPE, 1, 2], [DAY, 3, 4], [SPRING, 5, 8], [BETRAYAL, LAW, 9]]
    state = four_players(hands)
    for seat, card in enumerate([HOPE, DAY, SPRING, BETRAYAL]):
        place(state, seat, card)
    choose_card(state, "BETRAYAL_TAKE", 3, DAY, [HOPE, DAY, SPRING])
    choose_card(state, "BETRAYAL_GIVE", 3, LAW, [LAW, 9])
    # every seat has a card: no LAW_DIR; Hope is the lowest card
    assert_bout_ended(
        state,
        winner=3,
        discards=[BETRAYAL, HOPE],
        next_starter=3,
        hands=[[1, 2], [LAW, 3, 4], [SPRING, 5, 8], [DAY, 9]],
    )


# ---- 4.1 step 4, 4.2 and 9.3 Pride -------------------------------------------------------
def test_pride_applies_even_when_discarded():
    state = four_players([[PRIDE, 1, 3], [NIGHT, 4, 5], [ABS35, 7, 8], [LOVE, 9, 10]])
    place(state, 0, PRIDE)
    place(state, 1, NIGHT)
    place(state, 2, ABS35)
    absolute(state, 2, 3, 7, 9)
    place(state, 3, LOVE)
    # Night marks Pride (lowest red); the left of Pride's holder P1 still starts
    assert_bout_ended(
        state,
        winner=2,
        discards=[ABS35, PRIDE],
        next_starter=1,
        hands=[[1, 3], [NIGHT, 4, 5], [8, 9], [LOVE, 7, 10]],
    )


def test_pride_at_the_last_seat_passes_the_start_to_seat_zero():
    state = four_players([[DAY, 1, 2], [HOPE, 3, 4], [SPRING, 5, 8], [PRIDE, 9, 10]], starter=1)
    for seat, card in [(1, HOPE), (2, SPRING), (3, PRIDE), (0, DAY)]:
        place(state, seat, card)
    assert_bout_ended(
        state,
        winner=3,
        discards=[PRIDE, HOPE],
        next_starter=0,
        hands=[[DAY, 1, 2], [3, 4], [SPRING, 5, 8], [9, 10]],
    )


PRIDE_LAST_BOUT = [[PRIDE, SPRING], [CALM, TRUTH, 9], [WINTER, SUMMER], [DAY, NIGHT, HOPE]]


def play_pride_last_bout(state):
    for seat, card in enumerate([PRIDE, TRUTH, WINTER, HOPE]):
        place(state, seat, card)
    # Winter wins and marks Truth; Hope is the lowest: P3 ends on one card
    assert last_round_winner(state) == 2


def test_pride_in_the_last_bout_of_a_round_does_not_cross_rounds():
    state = four_players(PRIDE_LAST_BOUT)
    play_pride_last_bout(state)
    expect_decision(state, "PLACE", 2)  # the round winner starts, not Pride's left (P2)


def test_pride_crosses_rounds_with_the_config_flag():
    state = four_players(PRIDE_LAST_BOUT, pride_carries_into_next_round=True)
    play_pride_last_bout(state)
    expect_decision(state, "PLACE", 1)


def test_an_illegal_action_is_refused_without_changing_the_state():
    state = four_players([[LAW, 1, 2], [TRUTH, MIRROR, FEAR], [3, 4, 5], [6, 7, 8]])
    place(state, 0, LAW)
    law(state, 0, LAW_ABOVE)
    before = state.copy()
    with pytest.raises(ValueError):
        play(state, card_action(MIRROR))  # 14 is below 15
    assert (state == before).all()
    expect_decision(state, "PLACE", 1)
