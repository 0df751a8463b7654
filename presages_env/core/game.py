"""The protocol every game satisfies: numba kernels plus a small Python description.

A game is written once, as four ``@njit(cache=True)`` kernels over its flat state, an array
of the game's ``state_dtype`` (the narrowest signed integer that holds every slot; see
:mod:`presages_env.core.header` for the shared header and for fields wider than a slot):

``reset(state, seed)``
    Deal a new game in place. The options already written in ``state`` are kept; the
    header's RNG is re-seeded from ``seed`` and every other slot is rewritten.
``legal_mask(state, mask)``
    Fill ``mask`` (``int8[num_actions]``) with 1 for each legal action of the seat in
    ``state[HDR_CURRENT]``; at least one action is legal while the game is not over.
``step(state, action, rewards)``
    Apply a *legal* action of the current seat (callers check the mask first), advance the
    game to the next decision, and write this transition's reward of every seat into
    ``rewards`` (``float32[num_players]``, every entry overwritten).
``observe(state, player, obs)``
    Fill ``obs`` (``obs_dtype[obs_size]``) with exactly what ``player`` may know.
``global_state(state, out)``
    Fill ``out`` (``GLOBAL_DTYPE[GLOBAL_SIZE]``, the same size for every player count) with the
    whole game as a referee sees it, for centralised critics: every seat's observation, then
    the state's slots but the header's RNG and seed (docs/research.md, "Global state").

Everything else (PettingZoo env, vector env, agents, search) calls these, so a rule is
never written twice. The Python side, a :class:`Game` subclass, says how big things are,
validates options, writes them into a fresh state, and renders states for people.

**The contract.** Everything about a game is declared on its :class:`Game` subclass or in
its package ``games/<game>/`` (nothing outside ``games/`` names a game), and checked when the
class is defined, so an incomplete game fails at import with the missing part named. Its
parts (``kernel``, ``validator``, ``viewer``, ``event_texts``, ``card_texts``,
``action_features``, ``heuristic``, ``world_sampler``, the state and observation layouts and
the options) are found by name in its package (:mod:`presages_env.core.conventions`), with
generic defaults for the optional ones (no heuristic, no world sampler, one-hot action
features, events worded by kind, no card names); the plain ``reset``/``step`` and the
``global_state`` kernels are bound there too. Its options are declared once, as
``option_space`` (:mod:`presages_env.core.option_space`); their dataclass, checks and state
slots follow (:mod:`presages_env.core.options`). The class itself declares:

- ``ships_checkpoint``: whether ``presages_env/checkpoints/<name>.pt`` is shipped;
- ``benchmarked``: whether the benchmarks and the results tables include it (``False`` for
  the exemplar games, templates kept out of the games' comparisons);

and overrides :meth:`Game.max_visible_events` and :meth:`Game.reward_bounds`. It may
override :meth:`Game.max_game_length`, :meth:`Game.short_options` (options that keep random
games short, for tests and fuzzers) and :meth:`Game.position_counts` (its position set-up's
numbers, for the numbers fuzz). A game registers with one line in
``presages_env/games/__init__.py``, or from its own package through the entry point group
``presages_env.games``; :func:`presages_env.core.conformance.check_game` then checks it.

The raw kernels (``game.kernel.step`` ...) trust their input and are for code that has
validated it. The same names on a :class:`Game` (``game.step(state, action, rewards)`` ...)
are the checked versions for everyone else: they validate the state
(:func:`~presages_env.core.validation.checked_state`), the seat, the action and the output
arrays before calling the kernel, and change nothing when they refuse.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType, ModuleType
from typing import Any, ClassVar, NamedTuple

import numpy as np

from presages_env.core import events as ev
from presages_env.core.actions import check_action
from presages_env.core.card_face import card_face
from presages_env.core.conventions import bind_options, bind_parts, complete_kernel
from presages_env.core.header import (
    GLOBAL_HEADER_SLOTS,
    HDR_CURRENT,
    HDR_GAME_ID,
    HDR_NUM_PLAYERS,
    HDR_STEP,
    HDR_TERMINAL,
    TRUNCATED,
    WIDE_HIGH,
    WIDE_LOW,
    step_of,
)
from presages_env.core.layout import SlotLayout
from presages_env.core.option_space import Draw, describe_options
from presages_env.core.options import (
    check_option_values,
    read_option_slots,
    slot_name,
    write_option_slots,
)
from presages_env.core.results import ResultWords, SeatResult, result_words, reward_summary
from presages_env.core.seats import seat_badges
from presages_env.core.validation import (
    check_array,
    check_int,
    check_options,
    check_seed,
    check_state_array,
    checked_state,
    plain_ints,
)
from presages_env.core.view import TableView

# What every kernel supplies for the event log (core/events.py).
EVENT_NAMES = (
    "reset_logged",
    "step_logged",
    "EVENT_KINDS",
    "MAX_STEP_EVENTS",
    "WORLD_DIVERGING_EVENTS",
)

# Signed integer dtypes a state may use: the header's wide fields need 8 bits per slot.
STATE_DTYPES = (np.int8, np.int16, np.int32, np.int64)


# Longer names are no card's (the longest is under 40 characters): refused unread.
MAX_CARD_NAME = 200
CARD_TEXT_NAMES = ("card_help", "card_summary", "CARD_NAMES", "RULES_SUMMARY", "LEGEND")


def _check_option_space(cls: type) -> None:
    """Refuse a game whose ``option_space`` does not draw exactly its options: what is
    explored over every option combination (core/option_space.py) must miss none; and one
    whose options are not each described (a default; a range, a label and a description)."""
    space = getattr(cls, "option_space", None)
    options = getattr(cls, "Options", None)
    fields = dataclasses.fields(options) if dataclasses.is_dataclass(options) else ()
    names = {field.name for field in fields}
    if not (
        isinstance(space, Mapping)
        and set(space) == names
        and all(isinstance(draw, Draw) for draw in space.values())
    ):
        raise TypeError(
            f"{cls.__name__} needs an option_space mapping each of its options "
            f"{sorted(names)} to a draw (core/option_space.py)"
        )
    if fields:  # a game without options has nothing to describe
        describe_options(options, space)


def _check_card_texts(cls: type) -> None:
    """Refuse a game without its rules in words (``RULES_SUMMARY``, ``LEGEND``; a game with
    cards also ``card_help``, ``card_summary`` and ``CARD_NAMES``)."""
    texts = cls.__dict__.get("card_texts")
    legend = getattr(texts, "LEGEND", None)
    if not (
        callable(getattr(texts, "card_help", None))
        and callable(getattr(texts, "card_summary", None))
        and isinstance(getattr(texts, "CARD_NAMES", None), tuple)
        and isinstance(getattr(texts, "RULES_SUMMARY", None), str)
        and isinstance(legend, tuple)
        and all(isinstance(pair, tuple) and len(pair) == 2 for pair in legend)
    ):
        raise TypeError(
            f"{cls.__name__} needs its words, RULES_SUMMARY and LEGEND (card_text.py or "
            f"game.py; {', '.join(CARD_TEXT_NAMES[:3])} for a game with cards): the "
            "terminal and the replay page explain the game's rules with them"
        )


def _check_action_features(cls: type) -> None:
    """Refuse a game that does not say what its actions are (games/<game>/action_features.py):
    action-conditioned networks score every game's actions from them."""
    module = cls.__dict__.get("action_features")
    count = getattr(module, "ACTION_FEATURES", None)
    names = getattr(module, "FEATURE_NAMES", None)
    if not (
        callable(getattr(module, "action_features", None))
        and isinstance(count, int)
        and isinstance(names, tuple)
        and len(names) == count > 0
    ):
        raise TypeError(
            f"{cls.__name__} needs an action_features module with ACTION_FEATURES, "
            "FEATURE_NAMES and action_features(obs, out) (core/action_features.py)"
        )


