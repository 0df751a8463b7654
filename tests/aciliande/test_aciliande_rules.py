"""One test (or more) per rule of docs/aciliande.md, driven through the kernels.

Default Goddesses: II (2), III (3) and XVII (17). Seats are clockwise in increasing order,
so with dealer 2 of three players, seat 0 bids first and leads.
"""

import numpy as np
import pytest

from presages_env.core.header import HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.game import (
    LEAVE,
    TAKE,
    AciliandeGame,
    bid_action,
    bids,
    card_action,
    coins,
    current_seat,
    current_trick,
    dealer,
    declaration,
    eliminated,
    end_reason,
    face_up_goddesses,
    hand,
    hand_size,
    hand_size_action,
    in_duel,
    leftover_draw,
    lives,
    lives_lost_last_manche,
    node_name,
    past_trick_winners,
    play,
    pot,
    setup_position,
    tricks_won,
)

C = card_action
GAME = AciliandeGame()


def legal(state):
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    GAME.legal_mask(state, mask)
    return set(np.flatnonzero(mask).tolist())


def bid_set(*values):
    return {bid_action(b) for b in values}


# ---- hand size and the deal -----------------------------------------------------------
@pytest.mark.parametrize("num_players", range(2, 8))
def test_dealer_chooses_hand_size_from_1_to_22_over_players(num_players):
    state = setup_position(num_players, dealer=1)
    assert node_name(state) == "HAND_SIZE" and current_seat(state) == 1
    largest = 22 // num_players
    assert legal(state) == {hand_size_action(s) for s in range(1, largest + 1)}


def test_hand_size_bound_counts_only_players_still_in():
    state = setup_position(5, dealer=0, lives=[3, 0, 3, 0, 3])
    assert legal(state) == {hand_size_action(s) for s in range(1, 8)}  # 22 // 3 = 7


def test_deal_gives_the_chosen_number_to_each_player_in_and_none_to_the_out():
    state = setup_position(4, dealer=3, lives=[3, 0, 3, 3])
    play(state, hand_size_action(5))
    assert hand_size(state) == 5
    assert [len(hand(state, s)) for s in range(4)] == [5, 0, 5, 5]
    assert node_name(state) == "BID" and current_seat(state) == 0


def test_fixed_hand_size_option_skips_the_dealer_choice():
    state = GAME.new_state(4, 7, fixed_hand_size=3)
    assert node_name(state) == "BID" and hand_size(state) == 3
    assert [len(hand(state, s)) for s in range(4)] == [3, 3, 3, 3]
    assert current_seat(state) == (dealer(state) + 1) % 4


def test_first_dealer_is_drawn_at_random():
    assert {dealer(GAME.new_state(4, seed)) for seed in range(60)} == {0, 1, 2, 3}


# ---- bidding --------------------------------------------------------------------------
def test_bidding_goes_clockwise_from_left_of_dealer_and_dealer_bids_last():
    state = setup_position(4, [[0, 1], [4, 5], [6, 7], [8, 9]], dealer=1)
    order = []
    for _ in range(4):
        order.append(current_seat(state))
        assert node_name(state) == "BID"
        play(state, bid_action(0) if current_seat(state) != 1 else bid_action(1))
    assert order == [2, 3, 0, 1]
    assert bids(state) == [0, 1, 0, 0]


def test_dealer_may_not_make_the_total_equal_the_hand_size():
    state = setup_position(4, [[0, 1, 4], [5, 6, 7], [8, 9, 10], [11, 12, 13]], dealer=3)
    assert legal(state) == bid_set(0, 1, 2, 3)
    play(state, bid_action(1), bid_action(1), bid_action(0))
    assert current_seat(state) == 3
    assert legal(state) == bid_set(0, 2, 3)
    before = state.copy()
    with pytest.raises(ValueError, match="BID.*bid 0.*bid 2.*bid 3"):
        play(state, bid_action(1))
    assert np.array_equal(state, before)


def test_dealer_bids_freely_when_the_others_already_exceed_the_hand_size():
    state = setup_position(3, [[0, 1], [4, 5], [6, 7]], dealer=2)
    play(state, bid_action(2), bid_action(2))
    assert legal(state) == bid_set(0, 1, 2)


