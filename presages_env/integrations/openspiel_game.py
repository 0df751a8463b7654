"""Every game as a registered pyspiel Python game, built on the kernels (no rule written twice).

``pyspiel.load_game("presages_env_<game>", {"players": 4, ...options})`` loads one, once
:mod:`presages_env.openspiel` is imported (it registers the four games). A state keeps the
game's NumPy state array and calls the raw kernels on it: ``legal_mask`` for
``legal_actions``, ``step`` for ``apply_action`` (each action checked against the mask
first, by the one action check of :mod:`presages_env.core.actions`), ``observe`` and the
event log's information-state encoding for the observations.

**Chance.** Every game draws all its randomness — the deal and every later draw — from the
RNG in its state, seeded once by ``reset(state, seed)``. So the game's only chance event is
the seed, and the bridge models it honestly as ``seed_bytes`` chance nodes at the root, each
choosing one byte of the seed among 256 equiprobable outcomes (least significant first):
``256 ** seed_bytes`` equiprobable deals (default 4 bytes: 4,294,967,296; 1 to 7). This is
*sampled chance* for every game: a deal and the draws after it cannot be enumerated as
explicit chance nodes without writing the deal again outside the kernel (Présages and Res
Arcana also draw mid-game from decks whose order the deal fixed), so the bridge offers a
bounded, documented set of deals instead of the game's ``2**63`` seeds.

**Saving.** pyspiel serialises a Python state by pickling its attributes; the bridge's
state has one, whose pickled form is the game's name and parameters, the seed bytes, the
dealt start state (``state_io.serialize``) and the actions. Loading it deals the seed again,
refuses a start state that fails validation or is not that deal (``ValueError``), and
replays every action through the checked path. ``pyspiel.deserialize_game_and_state`` still
unpickles, which runs whatever a crafted string asks: load strings only from yourself, or
use :func:`deserialize_game_and_state`, which reads the same format without running code
and checks every line strictly first (the compiled games' saved histories too).
"""

from __future__ import annotations

import base64
import dataclasses
import io
import pickle
import re
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pyspiel

from presages_env.core import events as ev
from presages_env.core import state_io
from presages_env.core.actions import check_action
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL
from presages_env.core.validation import check_int
from presages_env.games import available_games, get_game

PREFIX = "presages_env_"
SEED_BYTES = "seed_bytes"
DEFAULT_SEED_BYTES = 4
MAX_SEED_BYTES = 7  # 256**7 seeds stay below the library's 2**63
BYTE_OUTCOMES = 256

_CHANCE_OUTCOMES = [(byte, 1.0 / BYTE_OUTCOMES) for byte in range(BYTE_OUTCOMES)]
_ZERO_SUM = pyspiel.GameType.Utility.ZERO_SUM
_GENERAL_SUM = pyspiel.GameType.Utility.GENERAL_SUM


# ---- parameters: the game's options as pyspiel parameters ---------------------------------
def _parameter_default(value: Any) -> Any:
    """An option's pyspiel default: bools, ints, floats and strings as they are; an option
    whose default is None is an int (0 = None); one whose default is a tuple is a string of
    "/"-separated ints ("" = the default). OpenSpiel's game strings read a bare number as
    an int and split on commas, so neither could round-trip as a string."""
    if value is None:
        return 0
    if isinstance(value, tuple):
        return ""
    return value.item() if isinstance(value, np.generic) else value


def parameter_specification(game: Game) -> dict[str, Any]:
    """Every pyspiel parameter of ``game`` with its default."""
    spec: dict[str, Any] = {"players": game.default_players, SEED_BYTES: DEFAULT_SEED_BYTES}
    for field in dataclasses.fields(game.Options):
        spec[field.name] = _parameter_default(field.default)
    return spec


def _parse_ints(name: str, text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"{name} must be '/'-separated integers, got {text!r}") from None


