"""Agents named on a command line: ``random[:SEED]``, ``heuristic``, ``search[:SIMULATIONS]``,
``ppo[:PATH]`` (without a path, the checkpoint shipped for the game at that player count),
``dmc[:PATH]`` (an action scorer, as ``training/dmc.py`` writes it; without a path, the one
shipped for the game, trained from scratch)."""

from __future__ import annotations

from pathlib import Path

from presages_env.agents.base import Agent, RandomAgent
from presages_env.agents.heuristic import HeuristicAgent
from presages_env.agents.search import ISMCTSAgent
from presages_env.core.validation import check_seed, parse_decimal

AGENT_KINDS = ("random", "heuristic", "search", "ppo", "dmc")


def make_agent(
    spec: str,
    game: str,
    seed: int = 0,
    simulations: int = 100,
    num_players: int | None = None,
) -> tuple[str, Agent]:
    """The agent ``spec`` stands for in ``game`` at ``num_players`` (default: the game's
    default count) and the label it gets in tables.

    Raises ``ValueError`` for an unknown kind or a bad number, ``ImportError`` when PPO's
    extra (torch) is missing, and what :meth:`PPOAgent.load` or
    :meth:`ActionScorerAgent.load` raises for a bad checkpoint (``OSError`` for a missing
    one named by its path, ``ValueError`` for a game that ships none; a checkpoint of
    another game is refused here).
    """
    kind, _, arg = spec.partition(":")
    if kind == "random":
        seed = check_seed(parse_decimal(arg, "random seed"), "random seed") if arg else seed
        return spec, RandomAgent(seed)
    if kind == "heuristic" and not arg:
        return "heuristic", HeuristicAgent(game)
    if kind == "search":
        budget = parse_decimal(arg, "search simulations") if arg else simulations
        return spec, ISMCTSAgent(game, simulations=budget, seed=seed)
    if kind == "ppo":
        from presages_env.agents.ppo import PPOAgent, shipped_checkpoint

        path = Path(arg) if arg else shipped_checkpoint(game, num_players)
        if not arg and not path.is_file():  # said in words: a missing file's error names its path
            raise ValueError(f"{game} ships no ppo checkpoint; name one with ppo:PATH")
        agent = PPOAgent.load(path, game=game, num_players=num_players)
        return (f"ppo:{path.stem}" if arg else "ppo"), agent
    if kind == "dmc":
        from presages_env.agents.action_scorer import ActionScorerAgent, shipped_scorer

        path = Path(arg) if arg else shipped_scorer(game)
        agent = ActionScorerAgent.load(path, game=game, num_players=num_players)
        return (f"dmc:{path.stem}" if arg else "dmc"), agent
    raise ValueError(
        f"unknown agent {spec!r}; use random[:SEED], heuristic, search[:SIMULATIONS], "
        "ppo[:PATH] or dmc[:PATH]"
    )
