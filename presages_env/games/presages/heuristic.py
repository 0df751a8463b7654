"""A simple Présages player that reads only its observation.

Table decisions look one bout ahead: the seats still empty get random unseen cards (Law
obeyed where it can be, the same samples for every option) and the kernel's own end-of-bout
rules say which cards go. A bout that ends the round is worth a round won or lost (a 0-card
hand wins, else the highest single card: its own last card is known, another's is guessed);
otherwise every hand counts more and more as it nears one card, for the team and against
the opponents, and starting the next bout (placing blind) costs a little. So it sheds its
own cards, helps the partner closest to one card and keeps the bout from opponents about to
go out. Placements, Law, Dream, Wrath, Betrayal and Jealousy choices take the best-scoring
option; placing one of those ⚡ cards is scored with its best follow-up. Absolu: trade the
worst card held (Fear, which only leaves by winning, else the lowest) with the opponent
closest to one card. Secret: show the lowest card to a partner. Luck: discard the lowest
card, keeping high ones for the final comparison.
"""

import numba as nb
import numpy as np

from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS
from presages_env.core.rng import rng_get, rng_seed, rng_set
from presages_env.games.presages import kernel as k
from presages_env.games.presages.cards import (
    BETRAYAL,
    DREAM,
    FEAR,
    JEALOUSY,
    LAW,
    NUM_CARDS,
    WRATH,
)
from presages_env.games.presages.lookahead import (
    end_bout,
    fill_empty_seats,
    holds,
    next_starter,
    on_table,
    seat_of,
    table_and_hands,
    unseen_cards,
)

SAMPLES = 32  # random completions of the bout scored per option
ROUND_VALUE = 10.0  # a round won; lost counts negative
# how much a hand of h cards (index h, from 2 up) is worth to its team: closer to one card
# weighs more and more
HAND_VALUE = np.array([0.0, 0.0, 4.0, 2.0, 1.0, 0.5, 0.25])
STARTING_COST = 0.5  # the next bout's starter places first, knowing the least
GUESSED_LAST_CARD = 20  # the unseen single card of another hand at a round's end


# ---- what the observation tells --------------------------------------------------------------


@nb.njit(cache=True)
def _me(obs):
    return np.int64(obs[k.OBS_ME]) - 1


@nb.njit(cache=True)
def _players(obs):
    return np.int64(obs[k.OBS_NUM_PLAYERS])


@nb.njit(cache=True)
def _partner(obs, seat):
    """On the observer's team (the observer included)."""
    return obs[k.OBS_TEAMS + seat] == obs[k.OBS_TEAMS + _me(obs)]


@nb.njit(cache=True)
def _hand_count(obs, seat):
    return np.int64(obs[k.OBS_HAND_COUNTS + seat])


# ---- one bout ahead (lookahead.py completes the table and ends it) -------------------------


@nb.njit(cache=True)
def _my_last_card(obs, table, discards):
    """The highest card the observer keeps after the bout: the one that counts if one is left."""
    best = 0
    for c in range(1, NUM_CARDS + 1):
        kept_in_hand = holds(obs, c) and not on_table(table, c)
        if kept_in_hand and c > best:
            best = c
    mine = table[_me(obs)]
    if mine != 0 and not discards & (np.int64(1) << mine) and mine > best:
        best = mine
    return best


@nb.njit(cache=True)
def _likely_round_winner(obs, after, my_last):
    """§4.3 with the other hands' single cards guessed."""
    best, best_card = -1, -1
    for s in range(_players(obs)):
        if after[s] == 0:
            return s
        card = my_last if s == _me(obs) else GUESSED_LAST_CARD
        if after[s] == 1 and card > best_card:
            best, best_card = s, card
    return best


@nb.njit(cache=True)
def _hands_value(obs, after, my_last):
    """The observer's team's view of the hands left after a bout."""
    n = _players(obs)
    if after[:n].min() <= 1:
        winner = _likely_round_winner(obs, after, my_last)
        return ROUND_VALUE if _partner(obs, winner) else -ROUND_VALUE
    value = 0.0
    for s in range(n):
        worth = HAND_VALUE[min(after[s], HAND_VALUE.size - 1)]
        value += worth if _partner(obs, s) else -worth
    return value


@nb.njit(cache=True)
def _bout_value(obs, table, hands, scratch):
    """Value of a full table: the kernel picks the winning card and the discards."""
    after = np.empty_like(hands)
    winner, discards = end_bout(table, hands, scratch, after)
    value = _hands_value(obs, after, _my_last_card(obs, table, discards))
    starter = next_starter(table, _players(obs), winner)
    return value - STARTING_COST if _partner(obs, starter) else value + STARTING_COST