# ---- play and tricks ------------------------------------------------------------------
def three_player_trick(hands, bid_values=(1, 1, 1), **options):
    """Three players, dealer 2, bids done: seat 0 leads the first trick."""
    return setup_position(3, hands, dealer=2, bids=list(bid_values), **options)


def test_left_of_dealer_leads_and_any_held_card_may_be_played():
    state = three_player_trick([[0, 21], [4, 5], [6, 7]])
    assert node_name(state) == "PLAY" and current_seat(state) == 0
    assert legal(state) == {C(0), C(21)}
    play(state, C(0))
    assert legal(state) == {C(4), C(5)}  # no suit to follow


def test_strongest_card_wins_and_its_player_leads_next():
    state = three_player_trick([[0, 4], [20, 5], [6, 7]])
    play(state, C(0), C(20), C(6))
    assert past_trick_winners(state) == [1]
    assert tricks_won(state) == [0, 1, 0]
    assert current_seat(state) == 1 and node_name(state) == "PLAY"


def test_first_goddess_take_wins_the_trick():
    state = three_player_trick([[17, 4], [21, 5], [10, 6]])
    play(state, C(17))
    assert node_name(state) == "DECLARE" and current_seat(state) == 0
    assert legal(state) == {TAKE, LEAVE}
    play(state, TAKE, C(21), C(10))
    assert past_trick_winners(state) == [0]


def test_first_goddess_leave_cannot_win_the_strongest_other_card_does():
    state = three_player_trick([[17, 4], [21, 5], [10, 6]])
    play(state, C(17), LEAVE, C(21), C(10))
    assert past_trick_winners(state) == [1]


def test_leave_goddess_with_only_low_cards_beside_it():
    # XVII is played last, after 1 and 0, and left: the weak 1 still wins.
    state = three_player_trick([[1, 4], [0, 5], [17, 6]])
    play(state, C(1), C(0), C(17))
    assert node_name(state) == "DECLARE" and current_seat(state) == 2
    play(state, LEAVE)
    assert past_trick_winners(state) == [0]


def test_goddess_take_beats_stronger_cards_even_played_last():
    state = three_player_trick([[21, 4], [20, 5], [2, 6]])
    play(state, C(21), C(20), C(2), TAKE)
    assert past_trick_winners(state) == [2]


def test_two_goddesses_first_takes_second_leaves():
    state = three_player_trick([[2, 4], [17, 5], [21, 6]])
    play(state, C(2), TAKE, C(17))
    assert node_name(state) == "PLAY" and current_seat(state) == 2  # no second declaration
    play(state, C(21))
    assert past_trick_winners(state) == [0]


def test_two_goddesses_first_leaves_second_takes():
    state = three_player_trick([[2, 4], [21, 5], [3, 6]])
    play(state, C(2), LEAVE, C(21), C(3))
    assert past_trick_winners(state) == [2]


def test_declaration_is_public_and_kept_with_the_trick():
    state = three_player_trick([[17, 4], [21, 5], [10, 6]])
    play(state, C(17), LEAVE)
    assert declaration(state) == "leave"
    assert current_trick(state) == [(0, 17)]
    obs = np.zeros(k.OBS_SIZE, dtype=GAME.obs_dtype)
    GAME.observe(state, 1, obs)
    assert obs[k.OBS_TRICK_DECL] == k.DECL_LEAVE
    assert (
        obs[k.OBS_TRICK_CARDS] == 17 + 1 and obs[k.OBS_TRICK_SEATS] == 2 + 1
    )  # seat 0 seen from seat 1
    play(state, C(21), C(10))
    GAME.observe(state, 1, obs)
    assert obs[k.OBS_PAST_DECL] == k.DECL_LEAVE and obs[k.OBS_PAST_WINNER] == 1  # seat 1 itself


def test_third_goddess_wins_the_whole_game_at_once():
    state = three_player_trick([[2, 4], [3, 5], [17, 6]])
    rewards = play(state, C(2), TAKE, C(3), C(17))
    assert node_name(state) == "GAME_OVER" and current_seat(state) == -1
    assert end_reason(state) == "third Goddess"
    assert coins(state) == [0, 0, 3]
    assert rewards.tolist() == [-1, -1, 2]
    assert hand(state, 0) == [4]  # the rest of the manche is not played


