"""Présages kernel: deals, teams, invariants under random play, options, determinism, bad input.

The rules scenarios of spec section 8 live in ``test_presages_scenarios.py``; this file checks
what holds in every game (spec 2 and 3.9) over many random games, the options of section 9,
and that bad input is refused without touching a state.
"""

from __future__ import annotations

import re

import numba as nb
import numpy as np
import pytest

from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.games.presages import kernel as k
from presages_env.games.presages.game import (
    LAW_ABOVE,
    LAW_BELOW,
    NODE_NAMES,
    NUM_ACTIONS,
    SECRET_ASK,
    SECRET_SHOW,
    PresagesGame,
    bout_starter,
    box_cards,
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
    legal_actions,
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
from presages_env.games.presages.table import empty_seats

GAME = PresagesGame()
PLAYER_COUNTS = (4, 5, 6)
TEAMS_4P = [0, 1, 0, 1]
TEAMS = {4: TEAMS_4P, 5: [0, 1, 0, 1, 1], 6: [0, 1, 2, 0, 1, 2]}


def deal_size(n: int, team_size: int) -> int:
    return {4: 5, 6: 4}.get(n, 5 if team_size == 3 else 4)


# =========================================================================================
# setup and deals (spec 2)
# =========================================================================================
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_round_one_deal_teams_hand_sizes_and_starter(n):
    for seed in range(40):
        state = GAME.new_state(n, seed)
        absolus = [[c for c in hand(state, s) if c >= 30] for s in range(n)]
        assert all(len(a) == 1 for a in absolus)
        dealt = [a[0] for a in absolus]
        t = teams(state)
        if n == 6:
            for a, b in ((30, 35), (31, 34), (32, 33)):
                assert t[dealt.index(a)] == t[dealt.index(b)]
            assert sorted(t) == [0, 0, 1, 1, 2, 2]
        else:
            pair = {dealt.index(max(dealt)), dealt.index(min(dealt))}
            assert {s for s in range(n) if t[s] == 0} == pair
        sizes = [deal_size(n, t.count(t[s])) for s in range(n)]
        assert hand_sizes(state) == sizes
        assert len(set_aside_cards(state)) == {4: 13, 5: 11, 6: 11}[n]
        assert sorted(box_cards(state)) == sorted(set(range(30, 36)) - set(dealt))
        assert node_name(state) == "PLACE"
        assert current_seat(state) == bout_starter(state) == dealt.index(max(dealt))
        assert rounds_won(state) == [0] * (3 if n == 6 else 2)
        assert discard_pile(state) == [] and in_front(state) == [0] * n


def test_deals_are_uniform_enough():
    """Every seat gets every Absolu over many seeds (the shuffle uses the state's RNG)."""
    seen = {
        (s, c)
        for seed in range(300)
        for s, h in enumerate(_hands(GAME.new_state(4, seed)))
        for c in h
        if c >= 30
    }
    assert seen == {(s, c) for s in range(4) for c in range(30, 36)}


def _hands(state):
    return [hand(state, s) for s in range(int(state[HDR_NUM_PLAYERS]))]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_later_round_deal_keeps_box_out_and_round_winner_starts(n):
    for seed in range(10):
        state = GAME.new_state(n, seed)
        box = box_cards(state)
        rng = np.random.default_rng(seed)
        while state[k.ROUND] == 1:
            play(state, rng.choice(legal_actions(state)))
        t = teams(state)
        assert box_cards(state) == box
        assert hand_sizes(state) == [deal_size(n, t.count(t[s])) for s in range(n)]
        assert current_seat(state) == bout_starter(state) == last_round_winner(state)
        assert sum(rounds_won(state)) == 1 and rounds_won(state)[t[last_round_winner(state)]] == 1
        assert discard_pile(state) == [] and last_bout_winner(state) == -1


# =========================================================================================
# random play: invariants of spec 3.9 in every game
# =========================================================================================
@nb.njit
def _check_state(state, box_size):
    """0 if the state is consistent, else a code naming the broken invariant."""
    n = state[HDR_NUM_PLAYERS]
    counts = np.zeros(k.MAX_SEATS, np.int64)
    fronts = np.zeros(k.MAX_SEATS, np.int64)
    discarded = 0
    boxed = 0
    for c in range(1, k.CARD_SLOTS):
        loc = state[k.LOC + c]
        if 0 <= loc < n:
            counts[loc] += 1
        elif k.LOC_FRONT <= loc < k.LOC_FRONT + n:
            seat = loc - k.LOC_FRONT
            fronts[seat] += 1
            if state[k.FRONT + seat] != c:
                return 1  # front slot disagrees with the card's location
        elif loc == k.LOC_DISCARD:
            discarded += 1
        elif loc == k.LOC_BOX:
            boxed += 1
            if c < 30:
                return 2  # only undealt Absolus go to the box
        elif loc != k.LOC_ASIDE:
            return 3  # a card is nowhere
    for s in range(n):
        if fronts[s] > 1:
            return 4  # I1
        if fronts[s] == 0 and state[k.FRONT + s] != 0:
            return 5
        if counts[s] != state[k.HAND_COUNT + s]:
            return 6
    if boxed != box_size:
        return 7  # the box never changes
    if discarded != state[k.DISCARD_COUNT]:
        return 8
    return 0


@nb.njit
def _random_games(n, seeds, max_steps):
    """Play one random game per seed; returns per game (error code, steps, winning team)."""
    out = np.zeros((seeds.shape[0], 3), np.int64)
    mask = np.zeros(k.NUM_ACTIONS, np.int8)
    rewards = np.zeros(n, np.float32)
    obs = np.zeros(k.OBS_SIZE, np.int8)
    state = np.zeros(k.STATE_SIZE, k.STATE_DTYPE)
    state[HDR_NUM_PLAYERS] = n
    x = np.uint64(88172645463325252)
    for g in range(seeds.shape[0]):
        k.reset(state, seeds[g])
        error = 0
        steps = 0
        total = np.zeros(n, np.float64)
        while state[HDR_TERMINAL] == 0 and error == 0 and steps < max_steps:
            error = _check_state(state, 6 - n)
            k.legal_mask(state, mask)
            legal = 0
            for a in range(k.NUM_ACTIONS):
                legal += mask[a]
            if legal == 0:
                error = 20  # mask empty before the end
                break
            node = state[k.NODE]
            seat = state[HDR_CURRENT]
            if node == k.NODE_PLACE and empty_seats(state) == n:
                for s in range(n):
                    if state[k.HAND_COUNT + s] < 2:
                        error = 21  # I2: a bout starts with a hand below 2 cards
            if node == k.NODE_PLACE and state[k.FRONT + seat] != 0:
                error = 22  # only a seat with no card in front places
            k.observe(state, seat, obs)
            x ^= x << np.uint64(13)
            x ^= x >> np.uint64(7)
            x ^= x << np.uint64(17)
            pick = np.int64(x % np.uint64(legal))
            for a in range(k.NUM_ACTIONS):
                if mask[a]:
                    if pick == 0:
                        discards_before = state[k.DISCARD_COUNT]
                        round_before = state[k.ROUND]
                        bout_before = state[k.BOUT]
                        k.step(state, a, rewards)
                        ended_bout = state[k.BOUT] != bout_before or state[k.ROUND] != round_before
                        same_round = state[k.ROUND] == round_before
                        if ended_bout and same_round and state[k.DISCARD_COUNT] <= discards_before:
                            error = 23  # I6: a bout discards at least its winner
                        break
                    pick -= 1
            for s in range(n):
                total[s] += rewards[s]
            steps += 1
        if error == 0 and state[HDR_TERMINAL] == 0:
            error = 30  # the game did not end
        if error == 0:
            team = state[k.WINNING_TEAM]
            for s in range(n):
                expected = 1.0 if state[k.TEAM + s] == team else -1.0
                if abs(total[s] - expected) > 1e-6:
                    error = 31
            if state[HDR_CURRENT] != -1:
                error = 32
            k.legal_mask(state, mask)
            for a in range(k.NUM_ACTIONS):
                if mask[a]:
                    error = 33  # nothing is legal once the game is over
        out[g, 0] = error
        out[g, 1] = steps
        out[g, 2] = state[k.WINNING_TEAM]
    return out


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_random_games_keep_every_invariant_and_end(n):
    seeds = np.arange(4000, dtype=np.int64) + 1000 * n
    results = _random_games(n, seeds, 5000)
    bad = np.flatnonzero(results[:, 0])
    assert bad.size == 0, f"seed {seeds[bad[0]]} broke invariant code {results[bad[0], 0]}"
    teams_won = set(results[:, 2].tolist())
    assert teams_won == set(range(3 if n == 6 else 2))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_random_positions_play_to_the_end_with_consistent_states(n):
    """Positions with any hand sizes (2 to 35 // n cards) also play out consistently."""
    rng = np.random.default_rng(50 + n)
    for _ in range(150):
        cards = rng.permutation(np.arange(1, 36))
        sizes = rng.integers(2, 35 // n + 1, size=n)
        cuts = np.cumsum(sizes)
        hands = [cards[c - size : c].tolist() for c, size in zip(cuts, sizes, strict=True)]
        state = setup_position(n, hands, int(rng.integers(n)), teams=TEAMS[n], seed=7)
        box_size = len(box_cards(state))
        for _ in range(3000):
            if state[HDR_TERMINAL]:
                break
            assert _check_state(state, box_size) == 0
            play(state, int(rng.choice(legal_actions(state))))
        assert state[HDR_TERMINAL]


def expected_legal(state) -> set[int]:
    """An independent reading of spec 3 for the current node (the oracle for the mask)."""
    node = node_name(state)
    seat = current_seat(state)
    n = int(state[HDR_NUM_PLAYERS])
    front = in_front(state)
    cards = hand(state, seat)
    law_in_play = 15 in front
    direction = int(state[k.LAW_DIR]) if law_in_play else 0

    def law_filtered(options):
        ok = [c for c in options if direction == 0 or (c < 15 if direction == 1 else c > 15)]
        return {card_action(c) for c in (ok or options)}

    if node in ("PLACE", "DREAM_REPLY"):
        return law_filtered(cards)
    if node == "WRATH_REPLACE":
        return law_filtered([c for c in cards if c != state[k.BLOCKED]])
    if node == "BETRAYAL_GIVE":
        return law_filtered([c for c in cards if c != state[k.TAKEN]])
    if node == "DREAM_DEST":
        return {seat_action(s) for s in range(n) if s == seat or front[s] == 0}
    if node == "LAW_DIR":
        return {LAW_BELOW, LAW_ABOVE}
    if node in ("WRATH_PICK", "BETRAYAL_TAKE", "JEALOUSY_PICK"):
        effect = {"WRATH_PICK": 28, "BETRAYAL_TAKE": 29, "JEALOUSY_PICK": 23}[node]
        return {
            card_action(front[s]) for s in range(n) if s != seat and front[s] not in (0, effect)
        }
    if node == "SECRET_MODE":
        return {SECRET_SHOW, SECRET_ASK}
    if node in ("SECRET_TARGET", "ABSOLUTE_TARGET"):
        return {seat_action(s) for s in range(n) if s != seat}
    if node == "LUCK_DISCARD":
        return {card_action(c) for c in cards if c != 12}
    if node in ("SECRET_CARD", "ABSOLUTE_GIVE", "ABSOLUTE_RETURN"):
        return {card_action(c) for c in cards}
    return set()


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_mask_is_exactly_the_legal_set_of_the_rules(n):
    nodes_seen = set()
    for seed in range(150):
        state = GAME.new_state(n, seed)
        rng = np.random.default_rng(seed)
        while not state[HDR_TERMINAL]:
            legal = legal_actions(state)
            assert set(legal) == expected_legal(state), (node_name(state), seed)
            nodes_seen.add(node_name(state))
            play(state, int(rng.choice(legal)))
        assert legal_actions(state) == [] and node_name(state) == "GAME_OVER"
    assert nodes_seen == set(NODE_NAMES) - {"GAME_OVER"}


# =========================================================================================
# end-of-bout resolution against a literal reading of the card table (spec 1.1, 4.1)
# =========================================================================================
def colours(card: int) -> set[str]:
    if card == 17:
        return {"G", "Y", "R", "B"}
    return {"G" if card <= 8 else "Y" if card <= 16 else "R" if card <= 25 else "B"}


def oracle_bout(table: list[int]) -> tuple[int, set[int]]:
    """Winning card and discard set, written straight from the card texts."""
    if 14 in table:
        winner = min(table)
    elif 26 in table:
        winner = sorted(table)[-2]
    else:
        winner = max(table)
    of = {x: [c for c in table if x in colours(c)] for x in "GYRB"}
    marked = set()
    for e in table:
        if e == 1:
            marked.add(max(of["G"]))
        if e == 2 and len(of["G"]) > 1:
            marked.add(2)
        if e in (3, 4, 5) and of["YRB"[e - 3]]:
            marked.add(e)
        if e == 6 and min(table) == 6:
            marked.add(6)
        if e in (7, 11, 19) and of[{7: "G", 11: "Y", 19: "R"}[e]] == [e]:
            marked.add(e)
        if e == 8:
            marked.add(min(of["G"]))
        if e == 9:
            marked.add(max(of["Y"]))
        if e == 10 and any(c >= 30 for c in table):
            marked.add(10)
        if e == 16:
            marked.add(min(of["Y"]))
        if e == 18:
            marked.add(max(of["R"]))
        if e == 20:
            marked.add(min(table))
        if e == 25:
            marked.add(min(of["R"]))
        if e == 27:
            marked.update(of["Y"])
    return winner, (marked - {12}) | {winner}


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_winner_and_discards_match_the_card_texts_on_random_tables(n):
    rng = np.random.default_rng(n)
    hands = [[2 * s + 1, 2 * s + 2] for s in range(n)]
    state = setup_position(n, hands, 0, teams=TEAMS[n])
    for _ in range(3000):
        table = [int(c) for c in rng.choice(np.arange(1, 36), size=n, replace=False)]
        state[k.FRONT : k.FRONT + n] = table
        winner, discards = oracle_bout(table)
        got_winner = k.winning_card(state, 14 in table, 26 in table)
        bits = int(k.discard_set(state, got_winner))
        assert got_winner == winner, table
        assert {c for c in range(1, 36) if bits >> c & 1} == discards, table


# =========================================================================================
# determinism
# =========================================================================================
def _random_trace(n, seed, **options):
    state = GAME.new_state(n, seed, **options)
    rng = np.random.default_rng(seed)
    trace = [state.copy()]
    while not state[HDR_TERMINAL]:
        play(state, int(rng.choice(legal_actions(state))))
        trace.append(state.copy())
    return trace


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_same_seed_and_actions_give_the_same_game(n):
    a, b = _random_trace(n, 11), _random_trace(n, 11)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(GAME.new_state(n, 11), GAME.new_state(n, 12))


def test_reset_rewrites_every_non_option_slot():
    state = GAME.new_state(5, 3)
    dirty = state.copy()
    rng = np.random.default_rng(0)
    while not dirty[HDR_TERMINAL]:
        play(dirty, int(rng.choice(legal_actions(dirty))))
    GAME.reset(dirty, np.int64(3))
    assert np.array_equal(dirty, state)


# =========================================================================================
# options (spec section 9)
# =========================================================================================
def four(hands, starter=0, **options):
    return setup_position(4, hands, starter, teams=TEAMS_4P, **options)


def test_options_round_trip_and_defaults():
    state = GAME.new_state(4, 0)
    assert GAME.read_options(state) == GAME.Options()
    options = dict(
        pride_carries_into_next_round=True,
        bout_winner_is_placer=True,
        dream_reply_resolved_by_target=True,
        betrayal_law_judged_before_take=True,
        reveal_all_hands_at_round_end=True,
        round_reward=0.25,
    )
    assert GAME.read_options(GAME.new_state(6, 0, **options)) == GAME.Options(**options)


@pytest.mark.parametrize("placer_wins", [False, True])
def test_bout_winner_after_dream_is_the_holder_or_by_option_the_placer(placer_wins):
    state = four(
        [[21, 1, 2], [20, 3, 4], [19, 7, 8], [5, 9, 10]], bout_winner_is_placer=placer_wins
    )
    play(state, card_action(21), seat_action(2), card_action(19), card_action(20), card_action(5))
    # Dream (21) wins; it lies in front of seat 2 but seat 0 placed it
    assert last_bout_winner(state) == (0 if placer_wins else 2)
    assert current_seat(state) == last_bout_winner(state)


@pytest.mark.parametrize("by_target", [False, True])
def test_law_replied_to_dream_is_directed_by_dream_player_or_by_option_the_target(by_target):
    state = four(
        [[21, 1, 2], [20, 3, 4], [15, 7, 8], [5, 9, 10]], dream_reply_resolved_by_target=by_target
    )
    play(state, card_action(21), seat_action(2), card_action(15))
    assert node_name(state) == "LAW_DIR"
    assert current_seat(state) == (2 if by_target else 0)


@pytest.mark.parametrize("before_take", [False, True])
def test_betrayal_taking_law_frees_the_gift_unless_judged_before_take(before_take):
    state = four(
        [[15, 8, 5], [29, 6, 25], [2, 33], [11, 7]], betrayal_law_judged_before_take=before_take
    )
    play(state, card_action(15), LAW_ABOVE, card_action(29), card_action(15))
    assert node_name(state) == "BETRAYAL_GIVE"
    gifts = {a + 1 for a in legal_actions(state)}
    assert gifts == ({25} if before_take else {6, 25})


def _end_round_with_single_cards(**options):
    """Seat 0 ends the round on one card (1); seat 2 and 3 keep more."""
    state = four([[22, 1], [2, 3, 4], [5, 7, 8], [25, 9, 10]], **options)
    rewards = play(state, card_action(22), card_action(2), card_action(5), card_action(25))
    return state, rewards


def test_round_end_reveals_only_the_single_cards_or_by_option_every_hand():
    state, _ = _end_round_with_single_cards()
    assert last_round_winner(state) == 0
    obs = np.zeros(k.OBS_SIZE, np.int8)
    GAME.observe(state, 1, obs)
    reveal = obs[k.OBS_PLANES + k.PLANE_REVEAL * 35 : k.OBS_PLANES + (k.PLANE_REVEAL + 1) * 35]
    assert {c + 1: int(v) - 1 for c, v in enumerate(reveal) if v} == {1: 0}
    state, _ = _end_round_with_single_cards(reveal_all_hands_at_round_end=True)
    GAME.observe(state, 1, obs)
    reveal = obs[k.OBS_PLANES + k.PLANE_REVEAL * 35 : k.OBS_PLANES + (k.PLANE_REVEAL + 1) * 35]
    assert sorted(c + 1 for c, v in enumerate(reveal) if v) == [1, 3, 4, 5, 7, 8, 9, 10]


@pytest.mark.parametrize("carries", [False, True])
def test_pride_in_the_last_bout_names_the_next_round_starter_only_by_option(carries):
    state, _ = _end_round_with_single_cards(pride_carries_into_next_round=carries)
    assert last_round_winner(state) == 0 and round_number(state) == 2
    assert current_seat(state) == bout_starter(state) == (1 if carries else 0)


def test_round_end_records_the_final_hands_and_discards():
    state, _ = _end_round_with_single_cards()
    assert last_round_end_hands(state) == [[1], [3, 4], [5, 7, 8], [9, 10]]
    assert last_round_discard(state) == [25, 22, 2]  # winner first, then from the starter
    assert rounds_won(state) == [1, 0] and discard_pile(state) == []


@pytest.mark.parametrize("shaping", [0.0, 0.125])
def test_round_reward_shaping(shaping):
    _, rewards = _end_round_with_single_cards(round_reward=shaping)
    assert rewards.tolist() == [shaping, -shaping, shaping, -shaping]


def test_game_end_rewards_every_member_of_the_winning_team():
    state = setup_position(
        4, [[22, 1], [2, 3, 4], [5, 7, 8], [25, 9, 10]], 0, teams=TEAMS_4P, rounds_won=[1, 0]
    )
    rewards = play(state, card_action(22), card_action(2), card_action(5), card_action(25))
    assert winning_team(state) == 0 and state[HDR_TERMINAL] == 1
    assert rewards.tolist() == [1.0, -1.0, 1.0, -1.0]
    assert node_name(state) == "GAME_OVER" and current_seat(state) == -1


# =========================================================================================
# bad input
# =========================================================================================
GOOD = [[30, 1, 2], [31, 3, 4], [32, 5, 6], [33, 7, 8]]


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        (dict(hands=GOOD[:3]), ValueError, "4 hands"),
        (dict(hands=[[30, 1, 1], *GOOD[1:]]), ValueError, "appears in"),
        (dict(hands=[[30, 1, 36], *GOOD[1:]]), ValueError, "[1, 35]"),
        (dict(hands=[[30, 0, 2], *GOOD[1:]]), ValueError, "[1, 35]"),
        (dict(hands=[[30, "1", 2], *GOOD[1:]]), TypeError, "int"),
        (dict(hands=[[30, 1], [31], *GOOD[2:]]), ValueError, "at least 2"),
        (dict(starter=4), ValueError, "starter"),
        (dict(starter=True), TypeError, "starter"),
        (dict(hands=[[30, 31, 1], [2, 3], *GOOD[2:]]), ValueError, "exactly one Absolu"),
        (dict(teams=[0, 0, 0, 1]), ValueError, "team sizes"),
        (dict(teams=[0, 1, 0]), ValueError, "one team per seat"),
        (dict(teams=[0, 1, 2, 1]), ValueError, "team index"),
        (dict(rounds_won=[2, 0]), ValueError, "rounds_won"),
        (dict(rounds_won=[0, 0, 0]), ValueError, "rounds_won"),
        (dict(set_aside=[1, 9]), ValueError, "appears in"),
        (dict(set_aside=[]), ValueError, "fewer than"),
        (dict(round_number=0), ValueError, "round_number"),
        (dict(no_such_option=True), TypeError, "unknown option"),
        (dict(round_reward=2.0), ValueError, "round_reward"),
        (dict(round_reward=0.0001), ValueError, "round_reward"),
        (dict(pride_carries_into_next_round=1), TypeError, "True or False"),
        (dict(num_players=7), ValueError, "4 to 6"),
    ],
)
def test_setup_position_refuses_bad_input_with_a_clear_message(kwargs, error, words):
    args = dict(num_players=4, hands=GOOD, starter=0) | kwargs
    with pytest.raises(error, match=re.escape(words)):
        setup_position(**args)


