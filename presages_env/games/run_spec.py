"""A run's game, resolved once: the :class:`~presages_env.core.game.Game`, the player count
and the options the game has checked.

An entry point (a command line, a public function given a game's name) resolves the name
with :func:`resolve_run` once, before anything starts; trainers, their learners, rollouts and
logs read the :class:`RunSpec` it returns and never look the name up again. Which seats play
together is not in it: a game's teams are read from each deal's state (``Game.teams``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from presages_env.core.game import Game

if TYPE_CHECKING:
    from presages_env.core.vector import VectorEnv


@dataclass(frozen=True)
class RunSpec:
    """One game at one table size with checked options (as given: names to plain values)."""

    game: Game
    num_players: int
    options: Mapping[str, Any]

    @property
    def num_actions(self) -> int:
        """Action ids of this table size."""
        return self.game.num_actions(self.num_players)

    def vector_env(self, num_envs: int, seed: int = 0) -> VectorEnv:
        """``num_envs`` games of this run, stepped together (game i dealt from ``seed``)."""
        from presages_env.core.vector import VectorEnv

        return VectorEnv(self.game, num_envs, self.num_players, seed=seed, **self.options)


def as_game(game: str | Game) -> Game:
    """``game`` itself, or the game a user's name for it names (resolved here, for the
    public functions that take either)."""
    if isinstance(game, str):
        from presages_env.games import get_game  # the registry (numba comes with a game)

        return get_game(game)
    return game


def resolve_run(
    game: str | Game, num_players: int | None = None, options: Mapping[str, Any] | None = None
) -> RunSpec:
    """The run of ``game`` (a name or a ``Game``) at ``num_players`` (None: the game's
    default) with ``options``, each checked by the game (``check_num_players``,
    ``make_options``); a refusal is the game's ``TypeError``/``ValueError``, an option's
    prefixed ``game_options:``."""
    game = as_game(game)
    n = game.default_players if num_players is None else game.check_num_players(num_players)
    given = dict(options or {})
    try:
        game.make_options(n, **given)
    except (TypeError, ValueError) as error:
        kind = ValueError if isinstance(error, ValueError) else TypeError
        raise kind(f"game_options: {error}") from None
    return RunSpec(game, n, MappingProxyType(given))
