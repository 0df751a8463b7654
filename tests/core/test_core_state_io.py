"""Saving, loading, cloning and replaying games (checked on Président)."""

from __future__ import annotations

import hashlib
import struct

import numpy as np
import pytest

import presages_env
from presages_env.core.header import (
    HDR_GAME_ID,
    HDR_NUM_PLAYERS,
    HDR_STEP,
    HDR_TERMINAL,
    seed_of,
    step_of,
)
from presages_env.core.state_io import apply_actions, deserialize, replay, serialize
from presages_env.games import game_by_id
from presages_env.games.president import kernel as k
from presages_env.games.president.game import PresidentGame

GAME = PresidentGame()
PREFIX = struct.Struct("<4sHHHHI")  # the documented save-format prefix
SLOT = np.dtype(GAME.state_dtype).itemsize


def legal_actions(state: np.ndarray) -> np.ndarray:
    mask = np.zeros(GAME.num_actions(GAME.num_players_of(state)), dtype=np.int8)
    GAME.legal_mask(state, mask)
    return np.flatnonzero(mask)


def play_randomly(state: np.ndarray, steps: int, seed: int = 0) -> list[int]:
    """Apply up to ``steps`` random legal actions in place; returns them."""
    rng = np.random.default_rng(seed)
    actions = []
    while len(actions) < steps and not GAME.is_over(state):
        action = int(rng.choice(legal_actions(state)))
        apply_actions(GAME, state, [action])
        actions.append(action)
    return actions


def mid_game(num_players: int = 4, steps: int = 40, **options) -> np.ndarray:
    state = GAME.new_state(num_players, seed=17, **options)
    play_randomly(state, steps)
    return state


# ---- serialisation ------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", [3, 4, 5, 6])
@pytest.mark.parametrize("steps", [0, 30, 10_000])
def test_serialize_round_trip(num_players, steps):
    state = mid_game(num_players, steps, num_manches=2)
    data = serialize(state, GAME)
    assert isinstance(data, bytes)
    for game in (game_by_id, GAME):
        loaded = deserialize(data, game)
        assert loaded.dtype == GAME.state_dtype
        np.testing.assert_array_equal(loaded, state)
        loaded[HDR_STEP] += 1  # the loaded state is an independent, writable array
    assert step_of(state) == step_of(deserialize(data, game_by_id))


def test_a_loaded_game_plays_on_exactly_like_the_original():
    state = mid_game(4, 25, num_manches=3)
    loaded = deserialize(serialize(state, GAME), GAME)
    actions = play_randomly(state, 400, seed=3)
    apply_actions(GAME, loaded, actions)
    np.testing.assert_array_equal(loaded, state)
    assert state[k.MANCHE] >= 1, "the game went through a new deal from its own RNG"


def corrupt(data: bytes, offset: int, replacement: bytes) -> bytes:
    return data[:offset] + replacement + data[offset + len(replacement) :]


def forge(state: np.ndarray, **fields) -> bytes:
    """Save-format bytes for any array, with a correct checksum: what an attacker can write."""
    values = {
        "version": 2,
        "game_id": GAME.game_id,
        "layout": GAME.layout_version,
        "itemsize": SLOT,
    }
    values.update(fields)
    prefix = PREFIX.pack(
        b"PSGE",
        values["version"],
        values["game_id"],
        values["layout"],
        values["itemsize"],
        fields.get("size", state.size),
    )
    body = prefix + state.astype(f"<i{values['itemsize']}").tobytes()
    return body + hashlib.blake2b(body, digest_size=16).digest()


def corruptions() -> dict[str, bytes]:
    state = mid_game()
    data = serialize(state, GAME)
    size_offset = PREFIX.size - 4
    return {
        "empty": b"",
        "prefix only, cut": data[: PREFIX.size - 1],
        "no state": data[: PREFIX.size],
        "last byte missing": data[:-1],
        "last slot missing": data[: -16 - SLOT] + data[-16:],
        "one byte extra": data + b"\x00",
        "one slot byte flipped": corrupt(data, PREFIX.size + SLOT * k.HAND, b"\x07"),
        "checksum altered": corrupt(data, len(data) - 1, bytes([data[-1] ^ 1])),
        "bad magic": corrupt(data, 0, b"XXXX"),
        "format version 1": forge(state, version=1),
        "future format version": forge(state, version=99),
        "old layout": forge(state, layout=GAME.layout_version + 7),
        "other slot width": forge(state, itemsize=8),
        "size too big": corrupt(data, size_offset, struct.pack("<I", 10**6)),
        "size below header": forge(state[:2], size=2),
        "not a president state size": forge(state[:-1]),
        "text": b"hello, this is not a game at all",
    }


@pytest.mark.parametrize("name", sorted(corruptions()))
def test_corrupted_or_truncated_data_is_refused(name):
    data = corruptions()[name]
    with pytest.raises(ValueError):
        deserialize(data, game_by_id)
    with pytest.raises(ValueError):
        deserialize(data, GAME)


