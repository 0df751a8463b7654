"""The 25 worked scenarios of the Présages rules spec (section 8) as rules tests.

Every scenario is built with ``setup_position`` and driven decision by decision with ``play``.
Before each decision the test checks the node and the seat that must decide, so an engine
that asks in the wrong order fails; at constrained decisions it also checks the legal set
read from the mask. After the bout it checks what the spec states: bout winner, discard set,
returns to hand, next starter, and for round-ending bouts the round winner, the hands at round
end and laurels.

Seats: the spec's P1..Pn are seats 0..n-1 (P1 is seat 0). Where the spec leaves hands open
(it then assumes every player holds at least 3 cards), players get two *filler* cards besides
the card they play. Fillers are never placed; they only travel when an Absolute exchange
"(exchange: any)" needs cards, and the chosen cards are stated in a comment.
"""

from __future__ import annotations

import numpy as np
import pytest

from presages_env.games.presages.game import (
    LAW_ABOVE,
    LAW_BELOW,
    NUM_ACTIONS,
    SEAT_ACTION_BASE,
    SECRET_ASK,
    SECRET_SHOW,
    PresagesGame,
    bout_starter,
    card_action,
    current_seat,
    discard_pile,
    hand,
    hand_sizes,
    in_front,
    last_bout_winner,
    last_round_discard,
    last_round_end_hands,
    last_round_winner,
    law_direction,
    node_name,
    play,
    round_number,
    rounds_won,
    seat_action,
    set_aside_cards,
    setup_position,
    teams,
    winning_team,
)

# ---- card values (spec section 1.1) ------------------------------------------------------
LIFE, LOVE, FRIENDSHIP, CALM, FEAST, HOPE, SPRING, DEATH = 1, 2, 3, 4, 5, 6, 7, 8
LIE, ENIGMA, SUMMER, FEAR, LUCK, MIRROR, LAW, TRUTH = 9, 10, 11, 12, 13, 14, 15, 16
MALICE, DAY, AUTUMN, HARMONY, DREAM, PRIDE, JEALOUSY, SECRET, NIGHT = range(17, 26)
SADNESS, WINTER, WRATH, BETRAYAL = 26, 27, 28, 29
ABS30, ABS31, ABS32, ABS33, ABS34, ABS35 = range(30, 36)

TEAMS_4P = [0, 1, 0, 1]  # {P1,P3} against {P2,P4}
TEAMS_5P = [0, 1, 1, 0, 1]  # {P1,P4} is the 2-player team
TEAMS_6P = [0, 1, 2, 0, 1, 2]  # {P1,P4}, {P2,P5}, {P3,P6}

GAME = PresagesGame()


# ---- reading the mask --------------------------------------------------------------------
def legal_actions(state: np.ndarray) -> set[int]:
    mask = np.zeros(NUM_ACTIONS, np.int8)
    GAME.legal_mask(state, mask)  # the checked kernel: every scenario state is a valid one
    return {int(a) for a in np.flatnonzero(mask)}


def legal_cards(state: np.ndarray) -> set[int]:
    """The legal actions of a node whose options are cards, as card values."""
    actions = legal_actions(state)
    assert all(a < SEAT_ACTION_BASE for a in actions), f"non-card actions at {node_name(state)}"
    return {a + 1 for a in actions}


def legal_seats(state: np.ndarray) -> set[int]:
    seat_actions = range(SEAT_ACTION_BASE, SEAT_ACTION_BASE + 6)
    actions = legal_actions(state)
    assert actions <= set(seat_actions), f"non-seat actions legal at {node_name(state)}"
    return {a - SEAT_ACTION_BASE for a in actions}


def observation(state: np.ndarray, seat: int) -> np.ndarray:
    num_players = len(hand_sizes(state))
    obs = np.zeros(GAME.obs_size(num_players), dtype=GAME.obs_dtype)
    GAME.observe(state, seat, obs)
    return obs


# ---- driving decisions -------------------------------------------------------------------
def expect_decision(state: np.ndarray, node: str, seat: int) -> None:
    assert (node_name(state), current_seat(state)) == (node, seat), (
        f"expected {node} by seat {seat}, engine asks {node_name(state)} "
        f"by seat {current_seat(state)}"
    )


def decide(state, node, seat, action, legal=None) -> np.ndarray:
    """Check that ``seat`` is asked ``node`` (with exactly ``legal`` actions), then act."""
    expect_decision(state, node, seat)
    if legal is not None:
        assert legal_actions(state) == set(legal), f"legal actions at {node} by seat {seat}"
    return play(state, action)


def choose_card(state, node, seat, card, legal=None) -> np.ndarray:
    """A decision whose options are cards; ``legal`` is the expected set of card values."""
    expect_decision(state, node, seat)
    if legal is not None:
        assert legal_cards(state) == set(legal), f"legal cards at {node} by seat {seat}"
    return play(state, card_action(card))


def place(state, seat, card, legal=None) -> np.ndarray:
    return choose_card(state, "PLACE", seat, card, legal)


