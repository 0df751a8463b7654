"""A simple Président player that reads only its observation.

Leading: play the weakest rank it holds, all copies at once (sets stay whole). Following:
play the weakest rank it holds exactly the required number of copies of, so pairs and
triples are never split; with 4 cards or fewer left it will split to get out. Otherwise
pass. Giving back after the exchange: the weakest card, preferring a lone one.
"""

import numba as nb

from presages_env.games.president import kernel as k
from presages_env.games.president.cards import NUM_RANKS


@nb.njit(cache=True)
def _choose(obs, mask):
    hand = obs[k.OBS_HAND : k.OBS_HAND + NUM_RANKS]
    if obs[k.OBS_PHASE + k.PHASE_GIVE_BACK]:
        for r in range(NUM_RANKS):
            if hand[r] == 1:
                return k.play_action(r, 1)
        for r in range(NUM_RANKS):
            if hand[r] > 0:
                return k.play_action(r, 1)
    count = 0
    for c in range(k.MAX_SET):
        if obs[k.OBS_TOP_COUNT + c]:
            count = c + 1
    if count == 0:
        for r in range(NUM_RANKS):
            if hand[r] > 0:
                return k.play_action(r, hand[r])
    held = 0
    for r in range(NUM_RANKS):
        held += hand[r]
    for r in range(NUM_RANKS):
        if hand[r] == count and mask[k.play_action(r, count)]:
            return k.play_action(r, count)
    if held <= 4:
        for r in range(NUM_RANKS):
            if hand[r] >= count and mask[k.play_action(r, count)]:
                return k.play_action(r, count)
    return k.ACTION_PASS


@nb.njit(cache=True)
def heuristic_actions(obs, masks, actions):
    for i in range(masks.shape[0]):
        actions[i] = _choose(obs[i], masks[i])
