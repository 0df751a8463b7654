"""An agent's scoreboard: what a paper reports about one agent, from one command.

At every player count asked (default: every count the game plays), the agent joins a round
robin with the reference agents (:func:`reference_specs`: random, the heuristic and the
agents the game ships at that count) on duplicate deals — so it plays each of them on both
sides — rated by openskill and α-Rank (:mod:`presages_env.evaluation.arena`, the engine the
arena uses too). Where the game seats teams at that count, it also plays beside each
reference agent (in one seat of a team, the reference in the others) against a fixed
opponent, each reference beside itself as the baseline. A best response to it, trained by
the caller (training is a layer this one does not import), bounds its exploitability: the
best response is measured here, on duplicate deals of its own seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from presages_env.agents.base import Agent
from presages_env.agents.specs import make_agent, shipped_agents
from presages_env.evaluation.arena import (
    RoundRobin,
    Table,
    play_round_robin,
    table,
)
from presages_env.evaluation.tournament import MatchResult, head_to_head
from presages_env.games import get_game

# Trains a best response to the agent at the table; returns the spec that loads it, the seed
# to measure it on (not the one it trained on) and what to report about its training.
BestResponseTrainer = Callable[[Agent, Table], tuple[str, int, dict[str, Any]]]


@dataclass(frozen=True, eq=False)
class BestResponseBound:
    """A best response measured against the agent on duplicate deals dealt from ``seed``."""

    spec: str
    seed: int
    training: dict[str, Any]
    result: MatchResult


@dataclass(frozen=True, eq=False)
class Scoreboard:
    """The agent's label and spec, one round robin per player count, and the best
    responses (one per count, none where not asked)."""

    label: str
    spec: str
    robins: list[RoundRobin]
    bounds: list[BestResponseBound]

    def against_references(self) -> list[MatchResult]:
        """The agent's own series: it plays one side, a reference agent all the others."""
        return [m for robin in self.robins for m in robin.matches if m.focus == self.label]


def player_counts(game: str) -> list[int]:
    """Every player count ``game`` plays."""
    spec = get_game(game)
    return list(range(spec.min_players, spec.max_players + 1))


def reference_specs(game: str, num_players: int) -> tuple[str, ...]:
    """The reference agents at that count: random, the heuristic where the game declares
    one, and the agents it ships (``agents.specs.shipped_agents``)."""
    return shipped_agents(game, num_players)


def default_opponent(game: str) -> str:
    """The partner series' opponent: the heuristic where the game declares one, else random."""
    return "heuristic" if get_game(game).heuristic is not None else "random"


def score_agent(
    spec: str,
    game: str,
    players: Sequence[int],
    games: int,
    seed: int,
    options: dict[str, Any],
    *,
    simulations: int = 100,
    references: Sequence[str] | None = None,
    best_response: BestResponseTrainer | None = None,
    progress: bool = False,
) -> Scoreboard:
    """The :class:`Scoreboard` of the agent ``spec``: ``games`` games per series (rounded
    down to whole duplicate deals) at each count of ``players``, every deal from ``seed``,
    against ``references`` (specs; None: :func:`reference_specs` at each count).
    Every table and agent is built, so checked, before any game is played."""
    settings = [table(game, n, games, seed, options) for n in players]
    built = [_agents(spec, setting, simulations, references) for setting in settings]
    label = next(iter(built[0]))
    robins, bounds = [], []
    for setting, agents in zip(settings, built, strict=True):
        references = [name for name in agents if name != label]
        pairs = [(label, r) for r in references] + [(r, r) for r in references]
        opponent = _opponent(setting, simulations)
        robins.append(
            play_round_robin(
                setting, agents, partner_pairs=pairs, opponent=opponent, progress=progress
            )
        )
        if best_response is not None:
            bounds.append(_bound(best_response, agents[label], label, setting, simulations))
    return Scoreboard(label, spec, robins, bounds)


def _agents(
    spec: str, setting: Table, simulations: int, references: Sequence[str] | None
) -> dict[str, Agent]:
    """The agent first, then each reference agent whose label is not the agent's."""
    where = (setting.game, setting.seed, simulations, setting.num_players)
    label, agent = make_agent(spec, *where)
    agents = {label: agent}
    if references is None:
        references = reference_specs(setting.game, setting.num_players)
    for reference in references:
        name, built = make_agent(reference, *where)
        agents.setdefault(name, built)
    return agents


def _opponent(setting: Table, simulations: int) -> tuple[str, Agent] | None:
    if not setting.teams:
        return None
    name = default_opponent(setting.game)
    return make_agent(name, setting.game, setting.seed, simulations, setting.num_players)


def _bound(
    trainer: BestResponseTrainer, agent: Agent, label: str, setting: Table, simulations: int
) -> BestResponseBound:
    """Train the best response, then play it against the agent on duplicate deals."""
    spec, seed, training = trainer(agent, setting)
    _, response = make_agent(spec, setting.game, seed, simulations, setting.num_players)
    result = head_to_head(
        setting.game,
        response,
        agent,
        setting.games,
        setting.num_players,
        seed,
        names=("best response", label),
        duplicate=True,
        **setting.options,
    )
    return BestResponseBound(spec, seed, training, result)
