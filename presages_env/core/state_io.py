"""Clone, save, load and replay games: a game is its state array, or its seed and actions.

Save format (version 2), little-endian::

    magic "PSGE" | format version u16 | game id u16 | layout version u16 | slot bytes u16
    | number of slots u32 | slots | BLAKE2b-128 digest of everything before it

``deserialize`` refuses another game, another format or layout version, truncated or
altered bytes, and then validates the state itself like every state from outside
(:mod:`presages_env.core.validation`): the digest only catches accidents, since anyone can
recompute it; the validation is what keeps a crafted file away from the kernels.

The core imports no game: ``serialize`` and ``deserialize`` are handed the game, or a
resolver from game id to game (:func:`presages_env.games.game_by_id` reads the registry)
when the bytes may hold any game.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from presages_env.core.actions import check_action
from presages_env.core.game import Game
from presages_env.core.header import HDR_GAME_ID
from presages_env.core.validation import checked_state

_MAGIC = b"PSGE"
FORMAT_VERSION = 2
_PREFIX = struct.Struct("<4sHHHHI")  # magic, format, game id, layout, slot bytes, slots
_DIGEST_SIZE = 16


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=_DIGEST_SIZE).digest()


# The game of a state, or what finds it from the game id in the state's header.
GameOrResolver = Game | Callable[[int], Game]


def _game_of(game: GameOrResolver, game_id: int) -> Game:
    if isinstance(game, Game):
        return game
    if not callable(game):
        raise TypeError(f"expected a Game or a resolver from game id to Game, got {game!r}")
    found = game(game_id)
    if not isinstance(found, Game) or found.game_id != game_id:
        raise ValueError(f"the resolver gave {found!r} for game id {game_id}")
    return found


def serialize(state: np.ndarray, game: GameOrResolver) -> bytes:
    """Bytes that :func:`deserialize` turns back into an identical state.

    ``game`` is the state's game, or a resolver from game id to game
    (:func:`presages_env.games.game_by_id`). The state is validated first, so only sound
    states are ever written.
    """
    if not isinstance(state, np.ndarray) or state.ndim != 1 or state.size <= HDR_GAME_ID:
        raise TypeError("serialize takes a game state: a 1-d numpy array")
    game = _game_of(game, int(state[HDR_GAME_ID]))
    state = checked_state(game, state)
    dtype = np.dtype(game.state_dtype).newbyteorder("<")
    body = (
        _PREFIX.pack(
            _MAGIC, FORMAT_VERSION, game.game_id, game.layout_version, dtype.itemsize, state.size
        )
        + state.astype(dtype).tobytes()
    )
    return body + _digest(body)


def deserialize(data: bytes, game: GameOrResolver) -> np.ndarray:
    """The validated state saved by :func:`serialize`.

    ``game``: the game the data must hold, or a resolver from the data's game id to its game
    (:func:`presages_env.games.game_by_id` reads a saved state of any registered game).
    Raises ``ValueError`` (``TypeError`` for data that is not bytes) saying what is wrong.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"deserialize takes bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) < _PREFIX.size + _DIGEST_SIZE or data[:4] != _MAGIC:
        raise ValueError("not a presages_env saved game")
    magic, version, game_id, layout, itemsize, size = _PREFIX.unpack_from(data)
    if version != FORMAT_VERSION:
        raise ValueError(
            f"saved with format version {version}; this library reads version {FORMAT_VERSION} "
            "(re-create the game from its seed and actions with state_io.replay)"
        )
    if isinstance(game, Game) and game_id != game.game_id:
        raise ValueError(f"the data holds game id {game_id}, not {game.name} ({game.game_id})")
    game = _game_of(game, game_id)
    if layout != game.layout_version:
        raise ValueError(
            f"the data has {game.name} state layout version {layout}; this library uses "
            f"version {game.layout_version} (re-create the game from its seed and actions)"
        )
    dtype = np.dtype(game.state_dtype).newbyteorder("<")
    if itemsize != dtype.itemsize:
        raise ValueError(f"the data has {itemsize}-byte slots; {game.name} uses {dtype.itemsize}")
    end = _PREFIX.size + itemsize * size
    if len(data) != end + _DIGEST_SIZE:
        raise ValueError(f"truncated or padded game data ({len(data)} bytes for {size} slots)")
    if _digest(data[:end]) != data[end:]:
        raise ValueError("corrupted game data: the checksum does not match")
    state = np.frombuffer(data, dtype=dtype, count=size, offset=_PREFIX.size)
    return checked_state(game, state.astype(game.state_dtype))


def apply_actions(
    game: Game,
    state: np.ndarray,
    actions: Iterable[Any],
    where: Callable[[np.ndarray], str] | None = None,
) -> np.ndarray:
    """Apply ``actions`` in order to ``state`` in place; returns the summed rewards.

    ``state`` is validated first. Each action is checked against the current mask: an
    illegal one raises ``ValueError`` (naming the step and the legal actions) and ``state``
    is left as it was before the call. ``where(state)`` adds the game's own words for the
    decision, e.g. its node.
    """
    work = checked_state(game, state)
    n = game.num_players_of(work)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    total = np.zeros(n, dtype=np.float64)
    for index, action in enumerate(actions):
        if game.is_over(work):
            raise ValueError(
                f"action #{index} ({action!r}) comes after the end of the game (it is over)"
            )
        game.kernel.legal_mask(work, mask)
        try:
            action = check_action(action, mask, lambda a: game.action_label(work, a))
        except (TypeError, ValueError) as err:
            context = f" {where(work)}" if where is not None else ""
            raise type(err)(f"action #{index}{context}: {err}") from None
        game.kernel.step(work, np.int64(action), rewards)
        total += rewards
    state[:] = work
    return total


def replay(
    game: Game, num_players: int, seed: int, actions: Iterable[Any], **options: Any
) -> np.ndarray:
    """The state reached from the deal of ``seed`` by playing ``actions``."""
    state = game.new_state(num_players, seed, **options)
    apply_actions(game, state, actions)
    return state
