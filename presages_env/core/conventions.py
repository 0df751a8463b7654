"""A game's parts found by name in its package, so that its ``Game`` class lists none of them.

When a :class:`~presages_env.core.game.Game` subclass is defined, each part it does not
declare itself is looked up, in order, in the module of its package named for that part,
then in the class's own module (a game may write everything in ``game.py``), then in its
kernel module; the first that has the part's names is taken:

============== ===================== ==================================================
attribute      module                names it must have
============== ===================== ==================================================
kernel         ``kernel``            ``reset_logged``, ``step_logged``, ``legal_mask``, ``observe``
validator      ``validate``          ``validate_state``
viewer         ``view``              ``seat_view`` (``state_view`` optional)
event_texts    ``event_text``        ``describe``
card_texts     ``card_text``         ``RULES_SUMMARY``, ``LEGEND``
action_features``action_features``   ``action_features``
heuristic      ``heuristic``         ``heuristic_actions``
============== ===================== ==================================================

The options come from the package (``option_space``, and ``Options`` where the game writes
its dataclass itself; otherwise it is derived, :mod:`presages_env.core.options`), read from
``options.py`` or the package's ``__init__.py``; the state and observation layouts from the
kernel's (or ``layout.py``'s) ``slots`` and ``obs_slots``; ``world_sampler`` is the
kernel's ``sample_world``.

The optional parts have generic defaults: the heuristic and the world sampler are ``None``
(search rolls out at random, the no-leak checks skip); events are worded by their kind and
arguments, and no event opens a round; the words of a game without cards name none
(``CARD_NAMES`` empty, ``card_help`` None); each action's features are its one-hot index.
A kernel that does not bind its plain ``reset``/``step`` or its ``global_state`` gets them
here (:func:`complete_kernel`).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Mapping
from typing import Any

import numba as nb
import numpy as np

from presages_env.core import events as ev
from presages_env.core.action_features import FeatureLayout
from presages_env.core.view import name_key

# attribute -> (the module's name in the package, the names it must have)
PARTS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "kernel": ("kernel", ("reset_logged", "step_logged", "legal_mask", "observe")),
    "validator": ("validate", ("validate_state",)),
    "viewer": ("view", ("seat_view",)),  # and state_view, or Game.referee_view
    "event_texts": ("event_text", ("describe",)),  # or EVENT_TEXTS, templates by kind
    "card_texts": ("card_text", ("RULES_SUMMARY", "LEGEND")),
    "action_features": ("action_features", ("action_features",)),
    "heuristic": ("heuristic", ("heuristic_actions",)),
}


def package_of(cls: type) -> str:
    """The package a game's class is defined in ('' for a module outside any package)."""
    module = sys.modules[cls.__module__]
    return module.__package__ or ""


def _module(package: str, name: str) -> types.ModuleType | None:
    """``package.name`` imported, or None where the package has no such module."""
    if not package:
        return None
    full = f"{package}.{name}"
    if full in sys.modules:
        return sys.modules[full]
    return importlib.import_module(full) if importlib.util.find_spec(full) is not None else None


def find_part(cls: type, part: str) -> Any:
    """The module that provides ``part`` of the game ``cls`` by convention, or None."""
    module_name, names = PARTS[part]
    kernel = cls.__dict__.get("kernel")
    candidates = (_module(package_of(cls), module_name), sys.modules[cls.__module__], kernel)
    for module in candidates:
        if module is not None and all(hasattr(module, name) for name in names):
            return module
    return None


def bind_parts(cls: type) -> None:
    """Set on ``cls`` each part it neither declares nor inherits from another game, found by
    convention, else its generic default; a required part left unfound is reported by the
    class's checks."""
    own = cls.__dict__
    for part in PARTS:  # the kernel first: the other parts are looked for in it too
        if part in own:
            continue
        found = find_part(cls, part)
        if found is not None:
            setattr(cls, part, found)
        elif getattr(cls, part, None) is None and "kernel" in own:
            _bind_default(cls, part)
    if "kernel" not in own:
        return  # a subclass of a game inherits the rest
    kernel = own["kernel"]
    if "world_sampler" not in own:
        cls.world_sampler = getattr(kernel, "sample_world", None)
    layout = _module(package_of(cls), "layout")
    for attribute, name in (("state_layout", "slots"), ("obs_layout", "obs_slots")):
        if attribute not in own:
            setattr(cls, attribute, getattr(layout, name, None) or getattr(kernel, name, None))
    if isinstance(own.get("card_texts"), types.ModuleType):
        cls.card_texts = _words(own["card_texts"])


def bind_options(cls: type) -> None:
    """``option_space`` and ``Options`` from the game's package where the class declares
    none: from its ``options`` module, else its ``__init__``; ``Options`` derived from the
    space where the package writes no dataclass."""
    from presages_env.core.options import options_class

    if "option_space" not in cls.__dict__:
        package = package_of(cls)
        for source in (_module(package, "options"), sys.modules.get(package)):
            if source is not None and hasattr(source, "option_space"):
                cls.option_space = source.option_space
                if "Options" not in cls.__dict__ and hasattr(source, "Options"):
                    cls.Options = source.Options
                break
    space = cls.__dict__.get("option_space")
    if "Options" not in cls.__dict__ and space and all(draw.has_default for draw in space.values()):
        name = cls.__name__.removesuffix("Game") + "Options"
        cls.Options = options_class(name, cls.option_space, cls.__module__)
        module = sys.modules[cls.__module__]
        if not hasattr(module, name):  # where pickle looks for it
            setattr(module, name, cls.Options)


