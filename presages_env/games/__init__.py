"""Known games, imported lazily so that ``import presages_env`` stays fast.

A game registers with one line in :data:`GAME_CLASSES` (its name and its ``Game`` subclass as
``"module:Class"``), or, shipped as a package of its own, with an entry point in the group
``presages_env.games`` (``name = "module:Class"`` in its ``pyproject.toml``'s
``[project.entry-points."presages_env.games"]``). Everything else about a game is declared
on its class (see :mod:`presages_env.core.game`).

A game's ``game_id`` names it in every saved state's header, so each game has its own: a game
claiming an id an earlier registered game holds (built-in games first, then the entry points
in their order) is refused, with both games named, and listed by :func:`unavailable_games`.
The registry keeps the id → game map (:func:`game_by_id`), which :mod:`presages_env.core.state_io`
and :mod:`presages_env.core.decision_tables` are handed: the core never imports a game.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import importlib.util
import re
import warnings
from collections.abc import Iterator, MutableMapping
from typing import TYPE_CHECKING

from presages_env.core.option_space import OptionTable, describe_options
from presages_env.core.options import options_class

if TYPE_CHECKING:  # numba comes with it: a second of start-up
    from presages_env.core.game import Game

ENTRY_POINT_GROUP = "presages_env.games"
# The game examples, messages and settings fall back on.
DEFAULT_GAME = "president"
FLAGSHIP_GAME = "presages"  # the package's namesake: the game a person is offered first (lab)
# Listed from the costliest to test (tests/conftest.py hands its workers the games' test
# groups in this order, the two largest first).
BUILT_IN_GAMES = {
    "presages": "presages_env.games.presages.game:PresagesGame",
    "res_arcana": "presages_env.games.res_arcana.game:ResArcanaGame",
    "president": "presages_env.games.president.game:PresidentGame",
    "aciliande": "presages_env.games.aciliande.game:AciliandeGame",
    "kuhn_poker": "presages_env.games.kuhn_poker.game:KuhnPokerGame",
    "liars_dice": "presages_env.games.liars_dice.game:LiarsDiceGame",
}
_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
_TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")
_MAX_GAME_ID = 2**16 - 1  # saved files store it as a u16 (core/state_io.py)


def entry_point_games() -> tuple[dict[str, str], dict[str, str]]:
    """The games other packages register in the ``presages_env.games`` entry point group,
    as ``{name: "module:Class"}`` (loaded only when asked for), and the refused ones as
    ``{name: why}``: a name that is not lower snake case or clashes with a built-in game,
    or a target that is not ``module:Class``. One bad package must not hide the others."""
    import importlib.metadata  # a tenth of a second: only when the registry is first read

    games, refused = {}, {}
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if not _NAME.fullmatch(entry.name) or entry.name in BUILT_IN_GAMES:
            refused[entry.name] = (
                f"entry point {entry.name!r} in {ENTRY_POINT_GROUP}: a game's name is lower "
                f"snake case and not one of {sorted(BUILT_IN_GAMES)}"
            )
        elif not _TARGET.fullmatch(entry.value):
            refused[entry.name] = f"entry point {entry.name!r} must name a module:Class"
        else:
            games[entry.name] = entry.value
    return games, refused


class _Registry(MutableMapping):
    """Every game's ``{name: "module:Class"}``: the built-in ones, then those of the entry
    points, looked up when the registry is first read (not at ``import presages_env``)."""

    def __init__(self, games: dict[str, str]) -> None:
        self._games = dict(games)
        self._refused: dict[str, str] = {}
        self._found = False
        self._identities: _Identities | None = None  # built when first asked for

    def _all(self) -> dict[str, str]:
        if not self._found:
            found, self._refused = entry_point_games()
            self._games.update(found)
            self._found = True
            for why in self._refused.values():
                warnings.warn(f"{why}: skipped", stacklevel=3)
        return self._games

    def refusal(self, name: str) -> str | None:
        """Why the entry point called ``name`` was skipped, if it was."""
        return self.refusals().get(name)

    def refusals(self) -> dict[str, str]:
        """Why each skipped entry point was skipped, by its name."""
        self._all()
        return dict(self._refused)

    def __getitem__(self, name: str) -> str:
        return self._games[name] if name in self._games else self._all()[name]

    def __contains__(self, name: object) -> bool:
        return name in self._games or name in self._all()

    def identities(self) -> _Identities:
        """Every game's ``game_id``, claimed in the registry's order (loads every game's
        class once; registering or removing a game starts over)."""
        if self._identities is None:
            self._identities = _Identities.of(self)
        return self._identities

    def __setitem__(self, name: str, target: str) -> None:
        self._all()[name] = target
        self._identities = None

    def __delitem__(self, name: str) -> None:
        del self._all()[name]
        self._identities = None

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


@dataclasses.dataclass(frozen=True)
class _Identities:
    """Which game holds each ``game_id`` (``{id: name}``), and the games refused for
    claiming one already held (``{name: why}``)."""

    holders: dict[int, str]
    refused: dict[str, str]

    @classmethod
    def of(cls, registry: _Registry) -> _Identities:
        holders: dict[int, str] = {}
        refused: dict[str, str] = {}
        for name in registry:
            try:
                game = _import_class(name, registry)
            except ValueError:  # a game that does not load holds no id
                continue
            game_id = getattr(game, "game_id", None)
            if type(game_id) is not int or not 0 <= game_id <= _MAX_GAME_ID:
                refused[name] = (
                    f"game {name!r} ({registry[name]}) has game_id {game_id!r}: "
                    f"a game's id is an int in [0, {_MAX_GAME_ID}]"
                )
            elif game_id in holders:
                holder = holders[game_id]
                refused[name] = (
                    f"game {name!r} ({registry[name]}) has game_id {game_id}, already the id "
                    f"of game {holder!r} ({registry[holder]}): each game needs an id of its own"
                )
            else:
                holders[game_id] = name
        return cls(holders, refused)


GAME_CLASSES = _Registry(BUILT_IN_GAMES)


def get_game(name: str) -> Game:
    """A game's description: its sizes, options, kernels and words.

    Args:
        name: the game, one of ``presages_env.list_games()``.

    Returns:
        The :class:`Game` registered under ``name``.

    Raises:
        ValueError: no game has that name (the message lists the games), its package
            does not load (a plug-in naming a missing module, or failing as it is
            imported; the message names the game and the reason), or its ``game_id`` is
            an earlier registered game's (the message names both).
    """
    game = _game_class(name)()
    if game.name != name:
        raise ValueError(f"the game registered as {name!r} calls itself {game.name!r}")
    return game


def game_by_id(game_id: int) -> Game:
    """The game whose states carry ``game_id`` in their header: what
    :func:`~presages_env.core.state_io.deserialize` is handed to read a saved state of any game.

    Raises:
        ValueError: no game that loads holds that id.
    """
    holders = GAME_CLASSES.identities().holders
    if isinstance(game_id, bool) or not isinstance(game_id, int) or game_id not in holders:
        raise ValueError(f"the data holds unknown game id {game_id!r}")
    return get_game(holders[game_id])


def unavailable_games() -> dict[str, str]:
    """The games registered that cannot be played. It loads every registered game's class.

    Returns:
        ``{name: why}``: the entry points refused (a bad name or target), the registered
        games whose package does not load and those claiming a ``game_id`` an earlier game
        holds, which :func:`get_game` refuses with the same reason.
    """
    unavailable = GAME_CLASSES.refusals()
    for name in GAME_CLASSES:
        try:
            get_game(name)
        except ValueError as error:
            unavailable[name] = str(error)
    return unavailable


def available_games() -> list[str]:
    """The registered games that load, in the registry's order: every game but those
    :func:`unavailable_games` lists, for the callers that go through every game."""
    unavailable = unavailable_games()
    return [name for name in GAME_CLASSES if name not in unavailable]


def benchmarked_games() -> list[str]:
    """The registered games the benchmarks and the results tables cover: all but those
    declaring ``benchmarked = False`` (the exemplar game). Loads every game's class."""
    return [name for name in available_games() if get_game(name).benchmarked]


