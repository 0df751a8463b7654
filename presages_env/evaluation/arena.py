"""The one evaluation engine behind ``python -m presages_env arena`` and ``scoreboard``.

A *table* is a game at one player count, a number of games per pairing and a seed. On it,
agents named by spec (``agents/specs.py``: whatever it resolves, in-process, remote or text)
play a round robin on duplicate deals (every ordered pair, each deal once per side, so the
deal's luck cancels), rated by openskill and by α-Rank (OpenSpiel's, over the matrix of win
rates), and, where the game seats teams at that count, partner series: agent x in one seat
of a team, agent y in its other seats, against a fixed opponent team, also on duplicate
deals. Every series is dealt from the table's seed, so printing it is enough to rerun
it. Games can be kept (``keep_moves``) and saved as game records (``records.py``).
"""

from __future__ import annotations

import importlib
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from presages_env import records
from presages_env.agents.base import Agent
from presages_env.agents.specs import make_agent
from presages_env.core.rng import derive_seed
from presages_env.core.validation import MAX_NUM_GAMES, check_int, check_seed
from presages_env.evaluation.tournament import (
    MatchResult,
    Rating,
    _one_side_against_the_rest,
    _partners_against_opponent,
    deal_group_size,
    has_teams,
    head_to_head,
    partners,
    rate,
)
from presages_env.games import get_game

FILE_NAME = re.compile(r"[^A-Za-z0-9_.+-]+")  # what a record's file name keeps of an agent's


