"""Agents that act on (observation, mask) pairs, one at a time or in batches."""

from presages_env.agents.base import Agent, RandomAgent
from presages_env.agents.heuristic import HeuristicAgent

__all__ = ["Agent", "RandomAgent", "HeuristicAgent"]
