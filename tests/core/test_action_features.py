"""Every game's action features (core/action_features.py): the contract, and what they say.

Generic checks for each game: the kernel fills every entry of an ``[N, A, F]`` array with a
value in [0, 1]; each action has exactly one kind; two legal actions of a decision never look
the same (a network could not tell them apart); features come from the observation alone,
so a world the seat cannot tell from the real one gives the same features; and any
observation of the observation space is safe to describe. Then a few facts per game.
"""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.core.action_features import FEATURE_HIGH, FEATURE_LOW
from presages_env.games import get_game

GAMES = presages_env.list_games()
STEPS = 40  # random vector steps to gather observations from
NUM_ENVS = 24


def features_of(game, obs: np.ndarray) -> np.ndarray:
    module = game.action_features
    out = np.full(
        (obs.shape[0], game.num_actions(game.max_players), module.ACTION_FEATURES), np.nan
    )
    out = out.astype(np.float32)
    module.action_features(obs, out)
    return out


def played(name: str, num_players: int, seed: int = 0):
    """Observations, masks, states and seats to act along random games."""
    vec = presages_env.make_vec(name, NUM_ENVS, num_players, seed=seed)
    rng = np.random.default_rng(seed).integers(1, 2**62, size=NUM_ENVS).astype(np.int64)
    obs, masks, states, seats = [], [], [], []
    for _ in range(STEPS):
        obs.append(vec.obs.copy())
        masks.append(vec.masks.copy())
        states.append(vec.states.copy())
        seats.append(vec.current.copy())
        vec.step(vec.random_actions(rng))
    return tuple(np.concatenate(part) for part in (obs, masks, states, seats))


def kind_columns(module) -> np.ndarray:
    return np.array([name.startswith("kind:") for name in module.FEATURE_NAMES])


@pytest.mark.parametrize("name", GAMES)
def test_names_and_sizes_agree(name):
    module = get_game(name).action_features
    assert module.ACTION_FEATURES == len(module.FEATURE_NAMES) > 0
    assert len(set(module.FEATURE_NAMES)) == module.ACTION_FEATURES
    assert all(":" in feature for feature in module.FEATURE_NAMES)


@pytest.mark.parametrize("name", GAMES)
def test_every_entry_is_written_within_bounds_and_each_action_has_one_kind(name):
    game = get_game(name)
    for n in sorted({game.min_players, game.max_players}):
        obs, masks, _, _ = played(name, n)
        out = features_of(game, obs)
        assert out.shape == (
            obs.shape[0],
            game.num_actions(n),
            game.action_features.ACTION_FEATURES,
        )
        assert np.isfinite(out).all()
        assert out.min() >= FEATURE_LOW and out.max() <= FEATURE_HIGH
        kinds = out[:, :, kind_columns(game.action_features)]
        assert (kinds.sum(axis=2) == 1).all()


@pytest.mark.parametrize("name", GAMES)
def test_legal_actions_of_a_decision_never_look_the_same(name):
    game = get_game(name)
    obs, masks, _, _ = played(name, game.default_players, seed=1)
    out = features_of(game, obs)
    for row in range(obs.shape[0]):
        legal = out[row, masks[row] == 1]
        assert len(np.unique(legal, axis=0)) == len(legal), f"row {row}"


@pytest.mark.parametrize("name", GAMES)
def test_a_world_the_seat_cannot_tell_apart_gives_the_same_features(name):
    game = get_game(name)
    obs, _, states, seats = played(name, game.default_players, seed=2)
    picked = np.random.default_rng(0).choice(len(obs), size=24, replace=False)
    for i in picked:
        world = game.sample_world(states[i], int(seats[i]), seed=int(i))
        seen = np.zeros_like(obs[i])
        game.observe(world, int(seats[i]), seen)
        np.testing.assert_array_equal(
            features_of(game, seen[None]), features_of(game, obs[i : i + 1])
        )


