"""What each Président action is, from the deciding seat's observation (core/action_features.py).

Action ``1 + 4 * rank + count - 1`` plays ``count`` cards of ``rank`` (during the give-back,
with count 1, it names the card the Président returns); action 0 passes. A play describes
its rank (scaled, and one-hot: ranks differ only by order, but a 2 ends most tricks), its
count, the seat's own cards of that rank before and after it, whether it empties the hand,
how many cards of the rank are gone, and what the other hands may still hold above it:
the higher cards neither held by the seat nor gone, and the higher ranks of which enough
remain unseen to beat the same count.
"""

from __future__ import annotations

import numba as nb

from presages_env.core.action_features import FeatureLayout
from presages_env.games.president.cards import NUM_CARDS, NUM_RANKS, RANK_NAMES, SET_NAMES, SUITS
from presages_env.games.president.kernel import (
    ACTION_PASS,
    MAX_SET,
    OBS_GONE,
    OBS_HAND,
    OBS_PHASE,
    PHASE_GIVE_BACK,
)

HAND_SCALE = NUM_CARDS // 3 + 2  # the largest hand: 52 cards dealt to 3, plus the exchange

_layout = FeatureLayout()
KIND = _layout.block("kind", ("pass", "play", "give_back"))
RANK = _layout.block("rank", ("value",) + RANK_NAMES)
COUNT = _layout.block("count", ("value",) + SET_NAMES)
MINE = _layout.block("mine", ("held_of_rank", "left_of_rank", "empties_hand", "hand_left"))
PUBLIC = _layout.block("public", ("gone_of_rank", "unseen_higher_cards", "ranks_that_can_beat"))
FEATURE_NAMES = tuple(_layout.names)
ACTION_FEATURES = len(FEATURE_NAMES)


@nb.njit(cache=True)
def action_features(obs, out):
    """Fill ``out[i, a]`` with the features of action ``a`` seen from ``obs[i]``."""
    out[:] = 0.0
    for i in range(obs.shape[0]):
        _fill_row(obs[i], out[i])


@nb.njit(cache=True)
def _fill_row(obs, out):
    giving = obs[OBS_PHASE + PHASE_GIVE_BACK] == 1
    held = 0
    for rank in range(NUM_RANKS):
        held += obs[OBS_HAND + rank]
    out[ACTION_PASS, KIND] = 1.0
    for rank in range(NUM_RANKS):
        for count in range(1, MAX_SET + 1):
            row = out[1 + MAX_SET * rank + count - 1]
            row[KIND + (2 if giving else 1)] = 1.0
            row[RANK] = rank / (NUM_RANKS - 1)
            row[RANK + 1 + rank] = 1.0
            row[COUNT] = count / MAX_SET
            row[COUNT + count] = 1.0
            mine = obs[OBS_HAND + rank]
            row[MINE] = min(mine, SUITS) / SUITS
            row[MINE + 1] = min(max(mine - count, 0), SUITS) / SUITS
            row[MINE + 2] = held == count
            row[MINE + 3] = min(max(held - count, 0), HAND_SCALE) / HAND_SCALE
            row[PUBLIC] = min(obs[OBS_GONE + rank], SUITS) / SUITS
            unseen_higher = beating_ranks = 0
            for higher in range(rank + 1, NUM_RANKS):
                unseen = max(SUITS - obs[OBS_GONE + higher] - obs[OBS_HAND + higher], 0)
                unseen_higher += unseen
                beating_ranks += unseen >= count
            row[PUBLIC + 1] = min(unseen_higher, NUM_CARDS) / NUM_CARDS
            row[PUBLIC + 2] = beating_ranks / (NUM_RANKS - 1)