@nb.njit(cache=True)
def _expected_value(obs, table, hands, direction, pool, scratch):
    """Mean value over random completions of the empty seats (exact if there are none)."""
    n = _players(obs)
    if not on_table(table[:n], 0):
        return _bout_value(obs, table, hands, scratch)
    first_draw = rng_get(scratch)  # every option is scored on the same completions
    total = 0.0
    for _ in range(SAMPLES):
        trial = table.copy()
        fill_empty_seats(n, trial, pool, direction, scratch)
        total += _bout_value(obs, trial, hands, scratch)
    rng_set(scratch, first_draw)
    return total / SAMPLES


# ---- ⚡ choices, at their node or looked ahead when placing the card ---------------------------
@nb.njit(cache=True)
def _choice_node(card):
    """The node where the holder of a freshly placed ``card`` chooses how it acts on the table."""
    if card == LAW:
        return k.NODE_LAW_DIR
    if card == DREAM:
        return k.NODE_DREAM_DEST
    if card == WRATH:
        return k.NODE_WRATH_PICK
    if card == BETRAYAL:
        return k.NODE_BETRAYAL_TAKE
    if card == JEALOUSY:
        return k.NODE_JEALOUSY_PICK
    return -1


@nb.njit(cache=True)
def _option_value(obs, table, hands, node, action, pool, scratch):
    """Value of ``action`` at a ⚡ choice ``node`` with ``table`` (the ⚡ card in my seat);
    -inf for an action the node never offers: only a mask that does not match the
    observation holds one, and its seat or card would index out of bounds."""
    me = _me(obs)
    direction = obs[k.OBS_LAW_DIR]
    table = table.copy()
    if node == k.NODE_LAW_DIR:
        direction = k.DIR_BELOW if action == k.LAW_BELOW else k.DIR_ABOVE
    elif node == k.NODE_DREAM_DEST:
        seat = action - k.SEAT_ACTION_BASE
        if not 0 <= seat < table.size:  # a card or Law action: no seat to send Dream to
            return -np.inf
        if seat != me:  # Dream goes there and that seat's reply (unseen) comes in front of me
            table[seat], table[me] = DREAM, 0
    else:
        card = action - k.CARD_ACTION_BASE + 1
        victim = seat_of(table, card)
        # only a card in play can be picked; a seat action's "card" (36 and up) would index
        # COLOURS past its end once Jealousy put it on the table
        if victim < 0:
            return -np.inf
        if card == LAW:
            direction = k.DIR_NONE
        if node == k.NODE_JEALOUSY_PICK:
            table[victim], table[seat_of(table, JEALOUSY)] = JEALOUSY, card
        elif node == k.NODE_WRATH_PICK:
            table[victim] = 0  # the victim places another card
        else:
            return _best_gift_value(obs, table, hands, victim, direction, pool, scratch)
    return _expected_value(obs, table, hands, direction, pool, scratch)


@nb.njit(cache=True)
def _best_gift_value(obs, table, hands, victim, direction, pool, scratch):
    """Betrayal: the best card of my hand to give in exchange for the one taken."""
    best = -np.inf
    for gift in range(1, NUM_CARDS + 1):
        if holds(obs, gift) and not on_table(table, gift):
            table[victim] = gift
            best = max(best, _expected_value(obs, table, hands, direction, pool, scratch))
    return best


@nb.njit(cache=True)
def _best_option(obs, mask, table, hands, node, pool, scratch, values):
    """(action, value) of the best legal option at a ⚡ choice node; (-1, -inf) if none.
    Each option's value goes to ``values[action]``."""
    best, best_value = -1, -np.inf
    for action in range(mask.size):
        if mask[action]:
            value = _option_value(obs, table, hands, node, action, pool, scratch)
            values[action] = value
            if value > best_value:
                best, best_value = action, value
    return best, best_value


@nb.njit(cache=True)
def _offered_options(obs, table, node, card, scratch):
    """The kernel's mask for the choice ``card`` would ask of me with ``table``."""
    for s in range(_players(obs)):
        scratch[k.FRONT + s] = table[s]
    scratch[k.NODE] = node
    scratch[k.EFFECT] = card
    scratch[HDR_CURRENT] = _me(obs)
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    k.legal_mask(scratch, mask)
    return mask


@nb.njit(cache=True)
def _placement_value(obs, table, hands, seat, card, pool, scratch):
    """Value of laying ``card`` in front of ``seat``, using its ⚡ choice well if it is mine."""
    table = table.copy()
    table[seat] = card
    node = _choice_node(card) if seat == _me(obs) else -1
    if node >= 0:
        options = _offered_options(obs, table, node, card, scratch)
        follow_ups = np.empty(k.NUM_ACTIONS)
        _, value = _best_option(obs, options, table, hands, node, pool, scratch, follow_ups)
        if value > -np.inf:
            return value
    return _expected_value(obs, table, hands, obs[k.OBS_LAW_DIR], pool, scratch)


