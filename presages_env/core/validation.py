"""Checking states that come from outside before any kernel sees them.

The kernels trust their state: numba does not bounds-check, so one corrupted slot used as an
index can crash the interpreter or write into a neighbouring array. Every entry point that
accepts a state from outside (``set_state``, ``reset(options={"state": ...})``,
``state_io.deserialize``/``apply_actions``, the search agent, ``setup_position``, the checked
``Game`` kernels) calls :func:`checked_state`, which refuses a bad state with an
:class:`InvalidStateError` naming the first bad slot, before anything is mutated.

The checks run in three layers, so a game cannot forget the shared ones:

1. the container and the header (dtype, shape, game id, player count, terminal flag, seat to
   act, the bytes of the step counter, RNG and seed, and their values) — here, for every game;
2. the game's own layout — the game module's ``validate_state(state)``, written once next to
   its kernel, which uses :class:`SlotReader` to report slots by name; by the time it runs
   the header is known to be sound;
3. the options read back through the game's ``read_options``/``validate_options``, and, unless
   the game is over, at least one legal action in the game's own ``legal_mask`` — here again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from presages_env.core.header import (
    HDR_CURRENT,
    HDR_GAME_ID,
    HDR_NUM_PLAYERS,
    HDR_RNG,
    HDR_SEED,
    HDR_STEP,
    HDR_TERMINAL,
    HEADER_SIZE,
    RNG_SLOTS,
    SEED_SLOTS,
    STEP_SLOTS,
    TRUNCATED,
    WIDE_HIGH,
    WIDE_LOW,
)

if TYPE_CHECKING:
    from presages_env.core.game import Game

# Decisions counted in the header's step field; far beyond any game's longest match.
MAX_STEP = 2**31 - 1
SEED_MAX = 2**63 - 1


class InvalidStateError(ValueError):
    """A state refused by validation; ``slot`` names the first bad slot."""

    def __init__(self, slot: str, value: Any, reason: str) -> None:
        self.slot = slot
        self.value = value
        self.reason = reason
        super().__init__(f"invalid state: {slot} = {value!r}: {reason}")


class SlotReader:
    """Named, range-checked reads of one state's slots (as Python ints).

    A game's ``validate_state`` reads every slot through it, so that the first bad value is
    reported as ``NAME[i] = value: why`` with the layout's own names.
    """

    def __init__(self, state: np.ndarray) -> None:
        self.values: list[int] = state.tolist()

    def __getitem__(self, offset: int) -> int:
        return self.values[offset]

    def fail(self, slot: str, value: Any, reason: str) -> None:
        raise InvalidStateError(slot, value, reason)

    def require(self, ok: bool, slot: str, value: Any, reason: str) -> None:
        if not ok:
            raise InvalidStateError(slot, value, reason)

    def one(self, name: str, offset: int, low: int, high: int) -> int:
        """The slot at ``offset``, checked to lie in ``[low, high]``."""
        value = self.values[offset]
        if not low <= value <= high:
            raise InvalidStateError(name, value, f"must be in [{low}, {high}]")
        return value

    def many(self, name: str, offset: int, count: int, low: int, high: int) -> list[int]:
        """``count`` consecutive slots ``name[0..count)``, each in ``[low, high]``."""
        values = self.values[offset : offset + count]
        for i, value in enumerate(values):
            if not low <= value <= high:
                raise InvalidStateError(f"{name}[{i}]", value, f"must be in [{low}, {high}]")
        return values

    def zeros(self, name: str, offset: int, count: int) -> None:
        """Slots that must be 0 (unused entries of arrays sized for the largest table)."""
        self.many(name, offset, count, 0, 0)

    def wide(self, name: str, offset: int, slots: int, low: int, high: int) -> int:
        """The value of the wide field ``state[offset:offset + slots]`` (one byte per slot,
        least significant first, see :mod:`presages_env.core.header`), checked to lie in
        ``[low, high]``; each slot must hold its byte as a value in ``[-128, 127]``."""
        data = self.many(name, offset, slots, WIDE_LOW, WIDE_HIGH)
        value = int.from_bytes(bytes(b & 0xFF for b in data), "little")
        if not low <= value <= high:
            raise InvalidStateError(name, value, f"must be in [{low}, {high}]")
        return value

    def one_of(self, name: str, offset: int, allowed: Sequence[int]) -> int:
        value = self.values[offset]
        if value not in allowed:
            raise InvalidStateError(name, value, f"must be one of {sorted(allowed)}")
        return value


def check_state_array(game: Game, state: Any, num_players: int | None = None) -> np.ndarray:
    """Layer 1: a contiguous copy of ``state`` if its container and header are sound."""
    if not isinstance(state, np.ndarray):
        raise TypeError(f"a {game.name} state is a numpy array, got {type(state).__name__}")
    if state.dtype != game.state_dtype:
        raise TypeError(
            f"a {game.name} state has dtype {np.dtype(game.state_dtype).name}, got "
            f"{state.dtype} (states are never cast: a cast can turn a bad value into a valid one)"
        )
    if state.ndim != 1 or state.size < HEADER_SIZE:
        raise ValueError(f"a {game.name} state is a 1-d array, got shape {state.shape}")
    state = np.array(state, dtype=game.state_dtype, copy=True, order="C")
    reader = SlotReader(state[:HEADER_SIZE])
    reader.one_of("HDR_GAME_ID", HDR_GAME_ID, [game.game_id])
    n = reader.one("HDR_NUM_PLAYERS", HDR_NUM_PLAYERS, game.min_players, game.max_players)
    if num_players is not None and n != num_players:
        raise InvalidStateError("HDR_NUM_PLAYERS", n, f"this env plays {num_players} players")
    size = game.state_size(n)
    if state.size != size:
        raise ValueError(
            f"a {n}-player {game.name} state has {size} slots, got {state.size} "
            f"(shape {state.shape})"
        )
    # only a game with a step cap of its own may end truncated (HDR_TERMINAL = TRUNCATED)
    terminal = reader.one(
        "HDR_TERMINAL", HDR_TERMINAL, 0, TRUNCATED if game.truncates_itself else 1
    )
    if terminal:
        reader.one("HDR_CURRENT", HDR_CURRENT, -1, -1)
    else:
        reader.one("HDR_CURRENT", HDR_CURRENT, 0, n - 1)
    reader.wide("HDR_STEP", HDR_STEP, STEP_SLOTS, 0, MAX_STEP)
    reader.wide("HDR_RNG", HDR_RNG, RNG_SLOTS, 0, 2**64 - 1)
    reader.wide("HDR_SEED", HDR_SEED, SEED_SLOTS, 0, SEED_MAX)
    return state


def check_options(game: Game, state: np.ndarray) -> None:
    """The options written in ``state`` read back and pass the game's option checks."""
    try:
        options = game.read_options(state)
    except (KeyError, IndexError, ValueError) as err:
        raise InvalidStateError("options", None, f"cannot be read back ({err})") from None
    try:
        game.validate_options(int(state[HDR_NUM_PLAYERS]), options)
    except (TypeError, ValueError) as err:
        raise InvalidStateError("options", options, str(err)) from None


