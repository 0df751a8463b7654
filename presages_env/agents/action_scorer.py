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
network is built, and checked the same way before one is written.

A batch is scored a chunk of rows at a time: its action features (``float32[N, A, F]``,
257 KB a row for Res Arcana) are never all held at once, so scoring takes a bounded
workspace (:data:`SCORING_WORKSPACE_BYTES`) besides the scores, whatever the batch's size.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np

from presages_env.agents.base import Agent
from presages_env.agents.checkpoint import (
    MAX_DEPTH,
    MAX_WIDTH,
    SCORE_LIMIT,
    SCORER_FORMAT,
    SCORER_NETS,
    SCORER_VERSION,
    check_scorer_checkpoint,
    pack_checkpoint,
    read_checkpoint,
    validate_scorer_metadata,
)
from presages_env.agents.heuristic import check_observations, observation_bounds
from presages_env.core.action_features import FEATURE_HIGH, FEATURE_LOW
from presages_env.core.game import Game
from presages_env.core.validation import check_int, check_seed
from presages_env.games.run_spec import as_game

NetArch = Mapping[str, Sequence[int]]  # {"state": [...], "action": [...], "head": [...]}
# The rows scored at once: their action features, and their pairs' activations in the widest
# layer over them, take at most this each (float32). Several such arrays live at once (the
# features, the legal pairs' features, a layer's input and output, the head's two parts and
# their sum) and the allocator keeps some it freed: SCORING_WORKSPACE_BYTES bounds what
# scoring a batch of any size takes besides its scores (tests/training/test_dmc.py checks it).
SCORING_CHUNK_BYTES = 2**24  # 16 MiB; one row takes at most 283 x 4096 x 4 bytes = 4.6 MB
SCORING_WORKSPACE_BYTES = 16 * SCORING_CHUNK_BYTES
# action scorers shipped with the package, trained from scratch: ``<game>/*.pt``, the members
# of the game's ensemble (one file: a single scorer)
SHIPPED_SCORERS = Path(__file__).resolve().parent.parent / "checkpoints" / "scorers"
MAX_MEMBERS = 16  # checkpoints one ensemble loads (a folder of a path is untrusted input)


def shipped_scorer(game: str) -> Path:
    """The folder of the action scorers shipped for ``game`` (``checkpoints/scorers/<game>/``,
    loaded as one ensemble); a ``ValueError`` naming the games that ship one if ``game``
    does not."""
    as_game(game)  # an unknown name is refused with the list of games
    path = SHIPPED_SCORERS / game
    if not any(path.glob("*.pt")):
        shipped = sorted(p.name for p in SHIPPED_SCORERS.iterdir() if any(p.glob("*.pt")))
        raise ValueError(
            f"no action scorer is shipped for {game!r} (shipped for: {', '.join(shipped)}); "
            "name a checkpoint with dmc:PATH"
        )
    return path


def member_paths(path: Path) -> list[Path]:
    """The checkpoints ``path`` names: itself, or a folder's ``*.pt`` files in name order
    (at least one, at most :data:`MAX_MEMBERS`, refused with a ``ValueError`` otherwise)."""
    if not path.is_dir():
        return [path]
    members = sorted(path.glob("*.pt"))
    if not 1 <= len(members) <= MAX_MEMBERS:
        raise ValueError(
            f"{path}: an ensemble's folder holds 1 to {MAX_MEMBERS} checkpoints (*.pt), "
            f"found {len(members)}"
        )
    return members