def law(state, seat, direction) -> np.ndarray:
    return decide(state, "LAW_DIR", seat, direction, {LAW_BELOW, LAW_ABOVE})


def absolute(state, holder, target, give, receive) -> np.ndarray:
    """Resolve an Absolute already placed: target, then the holder's card, then the target's.

    Every other seat is a legal target (spec 3.7); the holder gives any hand card and the
    target any card of their own hand, which cannot include the card being received.
    """
    n = len(hand_sizes(state))
    others = {seat_action(s) for s in range(n) if s != holder}
    decide(state, "ABSOLUTE_TARGET", holder, seat_action(target), others)
    choose_card(state, "ABSOLUTE_GIVE", holder, give, hand(state, holder))
    target_hand = hand(state, target)
    assert give not in target_hand
    return choose_card(state, "ABSOLUTE_RETURN", target, receive, target_hand)


def secret(state, holder, mode, target, shown) -> np.ndarray:
    """Resolve a Secret already placed: mode, target, then the shower picks ``shown``."""
    n = len(hand_sizes(state))
    decide(state, "SECRET_MODE", holder, SECRET_SHOW if mode == "show" else SECRET_ASK)
    others = {seat_action(s) for s in range(n) if s != holder}
    decide(state, "SECRET_TARGET", holder, seat_action(target), others)
    shower = holder if mode == "show" else target
    return choose_card(state, "SECRET_CARD", shower, shown, hand(state, shower))


def hands_of(state: np.ndarray) -> list[list[int]]:
    return [hand(state, s) for s in range(len(hand_sizes(state)))]


def sorted_hands(*hands) -> list[list[int]]:
    return [sorted(h) for h in hands]


# ---- checking outcomes -------------------------------------------------------------------
def assert_bout_ended(state, *, winner, discards, next_starter, hands) -> None:
    """The bout is over, the round goes on, and the next bout waits for its starter."""
    assert last_bout_winner(state) == winner, "bout winner"
    pile = discard_pile(state)
    assert sorted(pile) == sorted(discards), "discard set of the bout"
    assert hands_of(state) == sorted_hands(*hands), "hands after the returns"
    assert in_front(state) == [0] * len(hands), "the table is cleared"
    assert law_direction(state) == 0, "Law's direction is cleared at the end of the bout"
    assert round_number(state) == 1 and last_round_winner(state) == -1, "round goes on"
    expect_decision(state, "PLACE", next_starter)
    assert bout_starter(state) == next_starter, "next starter"


def assert_round_ended(state, *, winner, end_hands, discards, laurels) -> None:
    """The round ended with ``winner`` winning it for their team; the game goes on."""
    assert last_round_winner(state) == winner, "round winner"
    assert last_round_end_hands(state) == sorted_hands(*end_hands), "hands at round end"
    assert sorted(last_round_discard(state)) == sorted(discards), "discards of the round"
    assert rounds_won(state) == laurels, "laurels"
    assert winning_team(state) == -1, "one laurel does not end the game"
    # the next round is dealt (4p: 5 cards each) and its first bout is started by the
    # player who won the round (spec 2.4 item 4)
    assert round_number(state) == 2
    assert discard_pile(state) == []
    assert hand_sizes(state) == [5, 5, 5, 5]
    expect_decision(state, "PLACE", winner)
    assert bout_starter(state) == winner


# ---- W1..W25 -----------------------------------------------------------------------------
def test_w01_rulebook_example_several_hourglass_effects_at_once():
    # fillers: everything besides the placed card (6p)
    state = setup_position(
        6,
        [
            [SECRET, 1, 2],
            [DAY, 3, 6],
            [CALM, 7, 9],
            [DEATH, 10, 13],
            [SUMMER, 14, 16],
            [FEAST, 19, 20],
        ],
        starter=0,
        teams=TEAMS_6P,
    )
    place(state, 0, SECRET)
    # Secret works as the first card: "ask P4"; P4 shows Enigma to P1 (any of P4's cards)
    secret(state, 0, "ask", 3, ENIGMA)
    for seat, card in [(1, DAY), (2, CALM), (3, DEATH), (4, SUMMER)]:
        place(state, seat, card)
    assert in_front(state) == [SECRET, DAY, CALM, DEATH, SUMMER, 0]
    place(state, 5, FEAST)
    assert_bout_ended(
        state,
        winner=0,
        discards=[SECRET, CALM, SUMMER],
        next_starter=0,
        hands=[[1, 2], [DAY, 3, 6], [7, 9], [DEATH, 10, 13], [14, 16], [FEAST, 19, 20]],
    )