def test_setup_position_builds_the_requested_bout():
    state = setup_position(
        5,
        [[30, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [12, 13, 14]],
        starter=3,
        teams=[0, 0, 1, 1, 1],
        round_number=2,
        rounds_won=[0, 1],
        set_aside=range(15, 25),
    )
    assert hand(state, 0) == [1, 2, 30] and hand_sizes(state) == [3] * 5
    assert current_seat(state) == bout_starter(state) == 3 and node_name(state) == "PLACE"
    assert teams(state) == [0, 0, 1, 1, 1] and rounds_won(state) == [0, 1]
    assert set_aside_cards(state) == list(range(15, 25))
    assert len(box_cards(state)) == 35 - 15 - 10


def test_play_refuses_illegal_or_malformed_actions_without_changing_the_state():
    state = setup_position(4, GOOD, 0)
    before = state.copy()
    with pytest.raises(ValueError, match="PLACE"):
        play(state, card_action(3))  # seat 1's card
    with pytest.raises(ValueError, match="not legal"):
        play(state, NUM_ACTIONS)
    with pytest.raises(TypeError):
        play(state, 1.5)
    assert np.array_equal(state, before)
    with pytest.raises(ValueError):
        card_action(0)
    with pytest.raises(ValueError):
        seat_action(6)


def test_play_refuses_actions_once_the_game_is_over():
    state = setup_position(
        4, [[22, 1], [2, 3, 4], [5, 7, 8], [25, 9, 10]], 0, teams=TEAMS_4P, rounds_won=[1, 0]
    )
    play(state, card_action(22), card_action(2), card_action(5), card_action(25))
    with pytest.raises(ValueError, match="over"):
        play(state, card_action(1))