@pytest.mark.parametrize("name", GAMES)
def test_any_observation_of_the_space_is_described_safely(name):
    game = get_game(name)
    n = game.default_players
    low, high = game.obs_low(n), game.obs_high(n)
    rng = np.random.default_rng(3)
    random = rng.integers(low, high + 1, size=(256, low.size)).astype(game.obs_dtype)
    extremes = np.stack([low, high]).astype(game.obs_dtype)
    out = features_of(game, np.concatenate([random, extremes]))
    assert np.isfinite(out).all()
    assert out.min() >= FEATURE_LOW and out.max() <= FEATURE_HIGH


def column(module, feature: str) -> int:
    return module.FEATURE_NAMES.index(feature)


def test_presages_cards_in_hand_and_seats_relations():
    from presages_env.games.presages import kernel as k

    game = get_game("presages")
    module = game.action_features
    obs, masks, states, seats = played("presages", 5, seed=4)
    out = features_of(game, obs)
    hand = obs[:, k.OBS_PLANES : k.OBS_PLANES + k.NUM_CARDS] == 1
    np.testing.assert_array_equal(out[:, : k.NUM_CARDS, column(module, "where:my_hand")], hand)
    for i in range(0, len(obs), 7):
        teams = game.teams(states[i])
        me = seats[i]
        for seat in range(5):
            row = out[i, k.SEAT_ACTION_BASE + seat]
            relation = "me" if seat == me else "partner" if teams[seat] == teams[me] else "opponent"
            assert row[column(module, f"seat:{relation}")] == 1
            assert row[column(module, f"seat:clockwise_{(seat - me) % 5}")] == 1
    absent = out[:, k.SEAT_ACTION_BASE + 5]  # no sixth seat at five players
    described = [not name.startswith(("kind:", "node:")) for name in module.FEATURE_NAMES]
    assert not absent[:, described].any()


def test_presages_bout_block_says_what_the_kernel_does_with_the_last_card_laid():
    """Laid last (no seat left empty), a ⏳ card's bout block is exact (no sampling: its
    yes-or-no outcomes are 0 or 1) and ``seat_card_discarded`` is what the kernel does with
    it when the bout ends."""
    from presages_env.core.header import HDR_TERMINAL
    from presages_env.games.presages import kernel as k
    from presages_env.games.presages.cards import IS_FLASH

    game = get_game("presages")
    module = game.action_features
    bout = [i for i, name in enumerate(module.FEATURE_NAMES) if name.startswith("bout:")]
    discarded = column(module, "bout:seat_card_discarded")
    obs, masks, states, seats = played("presages", 4, seed=7)
    out = features_of(game, obs)
    checked = {True: 0, False: 0}
    for i in np.flatnonzero(obs[:, k.OBS_NODE] == k.NODE_PLACE):
        fronts = obs[i, k.OBS_FRONT : k.OBS_FRONT + 4]
        if (fronts == 0).sum() != 1 or fronts[seats[i]] != 0:
            continue
        for action in np.flatnonzero(masks[i]):
            card = action - k.CARD_ACTION_BASE + 1
            if IS_FLASH[card]:
                continue
            row = out[i, action, bout]
            assert set(np.unique(row[[0, 1, 4]])) <= {0.0, 1.0}, row  # discarded, wins, starts
            after = states[i].copy()
            game.step(after, int(action), np.zeros(4, np.float32))
            if after[HDR_TERMINAL]:
                continue
            same_round = after[k.ROUND] == states[i][k.ROUND]
            start, count = (
                (k.DISCARD_LIST, k.DISCARD_COUNT)
                if same_round
                else (k.LAST_DISCARD_LIST, k.LAST_DISCARD_COUNT)
            )
            pile = after[start : start + int(after[count])]
            went = bool(card in pile)
            assert out[i, action, discarded] == went, (i, card)
            checked[went] += 1
    assert checked[True] >= 5 and checked[False] >= 5, checked