def test_custom_goddesses_option():
    state = three_player_trick([[21, 4], [20, 5], [10, 6]], goddesses=(0, 10, 21))
    play(state, C(21), LEAVE, C(20), C(10))  # 10 is the second Goddess: it takes
    assert past_trick_winners(state) == [2]


# ---- scoring and elimination ----------------------------------------------------------
FOUR_HANDS = [[0, 1], [20, 21], [5, 6], [18, 4]]
# dealer 3: seat 1 takes both tricks (21 then 20)
FOUR_PLAY = (C(0), C(21), C(5), C(4), C(20), C(6), C(18), C(1))


def test_over_and_under_bids_lose_the_difference_in_life_cards():
    state = setup_position(4, FOUR_HANDS, dealer=3, bids=[2, 0, 0, 1])
    play(state, *FOUR_PLAY)
    # seat 0 bid 2 took 0 (under), seat 1 bid 0 took 2 (over), seat 2 exact, seat 3 bid 1
    assert lives_lost_last_manche(state) == [2, 2, 0, 1]
    assert lives(state) == [1, 1, 3, 2]
    assert [info["lives_lost_last_manche"] for info in GAME.infos(state)] == [2, 2, 0, 1]
    assert eliminated(state) == [False] * 4
    assert node_name(state) == "HAND_SIZE" and dealer(state) == 0  # next manche


def test_player_with_no_life_card_left_is_eliminated_and_skipped():
    state = setup_position(4, FOUR_HANDS, dealer=3, bids=[2, 0, 0, 1], lives=[1, 3, 3, 3])
    play(state, *FOUR_PLAY)
    assert lives(state) == [0, 1, 3, 2]
    assert lives_lost_last_manche(state)[0] == 1  # only what the pile held
    assert eliminated(state) == [True, False, False, False]
    assert dealer(state) == 1  # the deal passes clockwise over the eliminated seat 0
    play(state, hand_size_action(2))
    assert [len(hand(state, s)) for s in range(4)] == [0, 2, 2, 2]
    seen = []
    for _ in range(3):
        seen.append(current_seat(state))
        play(state, bid_action(2))
    assert seen == [2, 3, 1] and node_name(state) == "PLAY" and current_seat(state) == 2


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"goddesses": (0, 10, 21), "lives": (2, 3, 5), "stake": 4},
        {"fixed_hand_size": 7, "duel_tiebreak": "share"},
    ],
)
def test_options_are_stored_in_the_state_and_read_back(options):
    expected = GAME.make_options(3, **options)
    assert GAME.read_options(GAME.new_state(3, 0, **options)) == expected


def test_lives_per_player_option():
    state = GAME.new_state(3, 0, lives=(2, 3, 5))
    assert lives(state) == [2, 3, 5]
    assert GAME.read_options(state).lives == (2, 3, 5)


# ---- end of the game ------------------------------------------------------------------
def test_one_player_left_wins_the_pot():
    state = setup_position(3, [[0], [1], [21]], dealer=2, bids=[1, 1, 1], lives=[1, 1, 3])
    rewards = play(state, C(0), C(1), C(21))
    assert end_reason(state) == "last survivor"
    assert coins(state) == [0, 0, 3] and rewards.tolist() == [-1, -1, 2]


def test_stake_option_fills_the_pot():
    state = setup_position(3, [[0], [1], [21]], dealer=2, bids=[1, 1, 1], lives=[1, 1, 3], stake=5)
    assert pot(state) == 15
    rewards = play(state, C(0), C(1), C(21))
    assert rewards.tolist() == [-5, -5, 10]


