"""Episodes written in bulk: each game's decisions kept in plain lists while it is played,
turned into one RLlib ``MultiAgentEpisode`` when it ends.

RLlib's runner updates an episode object at every step of every game (``add_env_step``,
then a check of the whole episode) and runs its connector pipelines on Python lists of
per-game dicts; for these games that costs ten times the stepping and the network together.
:class:`GameRecord` instead appends a few references per decision, and :meth:`episode`
builds the finished episode through ``MultiAgentEpisode``'s constructor, once. The episode
holds what the step-by-step route would give each agent: its observations, actions,
rewards summed between its turns, the action log-probabilities and distribution inputs, and
its last observation again at a termination (RLlib's convention).
"""

from __future__ import annotations

import numpy as np
from ray.rllib.core.columns import Columns
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode
from ray.rllib.env.single_agent_episode import SingleAgentEpisode
from ray.rllib.env.utils.infinite_lookback_buffer import InfiniteLookbackBuffer
from ray.rllib.utils.metrics import WEIGHTS_SEQ_NO

from presages_env.integrations import rllib_spaces as rs


class GameRecord:
    """The decisions of one game so far (one deal: its agent ids are fixed)."""

    def __init__(self, episode: MultiAgentEpisode, agents: list[str]) -> None:
        self.episode = episode  # empty: carries the id and the agent -> module mapping
        self.agents = agents
        self.seats: list[int] = []
        self.observations: list[dict[str, np.ndarray]] = []
        self.actions: list[int] = []
        self.outputs: list[dict] = []
        self.rewards: list[np.ndarray] = []

    def module_of(self, seat: int) -> str:
        return self.episode.module_for(self.agents[seat])

    def add(self, seat: int, obs: np.ndarray, mask: np.ndarray, action: int, outputs: dict):
        self.seats.append(seat)
        self.observations.append({rs.OBS_KEY: obs, rs.MASK_KEY: mask})
        self.actions.append(action)
        self.outputs.append(outputs)

    def rewarded(self, rewards: np.ndarray) -> None:
        """Every seat's reward from the step that followed the last decision."""
        self.rewards.append(rewards)

    def __len__(self) -> int:
        return len(self.actions)

    def episode_done(
        self, terminated: bool, final_obs: dict[str, dict] | None = None
    ) -> MultiAgentEpisode:
        """The finished episode: ``terminated`` by the rules (or an illegal action), else
        truncated with ``final_obs``, every seat's observation at the cut. Each agent that
        acted gets one ``SingleAgentEpisode``; its reward for a decision is what it received
        from that step until its next decision (or the end)."""
        template, steps = self.episode, len(self.actions)
        seats = np.asarray(self.seats)
        paid = np.zeros((steps + 1, len(self.agents)))
        np.cumsum(self.rewards, axis=0, out=paid[1:])
        flags = {"terminateds": terminated, "truncateds": not terminated}
        episode = MultiAgentEpisode(
            id_=template.id_,
            observation_space=template.observation_space,
            action_space=template.action_space,
            agent_module_ids=dict(template._agent_to_module_mapping),
            agent_to_module_mapping_fn=template.agent_to_module_mapping_fn,
            len_lookback_buffer=0,
            **flags,
        )
        for seat in np.unique(seats):
            agent = self.agents[seat]
            turns = np.flatnonzero(seats == seat)
            ends = np.append(turns[1:], steps)
            last = self.observations[turns[-1]] if terminated else final_obs[agent]
            outputs = [self.outputs[t] for t in turns]
            episode.agent_episodes[agent] = SingleAgentEpisode(
                agent_id=agent,
                module_id=template.module_for(agent),
                multi_agent_episode_id=template.id_,
                observations=[self.observations[t] for t in turns] + [last],
                observation_space=template.observation_space.get(agent),
                infos=[{} for _ in range(len(turns) + 1)],
                actions=[self.actions[t] for t in turns],
                action_space=template.action_space.get(agent),
                rewards=(paid[ends, seat] - paid[turns, seat]).tolist(),
                extra_model_outputs={key: [out[key] for out in outputs] for key in outputs[0]},
                terminated=terminated,
                truncated=not terminated,
                len_lookback_buffer=0,
            )
            agent_t = np.full(steps + 1, MultiAgentEpisode.SKIP_ENV_TS_TAG, dtype=object)
            agent_t[turns] = range(len(turns))
            agent_t[steps] = len(turns)
            episode.env_t_to_agent_t[agent] = InfiniteLookbackBuffer(agent_t.tolist())
        episode.env_t = steps
        episode.validate()
        return episode


def model_outputs(logits: np.ndarray, logp: np.ndarray, seq_no: int) -> list[dict]:
    """The per-decision outputs RLlib's runner keeps (what PPO's loss reads)."""
    return [
        {Columns.ACTION_DIST_INPUTS: row, Columns.ACTION_LOGP: lp, WEIGHTS_SEQ_NO: seq_no}
        for row, lp in zip(logits, logp, strict=True)
    ]