def test_w02_tutorial_bout_absolute_life_and_death_fear_returns():
    hands = [
        [ABS34, TRUTH, ENIGMA, FEAST, LOVE],
        [ABS31, LIFE, LIE, HARMONY, WINTER],
        [ABS30, NIGHT, DAY, DEATH, FRIENDSHIP],
        [ABS33, FEAR, HOPE, SPRING, SECRET],
    ]
    state = setup_position(4, hands, starter=0)
    # teams come from the Absolus (spec 2.1): 34 and 30 (highest and lowest) together
    t = teams(state)
    assert t[0] == t[2] and t[1] == t[3] and t[0] != t[1]

    place(state, 0, ABS34)
    decide(state, "ABSOLUTE_TARGET", 0, seat_action(2), {seat_action(s) for s in (1, 2, 3)})
    other = state.copy()
    choose_card(state, "ABSOLUTE_GIVE", 0, TRUTH, [TRUTH, ENIGMA, FEAST, LOVE])
    # the target decides without any knowledge of the holder's card (spec 3.7, 5)
    play(other, card_action(ENIGMA))
    expect_decision(other, "ABSOLUTE_RETURN", 2)
    assert np.array_equal(observation(state, 2), observation(other, 2))
    choose_card(state, "ABSOLUTE_RETURN", 2, DAY, [ABS30, NIGHT, DAY, DEATH, FRIENDSHIP])
    assert hand(state, 0) == sorted([ENIGMA, FEAST, LOVE, DAY])
    assert hand(state, 2) == sorted([ABS30, NIGHT, DEATH, FRIENDSHIP, TRUTH])

    place(state, 1, LIFE)
    place(state, 2, DEATH)
    assert in_front(state) == [ABS34, LIFE, DEATH, 0]
    place(state, 3, FEAR)
    assert_bout_ended(
        state,
        winner=0,
        discards=[ABS34, DEATH, LIFE],
        next_starter=0,
        hands=[
            [ENIGMA, FEAST, LOVE, DAY],
            [ABS31, LIE, HARMONY, WINTER],
            [ABS30, NIGHT, FRIENDSHIP, TRUTH],
            [ABS33, FEAR, HOPE, SPRING, SECRET],
        ],
    )
    assert hand_sizes(state) == [4, 4, 4, 5]


def test_w03_mirror_lowest_card_wins():
    state = setup_position(
        4, [[MIRROR, 19, 20], [ABS35, TRUTH, 22], [HOPE, 23, 25], [FRIENDSHIP, 26, 27]], 0, TEAMS_4P
    )
    place(state, 0, MIRROR)
    place(state, 1, ABS35)
    # exchange: P2 targets P1 (who has played already), gives Truth, receives Autumn(19)
    absolute(state, 1, 0, TRUTH, AUTUMN)
    place(state, 2, HOPE)
    place(state, 3, FRIENDSHIP)
    assert_bout_ended(
        state,
        winner=3,
        discards=[FRIENDSHIP],
        next_starter=3,
        hands=[[MIRROR, TRUTH, 20], [ABS35, AUTUMN, 22], [HOPE, 23, 25], [26, 27]],
    )


def test_w04_sadness_second_highest_wins_absolute_as_first_card():
    state = setup_position(
        4, [[ABS32, 1, 2], [SADNESS, 3, 4], [WINTER, 5, 6], [LIE, 7, 8]], 0, TEAMS_4P
    )
    place(state, 0, ABS32)
    # the Absolute works as the first card; exchange with P4 (not played yet): 1 for 7
    absolute(state, 0, 3, 1, 7)
    place(state, 1, SADNESS)
    place(state, 2, WINTER)
    place(state, 3, LIE)
    assert_bout_ended(
        state,
        winner=2,
        discards=[WINTER, LIE],
        next_starter=2,
        hands=[[ABS32, 2, 7], [SADNESS, 3, 4], [5, 6], [1, 8]],
    )


def test_w05_mirror_overrides_sadness():
    state = setup_position(
        5,
        [[SADNESS, 1, 2], [MIRROR, 3, 6], [ABS35, 7, 8], [CALM, 9, 10], [NIGHT, 11, 13]],
        0,
        TEAMS_5P,
    )
    place(state, 0, SADNESS)
    place(state, 1, MIRROR)
    place(state, 2, ABS35)
    # exchange: P3 targets P5 (not played yet), gives Spring(7), receives Summer(11)
    absolute(state, 2, 4, SPRING, SUMMER)
    place(state, 3, CALM)
    place(state, 4, NIGHT)
    assert_bout_ended(
        state,
        winner=3,
        discards=[CALM, NIGHT],
        next_starter=3,
        hands=[[SADNESS, 1, 2], [MIRROR, 3, 6], [ABS35, SUMMER, 8], [9, 10], [SPRING, 13]],
    )


def test_w06_fear_lowest_so_harmony_discards_nothing():
    state = setup_position(
        4, [[FEAR, 1, 2], [HARMONY, 3, 4], [DAY, 5, 6], [ABS31, 7, 8]], 0, TEAMS_4P
    )
    place(state, 0, FEAR)
    place(state, 1, HARMONY)
    place(state, 2, DAY)
    place(state, 3, ABS31)
    # the Absolute works as the last card; exchange with P1: gives Spring(7), receives Life(1)
    absolute(state, 3, 0, SPRING, LIFE)
    assert_bout_ended(
        state,
        winner=3,
        discards=[ABS31, HARMONY],
        next_starter=3,
        hands=[[FEAR, SPRING, 2], [3, 4], [DAY, 5, 6], [LIFE, 8]],
    )


