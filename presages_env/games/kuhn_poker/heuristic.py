"""A simple Kuhn poker player that reads only its observation.

Bet with the highest card in play; facing a bet, call with any card but the lowest; check
otherwise. It never bluffs, so it is exploitable: its exact exploitability is in the tests.
"""

import numba as nb

from presages_env.games.kuhn_poker.layout import (
    BET,
    CALL,
    CHECK,
    FOLD,
    MAX_CARDS,
    MAX_MOVES,
    MAX_PLAYERS,
    MOVE_BET,
    OBS_CARD,
    OBS_MOVES,
    OBS_SEATED,
)


@nb.njit(cache=True)
def _choose(obs):
    card = 0
    for c in range(MAX_CARDS):
        if obs[OBS_CARD + c]:
            card = c
    highest = 0  # n seats play the n + 1 lowest cards: the highest is card n
    for seat in range(MAX_PLAYERS):
        highest += obs[OBS_SEATED + seat] != 0
    facing = False
    for i in range(MAX_MOVES):
        facing |= obs[OBS_MOVES + 2 * i + MOVE_BET] != 0
    if facing:
        return CALL if card > 0 else FOLD
    return BET if card == highest else CHECK


@nb.njit(cache=True)
def heuristic_actions(obs, masks, actions):
    for i in range(masks.shape[0]):
        actions[i] = _choose(obs[i])