# Declared by every game in its own class body, or (the first two) found by convention
# (core/conventions.py: ``None`` where the game has none).
DECLARED = ("heuristic", "world_sampler", "ships_checkpoint", "benchmarked")


def _check_declarations(cls: type) -> None:
    """Refuse a game that leaves out a declaration everything outside ``games/`` reads from it
    (the module docstring's contract): the flags in the class itself, the heuristic and the
    world sampler found by convention or ``None``, so that leaving one out is never silent."""
    missing = [name for name in DECLARED if name not in cls.__dict__]
    if missing:
        raise TypeError(
            f"{cls.__name__} must declare {', '.join(missing)} (None where it has none; "
            "core/game.py says what each is)"
        )
    heuristic = cls.__dict__["heuristic"]
    if heuristic is not None and not callable(getattr(heuristic, "heuristic_actions", None)):
        raise TypeError(
            f"{cls.__name__}'s heuristic must be a module with heuristic_actions(obs, masks, "
            "actions), or None"
        )
    sampler = cls.__dict__["world_sampler"]
    if isinstance(sampler, staticmethod):
        sampler = sampler.__func__
    if sampler is not None and not callable(sampler):
        raise TypeError(f"{cls.__name__}'s world_sampler must be its sample_world kernel or None")
    cls.world_sampler = staticmethod(sampler)  # a kernel, never a method of the game
    for flag in ("ships_checkpoint", "benchmarked"):
        if not isinstance(cls.__dict__[flag], bool):
            raise TypeError(f"{cls.__name__}'s {flag} must be a bool")
    if cls.search_rollouts not in ("random", "heuristic") or (
        cls.search_rollouts == "heuristic" and heuristic is None
    ):
        raise TypeError(
            f"{cls.__name__}'s search_rollouts must be 'random', or 'heuristic' with a heuristic"
        )
    if cls.reward_bounds is Game.reward_bounds:
        raise TypeError(
            f"{cls.__name__} must bound its returns: reward_bounds(num_players, options)"
        )