def test_w07_fear_wins_under_mirror_and_is_discarded():
    state = setup_position(
        4, [[MIRROR, 1, 2], [FEAR, 3, 4], [ABS33, 5, 6], [WINTER, 7, 8]], 0, TEAMS_4P
    )
    place(state, 0, MIRROR)
    place(state, 1, FEAR)
    place(state, 2, ABS33)
    # exchange with P2 (played already): gives Feast(5), receives Friendship(3)
    absolute(state, 2, 1, FEAST, FRIENDSHIP)
    place(state, 3, WINTER)
    assert_bout_ended(
        state,
        winner=1,
        discards=[FEAR, MIRROR],
        next_starter=1,
        hands=[[1, 2], [FEAST, 4], [ABS33, FRIENDSHIP, 6], [WINTER, 7, 8]],
    )


def test_w08_fear_highest_yellow_so_lie_discards_nothing_enigma():
    state = setup_position(
        4, [[LIE, 1, 2], [FEAR, 3, 4], [ENIGMA, 5, 6], [ABS30, 7, 8]], 0, TEAMS_4P
    )
    place(state, 0, LIE)
    place(state, 1, FEAR)
    place(state, 2, ENIGMA)
    place(state, 3, ABS30)
    # exchange with P3: gives Spring(7), receives Feast(5)
    absolute(state, 3, 2, SPRING, FEAST)
    assert_bout_ended(
        state,
        winner=3,
        discards=[ABS30, ENIGMA],
        next_starter=3,
        hands=[[LIE, 1, 2], [FEAR, 3, 4], [SPRING, 6], [FEAST, 8]],
    )


def test_w09_malice_counts_as_every_colour():
    state = setup_position(
        5,
        [
            [MALICE, 20, 21],
            [SPRING, 22, 23],
            [FRIENDSHIP, 24, 25],
            [AUTUMN, 26, 27],
            [LIFE, 28, 29],
        ],
        0,
        TEAMS_5P,
    )
    for seat, card in enumerate([MALICE, SPRING, FRIENDSHIP, AUTUMN, LIFE]):
        place(state, seat, card)
    assert_bout_ended(
        state,
        winner=3,
        discards=[AUTUMN, MALICE, FRIENDSHIP],
        next_starter=3,
        hands=[[20, 21], [SPRING, 22, 23], [24, 25], [26, 27], [LIFE, 28, 29]],
    )


def test_w10_malice_night_calm_and_sadness_on_itself():
    state = setup_position(
        4, [[NIGHT, 1, 2], [MALICE, 3, 5], [CALM, 6, 7], [SADNESS, 8, 9]], 0, TEAMS_4P
    )
    for seat, card in enumerate([NIGHT, MALICE, CALM, SADNESS]):
        place(state, seat, card)
    assert_bout_ended(
        state,
        winner=0,
        discards=[NIGHT, MALICE, CALM],
        next_starter=0,
        hands=[[1, 2], [3, 5], [6, 7], [SADNESS, 8, 9]],
    )


def test_w11_luck_wins_and_its_hand_discard_ends_the_round():
    hands = [
        [LUCK, SPRING, ABS31],
        [LOVE, HOPE, NIGHT],
        [CALM, LIE, DAY],
        [LIFE, TRUTH, SUMMER, WINTER],
    ]
    state = setup_position(4, hands, starter=0, teams=TEAMS_4P)
    for seat, card in enumerate([LUCK, LOVE, CALM, LIFE]):
        place(state, seat, card)
    # Luck is discarded (it won): its holder P1 discards a hand card of their choice
    choose_card(state, "LUCK_DISCARD", 0, SPRING, [SPRING, ABS31])
    assert_round_ended(
        state,
        winner=0,
        end_hands=[[ABS31], [HOPE, NIGHT], [LIE, DAY], [LIFE, TRUTH, SUMMER, WINTER]],
        discards=[LUCK, LOVE, CALM, SPRING],
        laurels=[1, 0],
    )


def test_w12_zero_cards_through_luck_beats_a_single_35():
    hands = [[LUCK, HOPE], [WINTER, ABS35], [LOVE, CALM, DAY], [FEAST, NIGHT, SUMMER]]
    state = setup_position(4, hands, starter=1, teams=TEAMS_4P)
    place(state, 1, WINTER)
    place(state, 2, LOVE)
    place(state, 3, FEAST)
    place(state, 0, LUCK)
    # one legal option, but the decision is still asked (contract)
    choose_card(state, "LUCK_DISCARD", 0, HOPE, [HOPE])
    assert_round_ended(
        state,
        winner=0,
        end_hands=[[], [ABS35], [CALM, DAY], [NIGHT, SUMMER]],
        discards=[WINTER, LUCK, LOVE, FEAST, HOPE],
        laurels=[1, 0],
    )


