"""An action-conditioned network, and the agent that acts with it (needs torch: the ``train``
extra, imported when a network is built).

A flat policy gives each action id a logit of its own, learnt from the times that id was
taken; here every legal action is scored from what it is (DouZero, DanZero). The seat's
observation goes through one MLP (``state``), each action's features (the game's
``action_features``, core/action_features.py) through another (``action``), and a head
MLP over the two codes side by side gives one score, with the same weights for every
action. The head's first layer is applied as two products, the state's part once per
decision and the action's once per legal action, so scoring k actions costs one state
pass and k small ones. Scores are Q-values when Deep Monte-Carlo trains the network
(``training/dmc.py``), or logits of a policy.

Observations are scaled by the game's observation space (every entry into [-1, 1]); the
hidden layers are ReLU. Checkpoints: the action-scorer format of
:mod:`presages_env.agents.checkpoint`, read without unpickling and checked before any
network is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from presages_env.agents.base import Agent
from presages_env.agents.checkpoint import (
    SCORER_FORMAT,
    SCORER_NETS,
    SCORER_VERSION,
    check_scorer_checkpoint,
    pack_checkpoint,
    read_checkpoint,
    validate_scorer_metadata,
)
from presages_env.agents.heuristic import check_observations, observation_bounds
from presages_env.core.validation import check_seed
from presages_env.games import get_game

NetArch = Mapping[str, Sequence[int]]  # {"state": [...], "action": [...], "head": [...]}


class ActionScorer:
    """The network of checked ``metadata`` (the checkpoint format's), on ``device``:
    ``network`` is a ``torch.nn.ModuleDict`` of the three MLPs (``state``, ``action``,
    ``head``), what an optimiser trains."""

    def __init__(self, metadata: dict[str, Any], device: Any = "cpu") -> None:
        import torch

        self.metadata = metadata
        self.game = get_game(metadata["game"])
        self.features = self.game.action_features
        self.low, self.high = observation_bounds(self.game)
        self.network = build_network(metadata)
        scale = 1.0 / np.maximum(np.maximum(np.abs(self.low), np.abs(self.high)), 1)
        self._scale = torch.as_tensor(scale, dtype=torch.float32)
        self.to(device)

    @classmethod
    def for_game(cls, game: str, net_arch: NetArch, device: Any = "cpu") -> ActionScorer:
        """A freshly initialised scorer for ``game`` (see :func:`scorer_metadata`)."""
        return cls(scorer_metadata(game, net_arch), device)

    @classmethod
    def from_checkpoint(
        cls, path: str | Path, game: str | None = None, num_players: int | None = None
    ) -> ActionScorer:
        """The scorer stored at ``path`` (for ``game`` at ``num_players``, where given), built
        only once the whole file passed :func:`~presages_env.agents.checkpoint.
        check_scorer_checkpoint`."""
        saved = read_checkpoint(path)
        try:
            metadata = check_scorer_checkpoint(saved, game, num_players)
        except (TypeError, ValueError) as error:
            raise type(error)(f"{path}: {error}") from None
        scorer = cls(metadata)
        scorer.network.load_state_dict(saved["policy"])
        return scorer

    def to(self, device: Any) -> ActionScorer:
        import torch

        self.device = torch.device(device)
        self.network.to(self.device)
        self._scale = self._scale.to(self.device)
        return self

    def save(self, path: str | Path) -> None:
        """Write the network (no optimiser state) in the action-scorer checkpoint format."""
        import torch

        weights = {name: value.cpu() for name, value in self.network.state_dict().items()}
        torch.save(pack_checkpoint(self.metadata, self.low, self.high, weights), str(path))

    # ---- scoring -----------------------------------------------------------------------
    def encode(self, obs):
        """The state codes of a batch of observations (a tensor of the game's dtype)."""
        import torch

        return self.network["state"](obs.to(self.device, torch.float32) * self._scale)

    def pair_scores(self, codes, rows, action_features):
        """One score per (decision, action) pair: ``codes[rows]`` with each row of
        ``action_features`` (``[P, F]``), through the head."""
        head = self.network["head"]
        first = head[0]
        width = codes.shape[1]
        state_part = codes @ first.weight[:, :width].T + first.bias
        actions = self.network["action"](action_features)
        hidden = state_part[rows] + actions @ first.weight[:, width:].T
        return head[1:](hidden).squeeze(-1)

    def scores(self, obs, action_features):
        """The score of one action per observation (tensors ``[N, D]`` and ``[N, F]``)."""
        import torch

        rows = torch.arange(obs.shape[0], device=self.device)
        return self.pair_scores(self.encode(obs), rows, action_features.to(self.device))

    def legal_scores(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Scores ``float32[N, A]`` of every legal action (``-inf`` elsewhere) and the action
        features ``float32[N, A, F]`` they were computed from, for rows the kernels trust."""
        import torch

        features = np.empty((*masks.shape, self.features.ACTION_FEATURES), np.float32)
        self.features.action_features(obs, features)
        with torch.no_grad():
            legal = torch.as_tensor(masks != 0, device=self.device)
            pairs = torch.as_tensor(features, device=self.device)[legal]
            rows = torch.nonzero(legal)[:, 0]
            codes = self.encode(torch.as_tensor(obs))
            scores = torch.full(legal.shape, -torch.inf, device=self.device)
            scores[legal] = self.pair_scores(codes, rows, pairs)
        return scores.cpu().numpy(), features


def scorer_metadata(game: str, net_arch: NetArch) -> dict[str, Any]:
    """The checkpoint metadata of a scorer for ``game`` whose MLPs have the hidden widths of
    ``net_arch``; refused (``ValueError``) beyond the bounds the loader applies."""
    spec = get_game(game)
    n = spec.default_players
    metadata = {
        "format": SCORER_FORMAT,
        "version": SCORER_VERSION,
        "game": spec.name,
        "observation_size": spec.obs_size(n),
        "num_actions": spec.num_actions(n),
        "action_features": spec.action_features.ACTION_FEATURES,
        "net_arch": {net: [int(width) for width in net_arch[net]] for net in SCORER_NETS},
    }
    validate_scorer_metadata(metadata)
    return metadata


def build_network(metadata: dict[str, Any]):
    """The ``ModuleDict`` whose state dict has exactly the tensors of
    :func:`~presages_env.agents.checkpoint.scorer_shapes` for ``metadata``."""
    from torch import nn

    arch = metadata["net_arch"]

    def mlp(width: int, sizes: Sequence[int], last: int | None = None):
        layers: list[nn.Module] = []
        for size in sizes:
            layers += [nn.Linear(width, size), nn.ReLU()]
            width = size
        if last is not None:
            layers.append(nn.Linear(width, last))
        return nn.Sequential(*layers), width

    state, state_width = mlp(metadata["observation_size"], arch["state"])
    action, action_width = mlp(metadata["action_features"], arch["action"])
    head, _ = mlp(state_width + action_width, arch["head"], last=1)
    return nn.ModuleDict({"state": state, "action": action, "head": head})


class ActionScorerAgent(Agent):
    """Plays the legal action of highest score (``deterministic=False``: samples the
    scores' softmax, as a policy's logits, from a seeded generator)."""

    def __init__(
        self,
        scorer: ActionScorer,
        name: str = "action_scorer",
        deterministic: bool = True,
        seed: int = 0,
    ) -> None:
        self.scorer = scorer
        self.name = name
        self.deterministic = deterministic
        self._rng = np.random.default_rng(check_seed(seed))

    @classmethod
    def load(
        cls,
        path: str | Path,
        name: str | None = None,
        deterministic: bool = True,
        *,
        game: str | None = None,
        num_players: int | None = None,
    ) -> ActionScorerAgent:
        """The agent of the checkpoint at ``path``; ``game`` and ``num_players`` name the
        table it will play at (a checkpoint of another game or size is refused here)."""
        path = Path(path)
        scorer = ActionScorer.from_checkpoint(path, game, num_players)
        scorer.network.eval()
        return cls(scorer, name or path.stem, deterministic)

    def save(self, path: str | Path) -> None:
        self.scorer.save(path)

    def check_batch(self, obs: np.ndarray, masks: np.ndarray) -> None:
        """The action-feature kernel reads observation values as indices: the observations
        must lie in the game's observation space."""
        super().check_batch(obs, masks)
        scorer = self.scorer
        check_observations(scorer.game, obs, masks, scorer.low, scorer.high)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        scores, _ = self.scorer.legal_scores(obs, masks)
        if self.deterministic:
            return scores.argmax(axis=1).astype(np.int64)
        gumbel = -np.log(-np.log(self._rng.uniform(1e-20, 1.0, size=scores.shape)))
        return (scores + gumbel).argmax(axis=1).astype(np.int64)
