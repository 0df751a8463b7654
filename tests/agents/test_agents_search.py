"""The determinisations (``sample_world``) and the IS-MCTS search agent built on them."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from presages_env.agents import search
from presages_env.agents.search import ISMCTSAgent
from presages_env.core.header import HDR_CURRENT, HDR_GAME_ID, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.fuzzing.states import play_out
from presages_env.games import get_game
from presages_env.games.president import kernel as pk
from presages_env.games.president.game import (
    PresidentGame,
    action_for,
    hand_counts,
    setup_position,
)

PRESIDENT = PresidentGame()


# ---- helpers ------------------------------------------------------------------------------
def random_positions(game, num_players: int, seed: int, every: int, **options):
    """States met along a uniformly random game, one every ``every`` decisions."""
    rng = np.random.default_rng(seed)
    state = game.new_state(num_players, seed, **options)
    mask = np.zeros(game.num_actions(num_players), dtype=np.int8)
    rewards = np.zeros(num_players, dtype=np.float32)
    decision = 0
    while not state[HDR_TERMINAL]:
        if decision % every == 0:
            yield state.copy()
        game.legal_mask(state, mask)
        game.step(state, rng.choice(np.flatnonzero(mask)), rewards)
        decision += 1


def observation(game, state: np.ndarray, player: int) -> np.ndarray:
    obs = np.zeros(game.obs_size(int(state[HDR_NUM_PLAYERS])), dtype=game.obs_dtype)
    game.observe(state, player, obs)
    return obs


def president_hands(state: np.ndarray) -> np.ndarray:
    n = int(state[HDR_NUM_PLAYERS])
    return state[pk.HAND : pk.HAND + n * pk.NUM_RANKS].reshape(n, pk.NUM_RANKS)


def world_of(state: np.ndarray, player: int, seed: int, sample_world) -> np.ndarray:
    world = np.empty_like(state)
    sample_world(state, player, seed, world)
    return world


def legal(game, state: np.ndarray) -> np.ndarray:
    mask = np.zeros(game.num_actions(int(state[HDR_NUM_PLAYERS])), dtype=np.int8)
    game.legal_mask(state, mask)
    return mask


# ---- Président determinisation -------------------------------------------------------------
def check_president_world(state: np.ndarray, world: np.ndarray, player: int) -> None:
    np.testing.assert_array_equal(
        observation(PRESIDENT, world, player), observation(PRESIDENT, state, player)
    )
    hands, true_hands = president_hands(world), president_hands(state)
    np.testing.assert_array_equal(hands[player], true_hands[player])
    np.testing.assert_array_equal(hands.sum(axis=1), true_hands.sum(axis=1))
    assert (hands >= 0).all()
    gone = world[pk.GONE : pk.GONE + pk.NUM_RANKS]
    np.testing.assert_array_equal(hands.sum(axis=0) + gone, np.full(pk.NUM_RANKS, 4))
    if player == state[pk.EXCH_TO]:
        check_presidents_knowledge(state, hands[state[pk.EXCH_FROM]])
    elif player == state[pk.EXCH_FROM]:
        check_last_players_knowledge(state, hands[state[pk.EXCH_TO]])
    else:
        # outside the exchange the world draws its ranks (docs/president.md); it is valid
        assert (world[pk.EXCH_RECEIVED] >= 0) == (state[pk.EXCH_RECEIVED] >= 0)
        assert (world[pk.EXCH_GIVEN] >= 0) == (state[pk.EXCH_GIVEN] >= 0)
        PRESIDENT.checked_state(world)


def check_presidents_knowledge(state: np.ndarray, last_hand: np.ndarray) -> None:
    """The last player kept nothing above the card they gave but the card given back, which
    they still hold while no card of its rank was played."""
    received, given = int(state[pk.EXCH_RECEIVED]), int(state[pk.EXCH_GIVEN])
    above = last_hand[received + 1 :].copy()
    if given > received:
        above[given - received - 1] -= 1
    assert (above <= 0).all()
    if given >= 0 and state[pk.GONE + given] == 0:
        assert last_hand[given] >= 1


def check_last_players_knowledge(state: np.ndarray, president_hand: np.ndarray) -> None:
    """The Président holds the card received, unless given straight back or its rank played."""
    received, given = int(state[pk.EXCH_RECEIVED]), int(state[pk.EXCH_GIVEN])
    if state[pk.GONE + received] == 0 and given != received:
        assert president_hand[received] >= 1


@pytest.mark.parametrize("num_players", [3, 4, 6])
def test_president_world_looks_the_same_to_the_player(num_players: int) -> None:
    checked = 0
    for index, state in enumerate(random_positions(PRESIDENT, num_players, 11, 7, num_manches=3)):
        for player in range(num_players):
            world = world_of(state, player, 1000 * index + player, pk.sample_world)
            check_president_world(state, world, player)
            checked += 1
    assert checked > 50


def test_president_world_keeps_what_the_exchange_parties_know() -> None:
    exchanges = 0
    for seed in range(40):
        for state in random_positions(PRESIDENT, 4, seed, 3, num_manches=2):
            if state[pk.EXCH_RECEIVED] < 0:
                continue
            exchanges += 1
            for player in (int(state[pk.EXCH_TO]), int(state[pk.EXCH_FROM])):
                for world_seed in range(3):
                    world = world_of(state, player, world_seed, pk.sample_world)
                    check_president_world(state, world, player)
    assert exchanges > 100


def test_president_world_redeals_hidden_cards_and_forgets_the_deal() -> None:
    state = PRESIDENT.new_state(4, 5)
    worlds = [world_of(state, 0, seed, pk.sample_world) for seed in range(20)]
    bob_hands = {tuple(president_hands(w)[1]) for w in worlds}
    assert len(bob_hands) > 15
    assert all(tuple(president_hands(w)[0]) == tuple(hand_counts(state, 0)) for w in worlds)
    # the public play record is kept (here: nothing played yet), the shuffle's trace is not
    record = state[pk.PLAYED_BY : pk.PLAYED_BY + pk.NUM_CARDS]
    assert all((w[pk.PLAYED_BY : pk.PLAYED_BY + pk.NUM_CARDS] == record).all() for w in worlds)
    assert (record == -1).all()


def test_president_world_deals_exchange_hands_uniformly() -> None:
    """Every hand the last player may hold, given the exchange, comes up as often as the
    distinct-card deals behind it: a hand still holding h 10s was dealt h + 1 of them, any
    of which could be the one given, so its distinct hands count 1 / (h + 1) each."""
    hands = [["3", "3", "9"], ["4", "5", "J", "J", "J"], ["4", "5", "6", "10", "J"]]
    state = setup_position(3, hands, leader=0)
    state[pk.EXCH_FROM], state[pk.EXCH_TO] = 2, 0
    state[pk.EXCH_RECEIVED], state[pk.EXCH_GIVEN] = 7, 8  # gave a 10, got a J back
    unseen = 4 - state[pk.GONE : pk.GONE + 13] - state[pk.HAND : pk.HAND + 13]
    cards = [r for r in range(13) for _ in range(unseen[r])]
    allowed = Counter()
    for chosen in itertools.combinations(cards, 5):
        if max(chosen) <= 8 and chosen.count(8) == 1:
            allowed[tuple(sorted(chosen))] += 1 / (chosen.count(7) + 1)
    draws = 20_000
    seen = Counter(
        tuple(np.repeat(np.arange(13), president_hands(world_of(state, 0, s, pk.sample_world))[2]))
        for s in range(draws)
    )
    assert set(seen) == set(allowed)
    total = sum(allowed.values())
    for hand, ways in allowed.items():
        expected = draws * ways / total
        assert abs(seen[hand] - expected) < 5 * np.sqrt(expected)


# ---- search agent ------------------------------------------------------------------------
def play_with(agent: ISMCTSAgent, game, num_players: int, seed: int) -> list[int]:
    """A whole game with ``agent`` in every seat; checks each action against the mask."""
    state = game.new_state(num_players, seed)
    rewards = np.zeros(num_players, dtype=np.float32)
    actions = []
    while not state[HDR_TERMINAL]:
        action = int(agent.act_states(state[None, :])[0])
        assert legal(game, state)[action] == 1
        game.step(state, action, rewards)
        actions.append(action)
    return actions


def test_search_agent_plays_legal_moves_in_batches() -> None:
    agent = ISMCTSAgent("president", simulations=20, seed=3)
    states = np.stack([PRESIDENT.new_state(n, seed) for seed, n in enumerate((3, 4, 5, 6))])
    rewards = np.zeros(6, dtype=np.float32)
    while not states[:, HDR_TERMINAL].all():
        live = np.flatnonzero(states[:, HDR_TERMINAL] == 0)
        for i, action in zip(live, agent.act_states(states[live]), strict=True):
            assert legal(PRESIDENT, states[i])[action] == 1
            PRESIDENT.step(states[i], action, rewards[: states[i, HDR_NUM_PLAYERS]])


@pytest.mark.parametrize("rollouts", ["random", "heuristic"])
@pytest.mark.parametrize("game_name", ["president", "aciliande", "presages"])
def test_search_agent_plays_legal_moves_in_every_game(game_name: str, rollouts: str) -> None:
    """The same search runs on every game that has a ``sample_world``, with either rollout."""
    game = get_game(game_name)
    agent = ISMCTSAgent(game_name, simulations=20, seed=1, rollouts=rollouts)
    play_with(agent, game, game.default_players, 2)


def test_search_rollouts_default_to_the_game_s_choice() -> None:
    for game_name in ("president", "presages", "aciliande", "res_arcana"):
        default = ISMCTSAgent(game_name, simulations=5)
        assert default.heuristic_rollouts == (get_game(game_name).search_rollouts == "heuristic")
        for rollouts in ("random", "heuristic"):
            chosen = ISMCTSAgent(game_name, simulations=5, rollouts=rollouts)
            assert chosen.heuristic_rollouts == (rollouts == "heuristic")
    assert ISMCTSAgent("aciliande", simulations=5).name == "ismcts5h"


def test_search_agent_is_reproducible() -> None:
    first = play_with(ISMCTSAgent("president", simulations=30, seed=9), PRESIDENT, 4, 2)
    again = play_with(ISMCTSAgent("president", simulations=30, seed=9), PRESIDENT, 4, 2)
    assert first == again


def test_search_agent_ignores_the_hidden_cards() -> None:
    """Two states that look the same to the seat to act get the same move from one seed."""
    compared = 0
    for state in random_positions(PRESIDENT, 4, 21, 5, num_manches=2):
        player = int(state[HDR_CURRENT])
        if legal(PRESIDENT, state).sum() < 2:
            continue
        twin = world_of(state, player, 77, pk.sample_world)
        if (president_hands(twin) == president_hands(state)).all():
            continue
        moves = [
            ISMCTSAgent("president", simulations=40, seed=5).act_states(s[None])
            for s in (state, twin)
        ]
        assert moves[0] == moves[1]
        compared += 1
    assert compared > 5


@pytest.mark.parametrize("seed", range(4))
def test_search_agent_finds_the_only_winning_lead(seed: int) -> None:
    """Leading the 2 cannot be beaten and the 4 then goes out first; leading the 4 first lets
    the 5 or the 6 (whoever holds it) go out first. The lowest-card habit gets it wrong."""
    state = setup_position(3, [["2", "4"], ["5"], ["6"]], leader=0, seed=seed)
    agent = ISMCTSAgent("president", simulations=200, seed=seed)
    assert agent.act_states(state[None, :])[0] == action_for("2")


def test_search_agent_needs_states() -> None:
    agent = ISMCTSAgent("president", simulations=10)
    assert agent.needs_state
    obs = np.zeros((1, pk.OBS_SIZE), dtype=np.int8)
    with pytest.raises(TypeError, match="act_states"):
        agent.act_batch(obs, np.ones((1, pk.NUM_ACTIONS), dtype=np.int8))


def test_search_agent_rejects_bad_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="simulations"):
        ISMCTSAgent("president", simulations=0)
    with pytest.raises(ValueError, match="rollouts"):
        ISMCTSAgent("president", rollouts="greedy")
    finished = setup_position(3, [["2"], ["5"], ["6"]], leader=0)
    play_out(get_game("president"), finished, np.random.default_rng(0))
    assert finished[HDR_TERMINAL]
    with pytest.raises(ValueError, match="finished"):
        ISMCTSAgent("president").act_states(finished[None, :])
    other_game = finished.copy()
    other_game[HDR_TERMINAL], other_game[HDR_GAME_ID] = 0, 99
    with pytest.raises(ValueError, match="HDR_GAME_ID = 99"):
        ISMCTSAgent("president").act_states(other_game[None, :])
    monkeypatch.setattr(search, "_compiled_searches", {})
    monkeypatch.setattr(type(get_game("president")), "world_sampler", None)
    with pytest.raises(NotImplementedError, match="sample_world"):
        ISMCTSAgent("president")


def test_search_visits_count_every_simulation_and_pick_the_move() -> None:
    """Root visits sum to the simulations, sit on legal moves only, and the move played is the
    most visited (ties: the lowest); a forced move gets every visit unsearched."""
    states = np.stack(list(random_positions(PRESIDENT, 4, 8, 3)))
    actions, visits = ISMCTSAgent("president", simulations=30, seed=4).search_states(states)
    assert visits.shape == (len(states), PRESIDENT.num_actions(4))
    for state, action, row in zip(states, actions, visits, strict=True):
        mask = legal(PRESIDENT, state)
        assert row.sum() == 30 and (row[mask == 0] == 0).all()
        assert action == np.argmax(row)
        if mask.sum() == 1:
            assert row[action] == 30
    again = ISMCTSAgent("president", simulations=30, seed=4).act_states(states)
    assert (again == actions).all()