def game_options(name: str) -> OptionTable:
    """Every option of game ``name`` with its type, default, range and meaning, read from the
    ``options.py`` beside its ``game.py``, or its package's ``__init__.py``, alone: its rules
    (numba) are not loaded. A plug-in without either is read from its ``Game`` class."""
    target = GAME_CLASSES[_known(name)]
    package = target.split(":")[0].rpartition(".")[0]
    with _loading(name, target):
        for module_name in (f"{package}.options", package) if package else ():
            if importlib.util.find_spec(module_name) is None:
                continue
            module = importlib.import_module(module_name)
            if hasattr(module, "option_space"):
                space = module.option_space
                options = getattr(module, "Options", None) or options_class(name, space)
                return describe_options(options, space)
    game = _game_class(name)
    if getattr(game, "Options", None) is None:  # a game without options
        return OptionTable()
    return describe_options(game.Options, game.option_space)


def _game_class(name: str) -> type[Game]:
    game = _import_class(_known(name), GAME_CLASSES)
    why = GAME_CLASSES.identities().refused.get(name)
    if why is not None:
        raise ValueError(why)
    return game


def _import_class(name: str, registry: _Registry) -> type[Game]:
    target = registry[name]
    module_name, class_name = target.split(":")
    with _loading(name, target):
        return getattr(importlib.import_module(module_name), class_name)


@contextlib.contextmanager
def _loading(name: str, target: str) -> Iterator[None]:
    """Any error while game ``name``'s package is imported, as a ``ValueError`` saying so: a
    plug-in's import may raise anything, and one bad package must not break the others."""
    try:
        yield
    except Exception as error:
        reason = " ".join(f"{type(error).__name__}: {error}".split())[:300]
        message = f"game {name!r} is unavailable: {target} does not load ({reason})"
        raise ValueError(message) from error


def _known(name: str) -> str:
    if not isinstance(name, str) or name not in GAME_CLASSES:
        if isinstance(name, str) and GAME_CLASSES.refusal(name):
            raise ValueError(GAME_CLASSES.refusal(name))
        raise ValueError(f"unknown game {name!r}; known games: {sorted(GAME_CLASSES)}")
    return name