class RewardBounds(NamedTuple):
    """The range of one seat's summed rewards over a whole game, and whether every game's
    rewards sum to zero exactly (float32 rewards that cancel only up to rounding do not)."""

    low: float
    high: float
    zero_sum: bool


class PositionCount(NamedTuple):
    """One number of a game's position set-up, for the numbers fuzz
    (:mod:`presages_env.fuzzing.numbers`): ``build(value)`` sets up a position with it, and
    the rule accepts the ints in ``[low, high]``."""

    name: str  # as a person calls it: "setup_position(leader)"
    build: Callable[[Any], np.ndarray]
    low: int
    high: int


class Game:
    """Description of one game; subclasses set the class attributes and sizes."""

    name: ClassVar[str]
    # The game's name as people write it ("Présages"): titles and screens show it, never ``name``.
    title: ClassVar[str]
    game_id: ClassVar[int]  # stored in the header; unique per game
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    obs_dtype: ClassVar[type] = np.int8
    # The narrowest signed integer dtype that holds every slot of the game's layout (its
    # kernel's STATE_DTYPE). States of any other dtype are refused, never cast.
    state_dtype: ClassVar[type]
    # Bumped whenever the meaning of a slot changes: saved states of another layout are refused.
    layout_version: ClassVar[int] = 1  # a new game's first layout
    # The game's state slots after the header, in order (core/layout.py): its docs page's
    # state layout table is generated from them. None for a game that declares none.
    state_layout: ClassVar[SlotLayout | None] = None
    # The game's observation, piece by piece (the kernel's ``obs_slots``): named, shaped
    # views (``obs_layout.view(obs, "MOVES")``), its bounds (each piece's ``high``) and the
    # docs page's observation table follow from it. None for a game that declares none.
    obs_layout: ClassVar[SlotLayout | None] = None
    # True for a game whose rules cut runaway games at a step cap of their own: it then
    # ends with HDR_TERMINAL = header.TRUNCATED (no winner, zero rewards), which the envs
    # report as a truncation.
    truncates_itself: ClassVar[bool] = False
    # The rollout policy ISMCTSAgent uses when none is given: "random" (uniform legal moves)
    # or "heuristic" (the game's heuristic.py), whichever searched better (docs/agents.md).
    search_rollouts: ClassVar[str] = "random"
    # The game's hand-written strategy (games/<game>/heuristic.py): a module with the kernel
    # ``heuristic_actions(obs, masks, actions)`` and optionally ``heuristic_values``; None for
    # a game without one. Declared by every game.
    heuristic: ClassVar[ModuleType | None]
    # The kernel ``sample_world(state, player, seed, world)`` dealing a world ``player``
    # cannot tell from ``state`` (search, beliefs, the no-leak checks); None for a game
    # without one. Declared by every game.
    world_sampler: ClassVar[Callable[..., None] | None]
    # Whether a trained policy ships as presages_env/checkpoints/<name>.pt (a release check
    # tests that it is there). Declared by every game.
    ships_checkpoint: ClassVar[bool]
    # About how many seconds a first run spends compiling the game's kernels (numba's disk
    # cache empty): an estimate a game declares for the one line that tells a person why
    # its first start is slow (core/compiling.py); docs/speed.md has measured ones.
    compile_seconds: ClassVar[int] = 60
    # Whether benchmarks/ and the results tables include the game: False for the exemplar
    # game (docs/adding_a_game.md), a template too small to compare with the others.
    # Declared by every game.
    benchmarked: ClassVar[bool]
    Options: ClassVar[type]  # a frozen dataclass of the game's options with defaults
    # Every option's whole range, as a draw per option (core/option_space.py): what must
    # hold for any game a player can set up is explored over combinations drawn from it.
    option_space: ClassVar[Mapping[str, Draw]] = MappingProxyType({})  # no options

    # The game's kernel module: its four kernels and its STATE_SIZE, NUM_ACTIONS and
    # OBS_SIZE constants (sized for the largest table) are picked up from it.
    kernel: ClassVar[ModuleType]
    # The game's validation module, next to its kernel: ``validate_state(state)`` checks
    # every slot of the layout (see :mod:`presages_env.core.validation`), and
    # ``decision_signature`` names the pending decision (:mod:`presages_env.core.decisions`).
    validator: ClassVar[ModuleType]
    validate_state: ClassVar[Callable[[np.ndarray], None]]
    # The game's view module (core/view.py): ``state_view`` and ``seat_view``.
    viewer: ClassVar[ModuleType]
    # The game's event wording (games/<game>/event_text.py): ``describe(event) -> str`` and
    # ``round_title(event) -> str | None`` (the title of a round the event opens).
    event_texts: ClassVar[ModuleType]
    # The game's card and rules wording for people (games/<game>/card_text.py):
    # ``card_help(name)``, ``card_summary(name)``, ``CARD_NAMES``, ``RULES_SUMMARY``, ``LEGEND``.
    card_texts: ClassVar[ModuleType]
    # What each action is, as numbers (games/<game>/action_features.py, described in
    # core/action_features.py): ``ACTION_FEATURES``, ``FEATURE_NAMES`` and the kernel
    # ``action_features(obs, out)`` that action-conditioned networks read.
    action_features: ClassVar[ModuleType]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        bind_options(cls)
        bind_parts(cls)
        if cls.__dict__.get("kernel") is not None:
            complete_kernel(cls.__dict__["kernel"], cls)
            dtype = getattr(cls, "state_dtype", None)
            if dtype not in STATE_DTYPES:
                raise TypeError(
                    f"{cls.__name__} must declare state_dtype, one of "
                    f"{[np.dtype(d).name for d in STATE_DTYPES]}, got {dtype!r}"
                )
            if not isinstance(getattr(cls, "title", None), str):
                raise TypeError(f"{cls.__name__} must declare its title, the name people read")
            if not isinstance(getattr(cls, "layout_version", None), int):
                raise TypeError(f"{cls.__name__} must declare its layout_version (an int)")
            layout = cls.state_layout
            if layout is not None and layout.size != cls.__dict__["kernel"].STATE_SIZE:
                raise TypeError(f"{cls.__name__}'s state_layout must end at its STATE_SIZE")
            obs = cls.obs_layout
            if obs is not None and obs.size != cls.__dict__["kernel"].OBS_SIZE:
                raise TypeError(f"{cls.__name__}'s obs_layout must end at its OBS_SIZE")
            validator = cls.__dict__.get("validator")
            if validator is None or not callable(getattr(validator, "validate_state", None)):
                raise TypeError(
                    f"{cls.__name__} names a kernel but no validator module with "
                    "validate_state(state): every game validates states from outside"
                )
            if not callable(getattr(validator, "decision_signature", None)) or not isinstance(
                getattr(validator, "DECISION_FIELDS", None), tuple
            ):
                raise TypeError(
                    f"{cls.__name__}'s validator must name its pending decision: "
                    "decision_signature(state) and DECISION_FIELDS (core/decisions.py)"
                )
            _check_option_space(cls)
            cls.validate_state = staticmethod(validator.validate_state)
            kernel = cls.__dict__["kernel"]
            if not callable(getattr(kernel, "global_state", None)) or not all(
                isinstance(getattr(kernel, name, None), int)
                for name in ("GLOBAL_SIZE", "GLOBAL_SEATS", "GLOBAL_SLOTS", "GLOBAL_SLOTS_END")
            ):
                raise TypeError(
                    f"{cls.__name__} names a kernel without global_state(state, out) and its "
                    "GLOBAL_SIZE, GLOBAL_SEATS, GLOBAL_SLOTS, GLOBAL_SLOTS_END: every game "
                    "gives centralised critics its whole state (docs/research.md)"
                )
            if getattr(kernel, "GLOBAL_DTYPE", None) not in STATE_DTYPES:
                raise TypeError(f"{cls.__name__}'s kernel must declare GLOBAL_DTYPE")
            missing = [name for name in EVENT_NAMES if not hasattr(kernel, name)]
            if missing or cls.max_visible_events is Game.max_visible_events:
                raise TypeError(
                    f"{cls.__name__} must write an event log (docs/research.md): its kernel "
                    f"lacks {missing or 'nothing'}, and the class must bound it "
                    "(max_visible_events)"
                )
            viewer = cls.__dict__.get("viewer")
            if not callable(getattr(viewer, "seat_view", None)):
                raise TypeError(
                    f"{cls.__name__} needs a viewer module with seat_view(obs, seat, "
                    "num_players) (core/view.py), maybe state_view(state): renderers draw it"
                )
            texts = cls.__dict__.get("event_texts")
            if not all(callable(getattr(texts, f, None)) for f in ("describe", "round_title")):
                raise TypeError(
                    f"{cls.__name__} needs an event_texts module with describe(event) and "
                    "round_title(event): the env, the terminal and the replay page word its "
                    "events and find its rounds with them"
                )
            _check_card_texts(cls)
            _check_action_features(cls)
            _check_declarations(cls)

    # ---- the kernels, checked (internal code calls ``self.kernel.*`` directly) ------------
    def checked_state(self, state: Any, num_players: int | None = None) -> np.ndarray:
        """A validated copy of ``state`` (see :mod:`presages_env.core.validation`)."""
        return checked_state(self, state, num_players)

    def reset(self, state: np.ndarray, seed: int) -> None:
        """Deal a new game in ``state`` (its header and options are validated first)."""
        seed = check_seed(seed)
        valid = check_state_array(self, state)
        check_options(self, valid)
        self.kernel.reset(valid, np.int64(seed))
        state[:] = valid

    def legal_mask(self, state: np.ndarray, mask: np.ndarray) -> None:
        valid = self.checked_state(state)
        n = self.num_players_of(valid)
        check_array(mask, "mask", (self.num_actions(n),), np.int8)
        self.kernel.legal_mask(valid, mask)

    def step(self, state: np.ndarray, action: Any, rewards: np.ndarray) -> None:
        """Apply ``action`` (checked against the legal mask) to ``state`` in place."""
        valid = self.checked_state(state)
        n = self.num_players_of(valid)
        check_array(rewards, "rewards", (n,), np.float32)
        if valid[HDR_TERMINAL]:
            raise ValueError(f"the {self.name} game is over; no action can be applied")
        mask = np.zeros(self.num_actions(n), dtype=np.int8)
        self.kernel.legal_mask(valid, mask)
        action = check_action(action, mask, lambda a: self.action_label(valid, a))
        self.kernel.step(valid, np.int64(action), rewards)
        state[:] = valid

    def observe(self, state: np.ndarray, player: Any, obs: np.ndarray) -> None:
        valid = self.checked_state(state)
        n = self.num_players_of(valid)
        player = check_int(player, "player", 0, n - 1)
        check_array(obs, "obs", (self.obs_size(n),), self.obs_dtype)
        self.kernel.observe(valid, np.int64(player), obs)

    def sample_world(self, state: np.ndarray, player: Any, seed: Any) -> np.ndarray:
        """A full state drawn uniformly among those ``player`` cannot tell from ``state``
        (what search and belief models sample; docs/research.md, "Exact beliefs")."""
        if self.world_sampler is None:
            raise ValueError(f"{self.title} deals no worlds: it declares no world_sampler")
        valid = self.checked_state(state)
        player = check_int(player, "player", 0, self.num_players_of(valid) - 1)
        world = np.zeros_like(valid)
        self.world_sampler(valid, np.int64(player), np.int64(check_seed(seed)), world)
        return world

    def global_state(self, state: np.ndarray, out: np.ndarray) -> None:
        """Fill ``out`` with the global state of ``state`` (a referee's view, RNG left out)."""
        valid = self.checked_state(state)
        check_array(out, "out", (self.global_size(self.num_players_of(valid)),), self.global_dtype)
        self.kernel.global_state(valid, out)

    # ---- views (core/view.py): what renderers draw -----------------------------------------
    def view(self, state: np.ndarray, seat: int | None = None) -> TableView:
        """The table as ``seat`` sees it, built from its observation alone; ``seat=None``
        gives every hand (a referee's view, for debugging)."""
        valid = self.checked_state(state)
        if seat is not None:
            seat = check_int(seat, "seat", 0, self.num_players_of(valid) - 1)
        return self.unchecked_view(valid, seat)

    def unchecked_view(self, state: np.ndarray, seat: int | None) -> TableView:
        """:meth:`view` without its checks, like the raw kernels: for code whose states the
        kernels made from checked ones (a replay's) and whose ``seat`` is checked, where
        validating every frame again would be most of the work."""
        if seat is None:
            return self.referee_view(state)
        n = self.num_players_of(state)
        obs = np.zeros(self.obs_size(n), dtype=self.obs_dtype)
        self.kernel.observe(state, np.int64(seat), obs)
        return self.viewer.seat_view(obs, seat, n)

    def referee_view(self, state: np.ndarray) -> TableView:
        """Every hand: the viewer's ``state_view`` where it writes one, else seat 0's view
        with each seat's own player as that seat sees itself (a game whose seats each see
        their own hand needs no more)."""
        if hasattr(self.viewer, "state_view"):
            return self.viewer.state_view(state)
        views = [self.unchecked_view(state, p) for p in range(self.num_players_of(state))]
        players = [view.players[p] for p, view in enumerate(views)]
        return dataclasses.replace(views[0], players=players, seat=None)

    # ---- events and information states (core/events.py, docs/research.md) -----------------
    def max_visible_events(self, num_players: int, options: Any) -> int:
        """An upper bound on the events one seat sees in the longest legal episode with
        these options: the length of its information state."""
        raise NotImplementedError  # every game overrides it (checked at class definition)

    def max_game_length(self, num_players: int, options: Any) -> int:
        """An upper bound on the decisions of one game with these options (OpenSpiel's
        ``max_game_length``). By default the events the seats see: a game whose every
        decision writes an event its actor sees needs no more. The conformance checks play
        random games at every seating, with the default options and drawn ones, and fail any
        that outlasts this bound; a game with silent decisions overrides it."""
        return num_players * self.max_visible_events(num_players, options)

    def reward_bounds(self, num_players: int, options: Any) -> RewardBounds:
        """The range of one seat's return with these options, and whether it is zero-sum
        exactly (OpenSpiel's utility, the conformance checks' bounds)."""
        raise NotImplementedError  # every game overrides it (checked at class definition)

    def short_options(self, rng: np.random.Generator) -> dict[str, Any]:
        """Options (``make_options`` keywords) under which random play ends soon, for tests
        and fuzzers that play many games; none by default (the game is short as it is)."""
        return {}

    def position_counts(self) -> tuple[PositionCount, ...]:
        """The numbers of the game's position set-up (its seed, a seat, a count) that the
        numbers fuzz passes edge values to; none by default."""
        return ()

    def describe_event(self, event: ev.Event, seat: int | None = None) -> str:
        """``event`` in words, with seat (``P0`` is seat 0), card and essence names: for the
        referee (``seat=None``) or for a seat that sees it. Any other seat is refused
        (``ValueError``), so a private card is never worded for a seat that may not see it."""
        if seat is not None and not event.seen_by(seat):
            raise ValueError(f"seat {seat} does not see this {event.kind} event")
        return self.event_texts.describe(event)

    def decode_events(self, records: np.ndarray, num_players: int) -> list[ev.Event]:
        """The :class:`~presages_env.core.events.Event` of each record, with its text."""
        decoded = (ev.decode(self.kernel.EVENT_KINDS, r, num_players) for r in records)
        return [dataclasses.replace(e, text=self.describe_event(e)) for e in decoded]

    # ---- cards and rules in words (games/<game>/card_text.py) ------------------------------
    def card_help(self, name: Any) -> str | None:
        """The text of the card (or component) called ``name``, any case or accents: its
        kind, cost and effect in words; None when no card has that name."""
        if not isinstance(name, str):
            raise TypeError(f"a card name is a str, got {type(name).__name__}")
        return self.card_texts.card_help(name) if len(name) <= MAX_CARD_NAME else None

    def card_summary(self, name: Any) -> str | None:
        """One line of ``name``'s cost and effect (the terminal's hand panel); None when
        no card has that name."""
        if not isinstance(name, str):
            raise TypeError(f"a card name is a str, got {type(name).__name__}")
        return self.card_texts.card_summary(name) if len(name) <= MAX_CARD_NAME else None

    def rules_summary(self) -> str:
        """The game's rules in short, for a player: goal, turn, what each decision means."""
        return self.card_texts.RULES_SUMMARY

    def legend(self) -> tuple[tuple[str, str], ...]:
        """(symbol, meaning) of each symbol the table and the labels use."""
        return self.card_texts.LEGEND

    def card_face(self, label: str) -> dict[str, Any]:
        """``{"name", "value", "colour", "symbols"}`` of the card ``label`` shows, for the
        replay page (:mod:`presages_env.core.card_face`); a game overrides it where its
        cards table knows a colour or its own numerals."""
        return card_face(self, label)

    # ---- sizes -------------------------------------------------------------------------
    def state_size(self, num_players: int) -> int:
        return self.kernel.STATE_SIZE

    def num_actions(self, num_players: int) -> int:
        return self.kernel.NUM_ACTIONS

    def obs_size(self, num_players: int) -> int:
        return self.kernel.OBS_SIZE

    def obs_high(self, num_players: int) -> np.ndarray:
        """Upper bound of each observation entry (lower bound is 0 unless overridden): each
        piece's ``high`` in :attr:`obs_layout`, the dtype's largest value elsewhere."""
        top = np.iinfo(self.obs_dtype).max
        if self.obs_layout is not None:
            return self.obs_layout.highs(top)
        return np.full(self.obs_size(num_players), top)

    def obs_low(self, num_players: int) -> np.ndarray:
        return np.zeros(self.obs_size(num_players), dtype=np.int64)

    # ---- global states (docs/research.md, "Global state") ---------------------------------
    @property
    def global_dtype(self) -> type:
        return self.kernel.GLOBAL_DTYPE

    def global_size(self, num_players: int) -> int:
        """Length of a global state: the same for every player count."""
        return self.kernel.GLOBAL_SIZE

    def global_obs_slice(self, player: int) -> slice:
        """Where seat ``player``'s observation lies in a global state: ``observe(state, p)``
        equals ``global_state(state)[global_obs_slice(p)]``."""
        size = self.kernel.OBS_SIZE
        return slice(player * size, (player + 1) * size)

    def global_bounds(self, num_players: int) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` of each global state entry at ``num_players`` (int64 arrays).

        Seated players' observation blocks have the observation's bounds, empty seats' blocks
        are 0; the header slots their ranges; the game's slots the range of its state dtype
        (``validate_state`` holds the exact ranges).
        """
        k = self.kernel
        info = np.iinfo(self.state_dtype)
        low = np.full(k.GLOBAL_SIZE, info.min, dtype=np.int64)
        high = np.full(k.GLOBAL_SIZE, info.max, dtype=np.int64)
        low[: k.GLOBAL_SLOTS] = high[: k.GLOBAL_SLOTS] = 0
        for p in range(num_players):
            block = self.global_obs_slice(p)
            low[block] = self.obs_low(num_players)
            high[block] = self.obs_high(num_players)
        header = k.GLOBAL_SLOTS
        fixed = {HDR_NUM_PLAYERS: (num_players, num_players), HDR_GAME_ID: (self.game_id,) * 2}
        fixed[HDR_CURRENT] = (-1, num_players - 1)
        fixed[HDR_TERMINAL] = (0, TRUNCATED if self.truncates_itself else 1)
        for slot in range(GLOBAL_HEADER_SLOTS):
            lo, hi = fixed.get(slot, (WIDE_LOW, WIDE_HIGH) if slot >= HDR_STEP else (0, 0))
            low[header + slot], high[header + slot] = lo, hi
        return low, high

    # ---- options and new states ----------------------------------------------------------
    def check_num_players(self, num_players: Any) -> int:
        low, high = self.min_players, self.max_players
        what = f"num_players ({self.name} is played by {low} to {high} players)"
        return check_int(num_players, what, low, high)

    def make_options(self, num_players: int, **options: Any) -> Any:
        """Build and validate the options dataclass; unknown names are an error."""
        known = {f.name for f in dataclasses.fields(self.Options)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(
                f"unknown option(s) {unknown} for {self.name}; known options: {sorted(known)}"
            )
        opts = self.Options(**{name: plain_ints(value) for name, value in options.items()})
        self.validate_options(num_players, opts)
        return opts

    def validate_options(self, num_players: int, options: Any) -> None:
        """Raise ``ValueError`` (``TypeError`` for a value of the wrong kind) for option values
        this game cannot play with: by default each outside its range in :attr:`option_space`
        (core/options.py); a game with rules across options adds them after this check."""
        check_option_values(self.option_space, num_players, options)

    def option_slots(self) -> tuple[int, ...] | None:
        """Each option's ``OPT_<NAME>`` slot in :attr:`state_layout`, in the space's order
        (core/options.py ``add_option_slots``); None for a game that stores its options
        otherwise (it then writes ``write_options`` and ``read_options``)."""
        layout = self.state_layout
        names = {slot.name: slot for slot in layout.slots} if layout is not None else {}
        slots = [names.get(slot_name(key)) for key in self.option_space]
        if not slots or not all(slot is not None and slot.size == 1 for slot in slots):
            return None
        return tuple(slot.offset for slot in slots)

    def _option_slots(self) -> tuple[int, ...]:
        slots = self.option_slots()
        if slots is None:
            raise NotImplementedError(f"{self.name} has no OPT_ slot per option: it writes them")
        return slots

    def write_options(self, state: np.ndarray, options: Any) -> None:
        """Store the options in the game's part of ``state`` (kernels read them there): by
        default each in its ``OPT_<NAME>`` slot (core/options.py)."""
        write_option_slots(state, self._option_slots(), self.option_space, options)

    def read_options(self, state: np.ndarray) -> Any:
        """Inverse of :meth:`write_options`."""
        return read_option_slots(state, self._option_slots(), self.option_space, self.Options)

    def blank_state(self, num_players: int, options: Any) -> np.ndarray:
        """A state with header and options written, ready for ``reset``."""
        state = np.zeros(self.state_size(num_players), dtype=self.state_dtype)
        state[HDR_NUM_PLAYERS] = num_players
        state[HDR_GAME_ID] = self.game_id
        self.write_options(state, options)
        return state

    def new_state(self, num_players: int, seed: int, **options: Any) -> np.ndarray:
        """A freshly dealt game."""
        num_players = self.check_num_players(num_players)
        seed = check_seed(seed)
        state = self.blank_state(num_players, self.make_options(num_players, **options))
        self.kernel.reset(state, np.int64(seed))
        return state

    # ---- reading a state ----------------------------------------------------------------
    def num_players_of(self, state: np.ndarray) -> int:
        return int(state[HDR_NUM_PLAYERS])

    def is_over(self, state: np.ndarray) -> bool:
        return bool(state[HDR_TERMINAL])

    def teams(self, state: np.ndarray) -> np.ndarray:
        """Team of each seat (seats of a team share rewards); by default everyone alone."""
        return np.arange(self.num_players_of(state))

    def seat_badges(
        self, state: np.ndarray, names: Sequence[str], viewer: int | None = None
    ) -> list[str]:
        """Each seat's one name (:mod:`presages_env.core.seats`: ``P2 · heuristic ·
        partner``) as ``viewer`` reads it, its relation from :meth:`teams` at ``state``;
        the lab, the terminal and the replay pages all name seats by it."""
        return seat_badges(names, np.asarray(self.teams(state)).tolist(), viewer)

    def info_key(self, state: np.ndarray) -> Any:
        """A cheap value that changes whenever :meth:`infos` would; infos are rebuilt then."""
        return step_of(state)

    def infos(self, state: np.ndarray) -> list[dict]:
        """Per-seat information for PettingZoo ``infos`` (public facts only)."""
        return [{} for _ in range(self.num_players_of(state))]

    def action_label(self, state: np.ndarray, action: int) -> str:
        """Human name of ``action`` at the decision ``state`` is waiting for: by default the
        kernel's ``ACTION_NAMES[action]`` where it names its actions, else the number."""
        names = getattr(self.kernel, "ACTION_NAMES", None)
        return str(names[action]) if names is not None else str(action)

    def action_label_for(self, state: np.ndarray, action: int, seat: int) -> str:
        """What ``seat`` may know of ``action`` chosen at ``state``: its :meth:`action_label`
        where the choice is public (the default) or ``seat`` sees it, otherwise a public form
        that names no hidden card (a game with hidden decisions overrides this, keeping its
        rule in one place). Replays and seat views show moves through it."""
        return self.action_label(state, action)

    def result_summary(self, state: np.ndarray, totals: Sequence[float]) -> list[SeatResult]:
        """Each seat's place and score in the game's own terms (rounds won, points, lives)
        in the finished game ``state``, whose seats earned ``totals`` (their summed rewards).
        This default ranks the seats by reward; every game words its own."""
        return reward_summary(totals)

    def result_words(
        self, state: np.ndarray, totals: Sequence[float], names: Sequence[str]
    ) -> ResultWords:
        """Who won the finished game ``state`` and each seat's place and score, in words
        (seat ``p`` named ``names[p]``): what the terminal and the replay page show."""
        if not self.is_over(state):
            raise ValueError(f"the {self.title} game is not over: it has no result yet")
        cut = state[HDR_TERMINAL] == TRUNCATED
        reason = "the game reached its step cap" if cut else None
        return result_words(self.result_summary(state, totals), names, reason)

    # The kinds of decision an agent makes, named in the game's terms; what
    # baselines/decision_attribution.py hands to another agent one kind at a time.
    decision_kinds: ClassVar[tuple[str, ...]] = ("every decision",)

    def decision_kind(self, obs: np.ndarray) -> np.ndarray:
        """The index in :attr:`decision_kinds` of the decision each row of ``obs`` (``[B, D]``
        observations) asks for, read from what the seat knows."""
        return np.zeros(obs.shape[0], dtype=np.int64)

    def render(self, state: np.ndarray) -> str:
        """A text picture of the whole state (for people, not agents: it shows all hands):
        by default the title and the referee's :meth:`view` as text."""
        return f"{self.title}\n{self.referee_view(state).text()}"
