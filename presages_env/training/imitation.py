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


def teacher_games(
    game: str,
    teacher: Agent,
    samples: int,
    num_players: int | None,
    seed: int,
    opponent: Agent | None = None,
    team_play: bool = False,
    num_envs: int = 256,
    **options,
):
    """``(obs, masks, actions, returns)`` of the teacher's decisions in games it plays.

    Without ``opponent`` the teacher plays every seat; with one, the teacher plays a seat
    drawn per game (its whole team with ``team_play``) and ``opponent`` the others, so a
    search agent can teach what it does against the heuristic (expert iteration). Agents
    that act on full states (``needs_state``) get them. ``returns`` is each decision's
    return-to-go for the seat that took it (undiscounted); decisions of games still running
    at the end are dropped.
    """
    vec = presages_env.make_vec(game, num_envs, num_players=num_players, seed=seed, **options)
    n = vec.num_players
    draw = np.random.default_rng(seed)
    teacher_seats = np.ones((num_envs, n), dtype=np.bool_)

    def new_deal(i: int) -> None:
        if opponent is not None:
            seat = draw.integers(n)
            teams = vec.game.teams(vec.states[i]) if team_play else np.arange(n)
            teacher_seats[i] = teams == teams[seat]

    for i in range(num_envs):
        new_deal(i)
    gained = np.zeros((num_envs, n))  # reward so far in each running game, per seat
    pending: list[list[tuple[int, int, float]]] = [[] for _ in range(num_envs)]
    obs, masks, actions = [], [], []
    done_rows: list[tuple[int, float]] = []
    recorded = 0
    while len(done_rows) < samples:
        seats = vec.current.copy()
        rows = np.flatnonzero(teacher_seats[np.arange(num_envs), seats])
        acts = np.empty(num_envs, dtype=np.int64)
        if opponent is not None:
            acts[:] = opponent.act_batch(vec.obs, vec.masks)
        if teacher.needs_state:
            acts[rows] = teacher.act_states(vec.states[rows])
        else:
            acts[rows] = teacher.act_batch(vec.obs[rows], vec.masks[rows])
        for j, i in enumerate(rows):
            pending[i].append((recorded + j, int(seats[i]), float(gained[i, seats[i]])))
        recorded += rows.size
        obs.append(vec.obs[rows])
        masks.append(vec.masks[rows])
        actions.append(acts[rows])
        out = vec.step(acts)
        gained += out.rewards
        for i in np.flatnonzero(out.done):
            final = gained[i]
            done_rows.extend((index, final[seat] - before) for index, seat, before in pending[i])
            pending[i].clear()
            gained[i] = 0.0
            new_deal(i)
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
    data: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    epochs: int = 3,
    batch_size: int = 1024,
    seed: int = 0,
    features: RawFeatures | None = None,
    learning_rate: float = 1e-3,
) -> dict[str, float]:
    """Fit ``policy`` to the teacher's actions and returns; returns the final losses.
    ``features`` maps the recorded observations to the policy's inputs, batch by batch."""
    obs, masks, actions, returns = data
    features = features or RawFeatures("", masks.shape[1])
    for group in policy.optimizer.param_groups:
        group["lr"] = learning_rate  # PPO sets its own again at its first update
    generator = np.random.default_rng(seed)
    policy.set_training_mode(True)
    losses = {"action_nll": 0.0, "value_mse": 0.0, "agreement": 0.0}
    for _ in range(epochs):
        order = generator.permutation(len(actions))
        for start in range(0, len(order), batch_size):
            batch = order[start : start + batch_size]
            values, log_prob, _ = policy.evaluate_actions(
                torch.as_tensor(features(obs[batch], masks[batch])),
                torch.as_tensor(actions[batch]),
                action_masks=torch.as_tensor(masks[batch].astype(np.bool_)),
            )
            nll = -log_prob.mean()
            mse = torch.nn.functional.mse_loss(values.flatten(), torch.as_tensor(returns[batch]))
            loss = nll + 0.5 * mse
            policy.optimizer.zero_grad()
            loss.backward()
            policy.optimizer.step()
            losses["action_nll"], losses["value_mse"] = nll.item(), mse.item()
    policy.set_training_mode(False)
    sample = slice(0, min(len(actions), 20_000))
    predicted, _ = policy.predict(
        features(obs[sample], masks[sample]), deterministic=True, action_masks=masks[sample] > 0
    )
    losses["agreement"] = float(np.mean(predicted == actions[sample]))
    return losses
