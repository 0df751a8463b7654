"""The shape every game's action features share: named blocks of numbers in ``[0, 1]``.

Each game declares what its actions are in ``games/<game>/action_features.py``:
``ACTION_FEATURES`` (F), ``FEATURE_NAMES`` (F names, ``"block:name"``) and a numba kernel
``action_features(obs, out)`` that fills ``out`` (``float32[N, A, F]``) for a batch of
observations ``obs`` (``[N, D]``, the game's observation dtype). The features say what each
action is in the game's terms — a card's value, colour and effect, where it lies, a seat's
relation to the deciding seat — read from the observation alone, so they never tell a seat
more than it knows. Action-conditioned networks (``agents/action_scorer.py``) score each
legal action from them with weights shared across actions.

Contract (tests check it for every game): every feature lies in ``[0, 1]`` (the checkpoint
loader bounds a network's scores from it), the kernel writes every entry of ``out``, and it
reads observation values as indices only after checking their range, so any observation in
the game's observation space is safe.
"""

from __future__ import annotations

FEATURE_LOW, FEATURE_HIGH = 0.0, 1.0


class FeatureLayout:
    """The names of a feature vector, built block by block."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def block(self, prefix: str, names: tuple[str, ...] | list[str]) -> int:
        """Append a block of features ``prefix:name``; returns the index of its first."""
        start = len(self.names)
        self.names += [f"{prefix}:{name}" for name in names]
        return start