def game_options(game: Game, params: dict[str, Any]) -> dict[str, Any]:
    """The options (``Game.make_options`` keywords) that ``params`` set; unknown names and
    values of the wrong type are refused (``ValueError``/``TypeError``)."""
    spec = parameter_specification(game)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {PREFIX}{game.name}: {sorted(spec)}")
    options = {}
    for field in dataclasses.fields(game.Options):
        value = params.get(field.name, spec[field.name])
        default = spec[field.name]
        if type(value) is not type(default):
            raise TypeError(f"parameter {field.name} must be a {type(default).__name__}")
        if isinstance(field.default, tuple):
            if value:
                options[field.name] = _parse_ints(field.name, value)
        elif value != default:
            options[field.name] = value
    return options


def utility_bounds(game: Game, num_players: int, options: Any) -> tuple[Any, float, float]:
    """``(utility, min, max)`` of a game's returns with these options, from its
    :meth:`~presages_env.core.game.Game.reward_bounds`: zero-sum only where the kernels'
    float32 rewards cancel exactly (OpenSpiel checks sums to 1e-9)."""
    low, high, zero_sum = game.reward_bounds(num_players, options)
    return (_ZERO_SUM if zero_sum else _GENERAL_SUM), float(low), float(high)


def _game_type(game: Game, utility: Any) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=PREFIX + game.name,
        long_name=f"presages_env {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(game),
    )


@dataclasses.dataclass(frozen=True)
class _Setup:
    """What every state of one loaded game shares (never copied by a clone)."""

    game: Game
    short_name: str
    params: dict[str, Any]
    num_players: int
    options: Any
    seed_bytes: int
    template: np.ndarray  # header and options written, ready for the kernel's reset
    max_events: int


# ---- the game ----------------------------------------------------------------------------
def load_setup(name: str, params: dict[str, Any] | None) -> tuple[_Setup, Any, float, float]:
    """What one loaded game shares, and its ``(utility, min, max)``: ``params`` checked and
    completed with the defaults (``ValueError``/``TypeError`` on a bad one)."""
    game = get_game(name)
    params = dict(parameter_specification(game), **(params or {}))
    n = game.check_num_players(params["players"])
    seed_bytes = check_int(params[SEED_BYTES], SEED_BYTES, 1, MAX_SEED_BYTES)
    options = game.make_options(n, **game_options(game, _without(params)))
    utility, low, high = utility_bounds(game, n, options)
    setup = _Setup(
        game,
        PREFIX + name,
        params,
        n,
        options,
        seed_bytes,
        game.blank_state(n, options),
        game.max_visible_events(n, options),
    )
    return setup, utility, low, high


def max_game_length(setup: _Setup) -> int:
    """The game's own bound on its decisions (``Game.max_game_length``)."""
    return setup.game.max_game_length(setup.num_players, setup.options)


