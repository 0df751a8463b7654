"""The compact state layout: narrow slots, wide header fields, dtypes refused, never cast."""

from __future__ import annotations

import hashlib
import struct

import numpy as np
import pytest

import presages_env
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_RNG,
    HDR_SEED,
    HDR_STEP,
    HDR_TERMINAL,
    HEADER_SIZE,
    RNG_SLOTS,
    SEED_SLOTS,
    STEP_SLOTS,
    count_step,
    load_wide,
    read_seed,
    read_step,
    rng_of,
    seed_of,
    set_step,
    step_of,
    store_wide,
    wide_slots,
    wide_value,
    write_seed,
)
from presages_env.core.rng import rng_below, rng_get, rng_next, rng_seed, rng_set, rng_shuffle
from presages_env.core.state_io import deserialize, serialize
from presages_env.core.validation import InvalidStateError, check_state_array
from presages_env.games import GAME_CLASSES, game_by_id, get_game

DTYPES = [np.int8, np.int16, np.int32, np.int64]
GAMES = sorted(GAME_CLASSES)
_MIX1, _MIX2, _GOLDEN = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB, 0x9E3779B97F4A7C15
M64 = 2**64 - 1


def reference_draws(seed: int, count: int) -> list[int]:
    """splitmix64 in plain Python, seeded like ``rng_seed``: what the header RNG must give."""

    def mix(z: int) -> int:
        z = ((z ^ (z >> 30)) * _MIX1) & M64
        z = ((z ^ (z >> 27)) * _MIX2) & M64
        return z ^ (z >> 31)

    state = mix((seed & M64) ^ _GOLDEN) >> 1
    out = []
    for _ in range(count):
        state = (state + _GOLDEN) & M64
        out.append(mix(state))
    return out


# ---- wide fields ---------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_wide_fields_round_trip_in_every_dtype(dtype):
    rng = np.random.default_rng(0)
    values = [0, 1, 127, 128, 255, 256, 2**31 - 1, 2**63 - 1, 2**64 - 1]
    values += [int(x) for x in rng.integers(0, 2**63, 50, dtype=np.int64)]
    for value in values:
        state = np.zeros(HEADER_SIZE, dtype=dtype)
        store_wide(state, HDR_RNG, RNG_SLOTS, np.uint64(value))
        assert int(load_wide(state, HDR_RNG, RNG_SLOTS)) == value
        assert wide_value(state, HDR_RNG, RNG_SLOTS) == value == rng_of(state)
        assert state[HDR_RNG : HDR_RNG + RNG_SLOTS].tolist() == wide_slots(value, RNG_SLOTS)
        assert ((state >= -128) & (state <= 127)).all(), "a slot holds a signed byte"
        # an int8 state holds exactly the little-endian bytes
        raw = state[HDR_RNG : HDR_RNG + RNG_SLOTS].astype(np.int8).tobytes()
        assert int.from_bytes(raw, "little") == value


@pytest.mark.parametrize("dtype", DTYPES)
def test_step_counter_carries_across_slots(dtype):
    state = np.zeros(HEADER_SIZE, dtype=dtype)
    for start in (0, 126, 127, 255, 65_535, 2**24 - 1, 2**31 - 2):
        set_step(state, start)
        assert read_step(state) == start == step_of(state)
        count_step(state)
        assert read_step(state) == start + 1 == step_of(state)
    assert state[:HDR_STEP].tolist() == [0] * HDR_STEP, "the counter stays in its slots"
    assert state[HDR_STEP + STEP_SLOTS :].tolist() == [0] * (HEADER_SIZE - HDR_STEP - STEP_SLOTS)


@pytest.mark.parametrize("dtype", DTYPES)
def test_seed_field(dtype):
    state = np.zeros(HEADER_SIZE, dtype=dtype)
    for seed in (0, 5, 2**40 + 3, 2**63 - 1):
        write_seed(state, np.int64(seed))
        assert read_seed(state) == seed == seed_of(state)


# ---- the RNG over narrow slots -------------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES)
def test_rng_gives_splitmix64_whatever_the_dtype(dtype):
    for seed in (0, 1, 42, 2**62 + 7):
        state = np.zeros(HEADER_SIZE, dtype=dtype)
        rng_seed(state, np.int64(seed))
        assert [int(rng_next(state)) for _ in range(20)] == reference_draws(seed, 20)


