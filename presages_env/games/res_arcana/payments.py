"""Essences: pools, what lies on components, and the two one-essence-at-a-time engines.

Every essence that enters or leaves a seat's holdings (its pool plus the essences on its
components) goes through :func:`gain`, :func:`spend`, :func:`put_on` or :func:`remove_from`,
which keep the ``GAINED``/``SPENT`` audit counters, so ``holdings == GAINED - SPENT`` holds in
every state (the validator checks it).

Payments and gains with a choice are made one essence per decision, in E, L, C, D, G order
(a seat that paid Calm may go on with Calm, Death or Gold, not Elan): each multiset of
essences is then reached by exactly one sequence of decisions, and the mask offers only
essences after which the rest can still be paid (:func:`completable`). A step with a single
legal essence is applied without asking (every option leads to the same state).
"""

import numba as nb
import numpy as np

from presages_env.core.events import PUBLIC, emit
from presages_env.games.res_arcana.cards import NUM_ESSENCES, E, G
from presages_env.games.res_arcana.event_kinds import EV_GAIN, EV_PAY, EV_TAKE
from presages_env.games.res_arcana.layout import (
    DEST_POOL,
    GAIN_ACTIVE,
    GAIN_DEST,
    GAIN_LEFT,
    GAIN_MASK,
    GAIN_MIN,
    GAIN_MIXED,
    GAIN_MODE,
    GAIN_ONE_TYPE,
    GAIN_OR_GOLD,
    GAIN_PLAYER,
    GAINED,
    PAY_ACTIVE,
    PAY_APPLIED,
    PAY_GOLD_DISCOUNT,
    PAY_LEFT,
    PAY_MASK,
    PAY_MIN,
    PAY_NEED,
    PAY_PAID,
    PAY_PLAYER,
    POOL,
    SPENT,
    STORED,
)


# ---- moving essences ---------------------------------------------------------------------
@nb.njit(cache=True)
def gain(state, seat, essence, count, events):
    """``count`` essences from the supply into ``seat``'s pool."""
    emit(events, EV_GAIN, seat, PUBLIC, seat, essence, count, -1, 0)
    state[POOL + seat * NUM_ESSENCES + essence] += count
    state[GAINED + seat * NUM_ESSENCES + essence] += count


@nb.njit(cache=True)
def spend(state, seat, essence, count, events):
    """``count`` essences from ``seat``'s pool back to the supply."""
    emit(events, EV_PAY, seat, PUBLIC, seat, essence, count, -1, 0)
    state[POOL + seat * NUM_ESSENCES + essence] -= count
    state[SPENT + seat * NUM_ESSENCES + essence] += count


@nb.njit(cache=True)
def put_on(state, seat, comp, essence, count, events):
    """``count`` essences from the supply onto ``seat``'s component ``comp``."""
    emit(events, EV_GAIN, seat, PUBLIC, seat, essence, count, comp, 0)
    state[STORED + comp * NUM_ESSENCES + essence] += count
    state[GAINED + seat * NUM_ESSENCES + essence] += count


@nb.njit(cache=True)
def remove_from(state, seat, comp, essence, count, events):
    """``count`` essences from ``seat``'s component ``comp`` back to the supply."""
    emit(events, EV_PAY, seat, PUBLIC, seat, essence, count, comp, 0)
    state[STORED + comp * NUM_ESSENCES + essence] -= count
    state[SPENT + seat * NUM_ESSENCES + essence] += count


@nb.njit(cache=True)
def clear_stored(state, seat, comp, events):
    """Every essence on ``comp`` back to the supply (a destroyed or returned component)."""
    for e in range(NUM_ESSENCES):
        n = state[STORED + comp * NUM_ESSENCES + e]
        if n:
            remove_from(state, seat, comp, e, n, events)


@nb.njit(cache=True)
def take_stored(state, seat, comp, events):
    """Every essence on ``comp`` into ``seat``'s pool (collect: all or nothing)."""
    for e in range(NUM_ESSENCES):
        slot = STORED + comp * NUM_ESSENCES + e
        if state[slot]:
            emit(events, EV_TAKE, seat, PUBLIC, seat, comp, e, state[slot], 0)
        state[POOL + seat * NUM_ESSENCES + e] += state[slot]
        state[slot] = 0


@nb.njit(cache=True)
def stored_total(state, comp):
    total = 0
    for e in range(NUM_ESSENCES):
        total += state[STORED + comp * NUM_ESSENCES + e]
    return total