class CardGame(pyspiel.Game):
    """One of our games for OpenSpiel (``pyspiel.load_game`` makes it)."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        setup, utility, low, high = load_setup(name, params)
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.game.num_actions(setup.num_players),
            max_chance_outcomes=BYTE_OUTCOMES,
            num_players=setup.num_players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if utility == _ZERO_SUM else None,
            max_game_length=max_game_length(setup),
        )
        super().__init__(_game_type(setup.game, utility), info, setup.params)
        self.setup = setup

    def new_initial_state(self) -> CardGameState:
        return CardGameState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> InformationStateObserver | ObservationObserver:
        """The seat's information state (``perfect_recall``) or its observation; OpenSpiel
        asks for these two, other observation types are refused."""
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        single = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is None or (
            not iig_obs_type.perfect_recall and iig_obs_type.private_info == single
        ):
            return ObservationObserver(self.setup)
        if iig_obs_type.perfect_recall and iig_obs_type.private_info == single:
            return InformationStateObserver(self.setup)
        raise ValueError(f"observation type {iig_obs_type} is not provided")


def _without(params: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if k not in ("players", SEED_BYTES)}


# ---- a game in progress: what a state carries ----------------------------------------------
class Play:
    """The seed bytes drawn so far, then the game's state array and its actions.

    A state's one attribute: pyspiel clones a Python state by deep-copying its attributes
    and saves it by pickling them, so both go through :meth:`__deepcopy__` and
    :meth:`__reduce__`. The event log that information states read is replayed lazily, only
    when one is asked for, so plain play steps the plain kernel.
    """

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        self.kernel = setup.game.kernel
        self.seed_bytes: list[int] = []
        self.start: np.ndarray | None = None  # the deal, never written after it
        self.state: np.ndarray | None = None
        self.actions: list[int] = []
        self.rewards = np.zeros(setup.num_players, dtype=np.float32)
        self.returns = [0.0] * setup.num_players
        self.mask = np.zeros(setup.game.num_actions(setup.num_players), dtype=np.int8)
        self.mask_fresh = False
        # the game replayed with the event log, up to action ``logged_upto``: made when an
        # information state is first asked for
        self.logged: np.ndarray | None = None
        self.log: ev.EventLog | None = None
        self.logged_upto = 0

    # ---- playing ----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.state is None:
            return pyspiel.PlayerId.CHANCE
        if self.state[HDR_TERMINAL]:
            return pyspiel.PlayerId.TERMINAL
        return int(self.state[HDR_CURRENT])

    def legal_mask(self) -> np.ndarray:
        if not self.mask_fresh:
            self.kernel.legal_mask(self.state, self.mask)
            self.mask_fresh = True
        return self.mask

    def legal_actions(self) -> list[int]:
        return self.legal_mask().nonzero()[0].tolist()

    def apply(self, action: Any) -> None:
        """Apply a chance outcome (a seed byte) or the seat's action, checked first."""
        state = self.state
        if state is None:
            self._draw_seed_byte(check_int(action, "chance outcome", 0, BYTE_OUTCOMES - 1))
            return
        if state[HDR_TERMINAL]:
            raise ValueError(f"the {self.setup.game.name} game is over; no action can be applied")
        action = check_action(action, self.legal_mask(), self._label)
        self.kernel.step(state, action, self.rewards)
        self.mask_fresh = False
        self.actions.append(action)
        # Python floats: cheaper than NumPy for a handful of seats
        self.returns = [a + b for a, b in zip(self.returns, self.rewards.tolist(), strict=True)]

    def _draw_seed_byte(self, byte: int) -> None:
        self.seed_bytes.append(byte)
        if len(self.seed_bytes) == self.setup.seed_bytes:
            state = self.setup.template.copy()
            self.kernel.reset(state, np.int64(self.seed))
            self.start = state
            self.state = state.copy()

    @property
    def seed(self) -> int:
        return int.from_bytes(bytes(self.seed_bytes), "little")

    def _label(self, action: int) -> str:
        return self.setup.game.action_label(self.state, action)

    def action_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {len(self.seed_bytes)} = {action}"
        action = check_int(action, "action", 0, len(self.mask) - 1)
        if self.state is None or self.state[HDR_TERMINAL] or player != self.current_player():
            return f"action {action}"
        return f"{self._label(action)} (#{action})"

    def __str__(self) -> str:
        """Exact and cheap: a game is a pure function of its seed and actions."""
        if self.state is None:
            return f"{self.setup.short_name}: seed bytes {self.seed_bytes}"
        return f"{self.setup.short_name}: seed {self.seed}, actions {self.actions}"

    # ---- what a seat sees ------------------------------------------------------------
    def records(self) -> np.ndarray:
        """Every event of the game so far (the event log, replayed up to the last action)."""
        k = self.kernel
        if self.logged is None:
            self.logged = self.setup.template.copy()
            self.log = ev.EventLog(k.MAX_STEP_EVENTS)
            k.reset_logged(self.logged, np.int64(self.seed), self.log.buffer)
            self.log.collect()
            self.logged_upto = 0
        scratch = np.zeros_like(self.rewards)
        for action in self.actions[self.logged_upto :]:
            k.step_logged(self.logged, np.int64(action), scratch, self.log.buffer)
            self.log.collect()
        self.logged_upto = len(self.actions)
        return self.log.records

    def write_information_state(self, seat: int, out: np.ndarray) -> None:
        """The seat's information state (``events.encode_history``), as floats."""
        if self.state is None:
            out[:] = 0
            out[0] = seat
            return
        seen = ev.visible_to(self.records(), seat)
        ev.encode_history(seat, self._first_observation(seat), seen, out)

    def information_state_string(self, seat: int) -> str:
        """An exact key of the seat's information state: its first observation and the
        records it saw, as hex (``events(seat)`` of the AEC env words them for people)."""
        if self.state is None:
            return f"P{seat} before the deal"
        first = self._first_observation(seat)
        seen = ev.visible_to(self.records(), seat)
        return f"P{seat} {first.tobytes().hex()} {seen.tobytes().hex()}"

    def _first_observation(self, seat: int) -> np.ndarray:
        """What the seat observed right after the deal (an information state's start)."""
        return self._observe(self.start, seat)

    def observation(self, seat: int) -> np.ndarray:
        """The seat's observation now, in the game's ``obs_dtype`` (what our agents read)."""
        return self._observe(self.state, seat)

    def _observe(self, state: np.ndarray, seat: int) -> np.ndarray:
        game = self.setup.game
        obs = np.zeros(game.obs_size(self.setup.num_players), dtype=game.obs_dtype)
        self.kernel.observe(state, np.int64(seat), obs)
        return obs

    def write_observation(self, seat: int, out: np.ndarray) -> None:
        if self.state is None:
            out[:] = 0
            return
        out[:] = self.observation(seat)

    def observation_string(self, seat: int) -> str:
        """The seat's view as text, built from its observation alone (``game.view``)."""
        if self.state is None:
            return f"P{seat} before the deal"
        return self.setup.game.unchecked_view(self.state, seat).text()

    # ---- clone and save ----------------------------------------------------------------
    def __deepcopy__(self, memo: dict) -> Play:
        copy = Play.__new__(Play)
        copy.__dict__.update(self.__dict__)
        copy.seed_bytes = list(self.seed_bytes)
        copy.state = None if self.state is None else self.state.copy()
        copy.actions = list(self.actions)
        copy.rewards = self.rewards.copy()
        copy.mask = self.mask.copy()
        copy.logged = copy.log = None  # the clone replays its own log if asked
        return copy

    def __reduce__(self) -> tuple:
        start = b"" if self.start is None else state_io.serialize(self.start, self.setup.game)
        saved = (self.setup.short_name, dict(self.setup.params), tuple(self.seed_bytes), start)
        return (restore_play, (*saved, tuple(self.actions)))