def test_rng_below_and_shuffle_agree_across_dtypes():
    def run(dtype):
        state = np.zeros(HEADER_SIZE + 52, dtype=dtype)
        rng_seed(state, np.int64(99))
        below = [int(rng_below(state, 7)) for _ in range(50)]
        deck = state[HEADER_SIZE:]
        deck[:] = np.arange(52)
        rng_shuffle(state, deck, 52)
        saved = rng_get(state)
        after = int(rng_next(state))
        rng_set(state, saved)
        assert int(rng_next(state)) == after, "a saved RNG state replays"
        return below, deck.tolist(), after

    results = [run(dtype) for dtype in DTYPES]
    assert all(r == results[0] for r in results)
    assert sorted(results[0][1]) == list(range(52))


def test_rng_shuffle_draws_like_rng_below():
    """The shuffle reads the RNG once and writes it back once, with the same draws."""
    state = np.zeros(HEADER_SIZE + 10, dtype=np.int8)
    rng_seed(state, np.int64(3))
    twin = state.copy()
    values = np.arange(10, dtype=np.int64)
    rng_shuffle(state, values, 10)
    expected = list(range(10))
    for i in range(9, 0, -1):
        j = int(rng_below(twin, i + 1))
        expected[i], expected[j] = expected[j], expected[i]
    assert values.tolist() == expected
    np.testing.assert_array_equal(state, twin)


# The games whose first layout was the old int64 one (version 1): their compact one is 2.
OLDER_THAN_THE_COMPACT_LAYOUT = ("presages", "president", "aciliande", "res_arcana", "kuhn_poker")


# ---- each game's dtype ---------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_a_narrow_dtype_and_the_compact_layout(name):
    game = get_game(name)
    assert np.dtype(game.state_dtype).itemsize <= 2
    assert game.state_dtype == game.kernel.STATE_DTYPE
    # The games older than the compact layout are at 2 or later; a new game starts at 1.
    assert game.layout_version >= (2 if game.name in OLDER_THAN_THE_COMPACT_LAYOUT else 1)
    state = game.new_state(game.default_players, 1)
    assert state.dtype == game.state_dtype
    vec = presages_env.make_vec(name, 4)
    assert vec.states.dtype == game.state_dtype
    env = presages_env.make(name)
    env.reset(seed=0)
    assert env.get_state().dtype == game.state_dtype


def test_the_dtypes_chosen():
    """int8 where every slot fits a byte; Aciliande's stake, pot and coins and Res Arcana's
    essence counts and step cap need int16."""
    assert get_game("president").state_dtype == np.int8
    assert get_game("presages").state_dtype == np.int8
    assert get_game("aciliande").state_dtype == np.int16
    assert get_game("res_arcana").state_dtype == np.int16


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("other", [np.int64, np.int32, np.uint8, np.float64])
def test_a_state_of_another_dtype_is_refused_never_cast(name, other):
    game = get_game(name)
    state = game.new_state(game.default_players, 3)
    if np.dtype(other) == np.dtype(game.state_dtype):
        return
    with pytest.raises(TypeError, match="never cast"):
        check_state_array(game, state.astype(other))
    env = presages_env.make(name)
    env.reset(seed=0)
    with pytest.raises(TypeError, match="never cast"):
        env.set_state(state.astype(other))
    with pytest.raises(TypeError, match="never cast"):
        game.step(state.astype(other), 0, np.zeros(game.default_players, np.float32))


# ---- header validation ----------------------------------------------------------------------
def valid_state(name: str = "aciliande") -> tuple:
    game = get_game(name)
    return game, game.new_state(game.default_players, 12)


@pytest.mark.parametrize(
    ("slot", "value", "field"),
    [
        (HDR_STEP, 200, "HDR_STEP"),  # a slot holding more than a byte (int16 state)
        (HDR_RNG + 3, -129, "HDR_RNG"),
        (HDR_SEED + 7, -1, "HDR_SEED"),  # seed >= 2**63
        (HDR_STEP + 3, -128, "HDR_STEP"),  # step >= 2**31
        (HDR_TERMINAL, 2, "HDR_TERMINAL"),
        (HDR_CURRENT, 7, "HDR_CURRENT"),
    ],
)
def test_the_header_is_checked_byte_by_byte(slot, value, field):
    game, state = valid_state()
    state[slot] = value
    with pytest.raises(InvalidStateError, match=field):
        check_state_array(game, state)