def _bind_default(cls: type, part: str) -> None:
    if part == "heuristic":
        cls.heuristic = None
    elif part == "event_texts":
        cls.event_texts = _event_words(cls)
    elif part == "action_features":
        cls.action_features = one_hot_features(cls.__dict__["kernel"])


# ---- the generic defaults --------------------------------------------------------------
def describe_event(event: ev.Event) -> str:
    """An event in words by its kind and arguments: ``P1 bid: count 2, face 5``."""
    args = ", ".join(f"{key} {value}" for key, value in event.args.items())
    who = f"{ev.seat_name(event.actor)} " if event.actor >= 0 else ""
    return f"{who}{event.kind.replace('_', ' ')}{': ' + args if args else ''}"


def _event_words(cls: type) -> types.SimpleNamespace:
    """Events worded from the ``EVENT_TEXTS`` templates of the game's module or kernel
    (:func:`templated`), else by kind and arguments; rounds by its ``round_title``."""
    modules = (sys.modules[cls.__module__], cls.__dict__["kernel"])
    texts = next((m.EVENT_TEXTS for m in modules if hasattr(m, "EVENT_TEXTS")), None)
    names = next((m.CARD_NAMES for m in modules if hasattr(m, "CARD_NAMES")), ())
    title = next((m.round_title for m in modules if hasattr(m, "round_title")), no_round)
    if texts is None:
        return types.SimpleNamespace(describe=describe_event, round_title=title)
    return types.SimpleNamespace(describe=templated(texts, names), round_title=title)


def templated(texts: Mapping[str, str], card_names: tuple[str, ...]) -> Any:
    """``describe(event)`` filling ``texts[event.kind]`` (``"{actor} bets {chips}"``) with
    the event's arguments: ``actor`` and the seat arguments (``player``, ``winner``) as seat
    names, ``card`` as its name in ``card_names``."""

    def describe(event: ev.Event) -> str:
        args = dict(event.args, actor=ev.seat_name(event.actor))
        for key in SEAT_ARGUMENTS & args.keys():
            args[key] = ev.seat_name(args[key])
        if "card" in args and card_names:
            args["card"] = card_names[args["card"]]
        return texts[event.kind].format(**args)

    return describe


SEAT_ARGUMENTS = {"player", "winner", "seat", "loser", "target"}


def no_round(event: ev.Event) -> str | None:
    """No event opens a round: the replay page shows the game as one."""
    return None


def _words(module: types.ModuleType) -> types.SimpleNamespace:
    """A game's words, those it leaves out filled in: no card names for a game without
    cards; a card's help and summary its place among ``CARD_NAMES``, weakest first."""
    names = tuple(getattr(module, "CARD_NAMES", ()))
    keys = {name_key(name): i for i, name in enumerate(names)}

    def card_summary(name: str) -> str | None:
        card = keys.get(name_key(name))
        return None if card is None else f"card {card + 1} of the {len(names)}, weakest first"

    def card_help(name: str) -> str | None:
        card = keys.get(name_key(name))
        return None if card is None else f"{names[card]}: {card_summary(name)}"

    return types.SimpleNamespace(
        __name__=module.__name__,
        RULES_SUMMARY=module.RULES_SUMMARY,
        LEGEND=module.LEGEND,
        CARD_NAMES=names,
        card_help=getattr(module, "card_help", card_help),
        card_summary=getattr(module, "card_summary", card_summary),
    )


@nb.njit(cache=True)
def _one_hot(obs, out):
    """Feature ``a`` of action ``a`` is 1, every other 0."""
    out[:] = 0.0
    for i in range(obs.shape[0]):
        for a in range(out.shape[1]):
            out[i, a, a] = 1.0


def one_hot_features(kernel: types.ModuleType) -> types.SimpleNamespace:
    """Action features that say which action each is, nothing more (the kernel's
    ``ACTION_NAMES`` name them where it has them)."""
    count = int(kernel.NUM_ACTIONS)
    names = getattr(kernel, "ACTION_NAMES", None) or tuple(str(a) for a in range(count))
    layout = FeatureLayout()
    layout.block("kind", tuple(names))
    return types.SimpleNamespace(
        action_features=_one_hot, ACTION_FEATURES=count, FEATURE_NAMES=tuple(layout.names)
    )


def complete_kernel(kernel: types.ModuleType, game: type) -> None:
    """Bind the kernels every game's are made of, where ``kernel`` does not: its plain
    ``reset``/``step`` (``*_logged`` without events, core/batched.py) and its
    ``global_state`` over every seat's observation and the whole state
    (core/global_state.py), with its ``GLOBAL_*`` sizes."""
    from presages_env.core.batched import plain_kernels
    from presages_env.core.global_state import bind_global_state

    if not hasattr(kernel, "reset") or not hasattr(kernel, "step"):
        kernel.reset, kernel.step = plain_kernels(kernel)
    if not hasattr(kernel, "global_state"):
        kernel.GLOBAL_DTYPE = kernel.STATE_DTYPE
        seats = getattr(game, "max_players", None)
        if not isinstance(seats, int):
            raise TypeError(f"{game.__name__} must declare max_players (an int)")
        kernel.GLOBAL_SEATS = seats
        kernel.GLOBAL_SLOTS_END = int(kernel.STATE_SIZE)
        bound = bind_global_state(kernel.__name__, np.dtype(game.obs_dtype).type)
        kernel.GLOBAL_SLOTS, kernel.GLOBAL_SIZE, kernel.global_state = bound