def restore_play(
    short_name: str,
    params: dict[str, Any],
    seed_bytes: Iterable[int],
    start: bytes,
    actions: Iterable[int],
) -> Play:
    """A :class:`Play` from its saved form: the seed is dealt again, the saved start state
    is validated (``state_io.deserialize``) and must be that deal, and every action is
    replayed through the checked path. Raises ``ValueError``/``TypeError`` otherwise."""
    if not isinstance(short_name, str) or short_name not in _registered:
        raise ValueError(f"not a presages_env OpenSpiel game: {short_name!r}")
    if not isinstance(params, dict) or not isinstance(start, bytes):
        raise TypeError("a saved presages_env OpenSpiel state has a params dict and bytes")
    game = pyspiel.load_game(short_name, params)
    play = Play(game.setup)
    for byte in seed_bytes:
        play.apply(byte)
    if play.start is None:
        if start:
            raise ValueError("the saved state holds a start state before its deal")
    elif not np.array_equal(state_io.deserialize(start, game.setup.game), play.start):
        raise ValueError("the saved start state is not the deal of its seed")
    for action in actions:
        play.apply(action)
    return play


# ---- states ------------------------------------------------------------------------------
class CardGameState(pyspiel.State):
    """A game in progress; everything it knows is in ``self.play`` (a :class:`Play`)."""

    def __init__(self, game: CardGame) -> None:
        super().__init__(game)
        self.play = Play(game.setup)

    def current_player(self) -> int:
        return self.play.current_player()

    def is_terminal(self) -> bool:
        return self.play.state is not None and bool(self.play.state[HDR_TERMINAL])

    def _legal_actions(self, player: int) -> list[int]:
        return self.play.legal_actions()

    # legal_actions and is_chance_node answer Python callers here, as pyspiel's C++ would
    # (which reaches back into Python three times for them); C++ callers still go through
    # _legal_actions and current_player.
    def legal_actions(self, player: int | None = None) -> list[int]:
        current = self.play.current_player()
        if current == pyspiel.PlayerId.TERMINAL:
            return []
        if current == pyspiel.PlayerId.CHANCE:
            return list(range(BYTE_OUTCOMES))
        if player is not None and player != current:
            if not isinstance(player, int) or player < 0:
                raise ValueError(f"legal_actions of pseudo-player {player!r}")
            return []
        return self.play.legal_actions()

    def is_chance_node(self) -> bool:
        return self.play.state is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_CHANCE_OUTCOMES)

    def _apply_action(self, action: int) -> None:
        self.play.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.play.action_string(player, action)

    def rewards(self) -> list[float]:
        """Each seat's reward for the last transition (team games: its team's)."""
        if self.play.state is None:
            return [0.0] * self.play.setup.num_players
        return self.play.rewards.tolist()

    def returns(self) -> list[float]:
        """Each seat's rewards summed since the deal."""
        return list(self.play.returns)

    def __str__(self) -> str:
        return str(self.play)