@nb.njit(cache=True)
def pool_of(state, seat):
    """``seat``'s pool as a 5-tuple."""
    base = POOL + seat * NUM_ESSENCES
    return (
        np.int64(state[base]),
        np.int64(state[base + 1]),
        np.int64(state[base + 2]),
        np.int64(state[base + 3]),
        np.int64(state[base + 4]),
    )


@nb.njit(cache=True)
def vector_of(table, row):
    """Row ``row`` of a ``[N, 5]`` card table as a 5-tuple."""
    return (table[row, 0], table[row, 1], table[row, 2], table[row, 3], table[row, 4])


@nb.njit(cache=True)
def less_one(vector, essence):
    """``vector`` with one fewer ``essence`` (not below 0)."""
    return (
        max(vector[0] - (essence == 0), 0),
        max(vector[1] - (essence == 1), 0),
        max(vector[2] - (essence == 2), 0),
        max(vector[3] - (essence == 3), 0),
        max(vector[4] - (essence == 4), 0),
    )


@nb.njit(cache=True)
def covers(pool, vector):
    short = 0
    for e in range(NUM_ESSENCES):
        short += pool[e] < vector[e]
    return short == 0


# ---- paying a cost -----------------------------------------------------------------------
@nb.njit(cache=True)
def cost_terms(need, any_count, all_discount, non_gold_discount):
    """Essences to pay, discount applied and how much of it may waive Gold.

    Discounts add up and never take a cost below 0; a non-Gold discount cannot waive a Gold
    part (§3), so it goes first to what it can reduce.
    """
    total = any_count
    for e in range(NUM_ESSENCES):
        total += need[e]
    non_gold = min(non_gold_discount, total - need[G])
    applied = non_gold + min(all_discount, total - non_gold)
    return total - applied, applied, min(all_discount, applied)


@nb.njit(cache=True)
def completable(pool, need, mask, applied, gold_discount, lowest, left):
    """Can ``left`` more essences of types ``>= lowest`` finish the payment?

    ``need`` is the fixed part still unpaid; what stays unpaid must fit in the discount
    ``applied`` (its Gold part in ``gold_discount``); essences beyond ``need`` are the "any"
    part, allowed only for the types of ``mask``. Filling the Gold need first, then the other
    needs, then anything the mask allows is optimal.
    """
    rem = left
    unpaid = 0
    unpaid_gold = 0
    spare = 0
    for k in range(NUM_ESSENCES):
        e = G if k == 0 else k - 1
        avail = pool[e] if e >= lowest else 0
        fill = min(need[e], avail, rem)
        rem -= fill
        unpaid += need[e] - fill
        if e == G:
            unpaid_gold = need[e] - fill
        if (mask >> e) & 1:
            spare += avail - fill
    return rem <= spare and unpaid <= applied and unpaid_gold <= gold_discount


@nb.njit(cache=True)
def can_pay(pool, need, any_count, mask, all_discount, non_gold_discount):
    """The pool can pay ``need`` plus ``any_count`` of ``mask`` after the discounts."""
    left, applied, gold_discount = cost_terms(need, any_count, all_discount, non_gold_discount)
    return completable(pool, need, mask, applied, gold_discount, E, left)


@nb.njit(cache=True)
def start_payment(state, seat, need, any_count, mask, all_discount, non_gold_discount):
    """Open a payment; :func:`pay_options` and :func:`pay_one` carry it out."""
    left, applied, gold_discount = cost_terms(need, any_count, all_discount, non_gold_discount)
    state[PAY_ACTIVE] = 1
    state[PAY_PLAYER] = seat
    for e in range(NUM_ESSENCES):
        state[PAY_NEED + e] = need[e]
        state[PAY_PAID + e] = 0
    state[PAY_LEFT] = left
    state[PAY_MASK] = mask
    state[PAY_APPLIED] = applied
    state[PAY_GOLD_DISCOUNT] = gold_discount
    state[PAY_MIN] = 0


@nb.njit(cache=True)
def pay_need(state):
    return (
        np.int64(state[PAY_NEED]),
        np.int64(state[PAY_NEED + 1]),
        np.int64(state[PAY_NEED + 2]),
        np.int64(state[PAY_NEED + 3]),
        np.int64(state[PAY_NEED + 4]),
    )


