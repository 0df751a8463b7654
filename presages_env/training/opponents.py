"""Opponents given by name or as agents: what a learner's view plays against."""

from __future__ import annotations

from collections.abc import Sequence

from presages_env.agents import Agent, HeuristicAgent, RandomAgent
from presages_env.core.validation import offset_seed

BASELINE_OPPONENTS = ("random", "heuristic")

OpponentSpec = Agent | str | Sequence[Agent | str]


def baseline_agent(name: str, game: str, seed: int = 0) -> Agent:
    """The baseline agent ``name`` (``"random"`` seeded by ``seed``, or ``"heuristic"``)."""
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        return HeuristicAgent(game)
    raise ValueError(f"unknown opponent {name!r}; use one of {BASELINE_OPPONENTS} or an Agent")


def opponent_agents(spec: OpponentSpec, game: str, seed: int) -> list[Agent]:
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