def test_presages_bout_block_describes_what_sets_the_table_and_nothing_else():
    """Cards of the hand where a card is laid, every legal option of Law's, Dream's, Wrath's
    and Jealousy's choices; all zero at every other decision."""
    from presages_env.games.presages import kernel as k

    game = get_game("presages")
    module = game.action_features
    bout = [i for i, name in enumerate(module.FEATURE_NAMES) if name.startswith("bout:")]
    obs, masks, states, seats = played("presages", 6, seed=8)
    out = features_of(game, obs)
    described = out[:, :, bout].any(axis=-1)
    nodes = obs[:, k.OBS_NODE]
    laying = (k.NODE_PLACE, k.NODE_WRATH_REPLACE, k.NODE_DREAM_REPLY, k.NODE_BETRAYAL_GIVE)
    choices = (k.NODE_LAW_DIR, k.NODE_DREAM_DEST, k.NODE_WRATH_PICK, k.NODE_JEALOUSY_PICK)
    elsewhere = ~np.isin(nodes, laying + choices)
    assert elsewhere.any() and not described[elsewhere].any()
    hand = obs[:, k.OBS_PLANES : k.OBS_PLANES + k.NUM_CARDS] == 1
    placing = nodes == k.NODE_PLACE
    np.testing.assert_array_equal(described[placing, : k.NUM_CARDS], hand[placing])
    choosing = np.isin(nodes, choices)
    assert choosing.sum() >= 5
    legal = masks[choosing].astype(bool)
    assert described[choosing][legal].all()


def test_president_give_back_and_pass():
    from presages_env.games.president import kernel as k

    game = get_game("president")
    module = game.action_features
    obs, masks, _, _ = played("president", 4, seed=5)
    out = features_of(game, obs)
    giving = obs[:, k.OBS_PHASE + k.PHASE_GIVE_BACK] == 1
    plays = out[:, 1:, column(module, "kind:give_back")]
    assert (plays == giving[:, None]).all()
    assert (out[:, 0, column(module, "kind:pass")] == 1).all()
    assert not out[:, 0, ~kind_columns(module)].any()


def test_aciliande_the_dealer_cannot_bid_the_total():
    from presages_env.games.aciliande import kernel as k

    game = get_game("aciliande")
    module = game.action_features
    obs, masks, _, _ = played("aciliande", 4, seed=6)
    out = features_of(game, obs)
    bidding = np.flatnonzero(obs[:, k.OBS_NODE + k.NODE_BID] == 1)
    dealer = bidding[obs[bidding, k.OBS_DEALER] == 1]  # the dealer is seat 0, relative
    assert dealer.size
    equals = out[
        dealer, k.ACT_BID : k.ACT_BID + k.MAX_TRICKS + 1, column(module, "total_bid:equals_tricks")
    ]
    legal = masks[dealer, k.ACT_BID : k.ACT_BID + k.MAX_TRICKS + 1] == 1
    assert not (equals.astype(bool) & legal).any()


def test_res_arcana_a_placement_describes_the_artifact_it_places():
    from presages_env.games.res_arcana import layout as lay

    game = get_game("res_arcana")
    module = game.action_features
    obs, _, _, _ = played("res_arcana", 3, seed=7)
    out = features_of(game, obs)
    block = [name.startswith("component:") for name in module.FEATURE_NAMES]
    artifacts = slice(lay.A_PLACE, lay.A_PLACE + 40)
    same = slice(lay.A_COMPONENT, lay.A_COMPONENT + 40)
    np.testing.assert_array_equal(out[:, artifacts][:, :, block], out[:, same][:, :, block])


def test_a_game_without_action_features_is_refused_at_definition():
    import types

    from presages_env.core.game import Game

    president = get_game("president")
    body = {
        name: getattr(president, name)
        for name in (
            "kernel",
            "validator",
            "viewer",
            "event_texts",
            "card_texts",
            "action_features",
        )
    }
    body |= {"state_dtype": np.int8, "layout_version": 2, "title": "Test game"}
    body["max_visible_events"] = lambda self, n, options: 1
    body |= {
        "heuristic": None,
        "world_sampler": None,
        "ships_checkpoint": False,
        "benchmarked": True,
    }
    body["reward_bounds"] = type(president).reward_bounds
    type("Complete", (Game,), body)  # accepted
    incomplete = types.SimpleNamespace(**vars(president.action_features))
    incomplete.FEATURE_NAMES = incomplete.FEATURE_NAMES[1:]  # one name short
    for module in (None, incomplete):
        with pytest.raises(TypeError, match="action_features"):
            type("Incomplete", (Game,), {**body, "action_features": module})
