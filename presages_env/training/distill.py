"""Distil a search agent into a policy: the search's visit shares as the policy's targets.

One step of expert iteration (Anthony et al., 2017; AlphaZero's policy target): the search
plays a side against fixed opponents, and every decision it searches is kept with the share
of simulations each action received. Visit shares say how close the alternatives were,
where the single move the search chose does not; a policy fitted to them
(:func:`presages_env.training.imitation.imitate`) learns the search's preferences without
its noise at the top. docs/agents.md keeps what it gave.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from presages_env.agents.base import Agent
from presages_env.agents.search import ISMCTSAgent
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS
from presages_env.evaluation.tournament import head_to_head


class SearchRecorder(Agent):
    """Plays like ``search`` and keeps, for every searched decision, the acting seat's
    observation and mask and the search's visit counts."""

    needs_state = True

    def __init__(self, search: ISMCTSAgent) -> None:
        self.search = search
        self.game = search.game
        self.name = f"recorded-{search.name}"
        self.obs: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.visits: list[np.ndarray] = []

    def act_states(self, states: np.ndarray) -> np.ndarray:
        actions, visits = self.search.search_states(states)
        for state, row in zip(states, visits, strict=True):
            n = int(state[HDR_NUM_PLAYERS])
            obs = np.zeros(self.game.obs_size(n), dtype=self.game.obs_dtype)
            mask = np.zeros(self.game.num_actions(n), dtype=np.int8)
            self.game.observe(state, int(state[HDR_CURRENT]), obs)
            self.game.legal_mask(state, mask)
            if mask.sum() > 1:  # a forced move teaches nothing
                self.obs.append(obs)
                self.masks.append(mask)
                self.visits.append(row[: mask.size])
        return actions


def search_targets(
    game: str,
    search: ISMCTSAgent,
    opponent: Agent,
    num_games: int,
    num_players: int | None = None,
    seed: int = 0,
    num_envs: int = 64,
    **options: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, None]:
    """``(obs, masks, visit_shares, None)`` of the decisions ``search`` makes with choices in
    ``num_games`` games against ``opponent`` (sides rotating as in ``head_to_head``): the
    data :func:`~presages_env.training.imitation.imitate` fits (``None``: no value targets)."""
    recorder = SearchRecorder(search)
    head_to_head(game, recorder, opponent, num_games, num_players, seed, num_envs, **options)
    if not recorder.visits:
        raise ValueError(f"the search made no decision with a choice in {num_games} games")
    visits = np.stack(recorder.visits).astype(np.float32)
    shares = visits / visits.sum(axis=1, keepdims=True)
    return np.stack(recorder.obs), np.stack(recorder.masks), shares, None