# ---- observers (OpenSpiel's PyObserver interface) ------------------------------------------
class InformationStateObserver:
    """The seat's perfect-recall history: the AEC env's ``information_state`` encoding."""

    def __init__(self, setup: _Setup) -> None:
        obs_size = setup.game.obs_size(setup.num_players)
        size = ev.information_state_size(obs_size, setup.max_events)
        self.num_players = setup.num_players
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"information_state": self.tensor}

    def set_from(self, state: CardGameState, player: int) -> None:
        player = check_int(player, "player", 0, self.num_players - 1)
        state.play.write_information_state(player, self.tensor)

    def string_from(self, state: CardGameState, player: int) -> str:
        player = check_int(player, "player", 0, self.num_players - 1)
        return state.play.information_state_string(player)


class ObservationObserver:
    """The seat's observation: the kernel's ``observe``."""

    def __init__(self, setup: _Setup) -> None:
        self.num_players = setup.num_players
        self.tensor = np.zeros(setup.game.obs_size(setup.num_players), dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardGameState, player: int) -> None:
        player = check_int(player, "player", 0, self.num_players - 1)
        state.play.write_observation(player, self.tensor)

    def string_from(self, state: CardGameState, player: int) -> str:
        player = check_int(player, "player", 0, self.num_players - 1)
        return state.play.observation_string(player)


# ---- loading saved strings: checked strictly, without running code ------------------------
# The lines pyspiel.serialize_game_and_state writes before the game string; the line after
# the game string is "[State]", and the state's lines follow from _FIRST_STATE_LINE on.
_SAVED_HEADER = (
    "# Automatically generated by OpenSpiel SerializeGameAndState",
    "[Meta]",
    "Version: 1",
    "",
    "[Game]",
)
_GAME_LINE = len(_SAVED_HEADER) + 1  # lines counted from 1, as an editor shows them
_FIRST_STATE_LINE = _GAME_LINE + 2
_DECIMAL = re.compile(r"0|-?[1-9][0-9]*")  # ASCII digits only, as pyspiel writes numbers
_MAX_DIGITS = 19  # int64's: a longer number is out of range before it is converted


def _saved_line_error(number: int, line: str, why: str) -> ValueError:
    shown = line if len(line) <= 60 else line[:57] + "..."
    return ValueError(f"saved state, line {number} {shown!r}: {why}")


def _saved_int(token: str, number: int, line: str, low: int, high: int) -> int:
    """``token`` of saved line ``number``: a plain decimal integer from ``low`` to ``high``
    (OpenSpiel's own loader reads ``34abc`` as 34, ``+4`` and `` 4`` as 4)."""
    if not _DECIMAL.fullmatch(token):
        raise _saved_line_error(number, line, f"{token!r} is not a decimal integer")
    if len(token.lstrip("-")) > _MAX_DIGITS or not low <= int(token) <= high:
        raise _saved_line_error(number, line, f"{token} is not from {low} to {high}")
    return int(token)


def _max_action(game: pyspiel.Game) -> int:
    """The largest number a saved action may be: a chance outcome (a seed byte) or a move."""
    return max(game.num_distinct_actions(), BYTE_OUTCOMES) - 1


def _replay(game: pyspiel.Game, actions: list[tuple[int, int]]) -> pyspiel.State:
    """A new state of ``game`` after ``(line number, action)`` pairs, each applied through the
    checked ``apply_action``; a refused one is reported with its line."""
    state = game.new_initial_state()
    for number, action in actions:
        try:
            state.apply_action(action)
        except (ValueError, pyspiel.SpielError) as error:
            raise _saved_line_error(number, str(action), str(error)) from error
    return state