@dataclass(frozen=True)
class Table:
    """A game at ``num_players`` with ``options``; every series plays ``games`` games (whole
    duplicate deals: a multiple of the number of sides) dealt from ``seed``."""

    game: str
    num_players: int
    games: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def group_size(self) -> int:
        """Games per duplicate deal: one per side."""
        return deal_group_size(self.game, self.num_players, **self.options)

    @property
    def teams(self) -> bool:
        """Whether the game seats teams at this count (as its ``Game.teams`` declares)."""
        return has_teams(self.game, self.num_players, **self.options)

    def deal_seed(self, game_index: int) -> int:
        """The seed game ``game_index`` of any series is dealt from."""
        return int(derive_seed(self.seed, game_index // self.group_size))


def table(
    game: str, num_players: int | None, games: int, seed: int, options: dict[str, Any]
) -> Table:
    """The :class:`Table` of ``game`` at ``num_players`` (None: its default), the games of a
    series rounded down to whole duplicate deals (two deals at least). Everything is
    checked here (``ValueError``/``TypeError`` naming it), before anything is played."""
    spec = get_game(game)
    n = spec.check_num_players(spec.default_players if num_players is None else num_players)
    spec.make_options(n, **options)
    games = check_int(games, "games per pairing", 2, MAX_NUM_GAMES)
    group = deal_group_size(spec.name, n, **options)
    whole = max(games // group, 2) * group
    return Table(spec.name, n, whole, check_seed(seed), dict(options))


def build_agents(specs: Sequence[str], setting: Table, simulations: int = 100) -> dict[str, Agent]:
    """The agents of ``specs`` at the table, by label; ``ValueError`` when two share one."""
    built = [
        make_agent(spec, setting.game, setting.seed, simulations, setting.num_players)
        for spec in specs
    ]
    agents = dict(built)
    if len(agents) != len(built):
        labels = [label for label, _ in built]
        raise ValueError(f"agents {list(specs)} share a label ({labels}): name each agent once")
    return agents


@dataclass(frozen=True, eq=False)
class RoundRobin:
    """A round robin's series (``matches``), its openskill ratings and α-Rank masses, and
    the partner series (``partners[(x, y)]``, x in one seat beside y, against ``opponent``)."""

    setting: Table
    matches: list[MatchResult]
    ratings: dict[str, Rating]
    alpha_rank: dict[str, float]
    partners: dict[tuple[str, str], MatchResult]
    opponent: str | None


def play_round_robin(
    setting: Table,
    agents: dict[str, Agent],
    *,
    partner_pairs: Sequence[tuple[str, str]] = (),
    opponent: tuple[str, Agent] | None = None,
    keep_moves: bool = False,
    progress: bool = False,
) -> RoundRobin:
    """Every ordered pair of ``agents`` head to head, then each of ``partner_pairs`` (where
    the table has teams) against ``opponent``, all on the table's duplicate deals."""
    if len(agents) < 2:
        raise ValueError(f"a round robin needs at least two agents, got {sorted(agents)}")
    check_rating_libraries()
    common = dict(num_players=setting.num_players, seed=setting.seed, duplicate=True)
    common.update(keep_moves=keep_moves, progress=progress, **setting.options)
    matches = [
        head_to_head(setting.game, agents[a], agents[b], setting.games, names=(a, b), **common)
        for a, b in itertools.permutations(agents, 2)
    ]
    series, against = {}, None
    if partner_pairs and opponent is not None and setting.teams:
        against, agent = opponent
        series = {
            (x, y): partners(
                setting.game, agents[x], agents[y], agent, setting.games, names=(x, y), **common
            )
            for x, y in partner_pairs
        }
    ranked = alpha_rank(matches, list(agents))
    return RoundRobin(setting, matches, rate(matches), ranked, series, against)


def check_rating_libraries() -> None:
    """``ImportError`` naming the extra to install when openskill or OpenSpiel is missing:
    said before any game is played, not after."""
    for module, extra in (("openskill", "train"), ("open_spiel.python.egt.alpharank", "openspiel")):
        try:
            importlib.import_module(module)
        except ImportError as error:
            raise ImportError(
                f"rating a round robin needs {module.partition('.')[0]}: "
                f"pip install -e '.[{extra}]' ({error})"
            ) from error


def reward_margin(result: MatchResult) -> float:
    """The focus's mean reward minus the mean reward of the other sides, over the games:
    zero, by symmetry, for an agent against itself, whatever the game's scale."""
    sides = result.side_rewards()
    present = np.isfinite(sides)
    focus = sides[np.arange(result.num_games), result.focus_side]
    others = (np.where(present, sides, 0.0).sum(axis=1) - focus) / (present.sum(axis=1) - 1)
    return float(np.mean(focus - others))


def payoff_matrix(matches: Sequence[MatchResult], names: Sequence[str]) -> np.ndarray:
    """``M[i, j]``: agent i's :func:`reward_margin` playing one side against agent j on all
    the others (the diagonal: 0, an agent against itself). ``ValueError`` for a missing pair."""
    index = {name: i for i, name in enumerate(names)}
    matrix = np.full((len(names), len(names)), np.nan)
    np.fill_diagonal(matrix, 0.0)
    for match in matches:
        matrix[index[match.focus], index[match.others]] = reward_margin(match)
    if np.isnan(matrix).any():
        raise ValueError("α-Rank needs every ordered pair of agents played")
    return matrix


def alpha_rank(matches: Sequence[MatchResult], names: Sequence[str]) -> dict[str, float]:
    """Each agent's mass in α-Rank's stationary distribution (OpenSpiel's
    ``alpharank.compute`` with its default population size and selection intensity) over the
    symmetric meta-game whose payoffs are the reward margins of :func:`payoff_matrix` (win
    rates can hide what rewards show: in Kuhn poker the better card wins most duplicate
    deals whoever holds it, and only the stakes differ)."""
    from open_spiel.python.egt import alpharank

    payoffs = payoff_matrix(matches, names)
    with np.errstate(over="ignore"):  # its fixation formula overflows to the right limit
        pi = np.clip(alpharank.compute([payoffs])[2], 0.0, None)
    return {name: float(mass) for name, mass in zip(names, pi / pi.sum(), strict=True)}


def save_records(robin: RoundRobin, folder: Path) -> int:
    """Every kept game of the round robin and the partner series as a record in ``folder``
    (its deal's seed and its moves, checked by replaying them); returns how many."""
    folder.mkdir(parents=True, exist_ok=True)
    series = [((m.focus, m.others), m, _one_side_against_the_rest) for m in robin.matches]
    series += [
        ((x, y, m.others), m, _partners_against_opponent) for (x, y), m in robin.partners.items()
    ]
    saved = 0
    for who, result, plan in series:
        for k, moves in enumerate(result.moves or ()):
            seats = [who[int(a)] for a in plan(k, result.seat_sides[k])[1]]
            rec = _record(robin.setting, k, moves, seats)
            stem = FILE_NAME.sub("_", f"{result.focus}-vs-{result.others}")
            records.save(rec, folder / f"{robin.setting.num_players}p-{stem}-{k:05d}.json")
            saved += 1
    return saved


def _record(setting: Table, game_index: int, moves: list[int], seats: list[str]):
    """Game ``game_index`` of a series as a record: replayed from its deal, so checked."""
    seed = setting.deal_seed(game_index)
    return records.record(setting.game, setting.num_players, seed, moves, seats, **setting.options)
