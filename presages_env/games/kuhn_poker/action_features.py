"""What each Kuhn poker action is, from the deciding seat's observation (core/action_features.py).

Actions check, bet, fold and call (0 to 3). Each describes its kind, and the seat's card:
its rank among the cards in play. Nothing else differs between them.
"""

from __future__ import annotations

import numba as nb

from presages_env.core.action_features import FeatureLayout
from presages_env.games.kuhn_poker.layout import (
    MAX_CARDS,
    MAX_PLAYERS,
    NUM_ACTIONS,
    OBS_CARD,
    OBS_SEATED,
)

_layout = FeatureLayout()
KIND = _layout.block("kind", ("check", "bet", "fold", "call"))  # the actions, in order
CARD = _layout.block("card", ("strength",))
FEATURE_NAMES = tuple(_layout.names)
ACTION_FEATURES = len(FEATURE_NAMES)


@nb.njit(cache=True)
def action_features(obs, out):
    """Fill ``out[i, a]`` with the features of action ``a`` seen from ``obs[i]``."""
    out[:] = 0.0
    for i in range(obs.shape[0]):
        row = obs[i]
        card = 0
        for c in range(MAX_CARDS):
            if row[OBS_CARD + c]:
                card = c
        highest = 0
        for seat in range(MAX_PLAYERS):
            highest += row[OBS_SEATED + seat] != 0
        for a in range(NUM_ACTIONS):
            out[i, a, KIND + a] = 1.0
            out[i, a, CARD] = min(card, max(highest, 1)) / max(highest, 1)
