"""Rules of Président, checked on hand-built positions driven through the kernels.

Positions come from ``setup_position``; actions go through ``apply_actions`` (which checks
each one against the legal mask); assertions read the state with the game's query helpers.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import presages_env
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.core.state_io import apply_actions
from presages_env.games.president import kernel as k
from presages_env.games.president.game import (
    PresidentGame,
    action_for,
    hand_counts,
    places,
    rank_index,
    seating,
    setup_position,
)

GAME = PresidentGame()
PASS = k.ACTION_PASS
ALICE, BOB, CHLOE, DAVID = range(4)


# ---- helpers ------------------------------------------------------------------------------
def legal(state: np.ndarray) -> set[int]:
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    GAME.legal_mask(state, mask)
    return {int(a) for a in np.flatnonzero(mask)}


def current(state: np.ndarray) -> int:
    return int(state[HDR_CURRENT])


def play(state: np.ndarray, *actions: int) -> np.ndarray:
    return apply_actions(GAME, state, actions)


def play_checking_turns(state: np.ndarray, script: list[tuple[int, int, int]]) -> None:
    """Apply ``(player, action, next player)`` triples, checking whose turn it is around each."""
    for index, (player, action, next_player) in enumerate(script):
        assert current(state) == player, f"step {index}: expected player {player} to act"
        play(state, action)
        assert current(state) == next_player, f"step {index}: expected {next_player} next"


def table_is_empty(state: np.ndarray) -> bool:
    return int(state[k.TOP_RANK]) == -1


def top_play(state: np.ndarray) -> tuple[int, int, int]:
    """(rank, count, player) of the play to beat."""
    return int(state[k.TOP_RANK]), int(state[k.TOP_COUNT]), int(state[k.TOP_PLAYER])


def plays(*sets: tuple[str, int]) -> set[int]:
    return {action_for(rank, count) for rank, count in sets}


def hand_size(state: np.ndarray, player: int) -> int:
    return sum(hand_counts(state, player))


def position_finishing_in(order: list[int], **options) -> np.ndarray:
    """A manche where player ``order[i]`` holds one card of rank i and ``order[0]`` leads."""
    hands: list[list[int]] = [[] for _ in order]
    for rank, player in enumerate(order):
        hands[player].append(rank)
    return setup_position(len(order), hands, leader=order[0], **options)


def finish_in_order(state: np.ndarray, order: list[int], play=play) -> np.ndarray:
    """Play a ``position_finishing_in(order)`` manche out; returns the summed rewards.

    The player whose turn it is goes out with their single card if they are next in
    ``order`` (each card beats the previous one), and passes otherwise.
    """
    manche = int(state[k.MANCHE])
    total = np.zeros(len(order))
    going_out = 0
    while int(state[k.MANCHE]) == manche and not state[HDR_TERMINAL]:
        if current(state) == order[going_out]:
            total += play(state, action_for(going_out, 1))
            going_out += 1
        else:
            total += play(state, PASS)
    assert going_out == len(order) - 1
    return total


def play_out_manche(state: np.ndarray) -> np.ndarray:
    """Finish the current manche by always playing the weakest legal set; summed rewards."""
    manche = int(state[k.MANCHE])
    total = np.zeros(int(state[HDR_NUM_PLAYERS]))
    while int(state[k.MANCHE]) == manche and not state[HDR_TERMINAL]:
        choices = sorted(legal(state) - {PASS}) or [PASS]
        total += play(state, choices[0])
    return total


def dealt_size(num_players: int, seat: int) -> int:
    """Cards dealt to ``seat`` when dealing starts at seat 0."""
    return 52 // num_players + (1 if seat < 52 % num_players else 0)


# ---- the deal and the position set-up ------------------------------------------------------
@pytest.mark.parametrize("num_players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_first_deal_starts_left_of_the_dealer_and_that_player_leads(num_players, seed):
    state = GAME.new_state(num_players, seed)
    first = (int(state[k.DEALER]) + 1) % num_players
    assert current(state) == first
    assert seating(state) == list(range(num_players))
    sizes = [hand_size(state, (first + seat) % num_players) for seat in range(num_players)]
    assert sizes == [dealt_size(num_players, seat) for seat in range(num_players)]
    assert int(state[k.PHASE]) == k.PHASE_PLAY and table_is_empty(state)
    assert int(state[k.EXCH_RECEIVED]) == -1


def test_the_dealer_is_drawn_from_the_seed():
    dealers = {int(GAME.new_state(4, seed)[k.DEALER]) for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("hands", "leader"),
    [
        ([["3"] * 3, ["3", "3"], ["4"]], 0),  # five 3s
        ([["3"], [], ["4"]], 0),  # an empty hand
        ([["3"], ["5"], ["4"]], 3),  # no such player
        ([["3"], ["5"], ["joker"]], 0),  # no such rank
        ([["3"], ["5"]], 0),  # a hand missing
    ],
)
def test_setup_position_refuses_impossible_positions(hands, leader):
    with pytest.raises(ValueError):
        setup_position(3, hands, leader=leader)


def test_setup_position_counts_missing_cards_as_played():
    state = setup_position(3, [["3", "2", "2"], ["K"], ["4", "4"]], leader=2)
    assert hand_counts(state, 0) == [1] + [0] * 11 + [2]
    gone = state[k.GONE : k.GONE + 13].tolist()
    assert gone == [3, 2] + [4] * 8 + [3, 4, 2]
    assert current(state) == 2


# ---- the seed's worked example ------------------------------------------------------------
def worked_example_position(bob_has_only_aces: bool) -> np.ndarray:
    hands = [
        ["6", "6", "3", "4"],
        ["A", "A"] if bob_has_only_aces else ["A", "A", "5", "7"],
        ["10", "10", "8"],
        ["K", "K", "9"],
    ]
    return setup_position(4, hands, leader=ALICE)


def play_worked_example_until_bobs_aces(state: np.ndarray) -> None:
    play_checking_turns(
        state,
        [
            (ALICE, action_for("6", 2), BOB),
            (BOB, PASS, CHLOE),
            (CHLOE, action_for("10", 2), DAVID),
            (DAVID, action_for("K", 2), ALICE),
            (ALICE, PASS, BOB),
        ],
    )
    # Bob passed before, yet may come back into the trick now.
    assert legal(state) == {PASS, action_for("A", 2)}
    play_checking_turns(state, [(BOB, action_for("A", 2), CHLOE)])


def test_worked_example_bob_wins_the_trick_and_leads():
    state = worked_example_position(bob_has_only_aces=False)
    gone_before = state[k.GONE : k.GONE + 13].copy()
    play_worked_example_until_bobs_aces(state)
    play_checking_turns(state, [(CHLOE, PASS, DAVID), (DAVID, PASS, ALICE)])
    assert top_play(state) == (rank_index("A"), 2, BOB), "Alice has not passed yet"
    play_checking_turns(state, [(ALICE, PASS, BOB)])
    assert table_is_empty(state)
    assert PASS not in legal(state)
    assert hand_size(state, BOB) == 2
    played = state[k.GONE : k.GONE + 13] - gone_before
    trick = {rank_index(r) for r in ("6", "10", "K", "A")}
    assert played.tolist() == [2 if r in trick else 0 for r in range(13)]
    assert places(state) == [-1, -1, -1, -1]


def test_worked_example_bob_out_so_the_next_player_on_his_left_leads():
    state = worked_example_position(bob_has_only_aces=True)
    play_worked_example_until_bobs_aces(state)
    assert places(state) == [-1, 0, -1, -1]
    play_checking_turns(state, [(CHLOE, PASS, DAVID), (DAVID, PASS, ALICE)])
    assert not table_is_empty(state)
    play_checking_turns(state, [(ALICE, PASS, CHLOE)])
    assert table_is_empty(state)
    assert PASS not in legal(state)


# ---- tricks -------------------------------------------------------------------------------
def test_the_leader_cannot_pass():
    state = setup_position(3, [["5", "5", "9"], ["3"], ["4"]], leader=0)
    assert legal(state) == plays(("5", 1), ("5", 2), ("9", 1))
    with pytest.raises(ValueError, match="not legal"):
        play(state, PASS)


def test_passing_is_allowed_even_when_a_play_is_possible():
    state = setup_position(3, [["5"], ["3", "K"], ["4"]], leader=0)
    play(state, action_for("5"))
    assert legal(state) == {PASS, action_for("K")}


def test_trick_lasts_until_every_other_holder_has_passed_in_a_row():
    hands = [["3", "Q", "7"], ["4", "J", "8"], ["5", "K", "9"], ["6", "A", "10"]]
    state = setup_position(4, hands, leader=ALICE)
    play_checking_turns(
        state,
        [
            (ALICE, action_for("3"), BOB),
            (BOB, PASS, CHLOE),
            (CHLOE, PASS, DAVID),
            (DAVID, action_for("6"), ALICE),  # a play resets the run of passes
            (ALICE, PASS, BOB),
            (BOB, PASS, CHLOE),
        ],
    )
    assert top_play(state) == (rank_index("6"), 1, DAVID)
    play_checking_turns(state, [(CHLOE, PASS, DAVID)])
    assert table_is_empty(state)
    assert int(state[k.PASSES]) == 0
    assert list(state[k.PASSED : k.PASSED + 4]) == [0, 0, 0, 0]


def test_the_lead_skips_players_already_out():
    hands = [["3", "K"], ["4", "A"], ["5"], ["6", "7"]]
    state = setup_position(4, hands, leader=ALICE)
    play_checking_turns(
        state,
        [
            (ALICE, action_for("3"), BOB),
            (BOB, action_for("4"), CHLOE),
            (CHLOE, action_for("5"), DAVID),  # Chloé goes out first
            (DAVID, PASS, ALICE),
            (ALICE, PASS, BOB),
            (BOB, PASS, DAVID),  # Chloé made the last play but is out: David leads
            (DAVID, action_for("6"), ALICE),
            (ALICE, PASS, BOB),
            (BOB, action_for("A"), DAVID),  # Bob goes out; Chloé's seat is skipped
            (DAVID, PASS, ALICE),
        ],
    )
    assert not table_is_empty(state)
    play_checking_turns(state, [(ALICE, PASS, DAVID)])
    assert table_is_empty(state)
    assert places(state) == [-1, 1, 0, -1]


def test_a_set_may_be_split():
    state = setup_position(3, [["10", "10", "10", "3"], ["4"], ["5"]], leader=0)
    assert legal(state) == plays(("10", 1), ("10", 2), ("10", 3), ("3", 1))
    play(state, action_for("10", 2))
    assert hand_counts(state, 0)[rank_index("10")] == 1
    assert top_play(state) == (rank_index("10"), 2, 0)


def test_on_a_pair_only_strictly_higher_pairs_may_follow():
    # The seed: on two 7s, two 8s, two Kings or two 2s; never a lone Ace nor three 9s,
    # but two 9s of a triple; and never two 7s (equal ranks are not allowed).
    follower = ["7", "7", "8", "8", "9", "9", "9", "K", "K", "A", "2", "2"]
    state = setup_position(3, [["7", "7", "3"], follower, ["4"]], leader=0)
    play(state, action_for("7", 2))
    assert legal(state) == {PASS} | plays(("8", 2), ("9", 2), ("K", 2), ("2", 2))


def test_the_two_is_highest_but_not_a_bomb():
    state = setup_position(3, [["2", "3", "3"], ["2", "A"], ["2", "2", "4"]], leader=0)
    play(state, action_for("3", 2))
    assert legal(state) == {PASS}, "a single 2 does not beat a pair"
    play(state, PASS)
    assert legal(state) == {PASS, action_for("2", 2)}
    play(state, action_for("2", 2))
    assert current(state) == 0, "a 2 does not end the trick by itself"
    assert legal(state) == {PASS}
    play(state, PASS, PASS)
    assert table_is_empty(state)
    assert current(state) == 2


def test_nothing_beats_a_single_two():
    state = setup_position(3, [["2", "5"], ["2", "A", "A"], ["K"]], leader=0)
    play(state, action_for("2"))
    assert legal(state) == {PASS}
    play(state, PASS)
    assert legal(state) == {PASS}


# ---- end of manche and the match ----------------------------------------------------------
@pytest.mark.parametrize(
    "order", [[1, 2, 0], [2, 0, 3, 1], [4, 1, 3, 0, 2], [5, 2, 0, 4, 1, 3], [0, 1, 2, 3]]
)
def test_manche_ends_when_one_player_holds_cards(order):
    state = position_finishing_in(order)
    finish_in_order(state, order)
    assert state[HDR_TERMINAL] == 1
    assert current(state) == -1
    assert places(state) == [order.index(p) for p in range(len(order))]
    assert sorted(places(state)) == list(range(len(order)))
    assert legal(state) == set()


@pytest.mark.parametrize("order", [[1, 2, 0], [2, 0, 3, 1], [4, 1, 3, 0, 2], [5, 2, 0, 4, 1, 3]])
def test_next_manche_seating_deal_and_forced_gift(order):
    n = len(order)
    president, last = order[0], order[-1]
    state = position_finishing_in(order, num_manches=3)
    finish_in_order(state, order)
    assert int(state[k.MANCHE]) == 1
    assert seating(state) == order
    assert int(state[k.DEALER]) == last
    assert places(state) == [-1] * n
    sizes = [hand_size(state, p) for p in order]
    expected = [dealt_size(n, seat) for seat in range(n)]
    expected[0] += 1  # the gift from the last player
    expected[-1] -= 1
    assert sizes == expected
    received = int(state[k.EXCH_RECEIVED])
    assert (int(state[k.EXCH_FROM]), int(state[k.EXCH_TO])) == (last, president)
    assert hand_counts(state, president)[received] >= 1
    assert not any(hand_counts(state, last)[received + 1 :]), "the gift was not the best card"
    total = np.zeros(13, dtype=np.int64)
    for p in range(n):
        total += np.array(hand_counts(state, p))
    assert total.tolist() == [4] * 13


@pytest.mark.parametrize("order", [[1, 2, 0], [2, 0, 3, 1], [4, 1, 3, 0, 2]])
def test_the_president_chooses_a_card_to_give_back_then_leads(order):
    n = len(order)
    president, last = order[0], order[-1]
    state = position_finishing_in(order, num_manches=2)
    finish_in_order(state, order)
    assert int(state[k.PHASE]) == k.PHASE_GIVE_BACK
    assert current(state) == president
    hand = hand_counts(state, president)
    assert legal(state) == {action_for(r, 1) for r in range(13) if hand[r]}
    given = max(r for r in range(13) if hand[r])  # any held rank may go back, even the best
    last_hand = hand_counts(state, last)
    play(state, action_for(given, 1))
    assert hand_counts(state, president)[given] == hand[given] - 1
    assert hand_counts(state, last)[given] == last_hand[given] + 1
    assert int(state[k.EXCH_GIVEN]) == given
    assert [hand_size(state, p) for p in order] == [dealt_size(n, s) for s in range(n)]
    assert int(state[k.PHASE]) == k.PHASE_PLAY
    assert current(state) == president
    assert table_is_empty(state)
    assert PASS not in legal(state)


def test_give_back_with_a_held_rank_that_is_not_in_the_mask_is_refused():
    state = position_finishing_in([1, 2, 0], num_manches=2)
    finish_in_order(state, [1, 2, 0])
    hand = hand_counts(state, 1)
    missing = [r for r in range(13) if not hand[r]]
    before = state.copy()
    for bad in [PASS, action_for(hand.index(max(hand)), 2)] + [action_for(r) for r in missing]:
        with pytest.raises(ValueError, match="legal actions"):
            play(state, bad)
    np.testing.assert_array_equal(state, before)


def test_seed_points_accumulate_over_manches():
    order = [2, 0, 3, 1]
    state = position_finishing_in(order, num_manches=3, reward_scheme="points")
    first = finish_in_order(state, order)
    assert first.tolist() == [1, 0, 2, 0]
    play(state, sorted(legal(state))[0])  # the give-back
    second = play_out_manche(state)
    second_places = [int(x) for x in state[k.LAST_PLACE : k.LAST_PLACE + 4]]
    assert sorted(second_places) == [0, 1, 2, 3]
    assert second.tolist() == [{0: 2, 1: 1}.get(place, 0) for place in second_places]
    scores = [info["score"] for info in GAME.infos(state)]
    assert scores == (first + second).tolist()
    assert sum(scores) == 6


# ---- rewards ------------------------------------------------------------------------------
@pytest.mark.parametrize("order", [[1, 2, 0], [2, 0, 3, 1], [4, 1, 3, 0, 2], [5, 2, 0, 4, 1, 3]])
def test_places_reward_is_linear_in_the_place_and_zero_sum(order):
    n = len(order)
    state = position_finishing_in(order, reward_scheme="places")
    rewards = finish_in_order(state, order)
    expected = [1 - 2 * order.index(p) / (n - 1) for p in range(n)]
    np.testing.assert_allclose(rewards, expected, atol=1e-6)
    assert rewards[order[0]] == 1 and rewards[order[-1]] == -1
    assert abs(rewards.sum()) < 1e-6


def test_places_reward_is_paid_after_every_manche():
    order = [2, 0, 3, 1]
    state = position_finishing_in(order, num_manches=2, reward_scheme="places")
    rewards = finish_in_order(state, order)
    np.testing.assert_allclose(rewards, [1 / 3, -1, 1, -1 / 3], atol=1e-6)
    play(state, sorted(legal(state))[0])
    second = play_out_manche(state)
    assert state[HDR_TERMINAL] == 1
    second_places = places(state)
    np.testing.assert_allclose(second, [1 - 2 * p / 3 for p in second_places], atol=1e-6)


def test_points_reward_gives_the_seed_points_and_is_not_zero_sum():
    order = [4, 1, 3, 0, 2]
    state = position_finishing_in(order, reward_scheme="points")
    rewards = finish_in_order(state, order)
    assert rewards.tolist() == [0, 1, 0, 0, 2]


def test_match_reward_goes_to_the_best_score_at_the_end_only():
    order = [2, 0, 3, 1]
    state = position_finishing_in(order, num_manches=2, reward_scheme="match")
    assert finish_in_order(state, order).tolist() == [0, 0, 0, 0]
    scores_after_first = [info["score"] for info in GAME.infos(state)]
    assert scores_after_first == [1, 0, 2, 0]
    play(state, sorted(legal(state))[0])
    final = play_out_manche(state)
    scores = np.array([info["score"] for info in GAME.infos(state)])
    winners = scores == scores.max()
    expected = np.where(winners, 1 / winners.sum(), 0.0) - 1 / 4
    np.testing.assert_allclose(final, expected * 4 / 3, atol=1e-6)
    assert abs(final.sum()) < 1e-6


def test_match_reward_single_manche_winner_and_losers():
    state = position_finishing_in([1, 2, 0], reward_scheme="match")
    rewards = finish_in_order(state, [1, 2, 0])
    np.testing.assert_allclose(rewards, [-0.5, 1, -0.5], atol=1e-6)


def test_match_reward_shares_a_tie():
    order = [0, 1, 2, 3]
    state = position_finishing_in(order, reward_scheme="match")
    state[k.SCORE + 1] = 1  # as if player 1 had come 2nd in an earlier manche

    def unchecked_play(state: np.ndarray, action: int) -> np.ndarray:
        """The raw kernel: validation refuses a score no earlier manche of this match gave."""
        rewards = np.zeros(4, dtype=np.float32)
        k.step(state, np.int64(action), rewards)
        return rewards

    rewards = finish_in_order(state, order, unchecked_play)
    assert [info["score"] for info in GAME.infos(state)] == [2, 2, 0, 0]
    np.testing.assert_allclose(rewards, [1 / 3, 1 / 3, -1 / 3, -1 / 3], atol=1e-6)


# ---- infos through the AEC env ------------------------------------------------------------
def test_infos_carry_the_places_of_the_last_manche():
    order = [2, 0, 3, 1]
    env = presages_env.make("president", num_players=4, num_manches=2)
    env.reset(options={"state": position_finishing_in(order, num_manches=2)})
    assert env.infos["player_0"]["last_manche_places"] == [-1, -1, -1, -1]
    manche_rewards = np.zeros(4)
    going_out = 0
    while going_out < 3:
        if env.agent_selection == f"player_{order[going_out]}":
            env.step(action_for(going_out, 1))
            going_out += 1
        else:
            env.step(PASS)
        manche_rewards += [env.rewards[f"player_{p}"] for p in range(4)]
    expected_places = [order.index(p) for p in range(4)]
    for p in range(4):
        info = env.infos[f"player_{p}"]
        assert info["last_manche_places"] == expected_places
        assert info["last_manche_place"] == expected_places[p]
        assert info["manche"] == 1
    np.testing.assert_allclose(manche_rewards, [1 / 3, -1, 1, -1 / 3], atol=1e-6)
    assert env.agent_selection == "player_2", "the Président gives a card back"
    assert not any(env.terminations.values())


# ---- an independent model of the flow of play, on random positions ------------------------
class ReferenceManche:
    """The seed's flow of play, written plainly: whose turn, when a trick ends, who leads."""

    def __init__(self, hands: list[list[int]], leader: int) -> None:
        self.hands = [[hand.count(r) for r in range(13)] for hand in hands]
        self.n = len(hands)
        self.current = leader
        self.top: tuple[int, int, int] | None = None  # rank, count, player
        self.passes_in_a_row = 0
        self.finishing_order: list[int] = []

    def still_in(self, player: int) -> bool:
        return player not in self.finishing_order

    def next_still_in(self, player: int) -> int:
        return next(q for d in range(1, self.n + 1) if self.still_in(q := (player + d) % self.n))

    def legal(self) -> set[int]:
        hand = self.hands[self.current]
        if self.top is None:
            return {action_for(r, c) for r in range(13) for c in range(1, hand[r] + 1)}
        rank, count, _ = self.top
        return {PASS} | {action_for(r, count) for r in range(rank + 1, 13) if hand[r] >= count}

    def play(self, action: int) -> None:
        player = self.current
        if action == PASS:
            self.passes_in_a_row += 1
            _, _, last = self.top
            others_in = [q for q in range(self.n) if self.still_in(q) and q != last]
            if self.passes_in_a_row == len(others_in):
                self.current = last if self.still_in(last) else self.next_still_in(last)
                self.top, self.passes_in_a_row = None, 0
            else:
                self.current = self.next_still_in(player)
            return
        rank, count = divmod(action - 1, 4)
        count += 1
        self.hands[player][rank] -= count
        self.top, self.passes_in_a_row = (rank, count, player), 0
        if not any(self.hands[player]):
            self.finishing_order.append(player)
        self.current = self.next_still_in(player)

    def places(self) -> list[int]:
        return [
            self.finishing_order.index(p) if p in self.finishing_order else -1
            for p in range(self.n)
        ]


@st.composite
def small_positions(draw) -> tuple[list[list[int]], int]:
    """A few cards per player (so players go out often), and a leader."""
    n = draw(st.integers(3, 6))
    cards = draw(st.permutations([r for r in range(13) for _ in range(4)]))
    sizes = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    hands, start = [], 0
    for size in sizes:
        hands.append(sorted(cards[start : start + size]))
        start += size
    return hands, draw(st.integers(0, n - 1))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(position=small_positions(), data=st.data())
def test_kernel_follows_the_reference_flow_of_play(position, data):
    hands, leader = position
    state = setup_position(len(hands), hands, leader=leader)
    model = ReferenceManche(hands, leader)
    while not state[HDR_TERMINAL]:
        assert current(state) == model.current
        assert legal(state) == model.legal()
        assert places(state) == model.places()
        action = data.draw(st.sampled_from(sorted(model.legal())))
        play(state, action)
        model.play(action)
    assert len(model.finishing_order) == len(hands) - 1
    last = next(p for p in range(len(hands)) if model.still_in(p))
    assert places(state) == [p if p >= 0 else len(hands) - 1 for p in model.places()]
    assert places(state)[last] == len(hands) - 1