def test_nobody_left_the_last_manche_players_share_with_a_leftover_draw():
    state = setup_position(
        5, [[], [0], [], [1], [5]], dealer=4, bids=[None, 1, None, 1, 0], lives=[0, 1, 0, 1, 1]
    )
    rewards = play(state, C(0), C(1), C(5))
    assert end_reason(state) == "all eliminated"
    got, drawn = coins(state), leftover_draw(state)
    assert sum(got) == 5 and got[0] == got[2] == 0
    assert drawn[0] == drawn[2] == -1
    sharers = [1, 3, 4]
    assert all(0 <= drawn[s] < 22 and drawn[s] not in (2, 3, 17) for s in sharers)
    assert len({drawn[s] for s in sharers}) == 3
    lowest = min(sharers, key=lambda s: drawn[s])
    assert [got[s] for s in sharers] == [1 if s == lowest else 2 for s in sharers]
    assert rewards.sum() == 0 and rewards[0] == -1
    assert [info["coins"] for info in GAME.infos(state)] == got
    assert "leftover draw: P2" in GAME.render(state)


def test_even_share_needs_no_draw():
    state = setup_position(
        4, [[], [0, 6], [1, 5], []], dealer=2, bids=[None, 2, 2, None], lives=[0, 1, 1, 0]
    )
    play(state, C(0), C(1), C(5), C(6))  # one trick each: both miss by one
    assert end_reason(state) == "all eliminated"
    assert coins(state) == [0, 2, 2, 0] and leftover_draw(state) == [-1] * 4


def test_two_left_start_the_duel_with_three_face_up_goddesses():
    state = setup_position(3, [[0], [21], [5]], dealer=2, bids=[1, 1, 0], lives=[1, 3, 3])
    play(state, C(0), C(21), C(5))
    assert eliminated(state) == [True, False, False]
    assert in_duel(state) and face_up_goddesses(state) == 3
    assert node_name(state) == "BID" and hand_size(state) == 3  # no hand-size choice
    assert dealer(state) == 1 and current_seat(state) == 2
    dealt = hand(state, 1) + hand(state, 2)
    assert len(dealt) == 6 and not set(dealt) & {2, 3, 17}
    obs = np.zeros(k.OBS_SIZE, dtype=GAME.obs_dtype)
    GAME.observe(state, 1, obs)
    assert obs[k.OBS_DUEL] == 1 and obs[k.OBS_FACE_UP] == 3


def play_randomly_until_over(state, seed):
    """Random legal actions; returns the hand size of every manche that was dealt."""
    rng = np.random.default_rng(seed)
    sizes = []
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(int(state[HDR_NUM_PLAYERS]), dtype=np.float32)
    last_manche = -1
    while not state[HDR_TERMINAL]:
        if state[k.MANCHE] != last_manche and state[k.NODE] == k.NODE_BID:
            last_manche = int(state[k.MANCHE])
            sizes.append((hand_size(state), face_up_goddesses(state)))
            dealt = [c for s in range(int(state[HDR_NUM_PLAYERS])) for c in hand(state, s)]
            assert not set(dealt) & {2, 3, 17}
        GAME.legal_mask(state, mask)
        GAME.step(state, rng.choice(np.flatnonzero(mask)), rewards)
    return sizes


@pytest.mark.parametrize("seed", range(5))
def test_duel_manches_deal_three_then_two_then_one_card(seed):
    state = setup_position(3, dealer=1, lives=[0, 50, 50], duel_face_up=3, seed=seed)
    assert node_name(state) == "BID"
    assert play_randomly_until_over(state, seed) == [(3, 3), (2, 2), (1, 1)]
    assert end_reason(state) in ("duel: more lives", "duel: shared")


def test_duel_one_player_eliminated_the_other_wins():
    state = setup_position(2, [[5], [6]], dealer=0, lives=[1, 3], bids=[1, 1], duel_face_up=1)
    assert current_seat(state) == 1  # left of the dealer leads
    rewards = play(state, C(6), C(5))
    assert end_reason(state) == "last survivor"
    assert coins(state) == [0, 2] and rewards.tolist() == [-1, 1]


def test_duel_both_eliminated_in_the_same_manche_share():
    state = setup_position(
        2, [[5, 10], [6, 9]], dealer=0, lives=[1, 1], bids=[2, 2], duel_face_up=2
    )
    play(state, C(6), C(10), C(5), C(9))
    assert end_reason(state) == "all eliminated"
    assert coins(state) == [1, 1]


