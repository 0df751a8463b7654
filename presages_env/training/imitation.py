"""Warm start: teach a MaskablePPO policy (and its value head) to play like a teacher agent.

Self-play from scratch learns slowly against strong hand-written opponents when the only
reward comes at the end of a long game. Cloning the teacher first — its actions as targets
for the policy, the returns its games produced as targets for the value head — starts PPO
at the teacher's level; PPO then improves on it.
"""

from __future__ import annotations

import numpy as np
import torch

import presages_env
from presages_env.agents.base import Agent
from presages_env.agents.features import RawFeatures
from presages_env.core.validation import check_int, check_seed
from presages_env.training.settings import MAX_TEACHER_SAMPLES


def teacher_games(
    game: str, teacher: Agent, samples: int, num_players: int | None, seed: int, **options
):
    """``(obs, masks, actions, returns)`` of decisions from games the teacher plays alone.

    ``returns`` is each decision's return-to-go for the seat that took it (undiscounted);
    decisions of games still running at the end are dropped.
    """
    samples = check_int(samples, "samples", 1, MAX_TEACHER_SAMPLES)
    num_envs = 256
    vec = presages_env.make_vec(game, num_envs, num_players=num_players, seed=seed, **options)
    n = vec.num_players
    gained = np.zeros((num_envs, n))  # reward so far in each running game, per seat
    pending: list[list[tuple[int, int, float]]] = [[] for _ in range(num_envs)]
    obs, masks, actions = [], [], []
    done_rows: list[tuple[int, float]] = []
    steps = 0
    while len(done_rows) < samples:
        acts = teacher.act_batch(vec.obs, vec.masks)
        seats = vec.current.copy()
        for i in range(num_envs):
            pending[i].append((steps * num_envs + i, int(seats[i]), float(gained[i, seats[i]])))
        obs.append(vec.obs.copy())
        masks.append(vec.masks.copy())
        actions.append(acts)
        out = vec.step(acts)
        gained += out.rewards
        for i in np.flatnonzero(out.done):
            final = gained[i]
            done_rows.extend((index, final[seat] - before) for index, seat, before in pending[i])
            pending[i].clear()
            gained[i] = 0.0
        steps += 1
    index = np.array([r[0] for r in done_rows])
    returns = np.array([r[1] for r in done_rows], dtype=np.float32)
    return (
        np.concatenate(obs)[index],
        np.concatenate(masks)[index],
        np.concatenate(actions)[index],
        returns,
    )


def imitate(
    policy,
    data: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None],
    epochs: int = 3,
    batch_size: int = 1024,
    seed: int = 0,
    features: RawFeatures | None = None,
    learning_rate: float = 1e-3,
) -> dict[str, float]:
    """Fit ``policy`` to a teacher; returns the final losses and the agreement.

    ``data`` is ``(obs, masks, targets, returns)``: ``targets`` the teacher's actions
    (``[N]``) or its action distributions (``[N, A]``, e.g. search visit shares:
    :mod:`presages_env.training.distill`), fitted by cross-entropy; ``returns`` the value
    head's targets, or ``None`` to leave the value head alone. ``features`` maps the
    recorded observations to the policy's inputs, batch by batch. The agreement is the share
    of the first 20,000 decisions where the policy's likeliest action is the teacher's.
    """
    generator = np.random.default_rng(check_seed(seed))  # before the policy is touched
    obs, masks, targets, returns = data
    num_actions = masks.shape[1]
    features = features or RawFeatures("", num_actions)
    for group in policy.optimizer.param_groups:
        group["lr"] = learning_rate  # PPO sets its own again at its first update
    policy.set_training_mode(True)
    losses = {"action_nll": 0.0, "value_mse": 0.0, "agreement": 0.0}
    for _ in range(epochs):
        order = generator.permutation(len(targets))
        for start in range(0, len(order), batch_size):
            batch = order[start : start + batch_size]
            inputs = torch.as_tensor(features(obs[batch], masks[batch]))
            log_probs = policy.get_distribution(
                inputs, action_masks=torch.as_tensor(masks[batch].astype(np.bool_))
            ).distribution.logits  # normalised log-probabilities; illegal ones near -1e8
            nll = -(_target_shares(targets[batch], num_actions) * log_probs).sum(dim=1).mean()
            loss = nll
            if returns is not None:
                values = policy.predict_values(inputs).flatten()
                mse = torch.nn.functional.mse_loss(values, torch.as_tensor(returns[batch]))
                loss = nll + 0.5 * mse
                losses["value_mse"] = mse.item()
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
            losses["action_nll"] = nll.item()
    policy.set_training_mode(False)
    sample = slice(0, min(len(targets), 20_000))
    predicted, _ = policy.predict(
        features(obs[sample], masks[sample]), deterministic=True, action_masks=masks[sample] > 0
    )
    best = targets[sample] if targets.ndim == 1 else targets[sample].argmax(axis=1)
    losses["agreement"] = float(np.mean(predicted == best))
    return losses


def _target_shares(targets: np.ndarray, num_actions: int) -> torch.Tensor:
    """Each row's target distribution: a one-hot of an action, or the row itself."""
    if targets.ndim == 1:
        return torch.nn.functional.one_hot(torch.as_tensor(targets), num_actions).float()
    return torch.as_tensor(targets, dtype=torch.float32)
