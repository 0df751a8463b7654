"""presages_env: fast, rule-exact multi-agent RL environments for card games.

``make(name, ...)`` builds a PettingZoo AEC environment, ``make_vec(name, num_envs, ...)``
a batched numba environment; both run the same rules kernels. ``options(name)`` lists a
game's options (``help(make)`` lists every game's).
"""

from __future__ import annotations

import inspect
import os
import textwrap
from typing import TYPE_CHECKING, Any

# numba's OpenMP threads otherwise spin after every batched step, starving PyTorch (and any
# other busy thread) on small machines: training under load slows down many times over. A
# user's own setting wins: OMP_WAIT_POLICY=ACTIVE suits a vector env alone on an idle machine.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from presages_env.core.option_space import OptionTable  # noqa: E402
from presages_env.games import (  # noqa: E402
    BUILT_IN_GAMES,
    GAME_CLASSES,
    game_options,
    get_game,
    unavailable_games,
)

if TYPE_CHECKING:  # the envs load PettingZoo and numba; importing the package loads neither
    from presages_env.core.aec import CardGameEnv
    from presages_env.core.vector import VectorEnv

__version__ = "0.1.0"
__all__ = [
    "make",
    "make_vec",
    "list_games",
    "unavailable_games",
    "get_game",
    "options",
    "register_envs",
]


def list_games() -> list[str]:
    """The registered games' names, read without loading any game.

    Returns:
        Every name :func:`make` and :func:`make_vec` accept, sorted. A plug-in game whose
        package does not load is among them, and refused by :func:`make` with the reason;
        :func:`unavailable_games` lists those (it loads every game's class).
    """
    return sorted(GAME_CLASSES)


def make(
    name: str, num_players: int | None = None, render_mode: str | None = None, **kwargs: Any
) -> CardGameEnv:
    """A PettingZoo AEC env of one game.

    Args:
        name: the game, one of :func:`list_games`.
        num_players: the table's size, within the game's range; None: its usual count.
        render_mode: None, ``"ansi"`` (``render()`` returns the text) or ``"human"``
            (``render()`` prints it).
        **kwargs: ``max_steps`` (decisions after which a game is truncated) and the game's
            options, listed below (``presages_env.options(name)``).

    Returns:
        The environment (a ``CardGameEnv``), not dealt yet: call ``reset(seed=...)``.

    Raises:
        ValueError: a value out of its range (the message names what is allowed).
        TypeError: a value of the wrong type.
    """
    from presages_env.core.aec import CardGameEnv

    return CardGameEnv(get_game(name), num_players, render_mode=render_mode, **kwargs)


def make_vec(
    name: str, num_envs: int, num_players: int | None = None, seed: int = 0, **kwargs: Any
) -> VectorEnv:
    """A batch of games of one game, stepped together by the numba kernels.

    Args:
        name: the game, one of :func:`list_games`.
        num_envs: how many games the batch holds.
        num_players: the table's size, within the game's range; None: its usual count.
        seed: the batch's seed (game i's deals come from ``derive_seed(seed, i)``).
        **kwargs: ``max_steps`` (0: no cap), ``parallel`` and ``events`` (see
            :class:`~presages_env.core.vector.VectorEnv`) and the game's options, as for
            :func:`make`.

    Returns:
        The :class:`~presages_env.core.vector.VectorEnv`: call ``reset()`` to deal.

    Raises:
        ValueError: a value out of its range (the message names what is allowed).
        TypeError: a value of the wrong type.
    """
    from presages_env.core.vector import VectorEnv

    return VectorEnv(get_game(name), num_envs, num_players, seed=seed, **kwargs)


def options(name: str) -> OptionTable:
    """Every option of a game, read without loading its rules.

    Args:
        name: the game, one of :func:`list_games`.

    Returns:
        A list of :class:`~presages_env.core.option_space.OptionInfo` (each option's type,
        default, range and meaning) that prints as a table.
    """
    return game_options(name)


def _with_every_game_options(doc: str | None) -> str | None:
    """``doc`` followed by each game's option table, for ``help(make)``."""
    if doc is None:  # python -OO drops docstrings
        return None
    # the built-in games: those of other packages' entry points are looked up (importlib.metadata,
    # a tenth of a second) when the registry is first read, not at import
    games = sorted(BUILT_IN_GAMES)
    tables = (f"{name}:\n{textwrap.indent(str(options(name)), '    ')}" for name in games)
    return "\n\n".join((inspect.cleandoc(doc), "Options of each game:", *tables))


make.__doc__ = _with_every_game_options(make.__doc__)


def register_envs() -> None:
    """Register every game in PettingZoo's AEC registry as ``presages_env/<name>-v0``.

    The single-agent views are registered in Gymnasium's under the same ids by
    :mod:`presages_env.training` as it is imported (``gymnasium.make(
    "presages_env.training:presages_env/<name>-v0")`` imports it first): this package sits
    below training and never imports it.
    """
    import pettingzoo

    for name in GAME_CLASSES:
        env_id = f"presages_env/{name}-v0"
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=_entry_point(name))


def _entry_point(name: str):
    def create(**kwargs: Any):
        return make(name, **kwargs)

    create.__name__ = f"make_{name}"
    return create
