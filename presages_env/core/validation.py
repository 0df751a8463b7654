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
   the header is known to be sound — then the pending decision, here for every game: its
   signature must be one the kernel produces (:func:`check_decision`);
3. the options read back through the game's ``read_options``/``validate_options``, and, unless
   the game is over, at least one legal action in the game's own ``legal_mask`` — here again.
"""

from __future__ import annotations

import dataclasses
import operator
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from presages_env.core.decisions import TABLE_FILE, known_signatures
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
from presages_env.core.options import allowed, decode_option, slot_name

if TYPE_CHECKING:
    from presages_env.core.game import Game

# Decisions counted in the header's step field; far beyond any game's longest match. A step
# cap (``max_steps``) is at most this: a larger one could never be reached.
MAX_STEP = 2**31 - 1
SEED_MAX = 2**63 - 1
# Games in one batch (``num_envs``): 4x the benchmarks' largest batch; a Res Arcana batch
# this size holds about 200 MB. More games run as several envs.
MAX_NUM_ENVS = 2**16
# Games one evaluation call plays (``num_games``): its per-game result arrays stay small.
MAX_NUM_GAMES = 10**6


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


def check_decision(game: Game, state: np.ndarray) -> None:
    """Layer 2, for every game: the pending decision (node, stage, what a choice is for, the
    card that asked, who decides) is a combination the kernel itself produces
    (:mod:`presages_env.core.decisions`); the layout is already known to be sound."""
    if state[HDR_TERMINAL]:
        return  # no decision is pending; the layout checks say what a finished game holds
    validator = game.validator
    signature = validator.decision_signature(state)
    if signature not in known_signatures(game):
        fields = ", ".join(
            f"{name}={value}"
            for name, value in zip(validator.DECISION_FIELDS, signature, strict=True)
        )
        raise InvalidStateError(
            "pending decision", fields, f"no {game.name} play reaches it (see {TABLE_FILE})"
        )


def check_option_slots(game: Game, state: np.ndarray) -> None:
    """For a game whose options lie one per ``OPT_<NAME>`` slot (core/options.py): each slot
    holds a value of its option's range at the state's player count, checked before the
    game's ``validate_state``, which may then trust them; the first bad one is named."""
    offsets = game.option_slots()
    if offsets is None:
        return
    n = int(state[HDR_NUM_PLAYERS])
    for offset, (name, draw) in zip(offsets, game.option_space.items(), strict=True):
        stored = int(state[offset])
        try:
            value = decode_option(draw, stored)
            if draw.accepts is not None and not draw.accepts(value, n):
                raise ValueError(f"{name} must be {allowed(draw, n)}")
        except ValueError as err:
            raise InvalidStateError(slot_name(name), stored, str(err)) from None


def check_same_options(game: Game, state: np.ndarray, options: Any) -> None:
    """``state`` carries exactly ``options`` (an env's): a state dealt with other options
    would make the env report the wrong ones and outgrow bounds sized from them (the
    information state's length). Both are compared as ``read_options`` gives them back."""
    expected = game.read_options(game.blank_state(int(state[HDR_NUM_PLAYERS]), options))
    found = game.read_options(state)
    for name in (f.name for f in dataclasses.fields(found)):
        if getattr(found, name) != getattr(expected, name):
            raise InvalidStateError(
                f"option {name}",
                getattr(found, name),
                f"this env plays {name}={getattr(expected, name)!r} "
                "(make an env with the state's options)",
            )


def checked_state(
    game: Game, state: Any, num_players: int | None = None, options: Any = None
) -> np.ndarray:
    """A validated private copy of ``state``; raises before anything is mutated.

    ``TypeError`` for a wrong container or dtype, ``ValueError`` (an
    :class:`InvalidStateError` when a slot is to blame) for anything else. An env passes
    its ``num_players`` and ``options``: a state of another count or options is refused.
    """
    state = check_state_array(game, state, num_players)
    check_option_slots(game, state)
    game.validate_state(state)
    check_decision(game, state)
    check_options(game, state)
    if options is not None:
        check_same_options(game, state, options)
    if not state[HDR_TERMINAL]:
        mask = np.zeros(game.num_actions(int(state[HDR_NUM_PLAYERS])), dtype=np.int8)
        game.kernel.legal_mask(state, mask)
        if not mask.any():
            raise InvalidStateError(
                "HDR_CURRENT", int(state[HDR_CURRENT]), "the seat to act has no legal action"
            )
    return state


# ---- seeds and arrays: the same rule at every entry point ------------------------------------