def test_any_rng_bytes_are_valid():
    game, state = valid_state("president")
    state[HDR_RNG : HDR_RNG + RNG_SLOTS] = -1
    check_state_array(game, state)
    state[HDR_SEED : HDR_SEED + SEED_SLOTS] = wide_slots(2**63 - 1, SEED_SLOTS)
    check_state_array(game, state)


# ---- saved states of the old layout ----------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_saves_of_the_int64_layout_are_refused_with_a_clear_message(name):
    game = get_game(name)
    if name not in OLDER_THAN_THE_COMPACT_LAYOUT:
        pytest.skip(f"{name} came after the int64 layout: no save of it has that layout")
    old = np.zeros(300, dtype="<i8")
    old[0], old[6] = game.default_players, game.game_id
    body = struct.pack("<4sHHHHI", b"PSGE", 2, game.game_id, 1, 8, old.size) + old.tobytes()
    data = body + hashlib.blake2b(body, digest_size=16).digest()
    expected = f"layout version 1; this library uses version {game.layout_version}"
    with pytest.raises(ValueError, match=expected):
        deserialize(data, game_by_id)
    with pytest.raises(ValueError, match="re-create the game from its seed and actions"):
        deserialize(data, game)


@pytest.mark.parametrize("name", GAMES)
def test_serialize_writes_the_narrow_slots(name):
    game = get_game(name)
    state = game.new_state(game.default_players, 8)
    data = serialize(state, game)
    width = np.dtype(game.state_dtype).itemsize
    assert struct.unpack_from("<H", data, 10)[0] == width
    assert len(data) == struct.calcsize("<4sHHHHI") + width * state.size + 16
    np.testing.assert_array_equal(deserialize(data, game_by_id), state)


# ---- no slot overflows: the narrow state computes exactly what a wide one does -----------------
LONG_GAMES = [
    ("president", 6, {"num_manches": 60, "reward_scheme": "points"}, 2),
    ("president", 3, {"num_manches": 60, "reward_scheme": "match"}, 2),
    ("presages", 4, {"round_reward": 1.0}, 20),
    ("presages", 5, {"reveal_all_hands_at_round_end": True, "round_reward": 0.999}, 20),
    ("presages", 6, {"pride_carries_into_next_round": True}, 20),
    ("aciliande", 7, {"stake": 1000, "lives": 99}, 1),
    ("aciliande", 6, {"stake": 1000, "lives": 99, "teams": True}, 1),
    ("aciliande", 3, {"stake": 997, "lives": 40}, 2),
    ("res_arcana", 2, {"places_of_power": "random"}, 3),
    ("res_arcana", 4, {"step_cap": 30000}, 2),
]


@pytest.mark.parametrize(("name", "players", "options", "games"), LONG_GAMES)
def test_narrow_and_int64_states_play_identically(name, players, options, games):
    """The kernels work on any integer dtype: running them on an int64 copy in lockstep shows
    that no value stored in the narrow state wrapped around, over whole games at the largest
    option values (the longest matches, the biggest pots)."""
    game = get_game(name)
    k = game.kernel
    rng = np.random.default_rng(players)
    longest = 0
    for g in range(games):
        narrow = game.new_state(players, 1000 + g, **options)
        wide = narrow.astype(np.int64)
        mask = np.zeros(game.num_actions(players), np.int8)
        rewards = np.zeros(players, np.float32)
        wide_rewards = np.zeros(players, np.float32)
        while not narrow[HDR_TERMINAL]:
            k.legal_mask(narrow, mask)
            action = np.int64(rng.choice(np.flatnonzero(mask)))
            k.step(narrow, action, rewards)
            k.step(wide, action, wide_rewards)
            np.testing.assert_array_equal(rewards, wide_rewards)
            np.testing.assert_array_equal(narrow.astype(np.int64), wide)
        longest = max(longest, step_of(narrow))
    if name == "aciliande" and players == 7:
        assert longest > 2**8, "the step counter carried into its second byte"
