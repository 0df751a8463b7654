"""What each Aciliande action is, from the deciding seat's observation (core/action_features.py).

The dealer's hand-size choice (``ACT_HAND_SIZE + k - 1``) gives ``k``; a bid (``ACT_BID +
b``) gives ``b``, its share of the hand, and the total bid with it against the tricks there
are (the dealer may not make them equal); a card (``ACT_CARD + c``) gives its strength,
whether it is a Goddess and which Goddess of the trick it would be (the third wins the game
at once), whether the seat holds it or it was played, whether it beats every card of the
trick that is not a Goddess, and how many stronger cards are neither held nor played. Take
and leave, the first Goddess's declaration, are their kind alone.
"""

from __future__ import annotations

import numba as nb

from presages_env.core.action_features import FeatureLayout
from presages_env.games.aciliande.cards import NUM_CARDS
from presages_env.games.aciliande.kernel import (
    ACT_BID,
    ACT_CARD,
    ACT_HAND_SIZE,
    ACT_LEAVE,
    ACT_TAKE,
    MAX_PLAYERS,
    MAX_TRICKS,
    OBS_BIDS,
    OBS_GODDESS,
    OBS_HAND,
    OBS_HAND_SIZE,
    OBS_PLAYED_BY,
    OBS_TRICK_CARDS,
)

_layout = FeatureLayout()
KIND = _layout.block("kind", ("hand_size", "bid", "card", "take", "leave"))
NUMBER = _layout.block("number", ("hand_size", "bid", "bid_share_of_hand"))
TOTAL = _layout.block("total_bid", ("over_tricks", "equals_tricks"))
CARD = _layout.block(
    "card",
    (
        "strength",
        "goddess",
        "first_goddess_of_trick",
        "second_goddess_of_trick",
        "third_goddess_of_trick",
        "in_my_hand",
        "played",
        "beats_trick",
        "stronger_unseen",
    ),
)
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
    for k in range(1, MAX_TRICKS + 1):
        row = out[ACT_HAND_SIZE + k - 1]
        row[KIND] = 1.0
        row[NUMBER] = k / MAX_TRICKS
    _describe_bids(obs, out)
    goddesses = 0
    best = -1  # the strongest card of the trick that is not a Goddess
    for i in range(MAX_PLAYERS):
        card = obs[OBS_TRICK_CARDS + i] - 1
        if 0 <= card < NUM_CARDS:
            if obs[OBS_GODDESS + card] == 1:
                goddesses += 1
            else:
                best = max(best, card)
    unseen_above = 0  # cards stronger than the one described, neither held nor played
    for card in range(NUM_CARDS - 1, -1, -1):
        row = out[ACT_CARD + card]
        row[KIND + 2] = 1.0
        row[CARD] = card / (NUM_CARDS - 1)
        goddess = obs[OBS_GODDESS + card] == 1
        row[CARD + 1] = goddess
        if goddess:
            row[CARD + 2 + min(goddesses, 2)] = 1.0
        row[CARD + 5] = obs[OBS_HAND + card] == 1
        row[CARD + 6] = obs[OBS_PLAYED_BY + card] > 0
        row[CARD + 7] = card > best
        row[CARD + 8] = unseen_above / (NUM_CARDS - 1)
        unseen_above += obs[OBS_HAND + card] != 1 and obs[OBS_PLAYED_BY + card] == 0
    out[ACT_TAKE, KIND + 3] = 1.0
    out[ACT_LEAVE, KIND + 4] = 1.0


@nb.njit(cache=True)
def _describe_bids(obs, out):
    tricks = obs[OBS_HAND_SIZE]
    others = 0
    for seat in range(MAX_PLAYERS):
        others += max(obs[OBS_BIDS + seat] - 1, 0)  # bid + 1, 0 before bidding
    for bid in range(MAX_TRICKS + 1):
        row = out[ACT_BID + bid]
        row[KIND + 1] = 1.0
        row[NUMBER + 1] = bid / MAX_TRICKS
        if tricks > 0:
            row[NUMBER + 2] = min(bid / tricks, 1.0)
            row[TOTAL] = min((others + bid) / tricks, 2.0) / 2.0
            row[TOTAL + 1] = others + bid == tricks
