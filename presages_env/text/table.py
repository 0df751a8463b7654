"""A game with text agents at the table: each gets its decisions with what its seat saw."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import presages_env
from presages_env import records
from presages_env.agents.base import Agent
from presages_env.core.header import HDR_CURRENT
from presages_env.core.validation import check_seed
from presages_env.text.agent import TextAgent
from presages_env.text.decision import Decision


def play_game(
    game_name: str,
    seat_agents: Sequence[Agent],
    seed: int,
    names: Sequence[str] | None = None,
    **options: Any,
) -> records.GameRecord:
    """Play one game of ``game_name`` from the deal of ``seed``, seat p played by
    ``seat_agents[p]`` (people, RL agents and text agents alike), and return its record
    (:mod:`presages_env.records`; seats named ``names``, by default the agents' names).

    A :class:`TextAgent` decides with the events its seat saw (``env.events(seat)``), and
    once the game is over its transcript gets its seat's result
    (``{"reward", "place", "score"}``, :meth:`TextAgent.finish`); the other agents act as
    in :func:`presages_env.records.play_recorded`.
    """
    n = len(seat_agents)
    env = presages_env.make(game_name, num_players=n, **options)
    env.reset(seed=check_seed(seed))
    game = env.game
    while not game.is_over(state := env.get_state()):
        seat = int(state[HDR_CURRENT])
        agent = seat_agents[seat]
        if isinstance(agent, TextAgent):
            action = agent.decide(Decision.at(game, state, env.events(seat)))
        elif agent.needs_state:
            action = int(agent.act_states(state[None, :])[0])
        else:
            seen = env.observe(env.agent_selection)
            action = agent.act(seen["observation"], seen["action_mask"])
        env.step(action)
    rec = records.from_env(env, list(names or [agent.name for agent in seat_agents]))
    outcomes = {
        result.seat: {
            "reward": rec.result[result.seat],
            "place": result.place,
            "score": result.score,
        }
        for result in game.result_summary(state, rec.result)
    }
    for agent in {id(agent): agent for agent in seat_agents}.values():
        if isinstance(agent, TextAgent):
            agent.finish(outcomes)
    return rec
