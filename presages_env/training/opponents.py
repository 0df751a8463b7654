"""Opponents given by name or as agents: what a learner's view plays against."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from presages_env.agents import Agent, ErringAgent, HeuristicAgent, RandomAgent
from presages_env.core.game import Game
from presages_env.core.validation import offset_seed

BASELINE_OPPONENTS = ("random", "heuristic")

OpponentSpec = Agent | str | Sequence[Agent | str]


def baseline_agent(name: str, game: str | Game, seed: int = 0) -> Agent:
    """The baseline agent ``name`` (``"random"`` seeded by ``seed``, or ``"heuristic"``)."""
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        return HeuristicAgent(game)
    raise ValueError(f"unknown opponent {name!r}; use one of {BASELINE_OPPONENTS} or an Agent")


class OpponentPool:
    """The agents a deal draws its opponent from, each with its weight. Agents met before stay
    known (weight 0 once left out), so the opponent index of a game in progress holds."""

    def __init__(self) -> None:
        self.agents: list[Agent] = []
        self.weights = np.zeros(0)

    def set(self, opponents: Sequence[Agent], weights: Sequence[float] | None = None) -> None:
        """Draw from ``opponents`` from now on, by ``weights`` (default uniform)."""
        opponents = list(opponents)
        if not all(isinstance(agent, Agent) for agent in opponents):
            raise TypeError(f"opponents must be Agents, got {opponents!r}")
        weights = np.ones(len(opponents)) if weights is None else np.asarray(weights, float)
        if opponents and (
            weights.shape != (len(opponents),) or not (weights >= 0).all() or weights.sum() <= 0
        ):
            raise ValueError(f"opponent weights must be {len(opponents)} non-negative numbers")
        for agent in opponents:
            if agent not in self.agents:
                self.agents.append(agent)
        self.weights = np.zeros(len(self.agents))
        for agent, weight in zip(opponents, weights, strict=True):
            self.weights[self.agents.index(agent)] += weight
        if opponents:
            self.weights /= self.weights.sum()

    @property
    def empty(self) -> bool:
        """Whether no agent can be drawn."""
        return not self.weights.any()

    def draw(self, rng: np.random.Generator, size: int | None = None):
        """The index (``size`` indices) of opponents drawn by weight."""
        return rng.choice(len(self.agents), size=size, p=self.weights)


def learner_side(game: Game, state: np.ndarray, seat: int, team_play: bool) -> np.ndarray:
    """``bool[n]``: the seats the learner plays in a deal where it was drawn ``seat``: its
    whole team with ``team_play`` (partners share the policy), else that seat alone."""
    if team_play:
        teams = game.teams(state)
        return teams == teams[seat]
    return np.arange(game.num_players_of(state)) == seat


def graded(agent: Agent, epsilon: float, curriculum: bool, seed: int) -> Agent:
    """``agent`` itself, or, where it is the heuristic and is to err (``epsilon`` above 0,
    or a curriculum moving its epsilon), an :class:`ErringAgent` around it."""
    if isinstance(agent, HeuristicAgent) and (epsilon > 0 or curriculum):
        return ErringAgent(agent, epsilon, offset_seed(seed, 7))
    return agent


def opponent_agents(spec: OpponentSpec, game: str | Game, seed: int) -> list[Agent]:
    """Agents for ``spec``: names become fresh baseline agents seeded from ``seed`` (so a
    view reset with a seed replays exactly), Agent objects are used as they are."""
    specs = [spec] if isinstance(spec, (Agent, str)) else list(spec)
    if not specs:
        raise ValueError("give at least one opponent")
    agents = []
    for k, item in enumerate(specs):
        if isinstance(item, str):
            agents.append(baseline_agent(item, game, offset_seed(seed, k)))
        elif isinstance(item, Agent):
            agents.append(item)
        else:
            raise TypeError(f"an opponent is an Agent or one of {BASELINE_OPPONENTS}, got {item!r}")
    return agents


# The epsilon curriculum: games against the erring agent behind each move of epsilon, the
# move, and how far below the target the learner's win rate must fall for a move back.
CURRICULUM_WINDOW = 200
CURRICULUM_STEP = 0.05
CURRICULUM_MARGIN = 0.25


class EpsilonCurriculum:
    """Keeps an :class:`ErringAgent` about as strong as the learner: once the learner wins
    ``target`` of its last :data:`CURRICULUM_WINDOW` games against it, the agent errs less
    (epsilon lowered by :data:`CURRICULUM_STEP`); if the learner wins less than
    ``target - CURRICULUM_MARGIN``, more. A learner that loses nearly every game gets almost
    the same return from every move, so it learns little; against an opponent it beats about
    half the time, its returns tell its better moves from its worse ones."""

    def __init__(self, agent: ErringAgent, target: float) -> None:
        self.agent, self.target = agent, target
        self._window: list[float] = []

    def update(self, opponents: Sequence[Agent], outcomes: Sequence[tuple[int, float]]) -> None:
        """Read the outcomes ``(index in opponents, learner's outcome)`` of finished games."""
        self._window += [won for k, won in outcomes if opponents[k] is self.agent]
        if len(self._window) < CURRICULUM_WINDOW:
            return
        rate = float(np.mean(self._window))
        self._window.clear()
        if rate >= self.target:
            self.agent.epsilon = max(0.0, self.agent.epsilon - CURRICULUM_STEP)
        elif rate < self.target - CURRICULUM_MARGIN:
            self.agent.epsilon = min(1.0, self.agent.epsilon + CURRICULUM_STEP)