def _read_history_state(game: pyspiel.Game, lines: list[str]) -> pyspiel.State:
    """A state saved in OpenSpiel's default format (the compiled games'): one action a line,
    then an empty line, and the empty line that ends the string."""
    body = "\n".join(lines)
    if not body.endswith("\n\n"):
        last = _FIRST_STATE_LINE + len(lines) - 1
        raise _saved_line_error(last, lines[-1], "the state must end with an empty line")
    core = body[:-2]
    high = _max_action(game)
    actions = [
        (number, _saved_int(line, number, line, 0, high))
        for number, line in enumerate(core.split("\n") if core else [], _FIRST_STATE_LINE)
    ]
    return _replay(game, actions)


def _prefixed(number: int, line: str, prefix: str) -> str:
    if not line.startswith(prefix):
        raise _saved_line_error(number, line, f"expected a line starting {prefix!r}")
    return line[len(prefix) :]


def _saved_history(number: int, line: str, game: pyspiel.Game) -> list[tuple[int, int]]:
    """A Python state's ``history=`` line: ``player:action`` pairs, comma-separated."""
    items = _prefixed(number, line, "history=")
    last_seat, max_action = game.num_players() - 1, _max_action(game)
    history = []
    for item in items.split(",") if items else []:
        player, _, action = item.partition(":")
        history.append(
            (
                _saved_int(player, number, line, pyspiel.PlayerId.CHANCE, last_seat),
                _saved_int(action, number, line, 0, max_action),
            )
        )
    return history


def _read_pickled_state(game: CardGame, lines: list[str]) -> CardGameState:
    """A Python game's saved state: OpenSpiel's history, move number and pickled attributes.
    The attributes are read by an unpickler that accepts only :func:`restore_play` (which
    validates and replays), and the history must be the replay's."""
    history_line, move_line, attributes_line, end_line = range(
        _FIRST_STATE_LINE, _FIRST_STATE_LINE + 4
    )
    if len(lines) < 4:
        raise _saved_line_error(
            _FIRST_STATE_LINE + len(lines) - 1,
            lines[-1],
            "a Python game's state is 3 lines (history, move number, attributes), then the end",
        )
    history = _saved_history(history_line, lines[0], game)
    if lines[1] != f"move_number={len(history)}":
        raise _saved_line_error(move_line, lines[1], f"expected move_number={len(history)}")
    payload = _prefixed(attributes_line, lines[2], "__dict__=")
    if len(lines) > 4 or lines[3]:
        raise _saved_line_error(end_line, lines[3], "expected the end of the string")
    try:
        play = _saved_play(payload, game)
    except (pickle.UnpicklingError, EOFError, TypeError, ValueError) as error:
        raise _saved_line_error(attributes_line, lines[2], str(error)) from error
    state = game.new_initial_state()
    for action in [*play.seed_bytes, *play.actions]:
        state.apply_action(action)
    if _history_items(state) != history:
        raise _saved_line_error(history_line, lines[0], "the history disagrees with the game")
    return state


def _saved_play(payload: str, game: CardGame) -> Play:
    """The :class:`Play` that a Python state's base64 attributes restore, of ``game``."""
    data = base64.b64decode(payload, validate=True)  # binascii.Error is a ValueError
    attributes = _PlayUnpickler(io.BytesIO(data)).load()
    if not isinstance(attributes, dict) or set(attributes) != {"play"}:
        raise ValueError("a saved presages_env OpenSpiel state has exactly one attribute, play")
    play = attributes["play"]
    if play.setup.params != game.setup.params:
        raise ValueError("the saved state belongs to another game or other parameters")
    return play


class _PlayUnpickler(pickle.Unpickler):
    """Unpickles a saved state's attributes and refuses every global but :func:`restore_play`
    (and the ``Play`` it returns), so a crafted string cannot run code."""

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "restore_play":
            return restore_play
        raise ValueError(f"a saved presages_env OpenSpiel state may not name {module}.{name}")


