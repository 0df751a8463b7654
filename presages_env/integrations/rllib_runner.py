"""The env runner over one :class:`~presages_env.integrations.rllib_vector.BatchedMultiAgentEnv`:
every game stepped in one numba call, and, by default, sampled in bulk.

Use it with ``config.env_runners(env_runner_cls=BatchedEnvRunner, num_envs_per_env_runner=B)``
(``presages_env.rllib.ppo_config`` does).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode
from ray.rllib.utils.metrics import (
    NUM_AGENT_STEPS_SAMPLED,
    NUM_AGENT_STEPS_SAMPLED_LIFETIME,
    NUM_ENV_STEPS_SAMPLED,
    NUM_ENV_STEPS_SAMPLED_LIFETIME,
    NUM_EPISODES,
    NUM_EPISODES_LIFETIME,
    NUM_MODULE_STEPS_SAMPLED,
    NUM_MODULE_STEPS_SAMPLED_LIFETIME,
)
from ray.rllib.utils.pre_checks.env import check_multiagent_environments
from ray.rllib.utils.torch_utils import FLOAT_MIN

from presages_env.core.aec import ILLEGAL_ACTION_PENALTY
from presages_env.core.validation import offset_seed
from presages_env.integrations import rllib_spaces as rs
from presages_env.integrations.rllib_env import CardGameMultiAgentEnv
from presages_env.integrations.rllib_episodes import GameRecord, model_outputs
from presages_env.integrations.rllib_vector import BatchedMultiAgentEnv

EPISODE_CALLBACKS = ("created", "start", "step", "end")


class BatchedEnvRunner(MultiAgentEnvRunner):
    """RLlib's multi-agent env runner over one :class:`BatchedMultiAgentEnv`.

    With RLlib's default connectors and no per-episode callbacks it also samples in bulk:
    one forward pass per module over every game's seat to act, actions drawn from the
    masked distribution, and each episode written once, when its game ends
    (:mod:`~presages_env.integrations.rllib_episodes`). ``sample`` then returns complete
    episodes only: a game still running carries over to the next call, so a few of its
    first decisions may come from the previous weights (PPO's ratio accounts for them).
    Otherwise, or with ``bulk = False``, it runs RLlib's own step-by-step loop.
    """

    bulk = True

    def make_env(self) -> None:
        if self.env is not None:
            self.env.close()
        config = dict(self.config.env_config)
        if not self.config.disable_env_checking:  # RLlib's check, on one game's env
            check_multiagent_environments(CardGameMultiAgentEnv(config))
        seed = self.config.seed
        if seed is not None:  # one stream of deals per worker
            seed = offset_seed(seed, self.worker_index or 0)
        self.env = BatchedMultiAgentEnv(config, self.config.num_envs_per_env_runner, seed)
        self.num_envs = self.env.num_envs
        self._needs_initial_reset = True
        self._records: list[GameRecord] = []

    def _sample(self, *, num_timesteps=None, num_episodes=None, explore, **kwargs):
        if not self._samples_in_bulk():
            return super()._sample(
                num_timesteps=num_timesteps, num_episodes=num_episodes, explore=explore, **kwargs
            )
        if kwargs.get("force_reset") or num_episodes is not None or self._needs_initial_reset:
            self._deal_every_game()
        self._needs_initial_reset = num_episodes is not None
        done: list[MultiAgentEpisode] = []
        steps = 0
        while len(done) < num_episodes if num_timesteps is None else steps < num_timesteps:
            finished = self._step_every_game(explore, kwargs.get("random_actions", False))
            done += finished
            steps += sum(len(episode) for episode in finished)
        if num_episodes is not None:
            done = done[:num_episodes]
        self._log_sampled(done)
        if self.episodes_to_numpy:
            for episode in done:
                episode.to_numpy()
        self._done_episodes_for_metrics.extend(done)
        return done

    def _samples_in_bulk(self) -> bool:
        config = self.config
        callbacks = [getattr(config, f"callbacks_on_episode_{w}") for w in EPISODE_CALLBACKS]
        return (
            self.bulk
            and config._env_to_module_connector is None
            and config._module_to_env_connector is None
            and config.callbacks_class is RLlibCallback
            and not any(callbacks)
        )

    def _deal_every_game(self) -> None:
        self.env.reset(seed=self._seed if self._needs_initial_reset else None)
        self._records = [self._new_record(b) for b in range(self.num_envs)]

    def _new_record(self, b: int) -> GameRecord:
        self._new_episode(b, self._ongoing_episodes)
        return GameRecord(self._ongoing_episodes[b], self.env._agents[b])

    def _step_every_game(self, explore: bool, random: bool) -> list[MultiAgentEpisode]:
        """One decision in every game; the episodes of the games that ended."""
        vec, records = self.env.vec, self._records
        seats = vec.current.copy()
        obs = vec.obs.astype(np.float32)
        masks = vec.masks.astype(np.float32)
        modules = [record.module_of(seat) for record, seat in zip(records, seats, strict=True)]
        actions = np.empty(self.num_envs, dtype=np.int64)
        outputs: list[dict] = [{}] * self.num_envs
        for module_id in set(modules):
            rows = np.flatnonzero([m == module_id for m in modules])
            chosen, logits, logp = self._act(module_id, obs[rows], masks[rows], explore, random)
            actions[rows] = chosen
            seq_no = self._weights_seq_no
            for row, out in zip(rows, model_outputs(logits, logp, seq_no), strict=True):
                outputs[row] = out
        for b, record in enumerate(records):
            record.add(int(seats[b]), obs[b], masks[b], int(actions[b]), outputs[b])
        step = self.env.advance(actions)
        rewards = step.rewards
        rewards[step.illegal] = 0.0
        rewards[step.illegal, seats[step.illegal]] = ILLEGAL_ACTION_PENALTY
        for b, record in enumerate(records):
            record.rewarded(rewards[b])
        finished = []
        for b in step.ended:
            finished.append(records[b].episode_done(not step.cut[b], step.last_obs.get(b)))
            records[b] = self._new_record(b)
        return finished

    def _act(self, module_id: str, obs, masks, explore: bool, random_actions: bool):
        """Actions, masked logits and log-probabilities of one module's games."""
        import torch

        module = self.module[module_id]
        with torch.no_grad():
            mask = torch.from_numpy(masks)
            if random_actions:  # uniform over the legal actions
                logits = torch.clamp(torch.log(mask), min=FLOAT_MIN)
            else:
                batch = {Columns.OBS: {rs.OBS_KEY: torch.from_numpy(obs), rs.MASK_KEY: mask}}
                forward = module.forward_exploration if explore else module.forward_inference
                logits = forward(batch)[Columns.ACTION_DIST_INPUTS]
            if explore or random_actions:
                dist = module.get_exploration_action_dist_cls().from_logits(logits)
                chosen = dist.sample()
            else:
                dist = module.get_inference_action_dist_cls().from_logits(logits)
                chosen = dist.to_deterministic().sample()
            logp = dist.logp(chosen)
        return chosen.numpy(), logits.numpy(), logp.numpy()

    def _log_sampled(self, episodes: list[MultiAgentEpisode]) -> None:
        """RLlib's sampling counters, once per call rather than once per step."""
        steps = sum(len(episode) for episode in episodes)
        if not steps:
            return
        log = self.metrics.log_value
        log(NUM_ENV_STEPS_SAMPLED, steps, reduce="sum")
        log(NUM_ENV_STEPS_SAMPLED_LIFETIME, steps, reduce="lifetime_sum", with_throughput=True)
        log(NUM_EPISODES, len(episodes), reduce="sum")
        log(NUM_EPISODES_LIFETIME, len(episodes), reduce="lifetime_sum")
        agent_steps: Counter = Counter()
        module_steps: Counter = Counter()
        for episode in episodes:
            for agent, sa_episode in episode.agent_episodes.items():
                agent_steps[str(agent)] += len(sa_episode)
                module_steps[sa_episode.module_id] += len(sa_episode)
        for agent, n in agent_steps.items():
            log((NUM_AGENT_STEPS_SAMPLED, agent), n, reduce="sum")
            log((NUM_AGENT_STEPS_SAMPLED_LIFETIME, agent), n, reduce="lifetime_sum")
        for module_id, n in module_steps.items():
            log((NUM_MODULE_STEPS_SAMPLED, module_id), n, reduce="sum")
            log((NUM_MODULE_STEPS_SAMPLED_LIFETIME, module_id), n, reduce="lifetime_sum")
        self._log_env_steps(metric=self._metrics_num_env_steps_sampled, num_steps=steps)