def test_the_refusals_say_what_is_wrong():
    state = mid_game()
    data = serialize(state, GAME)
    with pytest.raises(ValueError, match="checksum"):
        deserialize(corrupt(data, PREFIX.size + SLOT * k.HAND, b"\x07"), game_by_id)
    with pytest.raises(ValueError, match="format version 1"):
        deserialize(forge(state, version=1), game_by_id)
    with pytest.raises(ValueError, match="layout version 8"):
        deserialize(forge(state, layout=8), game_by_id)
    with pytest.raises(ValueError, match="truncated"):
        deserialize(data[:-1], game_by_id)
    with pytest.raises(TypeError, match="bytes"):
        deserialize(state, game_by_id)


def test_data_of_another_game_is_refused():
    data = serialize(mid_game(), GAME)
    other_game_id = corrupt(data, 6, struct.pack("<H", GAME.game_id + 1))
    with pytest.raises(ValueError, match="president"):
        deserialize(other_game_id, GAME)
    with pytest.raises(ValueError):
        deserialize(other_game_id, game_by_id)


@pytest.mark.parametrize(
    ("slot", "value"),
    [(HDR_NUM_PLAYERS, 9), (HDR_NUM_PLAYERS, 0), (HDR_GAME_ID, 2), (k.TOP_RANK, 100)],
)
def test_a_forged_state_with_a_valid_checksum_is_still_validated(slot, value):
    """A loaded state goes to unchecked kernels: the checksum is no defence, validation is."""
    state = mid_game()
    state[slot] = value
    with pytest.raises(ValueError):
        deserialize(forge(state), GAME)
    with pytest.raises(ValueError):
        serialize(state, GAME)  # only sound states are ever written


# ---- replay -------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", [3, 4, 5, 6])
def test_replay_reproduces_a_recorded_aec_game(num_players):
    env = presages_env.make("president", num_players=num_players, num_manches=2)
    env.reset(seed=num_players)
    seed = seed_of(env.get_state())
    rng = np.random.default_rng(num_players)
    actions, midway = [], None
    while not any(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        actions.append(int(rng.choice(np.flatnonzero(mask))))
        env.step(actions[-1])
        if len(actions) == 50:
            midway = env.get_state()
    final = env.get_state()
    assert final[HDR_TERMINAL] == 1
    replayed = replay(GAME, num_players, seed, actions, num_manches=2)
    np.testing.assert_array_equal(replayed, final)
    np.testing.assert_array_equal(
        replay(GAME, num_players, seed, actions[:50], num_manches=2), midway
    )


def test_replay_with_other_options_differs():
    state = GAME.new_state(4, 5, num_manches=2)
    actions = play_randomly(state, 10)
    assert not np.array_equal(replay(GAME, 4, 5, actions, num_manches=3), state)


def test_apply_actions_with_an_illegal_action_changes_nothing():
    state = GAME.new_state(4, 8)
    actions = play_randomly(state.copy(), 6)
    after_four = state.copy()
    apply_actions(GAME, after_four, actions[:4])
    illegal = int(np.setdiff1d(np.arange(k.NUM_ACTIONS), legal_actions(after_four))[0])
    before = state.copy()
    with pytest.raises(ValueError, match="action #4"):
        apply_actions(GAME, state, actions[:4] + [illegal] + actions[5:])
    np.testing.assert_array_equal(state, before)


@pytest.mark.parametrize("bad", [1.5, "0", None, True])
def test_apply_actions_refuses_wrongly_typed_actions(bad):
    state = GAME.new_state(4, 8)
    before = state.copy()
    with pytest.raises(TypeError, match="action #0"):
        apply_actions(GAME, state, [bad])
    np.testing.assert_array_equal(state, before)


def test_apply_actions_returns_the_summed_rewards():
    state = GAME.new_state(3, 21, num_manches=2, reward_scheme="points")
    actions = play_randomly(state.copy(), 10_000)
    total = apply_actions(GAME, state, actions)
    assert total.tolist() == [int(x) for x in state[k.SCORE : k.SCORE + 3]]
    assert total.sum() == 6


# ---- clones -------------------------------------------------------------------------------
def test_env_states_are_copies_both_ways():
    env = presages_env.make("president", num_players=4)
    env.reset(seed=6)
    taken = env.get_state()
    taken[k.HAND : k.HAND + 13] = 0
    assert env.get_state()[k.HAND : k.HAND + 13].any()
    given = GAME.new_state(4, 7)
    env.set_state(given)
    given[:] = 0
    np.testing.assert_array_equal(env.get_state(), GAME.new_state(4, 7))


def test_a_clone_is_independent_and_shares_the_future_deals():
    original = mid_game(5, 30, num_manches=2)
    clone = original.copy()
    rng = np.random.default_rng(11)
    manche_before = int(original[k.MANCHE])
    while int(original[k.MANCHE]) == manche_before:
        action = int(rng.choice(legal_actions(original)))
        apply_actions(GAME, original, [action])
        assert step_of(clone) == step_of(original) - 1, "stepping the original moved the clone"
        apply_actions(GAME, clone, [action])
    np.testing.assert_array_equal(clone, original)
    assert int(original[k.MANCHE]) == manche_before + 1