@nb.njit(cache=True)
def pay_options(state):
    """Bit e set when paying one essence e next keeps the payment completable."""
    pool = pool_of(state, state[PAY_PLAYER])
    need = pay_need(state)
    mask = state[PAY_MASK]
    left = state[PAY_LEFT]
    options = 0
    for e in range(state[PAY_MIN], NUM_ESSENCES):
        if pool[e] == 0 or (need[e] == 0 and not (mask >> e) & 1):
            continue
        if completable(
            less_one(pool, e),
            less_one(need, e),
            mask,
            state[PAY_APPLIED],
            state[PAY_GOLD_DISCOUNT],
            e,
            left - 1,
        ):
            options |= 1 << e
    return options


@nb.njit(cache=True)
def pay_one(state, essence, events):
    spend(state, state[PAY_PLAYER], essence, 1, events)
    state[PAY_PAID + essence] += 1
    if state[PAY_NEED + essence] > 0:
        state[PAY_NEED + essence] -= 1
    state[PAY_LEFT] -= 1
    state[PAY_MIN] = essence


@nb.njit(cache=True)
def pay_fixed(state, seat, table, row, events):
    """Pay a cost with no choice (callers checked the pool covers it)."""
    for e in range(NUM_ESSENCES):
        if table[row, e]:
            spend(state, seat, e, table[row, e], events)


# ---- gaining chosen essences -------------------------------------------------------------
@nb.njit(cache=True)
def start_gain(state, seat, count, mask, dest, mode):
    """Open a gain of ``count`` essences of ``mask`` into the pool or onto ``dest``, chosen
    one by one (GAIN_MIXED), all of one type (GAIN_ONE_TYPE), or 1 Gold instead of all of
    them (GAIN_OR_GOLD: discarding a card gives 1 Gold or 2 other essences)."""
    if count <= 0 or mask == 0:
        return
    state[GAIN_ACTIVE] = 1
    state[GAIN_PLAYER] = seat
    state[GAIN_LEFT] = count
    state[GAIN_MASK] = mask
    state[GAIN_MIN] = 0
    state[GAIN_DEST] = dest
    state[GAIN_MODE] = mode


@nb.njit(cache=True)
def gain_options(state):
    options = 0
    mask = state[GAIN_MASK]
    for e in range(state[GAIN_MIN], NUM_ESSENCES):
        if (mask >> e) & 1:
            options |= 1 << e
    if state[GAIN_MODE] == GAIN_OR_GOLD:
        options |= 1 << G
    return options


@nb.njit(cache=True)
def _add(state, seat, dest, essence, count, events):
    if dest == DEST_POOL:
        gain(state, seat, essence, count, events)
    else:
        put_on(state, seat, dest, essence, count, events)


@nb.njit(cache=True)
def gain_one(state, essence, events):
    seat = state[GAIN_PLAYER]
    dest = state[GAIN_DEST]
    mode = state[GAIN_MODE]
    if mode == GAIN_OR_GOLD and essence == G:
        _add(state, seat, dest, G, 1, events)
        state[GAIN_LEFT] = 0
    elif mode == GAIN_ONE_TYPE:
        _add(state, seat, dest, essence, state[GAIN_LEFT], events)
        state[GAIN_LEFT] = 0
    else:
        _add(state, seat, dest, essence, 1, events)
        state[GAIN_LEFT] -= 1
        state[GAIN_MIN] = essence
        state[GAIN_MODE] = GAIN_MIXED
    if state[GAIN_LEFT] == 0:
        end_gain(state)


@nb.njit(cache=True)
def end_gain(state):
    state[GAIN_ACTIVE] = 0
    state[GAIN_PLAYER] = -1
    state[GAIN_LEFT] = 0
    state[GAIN_MASK] = 0
    state[GAIN_MIN] = 0
    state[GAIN_DEST] = DEST_POOL
    state[GAIN_MODE] = GAIN_MIXED


@nb.njit(cache=True)
def gain_fixed(state, seat, table, row, events):
    for e in range(NUM_ESSENCES):
        if table[row, e]:
            gain(state, seat, e, table[row, e], events)


@nb.njit(cache=True)
def put_fixed(state, seat, comp, table, row, events):
    for e in range(NUM_ESSENCES):
        if table[row, e]:
            put_on(state, seat, comp, e, table[row, e], events)


@nb.njit(cache=True)
def single_option(options):
    """The essence of a one-bit option set, else -1."""
    if options != 0 and options & (options - 1) == 0:
        for e in range(NUM_ESSENCES):
            if options == 1 << e:
                return e
    return -1