# ---- decisions ----------------------------------------------------------------------------
@nb.njit(cache=True)
def _best_card(obs, mask, seat, pool, scratch, values):
    """The hand card to lay in front of ``seat`` (own seat, Dream player, Betrayal victim);
    each legal card's value goes to ``values``."""
    table, hands = table_and_hands(obs)
    me = _me(obs)
    if seat != me:  # the card leaves my hand but will return to the other seat's
        hands[me] -= 1
        hands[seat] += 1
    best, best_value = -1, -np.inf
    for c in range(1, NUM_CARDS + 1):
        if mask[k.CARD_ACTION_BASE + c - 1]:
            value = _placement_value(obs, table, hands, seat, c, pool, scratch)
            values[k.CARD_ACTION_BASE + c - 1] = value
            if value > best_value:
                best, best_value = k.CARD_ACTION_BASE + c - 1, value
    return best


@nb.njit(cache=True)
def _worst_card(obs, mask):
    """Fear (it only leaves by winning), else the lowest legal card."""
    if mask[k.CARD_ACTION_BASE + FEAR - 1]:
        return k.CARD_ACTION_BASE + FEAR - 1
    for c in range(1, NUM_CARDS + 1):
        if mask[k.CARD_ACTION_BASE + c - 1]:
            return k.CARD_ACTION_BASE + c - 1
    return -1


@nb.njit(cache=True)
def _seat_choice(obs, mask, want_partner):
    """A partner (Secret), or the opponent with the fewest cards (Absolu)."""
    best, fewest = -1, 99
    for s in range(_players(obs)):
        eligible = mask[k.SEAT_ACTION_BASE + s] and _partner(obs, s) == want_partner
        if eligible and _hand_count(obs, s) < fewest:
            best, fewest = k.SEAT_ACTION_BASE + s, _hand_count(obs, s)
    return best


@nb.njit(cache=True)
def _choose(obs, mask, scratch, values):
    """The action; at the decisions it scores, every legal option's value goes to ``values``."""
    node = obs[k.OBS_NODE]
    pool = unseen_cards(obs)
    if node in (k.NODE_PLACE, k.NODE_WRATH_REPLACE):
        return _best_card(obs, mask, _me(obs), pool, scratch, values)
    if node == k.NODE_DREAM_REPLY:
        seat = np.int64(obs[k.OBS_DREAM_PLAYER]) - 1
        return _best_card(obs, mask, seat, pool, scratch, values)
    if node == k.NODE_BETRAYAL_GIVE:
        return _best_card(obs, mask, np.int64(obs[k.OBS_VICTIM]) - 1, pool, scratch, values)
    if _choice_node(obs[k.OBS_EFFECT]) == node:  # Law, Dream, Wrath, Betrayal, Jealousy
        table, hands = table_and_hands(obs)
        action, _ = _best_option(obs, mask, table, hands, node, pool, scratch, values)
        return action
    if node == k.NODE_SECRET_MODE:
        return k.SECRET_SHOW
    if node == k.NODE_SECRET_TARGET:
        return _seat_choice(obs, mask, True)
    if node == k.NODE_ABSOLUTE_TARGET:
        return _seat_choice(obs, mask, False)
    return _worst_card(obs, mask)  # Secret card, Absolu cards, Luck's discard


@nb.njit(cache=True)
def _first_legal(mask):
    for a in range(mask.size):
        if mask[a]:
            return a
    return -1


@nb.njit(cache=True)
def heuristic_values(obs, masks, actions, values):
    """One action per row, and the value the heuristic gives each legal option where it
    scores them (placements and ⚡ choices; 0 elsewhere), in rounds won (±1 = a round).

    ``scratch`` is a kernel state that holds only what the kernel's rules read (the table,
    the asked node) and the sampling RNG, seeded from the observation so that an observation
    always gets the same action."""
    scratch = np.zeros(k.STATE_SIZE, dtype=k.STATE_DTYPE)
    row_values = np.empty(masks.shape[1])
    for i in range(masks.shape[0]):
        seed = 0
        for j in range(k.OBS_LOG):
            seed = seed * 31 + obs[i, j]
        scratch[HDR_NUM_PLAYERS] = obs[i, k.OBS_NUM_PLAYERS]
        rng_seed(scratch, seed)
        row_values[:] = 0.0
        action = _choose(obs[i], masks[i], scratch, row_values)
        actions[i] = action if action >= 0 and masks[i, action] else _first_legal(masks[i])
        values[i] = row_values / ROUND_VALUE


@nb.njit(cache=True)
def heuristic_actions(obs, masks, actions):
    """One action per row (see :func:`heuristic_values`)."""
    heuristic_values(obs, masks, actions, np.empty(masks.shape))
