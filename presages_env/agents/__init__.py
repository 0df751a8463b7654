"""Agents that act on (observation, mask) pairs, one at a time or in batches.

``PPOAgent`` (``presages_env.agents.ppo``) needs the ``train`` extra and is not imported here.
"""

from presages_env.agents.base import Agent, ErringAgent, RandomAgent
from presages_env.agents.heuristic import HeuristicAgent
from presages_env.agents.search import ISMCTSAgent

__all__ = ["Agent", "ErringAgent", "RandomAgent", "HeuristicAgent", "ISMCTSAgent"]
