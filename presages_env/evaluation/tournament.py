"""Tournaments through the vector env: balanced seats, fixed seeds, win rates and ratings.

A game is seen as a contest between *sides*: the teams of ``Game.teams`` (read right after
each deal, since a deal may decide the teams), so in a game without teams every seat is a
side. Each tournament game measures one side, the *focus*: agent A in a head-to-head, a pair
of partners in cross-play. The focused side rotates with the game number (game k focuses
side ``k mod number of sides``), so over a multiple of that number of games every side is
played equally often and no agent profits from a lucky seat. The vector env deals game i of
a batch from ``(seed, i)``, so the same seed and freshly built agents give the same result.

With *duplicate deals* (``duplicate=True``) the games come in groups of one game per side:
group g is one deal, seeded ``derive_seed(seed, g)``, played once with the focus on each of
its sides, so each agent holds every side's cards of that deal (as DouZero and PerfectDou
evaluate). The deal's luck then cancels within the group; intervals are computed over the
groups, whose games are correlated (:attr:`MatchResult.group_size`).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from presages_env.agents.base import Agent, act_on
from presages_env.core.game import Game
from presages_env.core.rng import derive_seed
from presages_env.core.validation import MAX_NUM_ENVS, MAX_NUM_GAMES, check_int
from presages_env.core.vector import VectorEnv
from presages_env.evaluation.stats import (
    Estimate,
    grouped_interval,
    grouped_win_rate,
    win_rate,
)
from presages_env.games.run_spec import as_game

# Rewards closer than this count as equal when deciding who won (they are float sums).
TIE_TOLERANCE = 1e-6

# A seating plan: given the game number k and the side of every seat of the new deal,
# return the focused side and, for every seat, the index of the agent that plays it.
SeatingPlan = Callable[[int, np.ndarray], tuple[int, np.ndarray]]

# Duplicate deals: the seed game k is dealt from (None: the vector env deals it).
DealPlan = Callable[[int], int]


@dataclass(frozen=True, eq=False)
class MatchResult:
    """Per-game record of a series where ``focus`` played one side and ``others`` the rest.

    ``seat_rewards[g, s]`` is seat s's total reward in game g, ``seat_sides[g, s]`` its side
    (0 .. number of sides - 1) and ``focus_side[g]`` the side the focus played.
    ``group_size`` is the number of consecutive games played on one deal (duplicate deals;
    1: every game its own deal): the intervals treat each group as one sample.
    ``moves[g]`` lists game g's actions in order where they were kept (``keep_moves``).
    """

    focus: str
    others: str
    game: str
    num_players: int
    seat_rewards: np.ndarray
    seat_sides: np.ndarray
    focus_side: np.ndarray
    group_size: int = 1
    moves: list[list[int]] | None = None

    @property
    def num_games(self) -> int:
        return int(self.focus_side.size)

    @property
    def focus_seats(self) -> np.ndarray:
        """``[G, P]`` booleans: the seats the focus played in each game."""
        return self.seat_sides == self.focus_side[:, None]

    def side_rewards(self) -> np.ndarray:
        """``[G, S]`` mean reward of each side's seats (``-inf`` for a side a deal lacks)."""
        games = np.broadcast_to(np.arange(self.num_games)[:, None], self.seat_sides.shape)
        shape = (self.num_games, int(self.seat_sides.max()) + 1)
        sums, counts = np.zeros(shape), np.zeros(shape)
        np.add.at(sums, (games, self.seat_sides), self.seat_rewards)
        np.add.at(counts, (games, self.seat_sides), 1)
        return np.where(counts > 0, sums / np.maximum(counts, 1), -np.inf)

    def focus_rewards(self) -> np.ndarray:
        """The focused side's reward in each game."""
        return self.side_rewards()[np.arange(self.num_games), self.focus_side]

    def outcomes(self) -> np.ndarray:
        """Per game: 1 if the focus's reward beats every other side's, 0.5 if it ties for
        the top, 0 otherwise."""
        sides = self.side_rewards()
        games = np.arange(self.num_games)
        focus = sides[games, self.focus_side]
        sides[games, self.focus_side] = -np.inf
        best_other = sides.max(axis=1)
        tied = np.abs(focus - best_other) <= TIE_TOLERANCE
        return np.where(tied, 0.5, np.where(focus > best_other, 1.0, 0.0))

    @property
    def win_rate(self) -> float:
        """Share of games won by the focus, ties counting as half."""
        return float(self.outcomes().mean())

    @property
    def mean_reward(self) -> float:
        return float(self.focus_rewards().mean())

    def win_rate_ci(self, confidence: float = 0.95) -> Estimate:
        """The win rate with its Wilson interval (with duplicate deals, on the effective
        number of games that the spread over the deal groups implies)."""
        if self.group_size == 1:
            return win_rate(self.outcomes(), confidence)
        return grouped_win_rate(self.outcomes(), self.group_size, confidence)

    def mean_reward_ci(self, confidence: float = 0.95) -> Estimate:
        """The mean reward with its normal interval (over the groups with duplicate deals)."""
        return grouped_interval(self.focus_rewards(), self.group_size, confidence)

    @property
    def chance(self) -> float:
        """Expected win rate of a focus exactly as strong as its opponents (1 / sides)."""
        return float(np.mean(1.0 / (self.seat_sides.max(axis=1) + 1)))