def test_w13_luck_holder_holds_only_fear_then_tie_at_one_card():
    hands = [[LUCK, FEAR], [SPRING, LOVE, DAY], [WINTER, ABS34], [CALM, NIGHT, SUMMER]]
    state = setup_position(4, hands, starter=0, teams=[0, 0, 1, 1])
    for seat, card in enumerate([LUCK, SPRING, WINTER, CALM]):
        place(state, seat, card)
    # Fear cannot be discarded: no LUCK_DISCARD decision; the round ends at once
    assert_round_ended(
        state,
        winner=2,
        end_hands=[[FEAR], [SPRING, LOVE, DAY], [ABS34], [CALM, NIGHT, SUMMER]],
        discards=[WINTER, LUCK],
        laurels=[0, 1],
    )


def test_w14_pride_changes_the_next_starter():
    state = setup_position(
        5,
        [[ABS35, 1, 2], [MALICE, 3, 4], [PRIDE, 5, 7], [NIGHT, 8, 9], [HOPE, 10, 11]],
        starter=2,
        teams=TEAMS_5P,
    )
    place(state, 2, PRIDE)
    place(state, 3, NIGHT)
    place(state, 4, HOPE)
    place(state, 0, ABS35)
    # exchange with P2 (not played yet): gives Life(1), receives Friendship(3)
    absolute(state, 0, 1, LIFE, FRIENDSHIP)
    place(state, 1, MALICE)
    assert_bout_ended(
        state,
        winner=0,
        discards=[ABS35, MALICE, HOPE],
        next_starter=3,
        hands=[[2, FRIENDSHIP], [LIFE, 4], [PRIDE, 5, 7], [NIGHT, 8, 9], [10, 11]],
    )


def test_w15_law_below_and_a_player_without_legal_card_plays_freely():
    hands = [
        [LAW, MIRROR, ABS30],
        [ABS31, DAY, HOPE],
        [WINTER, NIGHT, ABS33],
        [TRUTH, SPRING, LIE],
    ]
    state = setup_position(4, hands, starter=0, teams=TEAMS_4P)
    place(state, 0, LAW, [LAW, MIRROR, ABS30])
    law(state, 0, LAW_BELOW)
    assert law_direction(state) == 1
    place(state, 1, HOPE, [HOPE])
    place(state, 2, WINTER, [WINTER, NIGHT, ABS33])
    # Truth(16) breaks BELOW while P4 holds lower cards: play() must refuse it
    before = state.copy()
    with pytest.raises(ValueError):
        play(state, card_action(TRUTH))
    assert np.array_equal(state, before), "a refused action leaves the state unchanged"
    place(state, 3, LIE, [SPRING, LIE])
    assert_bout_ended(
        state,
        winner=2,
        discards=[WINTER, LAW, LIE, HOPE],
        next_starter=2,
        hands=[[MIRROR, ABS30], [ABS31, DAY], [NIGHT, ABS33], [TRUTH, SPRING]],
    )


def test_w16_wrath_sends_law_back_which_cancels_the_constraint():
    hands = [
        [LAW, SPRING, ABS32],
        [WRATH, HOPE, LOVE],
        [FRIENDSHIP, ABS34, DAY],
        [CALM, NIGHT, MIRROR],
    ]
    state = setup_position(4, hands, starter=0, teams=TEAMS_4P)
    place(state, 0, LAW)
    law(state, 0, LAW_ABOVE)
    assert law_direction(state) == 2
    place(state, 1, WRATH, [WRATH])
    choose_card(state, "WRATH_PICK", 1, LAW, [LAW])
    assert law_direction(state) == 0, "Law left play: no constraint any more"
    assert hand(state, 0) == sorted([LAW, SPRING, ABS32])
    # the replacement excludes the returned card and is unconstrained
    choose_card(state, "WRATH_REPLACE", 0, SPRING, [SPRING, ABS32])
    place(state, 2, FRIENDSHIP, [FRIENDSHIP, ABS34, DAY])
    assert in_front(state) == [SPRING, WRATH, FRIENDSHIP, 0]
    place(state, 3, CALM, [CALM, NIGHT, MIRROR])
    assert_bout_ended(
        state,
        winner=1,
        discards=[WRATH],
        next_starter=1,
        hands=[[LAW, SPRING, ABS32], [HOPE, LOVE], [FRIENDSHIP, ABS34, DAY], [CALM, NIGHT, MIRROR]],
    )