def duel_last_manche(bid_values, life_counts, **options):
    state = setup_position(
        2, [[5], [6]], dealer=0, lives=life_counts, bids=bid_values, duel_face_up=1, **options
    )
    return state, play(state, C(6), C(5))  # seat 1 takes the last trick


def test_duel_survivors_more_life_cards_wins():
    state, rewards = duel_last_manche([0, 0], [3, 2])  # seat 1 over-bids: lives 3 against 1
    assert end_reason(state) == "duel: more lives"
    assert coins(state) == [2, 0] and rewards.tolist() == [1, -1]


def test_duel_survivors_with_equal_lives_share():
    state, _ = duel_last_manche([1, 1], [3, 2])  # seat 0 under-bids: lives 2 and 2
    assert end_reason(state) == "duel: shared"
    assert coins(state) == [1, 1]


def test_duel_tiebreak_share_option():
    state, _ = duel_last_manche([0, 0], [3, 2], duel_tiebreak="share")
    assert lives(state) == [3, 1]
    assert end_reason(state) == "duel: shared" and coins(state) == [1, 1]


def test_two_player_game_plays_one_ordinary_manche_then_the_duel():
    state = GAME.new_state(2, 3)
    assert node_name(state) == "HAND_SIZE" and not in_duel(state)
    assert legal(state) == {hand_size_action(s) for s in range(1, 12)}
    state = setup_position(2, [[17], [6]], dealer=1, bids=[1, 1])  # Goddesses still in play
    play(state, C(17), TAKE, C(6))
    assert lives(state) == [3, 2]
    assert in_duel(state) and face_up_goddesses(state) == 3 and hand_size(state) == 3


# ---- team variant ---------------------------------------------------------------------
TEAM_HANDS = [[20, 21], [0, 1], [4, 5], [6, 7]]
TEAM_PLAY = (C(21), C(0), C(4), C(6), C(20), C(1), C(5), C(7))  # seat 0 takes both


def test_team_contract_is_the_sum_of_the_partners_bids():
    state = setup_position(4, TEAM_HANDS, dealer=3, teams=True, bids=[0, 0, 2, 1])
    play(state, *TEAM_PLAY)
    # team 0+2 bid 0+2 and took 2+0: made; team 1+3 bid 0+1 and took 0: both lose 1
    assert lives_lost_last_manche(state) == [0, 1, 0, 1]
    assert lives(state) == [3, 2, 3, 2]


def test_team_dealer_constraint_still_on_the_total_of_all_bids():
    state = setup_position(4, TEAM_HANDS, dealer=3, teams=True)
    play(state, bid_action(0), bid_action(0), bid_action(2))
    assert legal(state) == bid_set(1, 2)


def test_team_pot_goes_to_the_team_still_in():
    state = setup_position(
        4, TEAM_HANDS, dealer=3, teams=True, bids=[0, 0, 2, 1], lives=[3, 1, 3, 1]
    )
    rewards = play(state, *TEAM_PLAY)
    assert end_reason(state) == "one team left"
    assert coins(state) == [2, 0, 2, 0] and rewards.tolist() == [1, -1, 1, -1]


def test_team_third_goddess_wins_for_the_whole_team():
    state = setup_position(4, [[2], [3], [17], [5]], dealer=3, teams=True, bids=[0, 0, 0, 0])
    rewards = play(state, C(2), TAKE, C(3), C(17))
    assert end_reason(state) == "third Goddess"
    assert coins(state) == [2, 0, 2, 0] and rewards.tolist() == [1, -1, 1, -1]


def test_team_duel_winner_takes_the_pot_for_the_team():
    state = setup_position(
        4,
        [[], [5], [6], []],
        dealer=1,
        lives=[0, 3, 1, 0],
        bids=[None, 1, 1, None],
        duel_face_up=1,
        teams=True,
    )
    rewards = play(state, C(6), C(5))  # seat 2 (team 0) takes; seat 1 (team 1) misses by one
    assert lives(state) == [0, 2, 1, 0]
    assert end_reason(state) == "duel: more lives"
    assert coins(state) == [0, 2, 0, 2] and rewards.tolist() == [-1, 1, -1, 1]
