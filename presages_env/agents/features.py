"""What a learned policy reads: the observation, optionally with the heuristic's advice.

``raw`` is the observation as floats. ``heuristic_hints`` appends, for every action, a
one-hot of the action the game's heuristic would take and, where the game's heuristic
scores its options (Présages: placements and ⚡ choices, by looking one bout ahead), the
value it gives each one. The heuristic reads only the same observation, so the hints add
no information the seat lacks — they add computation an MLP finds hard to learn (a bout
simulated through the kernel's rules); PPO then only has to learn where departing pays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from presages_env.core.game import Game

VALUE_CLIP = 2.0  # hint values are in rounds won; an impossible option (-inf) is clipped


class RawFeatures:
    """The observation as ``float32``."""

    name = "raw"

    def __init__(self, game: str | Game, num_actions: int) -> None:
        self.game = getattr(game, "name", game)  # the game's name
        self.num_actions = num_actions

    def low_high(self, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Bounds of the features, given the observation's."""
        return low.astype(np.float32), high.astype(np.float32)

    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return obs.astype(np.float32)


class HeuristicHints(RawFeatures):
    """The observation, the heuristic's action (one-hot) and its option values if any."""

    name = "heuristic_hints"

    def __init__(self, game: str | Game, num_actions: int) -> None:
        super().__init__(game, num_actions)
        from presages_env.games.run_spec import as_game  # numba comes with it

        module = as_game(game).heuristic  # trainers pass the Game; a user may name it
        if module is None:
            raise ValueError(f"{self.game} has no heuristic to give hints (its Game declares none)")
        self._actions = module.heuristic_actions
        self._values = getattr(module, "heuristic_values", None)

    def low_high(self, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a = self.num_actions
        lows, highs = [low, np.zeros(a)], [high, np.ones(a)]
        if self._values is not None:
            lows.append(np.full(a, -VALUE_CLIP))
            highs.append(np.full(a, VALUE_CLIP))
        return np.concatenate(lows).astype(np.float32), np.concatenate(highs).astype(np.float32)

    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        rows, a = masks.shape
        d = obs.shape[1]
        actions = np.empty(rows, dtype=np.int64)
        out = np.zeros((rows, d + (a if self._values is None else 2 * a)), np.float32)
        out[:, :d] = obs
        if self._values is None:
            self._actions(obs, masks, actions)
        else:
            values = np.empty(masks.shape)
            self._values(obs, masks, actions, values)
            out[:, d + a :] = np.clip(values, -VALUE_CLIP, VALUE_CLIP)
        advised = np.flatnonzero(actions >= 0)  # none where no action is legal (a final obs)
        out[advised, d + actions[advised]] = 1.0
        return out


FEATURES = {cls.name: cls for cls in (RawFeatures, HeuristicHints)}


def make_features(name: str, game: str | Game, num_actions: int) -> RawFeatures:
    """The feature map ``name`` (``"raw"`` or ``"heuristic_hints"``) for ``game``."""
    if name not in FEATURES:
        raise ValueError(f"unknown features {name!r}; choose one of {sorted(FEATURES)}")
    return FEATURES[name](game, num_actions)