def test_w17_betrayal_takes_law_then_round_ends_on_a_tie_at_one_card():
    hands = [[LAW, DEATH, FEAST], [BETRAYAL, HOPE, NIGHT], [LOVE, ABS33], [SUMMER, SPRING]]
    state = setup_position(4, hands, starter=0, teams=TEAMS_4P)
    place(state, 0, LAW)
    law(state, 0, LAW_ABOVE)
    place(state, 1, BETRAYAL, [BETRAYAL, NIGHT])
    choose_card(state, "BETRAYAL_TAKE", 1, LAW, [LAW])
    assert law_direction(state) == 0
    # printed rule (spec 3.8, 9.4): Law is judged after it left play, so Hope is legal;
    # Law itself, just taken, cannot be given back
    choose_card(state, "BETRAYAL_GIVE", 1, HOPE, [HOPE, NIGHT])
    # Hope has no lightning effect: P3 plays next, unconstrained
    place(state, 2, LOVE, [LOVE, ABS33])
    assert in_front(state) == [HOPE, BETRAYAL, LOVE, 0]
    place(state, 3, SUMMER, [SUMMER, SPRING])
    # Hope returns to P1, its holder; P3 (33) beats P4 (7) at one card
    assert_round_ended(
        state,
        winner=2,
        end_hands=[[DEATH, FEAST, HOPE], [NIGHT, LAW], [ABS33], [SPRING]],
        discards=[BETRAYAL, LOVE, SUMMER],
        laurels=[1, 0],
    )


def test_w18_dream_basic_order_ownership_and_winner():
    state = setup_position(
        4, [[DREAM, 1, 2], [HARMONY, 3, 4], [AUTUMN, 6, 7], [FEAST, 8, 9]], 0, TEAMS_4P
    )
    place(state, 0, DREAM)
    # self or any player who has not played
    decide(state, "DREAM_DEST", 0, seat_action(2), {seat_action(s) for s in range(4)})
    choose_card(state, "DREAM_REPLY", 2, AUTUMN, [AUTUMN, 6, 7])
    assert in_front(state) == [AUTUMN, 0, DREAM, 0]
    place(state, 1, HARMONY)  # first clockwise from P1 without a card
    place(state, 3, FEAST)  # P3 is skipped: Dream lies in front of them
    assert_bout_ended(
        state,
        winner=2,
        discards=[DREAM, FEAST],
        next_starter=2,
        hands=[[AUTUMN, 1, 2], [HARMONY, 3, 4], [6, 7], [8, 9]],
    )


def test_w19_dream_reply_wrath_resolved_by_the_dream_player():
    hands = [
        [DREAM, CALM, ABS34],
        [TRUTH, MIRROR, FEAR],
        [MALICE, DAY],
        [WRATH, LOVE, ENIGMA],
        [ABS30, HOPE, SUMMER],
    ]
    state = setup_position(5, hands, starter=0, teams=[0, 1, 1, 1, 0])
    place(state, 0, DREAM)
    decide(state, "DREAM_DEST", 0, seat_action(3), {seat_action(s) for s in range(5)})
    choose_card(state, "DREAM_REPLY", 3, WRATH, [WRATH, LOVE, ENIGMA])
    # Wrath lies in front of P1, so P1 resolves it; Dream@P4 is the only target
    choose_card(state, "WRATH_PICK", 0, DREAM, [DREAM])
    assert hand(state, 3) == sorted([DREAM, LOVE, ENIGMA])
    choose_card(state, "WRATH_REPLACE", 3, LOVE, [LOVE, ENIGMA])
    assert in_front(state) == [WRATH, 0, 0, LOVE, 0]
    place(state, 1, TRUTH)
    place(state, 2, MALICE)
    place(state, 4, ABS30)
    absolute(state, 4, 1, HOPE, MIRROR)
    assert_bout_ended(
        state,
        winner=4,
        discards=[ABS30, TRUTH, LOVE],
        next_starter=4,
        hands=[
            [CALM, ABS34, WRATH],
            [FEAR, HOPE],
            [DAY, MALICE],
            [ENIGMA, DREAM],
            [SUMMER, MIRROR],
        ],
    )


def test_w20_jealousy_takes_law_and_the_constraint_stays():
    hands = [
        [LAW, ABS31, SPRING],
        [JEALOUSY, LIE, CALM],
        [HOPE, NIGHT, FEAR],
        [LOVE, FEAST, SUMMER],
    ]
    state = setup_position(4, hands, starter=0, teams=TEAMS_4P)
    place(state, 0, LAW)
    law(state, 0, LAW_ABOVE)
    place(state, 1, JEALOUSY, [JEALOUSY])
    choose_card(state, "JEALOUSY_PICK", 1, LAW, [LAW])
    assert in_front(state) == [JEALOUSY, LAW, 0, 0]
    # no new direction is asked: the next decision is P3's placement, still ABOVE
    assert law_direction(state) == 2
    place(state, 2, NIGHT, [NIGHT])
    place(state, 3, LOVE, [LOVE, FEAST, SUMMER])
    assert_bout_ended(
        state,
        winner=2,
        discards=[NIGHT, JEALOUSY],
        next_starter=2,
        hands=[[ABS31, SPRING], [LIE, CALM, LAW], [HOPE, FEAR], [LOVE, FEAST, SUMMER]],
    )
    assert hand_sizes(state) == [2, 3, 2, 3]


