"""Agents named on a command line: ``random[:SEED]``, ``heuristic``, ``search[:SIMULATIONS]``,
``ppo[:PATH]`` (without a path, the checkpoint shipped for the game at that player count),
``dmc[:PATH]`` (an action scorer, as ``training/dmc.py`` writes it; without a path, the one
shipped for the game, trained from scratch; a folder of them is one ensemble),
``python:MODULE:NAME`` (an agent of your own: ``NAME(game=, num_players=, seed=)`` from the
module, which must return an :class:`Agent`) and ``text:MODULE:NAME[@TIER]`` (a
``prompt -> answer`` function played through :class:`~presages_env.text.TextAgent` in one of
its tiers, ``moves`` unless named). A module is imported only when a spec naming it is built,
after the spec's form has been checked. A pairing of two agents is written ``A:B``
(``dmc:heuristic``, ``ppo:runs/x/policy.pt:random``)."""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable
from pathlib import Path

from presages_env.agents.base import Agent, RandomAgent
from presages_env.agents.heuristic import HeuristicAgent
from presages_env.agents.search import ISMCTSAgent
from presages_env.core.validation import check_seed, parse_decimal
from presages_env.games import get_game

AGENT_KINDS = ("random", "heuristic", "search", "ppo", "dmc", "python", "text")
SHIPPED_KINDS = AGENT_KINDS[:5]  # the kinds a game may ship (the rest name your code)
# MODULE:NAME, a dotted module path and an attribute (and, for text, @TIER: a word)
_WORD = r"[A-Za-z_][A-Za-z0-9_]*"
ENTRY_POINT = re.compile(
    rf"(?P<module>{_WORD}(?:\.{_WORD})*):(?P<name>{_WORD})(?:@(?P<tier>[a-z]+))?"
)


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
    if kind == "python":
        made = _entry_point(spec, arg)(game=game, num_players=num_players, seed=seed)
        if not isinstance(made, Agent):
            raise TypeError(f"agent {spec!r} returned {type(made).__name__}, not an Agent")
        return spec, made
    if kind == "text":
        return spec, _text_agent(spec, arg, game, seed)
    raise ValueError(
        f"unknown agent {spec!r}; use random[:SEED], heuristic, search[:SIMULATIONS], "
        "ppo[:PATH], dmc[:PATH], python:MODULE:NAME or text:MODULE:NAME[@TIER]"
    )


def check_entry_point(spec: str, arg: str, tiered: bool = False) -> tuple[str, str, str | None]:
    """The module, the name and (``tiered``: text specs) the tier of ``MODULE:NAME[@TIER]``;
    ``ValueError`` naming ``spec`` for any other form. Imports nothing."""
    match = ENTRY_POINT.fullmatch(arg)
    if match is None or (match["tier"] and not tiered):
        form = "MODULE:NAME@TIER" if tiered else "MODULE:NAME"
        raise ValueError(
            f"agent {spec!r}: expected {spec.partition(':')[0]}:{form}, a dotted module path "
            "and a name in it (letters, digits, underscores), e.g. mypackage.agents:make"
        )
    return match["module"], match["name"], match["tier"]


def _entry_point(spec: str, arg: str, tiered: bool = False) -> Callable:
    """The callable a checked ``MODULE:NAME`` names (the module imported here)."""
    module, name, _ = check_entry_point(spec, arg, tiered)
    found = getattr(importlib.import_module(module), name, None)
    if not callable(found):
        raise ValueError(f"agent {spec!r}: {module} has no callable named {name!r}")
    return found


def _text_agent(spec: str, arg: str, game: str, seed: int) -> Agent:
    """``text:MODULE:NAME[@TIER]``: the function played through a TextAgent (the text layer,
    above this one, is imported only for such a spec)."""
    from presages_env.text.agent import TextAgent
    from presages_env.text.decision import TIERS

    tier = check_entry_point(spec, arg, tiered=True)[2] or "moves"
    if tier not in TIERS:
        raise ValueError(
            f"agent {spec!r}: the tier must be one of {', '.join(TIERS)}, not {tier!r}"
        )
    return TextAgent(game, _entry_point(spec, arg, tiered=True), tier=tier, seed=seed, name=spec)


def shipped_agents(game: str, num_players: int) -> tuple[str, ...]:
    """The kinds of :data:`SHIPPED_KINDS` that play ``game`` at ``num_players`` with no path
    given: ``heuristic`` and ``search`` where the game declares a heuristic and a world
    sampler, ``ppo`` where a shipped checkpoint fits that count, ``dmc`` where the game
    ships action scorers that all fit it (each file's contents checked, no network built:
    a file that would be refused at a table is not offered). Read once per game and count."""
    spec = get_game(game)
    n = spec.check_num_players(num_players)
    return _shipped_agents(spec.name, n)


@functools.lru_cache(maxsize=64)
def _shipped_agents(game: str, num_players: int) -> tuple[str, ...]:
    spec = get_game(game)
    fits = {
        "random": True,
        "heuristic": spec.heuristic is not None,
        "search": spec.world_sampler is not None,
        "ppo": spec.ships_checkpoint and _ppo_fits(game, num_players),
        "dmc": _dmc_fits(game, num_players),
    }
    return tuple(kind for kind in SHIPPED_KINDS if fits[kind])


def _ppo_fits(game: str, num_players: int) -> bool:
    try:
        from presages_env.agents.checkpoint import check_checkpoint, read_checkpoint
        from presages_env.agents.ppo import shipped_checkpoint

        check_checkpoint(read_checkpoint(shipped_checkpoint(game, num_players)), game, num_players)
    except (ImportError, OSError, TypeError, ValueError):
        return False
    return True


def _dmc_fits(game: str, num_players: int) -> bool:
    try:
        from presages_env.agents.action_scorer import member_paths, shipped_scorer
        from presages_env.agents.checkpoint import check_scorer_checkpoint, read_checkpoint

        for path in member_paths(shipped_scorer(game)):
            check_scorer_checkpoint(read_checkpoint(path), game, num_players)
    except (ImportError, OSError, TypeError, ValueError):
        return False
    return True


def parse_pairing(text: str) -> tuple[str, str]:
    """The two agent specs of a pairing ``A:B``: the one split at a colon where both sides
    start with an agent kind (``ppo:runs/a.pt:heuristic`` is ``ppo:runs/a.pt`` against
    ``heuristic``). Raises ``ValueError`` when no split, or more than one, fits."""
    parts = text.split(":")
    splits = [
        (":".join(parts[:cut]), ":".join(parts[cut:]))
        for cut in range(1, len(parts))
        if parts[0] in AGENT_KINDS and parts[cut] in AGENT_KINDS
    ]
    if len(splits) != 1:
        found = "no" if not splits else "more than one"
        raise ValueError(
            f"pairing {text!r}: {found} way to read it as AGENT:AGENT (agents start with one of "
            f"{', '.join(AGENT_KINDS)}, e.g. dmc:heuristic or ppo:runs/x/policy.pt:random)"
        )
    return splits[0]