class ActionScorer:
    """The network of checked ``metadata`` (the checkpoint format's), on ``device``:
    ``network`` is a ``torch.nn.ModuleDict`` of the three MLPs (``state``, ``action``,
    ``head``), what an optimiser trains."""

    def __init__(self, metadata: dict[str, Any], device: Any = "cpu", game: Game | None = None):
        import torch

        self.metadata = metadata
        self.game = as_game(metadata["game"] if game is None else game)
        self.features = self.game.action_features
        self.low, self.high = observation_bounds(self.game)
        self.network = build_network(metadata)
        arch = metadata["net_arch"]
        self._widest = max(self.features.ACTION_FEATURES, *arch["action"], *arch["head"])
        scale = 1.0 / np.maximum(np.maximum(np.abs(self.low), np.abs(self.high)), 1)
        self._scale = torch.as_tensor(scale, dtype=torch.float32)
        self.to(device)

    @classmethod
    def for_game(cls, game: str | Game, net_arch: NetArch, device: Any = "cpu") -> ActionScorer:
        """A freshly initialised scorer for ``game`` (a ``Game``, or its name: resolved here,
        once; see :func:`scorer_metadata`)."""
        game = as_game(game)
        return cls(scorer_metadata(game, net_arch), device, game)

    @classmethod
    def from_checkpoint(
        cls, path: str | Path, game: str | Game | None = None, num_players: int | None = None
    ) -> ActionScorer:
        """The scorer stored at ``path`` (for ``game``, a name or a ``Game``, at
        ``num_players``, where given), built only once the whole file passed
        :func:`~presages_env.agents.checkpoint.check_scorer_checkpoint`."""
        saved = read_checkpoint(path)
        try:
            metadata = check_scorer_checkpoint(saved, game, num_players)
        except (TypeError, ValueError) as error:
            raise type(error)(f"{path}: {error}") from None
        scorer = cls(metadata, game=None if isinstance(game, str) else game)
        scorer.network.load_state_dict(saved["policy"])
        return scorer

    def frozen_copy(self) -> ActionScorer:
        """A copy of the network as it stands that no later update changes (no gradients,
        evaluation mode); nothing is drawn from torch's random stream."""
        frozen = copy.copy(self)  # the game, its bounds and scale are shared, never written
        frozen.network = copy.deepcopy(self.network).requires_grad_(False).eval()
        return frozen

    def to(self, device: Any) -> ActionScorer:
        import torch

        self.device = torch.device(device)
        self.network.to(self.device)
        self._scale = self._scale.to(self.device)
        return self

    def save(self, path: str | Path) -> None:
        """Write the network (no optimiser state) in the action-scorer checkpoint format, once
        the loader's own check passed on exactly what is written: a network it would refuse
        (weights grown past the score bound, or not finite) is a ``ValueError`` saying why,
        and nothing is written."""
        import torch

        weights = {name: value.cpu() for name, value in self.network.state_dict().items()}
        checkpoint = pack_checkpoint(self.metadata, self.low, self.high, weights)
        try:
            check_scorer_checkpoint(checkpoint, self.game)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{path}: not written, the loader would refuse it: {error}") from None
        torch.save(checkpoint, str(path))

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

    def legal_logits(self, obs: np.ndarray, masks: np.ndarray, fill: float):
        """The scores ``[N, A]`` as a tensor through which gradients flow, ``fill`` where an
        action is not legal: the logits of the scorer read as a policy (PPO over action
        features). ``obs`` are rows the kernels trust; only the legal pairs' features are
        kept, computed a chunk of rows at a time."""
        import torch

        legal = masks != 0
        pairs = np.empty((int(legal.sum()), self.features.ACTION_FEATURES), np.float32)
        done = 0
        for rows, features in self._feature_chunks(obs, masks):
            chunk = features[legal[rows]]
            pairs[done : done + len(chunk)] = chunk
            done += len(chunk)
        codes = self.encode(torch.as_tensor(obs))
        rows = torch.as_tensor(np.nonzero(legal)[0], device=self.device)
        scores = self.pair_scores(codes, rows, torch.as_tensor(pairs, device=self.device))
        logits = torch.full(legal.shape, fill, dtype=torch.float32, device=self.device)
        return logits.masked_scatter(torch.as_tensor(legal, device=self.device), scores.float())

    def legal_scores(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Scores ``float32[N, A]`` of every legal action (``-inf`` elsewhere), for rows the
        kernels trust."""
        scores = np.empty(masks.shape, np.float32)
        for rows, chunk, _ in self.scored_chunks(obs, masks):
            scores[rows] = chunk
        return scores

    def scored_chunks(
        self, obs: np.ndarray, masks: np.ndarray
    ) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
        """The batch (rows the kernels trust) a chunk of rows at a time: the chunk's rows,
        the scores ``float32[R, A]`` of their legal actions (``-inf`` elsewhere) and the
        action features ``float32[R, A, F]`` they were computed from, the next chunk's
        features computed only once these are let go."""
        for rows, features in self._feature_chunks(obs, masks):
            yield rows, self._chunk_scores(obs[rows], masks[rows], features), features

    def _feature_chunks(
        self, obs: np.ndarray, masks: np.ndarray
    ) -> Iterator[tuple[slice, np.ndarray]]:
        """The action features ``float32[R, A, F]`` of the batch, a chunk of rows at a time."""
        step = self._chunk_rows(masks.shape[1])
        for start in range(0, len(masks), step):
            rows = slice(start, start + step)
            features = np.empty((*masks[rows].shape, self.features.ACTION_FEATURES), np.float32)
            self.features.action_features(obs[rows], features)
            yield rows, features

    def _chunk_rows(self, num_actions: int) -> int:
        """Rows scored at once: within :data:`SCORING_CHUNK_BYTES` for ``num_actions`` values
        per row of the action features and of each layer over them."""
        return max(1, SCORING_CHUNK_BYTES // (4 * num_actions * self._widest))

    def _chunk_scores(self, obs: np.ndarray, masks: np.ndarray, features: np.ndarray) -> np.ndarray:
        import torch

        legal = masks != 0
        with torch.no_grad():
            codes = self.encode(torch.as_tensor(obs))
            rows = torch.as_tensor(np.nonzero(legal)[0], device=self.device)
            pairs = torch.as_tensor(features[legal], device=self.device)
            values = self.pair_scores(codes, rows, pairs).cpu().numpy()
        scores = np.full(legal.shape, -np.inf, np.float32)
        scores[legal] = values
        return scores


def scorer_metadata(game: Game, net_arch: NetArch) -> dict[str, Any]:
    """The checkpoint metadata of a scorer for ``game`` whose MLPs have the hidden widths of
    ``net_arch``; refused (``TypeError``/``ValueError`` naming ``net_arch``) beyond the bounds
    the loader applies, the score bound of the network as initialised included."""
    spec = game
    n = spec.default_players
    metadata = {
        "format": SCORER_FORMAT,
        "version": SCORER_VERSION,
        "game": spec.name,
        "observation_size": spec.obs_size(n),
        "num_actions": spec.num_actions(n),
        "action_features": spec.action_features.ACTION_FEATURES,
        "net_arch": checked_net_arch(net_arch),
    }
    validate_scorer_metadata(metadata)
    bound = initial_score_bound(metadata)
    if not bound <= SCORE_LIMIT:
        raise ValueError(
            f"net_arch {metadata['net_arch']}: as initialised, its scores could reach "
            f"{bound:.3g}, beyond the loader's limit {SCORE_LIMIT:g}"
        )
    return metadata


def checked_net_arch(net_arch: Any) -> dict[str, list[int]]:
    """``net_arch`` as plain lists, checked before it is read: for each of the three MLPs,
    at most ``MAX_DEPTH`` widths, each an int in [1, ``MAX_WIDTH``] (never a bool, a float
    or an int subclass's own idea of its value)."""
    if not isinstance(net_arch, Mapping) or set(net_arch) != set(SCORER_NETS):
        found = list(islice(net_arch, 8)) if isinstance(net_arch, Mapping) else net_arch
        raise TypeError(
            f"net_arch must be a dict with keys {list(SCORER_NETS)}, got "
            f"{type(net_arch).__name__} {found!r:.100}"
        )
    checked = {}
    for net in SCORER_NETS:
        sizes = net_arch[net]
        expected = f"a list of at most {MAX_DEPTH} widths"
        if not isinstance(sizes, (list, tuple)):
            raise TypeError(f"net_arch[{net!r}] must be {expected}, got {type(sizes).__name__}")
        if len(sizes) > MAX_DEPTH:
            raise ValueError(f"net_arch[{net!r}] must be {expected}, got {len(sizes):,}")
        checked[net] = [
            check_int(width, f"net_arch[{net!r}][{i}]", 1, MAX_WIDTH)
            for i, width in enumerate(sizes)
        ]
    return checked


def initial_score_bound(metadata: dict[str, Any]) -> float:
    """The largest bound the loader's check (``check_scores``) can find on a network of
    ``metadata`` as :func:`build_network` initialises it, whatever the seed: ``nn.Linear``
    draws each weight and bias of a layer of ``n`` inputs from U(-1/sqrt(n), 1/sqrt(n)),
    so each unit stays within (the sum of its inputs' bounds + 1) / sqrt(n)."""
    arch = metadata["net_arch"]
    feature = max(abs(FEATURE_LOW), abs(FEATURE_HIGH))
    size, features = metadata["observation_size"], metadata["action_features"]
    state_width, state_sum, state_top = _initial_bounds(size, size, arch["state"])
    action_width, action_sum, action_top = _initial_bounds(
        features, features * feature, arch["action"]
    )
    head_top = _initial_bounds(
        state_width + action_width, state_sum + action_sum, [*arch["head"], 1]
    )[2]
    return max(state_top, action_top, head_top)


def _initial_bounds(width: int, total: float, sizes: Sequence[int]) -> tuple[int, float, float]:
    """Through layers of ``sizes`` from ``width`` inputs whose bounds sum to ``total``: the
    output's width, the sum of its units' bounds and the largest unit bound met."""
    largest = 0.0
    for size in sizes:
        unit = (total + 1.0) / math.sqrt(width)
        largest = max(largest, unit)
        width, total = size, unit * size
    return width, total, largest


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
    scores' softmax, as a policy's logits, from a seeded generator). Given several scorers
    of one game (an ensemble, e.g. Deep Monte-Carlo runs from different seeds), the score
    of an action is the mean of theirs; ``scorer`` is the first."""

    def __init__(
        self,
        scorer: ActionScorer | Sequence[ActionScorer],
        name: str = "action_scorer",
        deterministic: bool = True,
        seed: int = 0,
    ) -> None:
        members = (scorer,) if isinstance(scorer, ActionScorer) else tuple(scorer)
        games = sorted({member.game.name for member in members})
        if len(games) != 1:
            raise ValueError(f"an ensemble's scorers play one game, got {games or 'none'}")
        self.members = members
        self.scorer = members[0]
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
        """The agent of the checkpoint at ``path``, or the ensemble of a folder's ``*.pt``
        checkpoints; ``game`` and ``num_players`` name the table it will play at (a
        checkpoint of another game or size is refused here)."""
        path = Path(path)
        members = [ActionScorer.from_checkpoint(p, game, num_players) for p in member_paths(path)]
        for member in members:
            member.network.eval()
        return cls(members, name or path.stem, deterministic)

    def save(self, path: str | Path) -> None:
        """Write the scorer (an ensemble is saved a member at a time: ``members``)."""
        if len(self.members) > 1:
            raise ValueError(
                f"an ensemble of {len(self.members)} scorers is not one checkpoint: save each "
                "of its members into one folder (ActionScorerAgent.load reads the folder)"
            )
        self.scorer.save(path)

    def legal_scores(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Scores ``float32[N, A]`` of every legal action (``-inf`` elsewhere), the members'
        mean; the action features are computed once for all of them."""
        if len(self.members) == 1:
            return self.scorer.legal_scores(obs, masks)
        widest = max(self.members, key=lambda member: member._widest)
        scores = np.empty(masks.shape, np.float32)
        for rows, features in widest._feature_chunks(obs, masks):
            chunk = [m._chunk_scores(obs[rows], masks[rows], features) for m in self.members]
            scores[rows] = np.mean(chunk, axis=0)
        return scores

    def check_batch(self, obs: np.ndarray, masks: np.ndarray) -> None:
        """The action-feature kernel reads observation values as indices: the observations
        must lie in the game's observation space."""
        super().check_batch(obs, masks)
        scorer = self.scorer
        check_observations(scorer.game, obs, masks, scorer.low, scorer.high)

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        scores = self.legal_scores(obs, masks)
        if self.deterministic:
            return scores.argmax(axis=1).astype(np.int64)
        gumbel = -np.log(-np.log(self._rng.uniform(1e-20, 1.0, size=scores.shape)))
        return (scores + gumbel).argmax(axis=1).astype(np.int64)