@dataclass(frozen=True)
class Rating:
    """An openskill rating; ``ordinal = mu - 3·sigma`` is a skill the agent very likely has."""

    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True, eq=False)
class CrossPlayResult:
    """Partner pairs against a fixed opponent: ``matches[(x, y)]`` has agent x in one seat of
    the focused team and agent y in its other seat(s)."""

    names: list[str]
    opponent: str
    matches: dict[tuple[str, str], MatchResult]

    def win_rates(self, confidence: float = 0.95) -> list[list[Estimate]]:
        """Matrix of the pairs' win rates: row x, column y."""
        names = self.names
        return [[self.matches[x, y].win_rate_ci(confidence) for y in names] for x in names]


def head_to_head(
    game: str | Game,
    agent_a: Agent,
    agent_b: Agent,
    num_games: int,
    num_players: int | None = None,
    seed: int = 0,
    num_envs: int = 256,
    *,
    names: tuple[str, str] | None = None,
    progress: bool = False,
    duplicate: bool = False,
    keep_moves: bool = False,
    **options: Any,
) -> MatchResult:
    """``agent_a`` plays one side (a seat, or every seat of a team), ``agent_b`` all others.

    ``names`` label the two agents in the result (default: their ``name`` attributes);
    ``duplicate`` plays each deal once per side (``num_games`` must then be a whole number,
    at least two, of :func:`deal_group_size` groups; ``ValueError`` otherwise);
    ``options`` are the game's options (and ``max_steps``).

    Args:
        game: the game's name, or its Game.
        agent_a: the agent of one side.
        agent_b: the agent of every other seat.
        num_games: how many games, seats rotated.
        num_players: the table's size; None: the game's usual count.
        seed: the seed the deals are drawn from.
        num_envs: how many games are played at once (the vector env's batch).
        names: the two agents' names in the result; None: their ``name``.
        progress: show a progress bar.
        duplicate: play each deal once per side.
        keep_moves: keep every game's actions (:attr:`MatchResult.moves`), to record them.
        **options: the game's options (and ``max_steps``).

    Returns:
        The :class:`MatchResult`: every game's outcome and reward for ``agent_a``.

    Raises:
        ValueError: a setting out of its range, or an agent's illegal move.
    """
    name_a, name_b = names or (agent_a.name, agent_b.name)
    vec = _vector_env(game, num_games, num_players, seed, num_envs, options)
    group = check_duplicate_games(num_games, _num_sides(vec)) if duplicate else 1
    deals = duplicate_deals(seed, group) if duplicate else None
    label = f"{name_a} vs {name_b}" if progress else None
    plan = _one_side_against_the_rest
    moves = [[] for _ in range(num_games)] if keep_moves else None
    arrays = _play(vec, [agent_a, agent_b], plan, num_games, label, deals=deals, moves=moves)
    return MatchResult(name_a, name_b, vec.game.name, vec.num_players, *arrays, group, moves)


def deal_group_size(game: str | Game, num_players: int | None = None, **options: Any) -> int:
    """How many games a duplicate deal is played: one per side.

    Args:
        game: the game's name, or its Game.
        num_players: the table's size; None: the game's usual count.
        **options: the game's options.

    Returns:
        The number of sides, judged on one deal (the number of teams never depends on it).
    """
    return _num_sides(VectorEnv(as_game(game), 1, num_players, **options))