# How each registered game's saved state is read (from the game and the state's lines).
_StateReader = Callable[[Any, list[str]], pyspiel.State]
_state_readers: dict[str, _StateReader] = {}


def accept_saved_histories(short_name: str) -> None:
    """Let :func:`deserialize_game_and_state` read game ``short_name``'s states saved in
    OpenSpiel's default format, the history one action a line (the compiled games')."""
    _state_readers[short_name] = _read_history_state


def _saved_parts(text: str) -> tuple[str, list[str]]:
    """The game string and the state's lines of a saved game and state, whose layout must
    be exactly what ``pyspiel.serialize_game_and_state`` writes."""
    if not isinstance(text, str):
        raise TypeError(f"expected a string, got {type(text).__name__}")
    lines = text.split("\n")
    layout = [*_SAVED_HEADER, None, "[State]"]  # None: the game string, any
    for number, (line, expected) in enumerate(zip(lines, layout, strict=False), 1):
        if expected is not None and line != expected:
            raise _saved_line_error(number, line, f"expected {expected!r}")
    if len(lines) <= len(layout):
        raise ValueError(f"not a saved OpenSpiel game and state: it ends at line {len(lines)}")
    return lines[_GAME_LINE - 1], lines[_FIRST_STATE_LINE - 1 :]


def _saved_game(game_string: str) -> tuple[pyspiel.Game, _StateReader]:
    """The game of a saved game string, and how its state is read."""
    read_state = _state_readers.get(game_string.split("(", 1)[0])
    if read_state is None:
        raise _saved_line_error(
            _GAME_LINE,
            game_string,
            "not a registered presages_env OpenSpiel game (the compiled games need "
            "presages_env.openspiel.register_native() first)",
        )
    try:
        game = pyspiel.load_game(game_string)
    except (RuntimeError, TypeError, ValueError) as error:  # SpielError is a RuntimeError
        raise _saved_line_error(_GAME_LINE, game_string, str(error)) from error
    if str(game) != game_string:
        raise _saved_line_error(_GAME_LINE, game_string, f"pyspiel writes this game {game}")
    return game, read_state


def deserialize_game_and_state(text: str) -> tuple[pyspiel.Game, pyspiel.State]:
    """``pyspiel.deserialize_game_and_state`` for our games, Python or compiled, checked
    strictly and without running code: the layout line by line, the game string as pyspiel
    writes it, every number a plain decimal integer in range, every action replayed through
    the checked ``apply_action``. A forged string is refused (``ValueError`` naming its line;
    ``TypeError`` for a non-string). pyspiel's own unpickles a Python game's state (running
    what it names) and reads a compiled game's lines with ``std::stol`` (``34abc`` is 34)."""
    game_string, state_lines = _saved_parts(text)
    game, read_state = _saved_game(game_string)
    return game, read_state(game, state_lines)


def _history_items(state: CardGameState) -> list[tuple[int, int]]:
    return [(item.player, item.action) for item in state.full_history()]


# ---- registration ------------------------------------------------------------------------
_registered: set[str] = set()


class _Creator:
    """What pyspiel calls to make a game: ``CardGame(name, params)``.

    pyspiel keeps each creator in a C++ static registry that is destroyed by ``exit()``,
    after the interpreter has finalised, without the GIL: a creator whose last reference
    goes then is deallocated without a thread state, and the process aborts ("Fatal Python
    error: PyThreadState_Get"). A reference from this module does not prevent that, since
    finalisation clears the globals of every module still alive. So a creator refers to
    itself: the cycle is never collected while pyspiel holds it (an outside reference),
    and pyspiel's last release leaves it one reference, so it is never freed.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.itself = self

    def __call__(self, params: dict[str, Any] | None = None) -> CardGame:
        return CardGame(self.name, params)


def register() -> None:
    """Register every game with pyspiel (once per process; importing the module does it)."""
    for name in available_games():  # a plug-in that does not load is left out
        short_name = PREFIX + name
        if short_name in _registered:
            continue
        game = get_game(name)
        options = game.make_options(game.default_players)
        utility, _, _ = utility_bounds(game, game.default_players, options)
        pyspiel.register_game(_game_type(game, utility), _Creator(name))
        _registered.add(short_name)
        _state_readers[short_name] = _read_pickled_state


register()