def checked_state(game: Game, state: Any, num_players: int | None = None) -> np.ndarray:
    """A validated private copy of ``state``; raises before anything is mutated.

    ``TypeError`` for a wrong container or dtype, ``ValueError`` (an
    :class:`InvalidStateError` when a slot is to blame) for anything else.
    """
    state = check_state_array(game, state, num_players)
    game.validate_state(state)
    check_options(game, state)
    if not state[HDR_TERMINAL]:
        mask = np.zeros(game.num_actions(int(state[HDR_NUM_PLAYERS])), dtype=np.int8)
        game.kernel.legal_mask(state, mask)
        if not mask.any():
            raise InvalidStateError(
                "HDR_CURRENT", int(state[HDR_CURRENT]), "the seat to act has no legal action"
            )
    return state


# ---- seeds and arrays: the same rule at every entry point ------------------------------------


def check_seed(seed: Any, name: str = "seed") -> int:
    """``seed`` as a Python int: an int or NumPy integer in ``[0, 2**63 - 1]``."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"{name} must be an int in [0, 2**63 - 1], got {type(seed).__name__}")
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"{name} must be in [0, 2**63 - 1], got {seed}")
    return int(seed)


def check_int(value: Any, name: str, low: int, high: int | None = None) -> int:
    """``value`` as a Python int in ``[low, high]`` (no bools, no floats)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"[{low}, {high}]" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be {bound}, got {value}")
    return int(value)


def check_array(value: Any, name: str, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """``value`` itself if it is a NumPy array of exactly ``shape`` and ``dtype``.

    Used for arrays a kernel writes into or reads indices from: nothing is cast or copied,
    so a wrong array is refused rather than silently reinterpreted.
    """
    if not isinstance(value, np.ndarray):
        raise TypeError(f"{name} must be a numpy array, got {type(value).__name__}")
    if value.dtype != dtype:
        raise TypeError(f"{name} must have dtype {np.dtype(dtype).name}, got {value.dtype}")
    if value.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {value.shape}")
    if not value.flags.c_contiguous or not value.flags.writeable:
        raise ValueError(f"{name} must be a writeable C-contiguous array")
    return value


def check_actions(actions: Any, num_envs: int) -> np.ndarray:
    """One action per game as ``int64``, refusing any input whose cast could change a value.

    Cheap enough for the vector env's hot path: the range (``[-1, A)``, -1 skips a game) and
    legality are checked by the batched kernel before any game moves. A ``uint64`` above
    ``2**63 - 1`` is refused here rather than wrapped to a negative "skip".
    """
    if type(actions) is not np.ndarray:
        actions = np.asarray(actions)
    kind = actions.dtype.kind
    if actions.shape != (num_envs,) or kind not in "iu":
        raise TypeError(
            f"actions must be an integer array of shape ({num_envs},), "
            f"got {actions.dtype} {actions.shape}"
        )
    if kind == "u" and actions.dtype.itemsize == 8 and actions.size and actions.max() > SEED_MAX:
        bad = int(np.argmax(actions > SEED_MAX))
        raise ValueError(f"action {actions[bad]} of game {bad} is out of range")
    return actions if actions.dtype == np.int64 else actions.astype(np.int64)