def exact_int(value: Any, name: str, expected: str = "an int") -> int:
    """``value`` (an int or NumPy integer, never a bool) converted to a plain ``int``.

    The conversion comes first and callers check and pass on only what it returns:
    ``operator.index`` gives an ``int`` subclass's true value without calling its own
    ``__int__``, ``__index__`` or comparisons, which could report one value to a range
    check and hand another to a kernel.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be {expected}, got {type(value).__name__} {value!r:.80}")
    return operator.index(value)


def plain_ints(value: Any) -> Any:
    """``value`` with every integer in it (alone or in a list or tuple) made a plain ``int``
    by ``operator.index``; bools and anything else unchanged. Options pass through it before
    they are checked, so the value checked is the one written into a state."""
    if isinstance(value, (bool, np.bool_)):
        return value
    if isinstance(value, (int, np.integer)):
        return operator.index(value)
    if isinstance(value, tuple):
        return tuple(plain_ints(item) for item in value)
    if isinstance(value, list):
        return [plain_ints(item) for item in value]
    return value


def check_seed(seed: Any, name: str = "seed") -> int:
    """``seed`` as a plain int (:func:`exact_int`) in ``[0, 2**63 - 1]``."""
    seed = exact_int(seed, name, "an int in [0, 2**63 - 1]")
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"{name} must be in [0, 2**63 - 1], got {seed}")
    return seed


def optional_seed(seed: Any, name: str = "seed") -> int | None:
    """``None`` (draw a fresh seed, where an API allows it) or a seed by :func:`check_seed`."""
    return None if seed is None else check_seed(seed, name)


def offset_seed(seed: Any, offset: int) -> int:
    """``seed + offset`` wrapped into ``[0, 2**63 - 1]``: the seeds a run counts up from its
    own (opponents, workers) stay seeds even from the top of the range."""
    return (check_seed(seed) + offset) % (SEED_MAX + 1)


def check_seeds(seeds: Any, count: int, name: str = "seed") -> list[int]:
    """A list of ``count`` seeds (a vector env's, one per game), each by :func:`check_seed`."""
    if not isinstance(seeds, (list, tuple)):
        raise TypeError(f"{name} must be a list of {count} seeds, got {type(seeds).__name__}")
    if len(seeds) != count:
        raise ValueError(f"{name} must list {count} seeds (one per game), got {len(seeds)}")
    return [check_seed(s, f"{name}[{i}]") for i, s in enumerate(seeds)]


def vector_seed(seed: Any, num_envs: int) -> int | None:
    """The seed of a batch reset: ``None``, one seed, or Gymnasium's list of ``num_envs``
    seeds, whose first fixes the batch (game i depends on ``(seed, i)`` alone)."""
    if isinstance(seed, (list, tuple)):
        return check_seeds(seed, num_envs)[0]
    return optional_seed(seed)


def check_int(value: Any, name: str, low: int, high: int | None = None) -> int:
    """``value`` as a plain int (:func:`exact_int`) in ``[low, high]``."""
    value = exact_int(value, name)
    if value < low or (high is not None and value > high):
        bound = f"[{low}, {high}]" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be {bound}, got {value}")
    return value


# Digits a typed number may have (leading zeros aside): every seed and int64 fits in 19.
MAX_DECIMAL_DIGITS = 19


def parse_decimal(text: Any, name: str) -> int:
    """The non-negative integer a person typed: ASCII digits only (``str.isdigit`` also
    accepts '²' and other scripts' digits), at most :data:`MAX_DECIMAL_DIGITS` of them, so
    a long line is refused before it becomes a huge int. Ranges are the caller's to check."""
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a string of digits, got {type(text).__name__}")
    if not (text.isascii() and text.isdigit()):
        shown = text if len(text) <= 20 else text[:17] + "..."
        raise ValueError(f"{name} must be a number written with the digits 0-9, got {shown!r}")
    digits = text.lstrip("0") or "0"
    if len(digits) > MAX_DECIMAL_DIGITS:
        raise ValueError(
            f"{name} must have at most {MAX_DECIMAL_DIGITS} digits, got {len(digits):,}"
        )
    return int(digits)


def check_text(value: Any, name: str, max_length: int) -> str:
    """``value`` if it is a ``str`` of at most ``max_length`` characters that is valid
    Unicode: a lone surrogate (which JSON's ``\\ud800`` escape can produce) cannot be
    encoded, so it would fail later, when the text is written or shown."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__}")
    if len(value) > max_length:
        raise ValueError(f"{name} must be at most {max_length} characters, got {len(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError(f"{name} is not valid Unicode text: {err.reason} at {err.start}") from None
    return value


# Characters a shown name may not hold: controls (NUL, ESC and its terminal sequences),
# format characters (bidi overrides and isolates, marks, zero-width characters, tags) and line
# or paragraph separators: each can hide text or make one name read as another.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
ZERO_WIDTH_JOINER = "\u200d"


def check_display_name(value: Any, name: str, max_length: int) -> str:
    """``value``, a name shown to other people (a seat's, an agent's in a record), in NFC
    (so two spellings of one name are one), if it is text (:func:`check_text`) holding no
    control or format character; a zero-width joiner inside an emoji sequence (👩🏽‍💻)
    is kept. The refusal names the field and the character as U+XXXX."""
    text = unicodedata.normalize("NFC", check_text(value, name, max_length))
    check_text(text, name, max_length)  # a composition may lengthen it
    for index, char in enumerate(text):
        if unicodedata.category(char) in HIDDEN_CATEGORIES and not _joins_emoji(text, index):
            what = unicodedata.name(char, "a control character")
            raise ValueError(
                f"{name} {text!r:.60} holds U+{ord(char):04X} ({what}); a name may hold no "
                "control or format character"
            )
    return text


def _joins_emoji(text: str, index: int) -> bool:
    """Whether ``text[index]`` is a zero-width joiner between two emoji (a symbol, or one
    with its skin tone or presentation selector, then a symbol)."""
    if text[index] != ZERO_WIDTH_JOINER or not 0 < index < len(text) - 1:
        return False
    before, after = text[index - 1], text[index + 1]
    return unicodedata.category(after) == "So" and (
        before == "\ufe0f" or unicodedata.category(before) in ("So", "Sk")
    )


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