def test_w21_wrath_first_card_does_nothing_and_secret_show():
    state = setup_position(
        4, [[WRATH, 1, 3], [SECRET, ABS35, CALM], [LOVE, 6, 7], [FEAST, 8, 9]], 0, TEAMS_4P
    )
    place(state, 0, WRATH)
    # no card lies in front of another player: no WRATH_PICK, P2 plays next
    place(state, 1, SECRET)
    decide(state, "SECRET_MODE", 1, SECRET_SHOW, {SECRET_SHOW, SECRET_ASK})
    decide(state, "SECRET_TARGET", 1, seat_action(3), {seat_action(s) for s in (0, 2, 3)})
    expect_decision(state, "SECRET_CARD", 1)
    assert legal_cards(state) == {ABS35, CALM}
    # only P4 (and P2) learn the card: P3's view is the same whichever card P2 shows
    other = state.copy()
    play(other, card_action(CALM))
    play(state, card_action(ABS35))
    assert np.array_equal(observation(state, 2), observation(other, 2))
    assert np.array_equal(observation(state, 0), observation(other, 0))
    assert not np.array_equal(observation(state, 3), observation(other, 3))
    place(state, 2, LOVE)
    place(state, 3, FEAST)
    assert_bout_ended(
        state,
        winner=0,
        discards=[WRATH, LOVE, FEAST],
        next_starter=0,
        hands=[[1, 3], [SECRET, ABS35, CALM], [6, 7], [8, 9]],
    )


def test_w22_absolute_exchange_then_the_received_card_is_played():
    hands = [
        [SUMMER, TRUTH],
        [ABS33, ENIGMA, LOVE],
        [DAY, HOPE],
        [HARMONY, LIE, NIGHT],
        [FEAR, CALM, SPRING],
    ]
    state = setup_position(5, hands, starter=1, teams=TEAMS_5P)
    place(state, 1, ABS33)
    decide(state, "ABSOLUTE_TARGET", 1, seat_action(4), {seat_action(s) for s in (0, 2, 3, 4)})
    choose_card(state, "ABSOLUTE_GIVE", 1, ENIGMA, [ENIGMA, LOVE])
    choose_card(state, "ABSOLUTE_RETURN", 4, FEAR, [FEAR, CALM, SPRING])
    assert hand(state, 1) == sorted([LOVE, FEAR])
    assert hand(state, 4) == sorted([CALM, SPRING, ENIGMA])
    # P1, P3 and P4 only know that P2 and P5 exchanged a card
    other = setup_position(5, hands, starter=1, teams=TEAMS_5P)
    play(other, card_action(ABS33), seat_action(4), card_action(LOVE), card_action(CALM))
    for seat in (0, 2, 3):
        assert np.array_equal(observation(state, seat), observation(other, seat))
    place(state, 2, DAY)
    place(state, 3, HARMONY)
    place(state, 4, ENIGMA)
    place(state, 0, SUMMER)
    assert_bout_ended(
        state,
        winner=1,
        discards=[ABS33, ENIGMA, HARMONY],
        next_starter=1,
        hands=[[SUMMER, TRUTH], [LOVE, FEAR], [DAY, HOPE], [LIE, NIGHT], [CALM, SPRING]],
    )


def test_w23_secret_ask_and_pride_overriding_the_winner():
    state = setup_position(
        6,
        [
            [PRIDE, 1, 2],
            [DAY, 3, 5],
            [NIGHT, 6, 7],
            [ABS31, 8, 9],
            [CALM, 10, 11],
            [SECRET, 13, 14],
        ],
        starter=5,
        teams=TEAMS_6P,
    )
    place(state, 5, SECRET)
    # "ask P2": P2 chooses one of their own cards (Friendship here) and shows it to P6
    secret(state, 5, "ask", 1, FRIENDSHIP)
    place(state, 0, PRIDE)
    place(state, 1, DAY)
    place(state, 2, NIGHT)
    place(state, 3, ABS31)
    # exchange with P5 (not played yet): gives Death(8), receives Enigma(10)
    absolute(state, 3, 4, DEATH, ENIGMA)
    place(state, 4, CALM)
    assert_bout_ended(
        state,
        winner=3,
        discards=[ABS31, NIGHT, DAY, CALM],
        next_starter=1,
        hands=[[PRIDE, 1, 2], [3, 5], [6, 7], [9, ENIGMA], [DEATH, 11], [SECRET, 13, 14]],
    )


