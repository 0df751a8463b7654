"""One bout ahead, from a seat's observation: what the heuristic and the action features share.

The seats still empty get distinct random unseen cards (Law obeyed where it can be) and the
kernel's own end-of-bout rules (``winning_card``, ``discard_set``) say which card wins, which
cards go and which return to their holders' hands. Everything here reads only the observation
and a scratch state that holds the table and the sampling RNG.
"""

import numba as nb
import numpy as np

from presages_env.core.header import HDR_NUM_PLAYERS
from presages_env.core.rng import rng_shuffle
from presages_env.games.presages import kernel as k
from presages_env.games.presages.cards import LUCK, MIRROR, NUM_CARDS, PRIDE, SADNESS


@nb.njit(cache=True)
def plane(obs, which, card):
    return obs[k.OBS_PLANES + which * NUM_CARDS + card - 1]


@nb.njit(cache=True)
def holds(obs, card):
    return plane(obs, k.PLANE_MY_HAND, card) == 1


@nb.njit(cache=True)
def table_and_hands(obs):
    """Cards in front of each seat, and each hand once every empty seat has placed one."""
    table = np.zeros(k.MAX_SEATS, dtype=np.int64)
    hands = np.zeros(k.MAX_SEATS, dtype=np.int64)
    for s in range(np.int64(obs[k.OBS_NUM_PLAYERS])):
        table[s] = obs[k.OBS_FRONT + s]
        hands[s] = np.int64(obs[k.OBS_HAND_COUNTS + s]) - (table[s] == 0)
    return table, hands


@nb.njit(cache=True)
def unseen_cards(obs):
    """Cards in another hand or set aside: what an empty seat may still place."""
    pool = np.empty(NUM_CARDS, dtype=np.int64)
    count = 0
    for c in range(1, NUM_CARDS + 1):
        if plane(obs, k.PLANE_ZONE, c) == k.ZONE_HIDDEN and not holds(obs, c):
            pool[count] = c
            count += 1
    return pool[:count]


@nb.njit(cache=True)
def on_table(table, card):
    return (table == card).any()


@nb.njit(cache=True)
def seat_of(table, card):
    for s in range(table.size):
        if table[s] == card:
            return s
    return -1


@nb.njit(cache=True)
def _next_card(deck, direction):
    """Index of the first card left in ``deck`` that obeys Law, else of the first left."""
    first = -1
    for i in range(deck.size):
        if deck[i] != 0:
            if k.obeys(deck[i], direction):
                return i
            if first < 0:
                first = i
    return first


@nb.njit(cache=True)
def fill_empty_seats(n, table, pool, direction, scratch):
    """Give each empty seat a distinct random unseen card, one that obeys Law if any does."""
    deck = pool.copy()
    rng_shuffle(scratch, deck, deck.size)
    for s in range(n):
        if table[s] != 0:
            continue
        pick = _next_card(deck, direction)
        if pick >= 0:
            table[s] = deck[pick]
            deck[pick] = 0


@nb.njit(cache=True)
def end_bout(table, hands, scratch, after):
    """The kernel's end of the bout on a full ``table``: (winning card, discarded cards as a
    bit set over values); ``after`` gets each hand once the cards not discarded are back
    (and Luck's holder has discarded one more)."""
    n = scratch[HDR_NUM_PLAYERS]
    for s in range(n):
        scratch[k.FRONT + s] = table[s]
    winner = k.winning_card(scratch, on_table(table, MIRROR), on_table(table, SADNESS))
    discards = k.discard_set(scratch, winner)
    after[:] = hands
    for s in range(n):
        if not discards & (np.int64(1) << table[s]):
            after[s] += 1
        elif table[s] == LUCK and after[s] > 0:
            after[s] -= 1
    return winner, discards


@nb.njit(cache=True)
def next_starter(table, n, winner):
    """Left of Pride's holder if Pride is in play, else the winning card's holder."""
    pride = seat_of(table, PRIDE)
    return (pride + 1) % n if pride >= 0 else seat_of(table, winner)