def check_duplicate_games(num_games: int, group_size: int) -> int:
    """``group_size`` if ``num_games`` makes at least two whole groups of it, else a
    ``ValueError`` naming the nearest counts that do."""
    if num_games % group_size or num_games < 2 * group_size:
        lower = max(num_games // group_size, 2) * group_size
        upper = lower + group_size if lower < num_games else lower
        nearest = f"{lower:,} or {upper:,}" if lower != upper else f"{lower:,}"
        raise ValueError(
            f"duplicate deals play each deal {group_size} times (once per side), so the "
            f"number of games must be a multiple of {group_size}, at least {2 * group_size}: "
            f"{nearest}, not {num_games:,}"
        )
    return group_size


def duplicate_deals(seed: int, group_size: int) -> DealPlan:
    """Game k is dealt from ``derive_seed(seed, k // group_size)``: one deal per group."""
    return lambda k: int(derive_seed(seed, k // group_size))


def round_robin(
    game: str | Game,
    agents: dict[str, Agent],
    num_games: int,
    num_players: int | None = None,
    seed: int = 0,
    num_envs: int = 256,
    *,
    progress: bool = False,
    duplicate: bool = False,
    pairs: Sequence[tuple[str, str]] | None = None,
    **options: Any,
) -> list[MatchResult]:
    """A head-to-head for every ordered pair of distinct agents (or for each of ``pairs``),
    all on the same deals, ``num_games`` each.

    Args:
        game: the game's name, or its Game.
        agents: the agents by name.
        num_games: games per pairing.
        num_players: the table's size; None: the game's usual count.
        seed: the seed the deals are drawn from.
        num_envs: how many games are played at once (the vector env's batch).
        progress: show a progress bar.
        duplicate: play each deal once per side (see :func:`head_to_head`).
        pairs: the ordered pairs to play, by the agents' names; None: every ordered pair.
        **options: the game's options (and ``max_steps``).

    Returns:
        One :class:`MatchResult` per pairing.
    """
    pairs = list(pairs or itertools.permutations(agents, 2))
    if not pairs:
        raise ValueError(f"a round robin needs at least two agents, got {sorted(agents)}")
    return [
        head_to_head(
            game,
            agents[a],
            agents[b],
            num_games,
            num_players,
            seed,
            num_envs,
            names=(a, b),
            progress=progress,
            duplicate=duplicate,
            **options,
        )
        for a, b in pairs
    ]


def cross_play(
    game: str | Game,
    agents: dict[str, Agent],
    opponent: Agent,
    num_games: int,
    num_players: int | None = None,
    seed: int = 0,
    num_envs: int = 256,
    *,
    progress: bool = False,
    duplicate: bool = False,
    **options: Any,
) -> CrossPlayResult:
    """Every ordered pair (x, y), x = y included, as partners against ``opponent``.

    Agents trained apart have never met; how well they win together measures ad-hoc
    cooperation. Each pair is a :func:`partners` series on the same deals. Raises
    ``ValueError`` for a game without teams.

    Args:
        game: the game's name, or its Game.
        agents: the agents by name, paired as partners.
        opponent: the agent of the other team's seats.
        num_games: games per pair.
        num_players: the table's size; None: the game's usual count.
        seed: the seed the deals are drawn from.
        num_envs: how many games are played at once (the vector env's batch).
        progress: show a progress bar.
        duplicate: play each deal once per side (see :func:`partners`).
        **options: the game's options (and ``max_steps``).

    Returns:
        The :class:`CrossPlayResult`: each pair's results against ``opponent``.
    """
    matches = {
        (x, y): partners(
            game,
            agents[x],
            agents[y],
            opponent,
            num_games,
            num_players,
            seed,
            num_envs,
            names=(x, y),
            progress=progress,
            duplicate=duplicate,
            **options,
        )
        for x, y in itertools.product(agents, repeat=2)
    }
    return CrossPlayResult(list(agents), opponent.name, matches)


def partners(
    game: str | Game,
    agent_x: Agent,
    agent_y: Agent,
    opponent: Agent,
    num_games: int,
    num_players: int | None = None,
    seed: int = 0,
    num_envs: int = 256,
    *,
    names: tuple[str, str] | None = None,
    progress: bool = False,
    duplicate: bool = False,
    keep_moves: bool = False,
    **options: Any,
) -> MatchResult:
    """``agent_x`` in one seat of the focused team (the seat rotating), ``agent_y`` in the
    team's other seats, ``opponent`` every other team; the result's focus is named
    ``"x + y"``. ``duplicate`` plays each deal once per side (the seat within the team
    rotating from deal to deal) and ``keep_moves`` keeps every game's actions, as
    :func:`head_to_head` does. Raises ``ValueError`` for a
    game without teams."""
    name_x, name_y = names or (agent_x.name, agent_y.name)
    vec = _vector_env(game, num_games, num_players, seed, num_envs, options)
    if not _has_teams(vec):
        raise ValueError(
            f"partners share a team, but {vec.game.name} at {vec.num_players} players "
            "seats everyone in their own team; use a game with teams at that player count"
        )
    group = check_duplicate_games(num_games, _num_sides(vec)) if duplicate else 1
    deals = duplicate_deals(seed, group) if duplicate else None
    label = f"{name_x} + {name_y} vs {opponent.name}" if progress else None
    players = [agent_x, agent_y, opponent]
    moves = [[] for _ in range(num_games)] if keep_moves else None
    plan = _partners_against_opponent
    arrays = _play(vec, players, plan, num_games, label, deals=deals, moves=moves)
    name = f"{name_x} + {name_y}"
    return MatchResult(name, opponent.name, vec.game.name, vec.num_players, *arrays, group, moves)


def has_teams(game: str | Game, num_players: int | None = None, **options: Any) -> bool:
    """Whether some seats share a team (judged on one deal: team sizes never depend on it).

    Args:
        game: the game's name, or its Game.
        num_players: the table's size; None: the game's usual count.
        **options: the game's options.

    Returns:
        True when at least two seats play for one team.
    """
    return _has_teams(VectorEnv(as_game(game), 1, num_players, **options))


def rate(results: Sequence[MatchResult]) -> dict[str, Rating]:
    """openskill (Plackett-Luce) ratings of the agents of head-to-head results.

    Every game is one match whose teams are its sides, ranked by their rewards (equal
    rewards tie). An agent playing several sides of a game (agent B) takes the average of
    the updates of its copies, so each game counts once for it. Games are replayed
    interleaved across the results, so no pairing is systematically rated last.

    Args:
        results: head-to-head results (:func:`head_to_head`, :func:`round_robin`).

    Returns:
        Each agent's :class:`Rating` by name.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    side_rewards = [result.side_rewards() for result in results]
    for index, g in _interleaved([result.num_games for result in results]):
        names = _side_agents(results[index], g)
        scores = [float(reward) for reward in side_rewards[index][g, : len(names)]]
        _rate_game(model, ratings, names, scores)
    return {name: Rating(r.mu, r.sigma, r.ordinal()) for name, r in ratings.items()}


def _side_agents(result: MatchResult, g: int) -> list[str]:
    """Who played each side of game ``g``."""
    num_sides = int(result.seat_sides[g].max()) + 1
    return [
        result.focus if side == result.focus_side[g] else result.others for side in range(num_sides)
    ]


def _rate_game(model: Any, ratings: dict[str, Any], names: list[str], scores: list[float]) -> None:
    """One openskill update of ``ratings`` in place; higher scores rank higher."""
    teams = [[ratings.setdefault(name, model.rating(name=name))] for name in names]
    copies: dict[str, list] = defaultdict(list)
    for name, (rating,) in zip(names, model.rate(teams, scores=scores), strict=True):
        copies[name].append(rating)
    for name, versions in copies.items():
        mu = float(np.mean([v.mu for v in versions]))
        sigma = float(np.mean([v.sigma for v in versions]))
        ratings[name] = model.rating(mu=mu, sigma=sigma, name=name)


# ---- seating plans --------------------------------------------------------------------------
def _one_side_against_the_rest(k: int, sides: np.ndarray) -> tuple[int, np.ndarray]:
    """Agent 0 plays side ``k mod S``, agent 1 every other side."""
    focus = k % (int(sides.max()) + 1)
    return focus, np.where(sides == focus, 0, 1)


def _partners_against_opponent(k: int, sides: np.ndarray) -> tuple[int, np.ndarray]:
    """Agent 0 takes one seat of side ``k mod S`` (the seat rotating every S games),
    agent 1 the team's other seats, agent 2 every other side."""
    num_sides = int(sides.max()) + 1
    focus = k % num_sides
    team = np.flatnonzero(sides == focus)
    seat_agents = np.full(sides.size, 2)
    seat_agents[team] = 1
    seat_agents[team[(k // num_sides) % team.size]] = 0
    return focus, seat_agents


# ---- playing --------------------------------------------------------------------------------
def _vector_env(
    game: str | Game,
    num_games: int,
    num_players: int | None,
    seed: int,
    num_envs: int,
    options: dict[str, Any],
    least: int = 2,
) -> VectorEnv:
    """The vector env of an evaluation: ``num_envs`` games at a time, ``num_games`` in all
    (at least ``least``: two give a confidence interval)."""
    num_games = check_int(num_games, f"num_games (at least {least})", least, MAX_NUM_GAMES)
    num_envs = check_int(num_envs, "num_envs", 1, MAX_NUM_ENVS)
    return VectorEnv(as_game(game), min(num_envs, num_games), num_players, seed=seed, **options)


def _sides(vec: VectorEnv, env: int) -> np.ndarray:
    """Side of each seat in the game of ``env``: its team, renumbered 0 .. S-1."""
    teams = np.asarray(vec.game.teams(vec.states[env]))
    return np.unique(teams, return_inverse=True)[1].reshape(-1)


def _num_sides(vec: VectorEnv) -> int:
    return int(_sides(vec, 0).max()) + 1


def _has_teams(vec: VectorEnv) -> bool:
    return _num_sides(vec) < vec.num_players


def _act(agent: Agent, vec: VectorEnv, envs: np.ndarray) -> np.ndarray:
    return act_on(agent, vec.states[envs], vec.obs[envs], vec.masks[envs])


def _actions(
    vec: VectorEnv, agents: Sequence[Agent], seat_agents: np.ndarray, playing: np.ndarray
) -> np.ndarray:
    """Each playing game's action from the agent seated at its current seat; -1 elsewhere."""
    to_act = seat_agents[np.arange(vec.num_envs), vec.current]
    actions = np.full(vec.num_envs, -1, dtype=np.int64)
    for index, agent in enumerate(agents):
        envs = np.flatnonzero(playing & (to_act == index))
        if envs.size:
            actions[envs] = _act(agent, vec, envs)
    return actions


def _play(
    vec: VectorEnv,
    agents: Sequence[Agent],
    plan: SeatingPlan,
    num_games: int,
    progress_label: str | None,
    first_game: int = 0,
    deals: DealPlan | None = None,
    moves: list[list[int]] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``num_games`` games seated by ``plan``; returns seat rewards, seat sides and the
    focused sides. Game k starts in the first env free once games 0..k-1 have started; the
    plan numbers it ``first_game + k`` (a chunk of a longer series continues its rotation),
    and ``deals``, if given, names the seed it is dealt from (else the env deals it).
    ``moves``, if given, gets each game's actions appended (``moves[k]`` for game k).
    A progress bar is shown when ``progress_label`` is given."""
    b, p = vec.num_envs, vec.num_players
    seat_rewards = np.zeros((num_games, p))
    seat_sides = np.zeros((num_games, p), dtype=np.int64)
    focus_side = np.zeros(num_games, dtype=np.int64)
    game_of_env = np.full(b, -1)  # -1: idle, every game is started
    seat_agents = np.zeros((b, p), dtype=np.int64)
    totals = np.zeros((b, p))

    def start(env: int, k: int) -> None:
        if deals is not None:
            seeds = np.array([deals(first_game + k)], dtype=np.int64)
            vec.reset_games(np.array([env], dtype=np.int64), seeds)
        sides = _sides(vec, env)
        focus_side[k], seat_agents[env] = plan(first_game + k, sides)
        seat_sides[k] = sides
        game_of_env[env] = k

    for env in range(b):
        start(env, env)
    next_game, finished = b, 0
    bar = _progress_bar(num_games, progress_label)
    while finished < num_games:
        playing = game_of_env >= 0
        actions = _actions(vec, agents, seat_agents, playing)
        if moves is not None:
            for env in np.flatnonzero(playing):
                moves[game_of_env[env]].append(int(actions[env]))
        out = vec.step(actions)
        totals[playing] += out.rewards[playing]
        ended = np.flatnonzero(out.done & playing)  # before a deal resets ``out``
        for env in ended:
            seat_rewards[game_of_env[env]] = totals[env]
            totals[env] = 0.0
            finished += 1
            if next_game < num_games:
                start(env, next_game)
                next_game += 1
            else:
                game_of_env[env] = -1
        if bar is not None:
            bar.update(ended.size)
    if bar is not None:
        bar.close()
    return seat_rewards, seat_sides, focus_side


def _progress_bar(total: int, label: str | None):
    if label is None:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="game", desc=label)


def _interleaved(lengths: Sequence[int]) -> Iterator[tuple[int, int]]:
    """(series, game) pairs taking game 0 of every series, then game 1 of every series..."""
    for g in range(max(lengths, default=0)):
        for index, length in enumerate(lengths):
            if g < length:
                yield index, g