def test_w24_three_players_at_one_card_absolute_swap_decides_game_end():
    hands = [
        [DEATH, LOVE],
        [FEAST, HOPE],
        [TRUTH, LIE],
        [DAY, ABS33, SPRING],
        [MALICE, CALM, MIRROR],
        [ABS35, WINTER],
    ]
    state = setup_position(6, hands, starter=0, teams=TEAMS_6P, rounds_won=[0, 0, 1])
    for seat, card in enumerate([DEATH, FEAST, TRUTH, DAY, MALICE]):
        place(state, seat, card)
    place(state, 5, ABS35)
    decide(state, "ABSOLUTE_TARGET", 5, seat_action(2), {seat_action(s) for s in range(5)})
    choose_card(state, "ABSOLUTE_GIVE", 5, WINTER, [WINTER])
    rewards = choose_card(state, "ABSOLUTE_RETURN", 2, LIE, [LIE])
    assert last_round_winner(state) == 2
    assert last_round_end_hands(state) == sorted_hands(
        [DEATH, LOVE], [HOPE], [WINTER], [ABS33, SPRING], [MALICE, CALM, MIRROR], [LIE]
    )
    assert sorted(last_round_discard(state)) == sorted([ABS35, FEAST, TRUTH, DAY])
    # T3 already had a laurel: it wins the game
    assert winning_team(state) == 2
    assert rounds_won(state) == [0, 0, 2]
    assert node_name(state) == "GAME_OVER"
    # suggested rewards (spec 4.4): winners positive, everyone else negative
    assert all(rewards[s] > 0 for s in (2, 5))
    assert all(rewards[s] < 0 for s in (0, 1, 3, 4))


def test_w25_setup_teams_from_the_dealt_absolus():
    # Absolus dealt P1 32, P2 35, P3 30, P4 34, P5 31; the rest of each hand is filler
    hands = [
        [ABS32, 1, 2, 3, 4],
        [ABS35, 5, 6, 7],
        [ABS30, 8, 9, 10],
        [ABS34, 11, 12, 13, 14],
        [ABS31, 16, 17, 18, 19],
    ]
    state = setup_position(5, hands, starter=1)
    t = teams(state)
    assert t[1] == t[2], "35 and 30 (highest and lowest) form the 2-player team"
    assert t[0] == t[3] == t[4] != t[1]


def deal_sizes(seat_teams: list[int]) -> list[int]:
    """Hand size of each seat after a deal (spec 2.2, 2.4)."""
    n = len(seat_teams)
    if n == 5:  # 5 cards per member of the 3-player team, 4 per member of the pair
        return [4 if seat_teams.count(team) == 2 else 5 for team in seat_teams]
    return [5 if n == 4 else 4] * n


def play_out_round_one(state: np.ndarray, seed: int) -> None:
    """Random legal decisions until the round-1 winner's team gets its laurel."""
    rng = np.random.default_rng(seed)
    for _ in range(1000):
        if round_number(state) == 2:
            return
        play(state, int(rng.choice(sorted(legal_actions(state)))))
    raise AssertionError("round 1 did not end within 1000 decisions")


def check_round_one_deal(state: np.ndarray, num_players: int) -> tuple[list[int], int]:
    """Spec 2.1-2.3: one face-up Absolu per seat, teams, hand sizes, first starter."""
    n = num_players
    dealt = [[c for c in hand(state, s) if c >= ABS30] for s in range(n)]
    assert all(len(d) == 1 for d in dealt), "each seat starts with exactly one Absolu"
    absolus = [d[0] for d in dealt]
    t = teams(state)
    high, low = absolus.index(max(absolus)), absolus.index(min(absolus))
    if n == 6:
        for a, b in [(30, 35), (31, 34), (32, 33)]:
            assert t[absolus.index(a)] == t[absolus.index(b)]
        assert len(set(t)) == 3
    else:
        pair = {s for s in range(n) if t[s] == t[high]}
        assert pair == {high, low}, "highest and lowest Absolu form the team of 2"
    assert hand_sizes(state) == deal_sizes(t)
    assert len(set_aside_cards(state)) == {4: 13, 5: 11, 6: 11}[n]
    expect_decision(state, "PLACE", high)
    assert bout_starter(state) == high
    in_use = sorted(absolus + list(range(1, 30)))
    cards = sorted(c for s in range(n) for c in hand(state, s)) + set_aside_cards(state)
    assert sorted(cards) == in_use, "boxed Absolus are out; nothing is discarded yet"
    return in_use, high


def test_w25_first_round_deal_and_later_round_deal():
    for num_players in (4, 5, 6):
        for seed in range(3):
            state = GAME.new_state(num_players, seed=seed)
            in_use, _ = check_round_one_deal(state, num_players)
            start_hands = hands_of(state)
            t = teams(state)
            play_out_round_one(state, seed)
            # the round winner is the 0-card player, else the highest single card
            end_hands = last_round_end_hands(state)
            winner = last_round_winner(state)
            candidates = [s for s in range(num_players) if len(end_hands[s]) <= 1]
            assert winner == min(candidates, key=lambda s: (len(end_hands[s]), -sum(end_hands[s])))
            assert sorted(sum(end_hands, []) + last_round_discard(state)) == sorted(
                sum(start_hands, [])
            )
            laurels = [0] * len(set(t))
            laurels[t[winner]] = 1
            assert rounds_won(state) == laurels
            # later-round deal (spec 2.4): every card in use is reshuffled, no Absolu
            # guarantee, hand sizes by team, and the round winner starts
            assert hand_sizes(state) == deal_sizes(t)
            cards = sum(hands_of(state), []) + set_aside_cards(state)
            assert sorted(cards) == in_use
            assert discard_pile(state) == []
            expect_decision(state, "PLACE", winner)
            assert bout_starter(state) == winner
