"""Clone, save, load and replay games: a game is its state array, or its seed and actions."""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from presages_env.core.actions import check_action
from presages_env.core.game import Game
from presages_env.core.header import HDR_GAME_ID, HDR_NUM_PLAYERS, HEADER_SIZE

_MAGIC = b"PSGE"
_FORMAT_VERSION = 1
_PREFIX = struct.Struct("<4sHHq")  # magic, format version, game id, number of slots


def serialize(state: np.ndarray) -> bytes:
    """Bytes that :func:`deserialize` turns back into an identical state."""
    state = np.ascontiguousarray(state, dtype="<i8")
    prefix = _PREFIX.pack(_MAGIC, _FORMAT_VERSION, int(state[HDR_GAME_ID]), state.size)
    return prefix + state.tobytes()


def deserialize(data: bytes, game: Game | None = None) -> np.ndarray:
    """The state saved by :func:`serialize`; checks it belongs to ``game`` if given."""
    if len(data) < _PREFIX.size:
        raise ValueError("not a presages_env game: too short")
    magic, version, game_id, size = _PREFIX.unpack_from(data)
    if magic != _MAGIC or version != _FORMAT_VERSION:
        raise ValueError(f"not a presages_env game (format {magic!r} v{version})")
    if len(data) != _PREFIX.size + 8 * size or size < HEADER_SIZE:
        raise ValueError("truncated or corrupted game data")
    state = np.frombuffer(data, dtype="<i8", offset=_PREFIX.size).astype(np.int64)
    if game is not None:
        if game_id != game.game_id or state[HDR_GAME_ID] != game.game_id:
            raise ValueError(f"the data holds game id {game_id}, not {game.name}")
        n = int(state[HDR_NUM_PLAYERS])
        if not game.min_players <= n <= game.max_players:
            raise ValueError(
                f"the data claims {n} players; {game.name} has {game.min_players}"
                f" to {game.max_players}"
            )
        if size != game.state_size(n):
            raise ValueError(f"the data does not have the size of a {game.name} state")
    return state


def apply_actions(
    game: Game,
    state: np.ndarray,
    actions: Iterable[Any],
    where: Callable[[np.ndarray], str] | None = None,
) -> np.ndarray:
    """Apply ``actions`` in order to ``state`` in place; returns the summed rewards.

    Each action is checked against the current mask first: an illegal one raises
    ``ValueError`` (naming the step and the legal actions) before it touches the state.
    ``where(state)`` adds the game's own words for the decision, e.g. its node.
    """
    n = int(state[HDR_NUM_PLAYERS])
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    total = np.zeros(n, dtype=np.float64)
    for index, action in enumerate(actions):
        if game.is_over(state):
            raise ValueError(
                f"action #{index} ({action!r}) comes after the end of the game (it is over)"
            )
        game.legal_mask(state, mask)
        try:
            action = check_action(action, mask, lambda a: game.action_label(state, a))
        except (TypeError, ValueError) as err:
            context = f" {where(state)}" if where is not None else ""
            raise type(err)(f"action #{index}{context}: {err}") from None
        game.step(state, np.int64(action), rewards)
        total += rewards
    return total


def replay(
    game: Game, num_players: int, seed: int, actions: Iterable[Any], **options: Any
) -> np.ndarray:
    """The state reached from the deal of ``seed`` by playing ``actions``."""
    state = game.new_state(num_players, seed, **options)
    apply_actions(game, state, actions)
    return state
