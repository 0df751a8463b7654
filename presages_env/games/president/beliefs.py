"""Président belief sampling: worlds a seat cannot tell from the real state (search, no-leak).

``sample_world`` draws the hidden hands with the weight of the distinct-card deals behind
them (docs/president.md, "What a seat knows"): rejection from a uniform re-deal, then an exact
dynamic-programming fallback.
"""

import numba as nb
import numpy as np

from presages_env.core.header import HDR_NUM_PLAYERS, write_seed
from presages_env.core.rng import rng_below, rng_seed
from presages_env.games.president.cards import NUM_RANKS, SUITS
from presages_env.games.president.layout import (
    EXCH_FROM,
    EXCH_GIVEN,
    EXCH_RECEIVED,
    EXCH_TO,
    GONE,
    HAND,
    MAX_PLAYERS,
    PHASE,
    PHASE_GIVE_BACK,
    hand_size,
    played_count,
)

# ---- determinisation for search ------------------------------------------------------------
# What a seat knows of the hidden hands, and how ``sample_world`` draws them (docs/president.md,
# "What a seat knows"). The seat sees its own hand, every play (who played which ranks: the
# play record), hand sizes, and, if it took part in this manche's exchange, both exchanged
# ranks. Passing is always legal, so a pass reveals nothing. A deal of distinct cards is
# uniform; a player with several cards of a rank plays (or gives) any of them alike, so, per
# rank, the deals consistent with what the seat saw are weighted by the number of distinct
# deals behind them. With D[p][r] the cards of rank r hidden player p was dealt (what p holds
# now, plus what p played, plus the exchange undone), that weight is the product over p and r
# of 1 / D[p][r]!. The exchange adds bounds: the Président knows the last player was dealt
# nothing above the card received (and at least that card); the rest follows from D >= 0.
# A seat outside the exchange draws the exchange as well, the give-back taken as a uniformly
# chosen card of the Président's (every deal and every give-back card equally likely).
_WEIGHT_STEPS = 1 << 30  # resolution of the weighted draws below
_MAX_TRIES = 1 << 12  # rejection draws before the exact dynamic-programming fallback


@nb.njit(cache=True)
def _factorial(k):
    result = 1.0
    for i in range(2, k + 1):
        result *= i
    return result


@nb.njit(cache=True)
def _uniform(world):
    """A draw in [0, 1) with the resolution of ``_WEIGHT_STEPS``."""
    return rng_below(world, _WEIGHT_STEPS) / _WEIGHT_STEPS


@nb.njit(cache=True)
def _deal_unseen(world, unseen, allowed, player, count):
    """Give ``player`` ``count`` cards drawn without replacement from the unseen cards.

    Only ranks with ``allowed[rank] == 1`` are drawn; ``unseen`` counts the cards per rank
    the observer has not located yet and is updated. Returns False if too few are allowed.
    """
    available = 0
    for r in range(NUM_RANKS):
        available += unseen[r] * allowed[r]
    if available < count:
        return False
    base = HAND + player * NUM_RANKS
    for _ in range(count):
        pick = rng_below(world, available)
        rank = -1
        while pick >= 0:
            rank += 1
            pick -= unseen[rank] * allowed[rank]
        unseen[rank] -= 1
        world[base + rank] += 1
        available -= 1
    return True


@nb.njit(cache=True)
def _knowledge(state, player, hidden, count, unseen, sizes, offset, low, high):
    """What ``player`` knows of the hidden hands, per hidden player i and rank r.

    ``offset[i, r]``: cards of rank r player ``hidden[i]`` was dealt beyond what it holds
    now (played this manche, and the exchange undone when ``player`` took part in it), so
    that holding h gives the weight 1 / (h + offset)!; ``low``/``high``: bounds on h (dealt
    counts are never negative; the last player was dealt nothing above the card received,
    and at least one of its rank). Returns the index of the hidden player whose hand is
    bounded from above (the last player, for the Président), or -1.
    """
    received = state[EXCH_RECEIVED]
    given = state[EXCH_GIVEN]
    bounded = -1
    for i in range(count):
        p = hidden[i]
        for r in range(NUM_RANKS):
            offset[i, r] = played_count(state, p, r)
        if received >= 0 and player == state[EXCH_TO] and p == state[EXCH_FROM]:
            bounded = i
            offset[i, received] += 1
            if given >= 0:
                offset[i, given] -= 1
        if received >= 0 and player == state[EXCH_FROM] and p == state[EXCH_TO]:
            offset[i, received] -= 1
            if given >= 0:
                offset[i, given] += 1
        for r in range(NUM_RANKS):
            low[i, r] = max(0, -offset[i, r])
            high[i, r] = min(SUITS, unseen[r], sizes[i])
            if i == bounded:
                if r > received:  # dealt none: h = -offset, impossible if offset > 0
                    high[i, r] = min(high[i, r], -offset[i, r])
                elif r == received:
                    low[i, r] = max(low[i, r], 1 - offset[i, r])
    return bounded


@nb.njit(cache=True)
def _ratio_bound(offset, low, high, count):
    """The largest value of the product over hidden players and ranks of h! / (h + offset)!
    (the target's weight over the proposal's) allowed by the bounds."""
    bound = 1.0
    for i in range(count):
        for r in range(NUM_RANKS):
            if high[i, r] < low[i, r]:
                continue
            if offset[i, r] >= 0:
                bound *= _factorial(low[i, r]) / _factorial(low[i, r] + offset[i, r])
            else:  # offset -1: h! / (h - 1)! = h, largest at the upper bound
                bound *= high[i, r]
    return bound


@nb.njit(cache=True)
def _rejection_draw(world, unseen, hidden, count, sizes, offset, low, high, bounded, hands):
    """One proposal (uniform over distinct cards, the bounded hand dealt first within its
    allowed ranks), accepted with probability target / (proposal * bound). Writes ``hands``
    and returns True when accepted."""
    left = unseen.copy()
    for i in range(count):
        for r in range(NUM_RANKS):
            hands[i, r] = 0
    allowed = np.ones(NUM_RANKS, dtype=np.int64)
    order = np.arange(count)
    if bounded >= 0:
        order[0], order[bounded] = bounded, 0
    for j in range(count):
        i = order[j]
        for r in range(NUM_RANKS):
            allowed[r] = 1 if (j > 0 or bounded < 0 or high[i, r] > 0) else 0
        base = HAND + hidden[i] * NUM_RANKS
        for r in range(NUM_RANKS):
            world[base + r] = 0
        if not _deal_unseen(world, left, allowed, hidden[i], sizes[i]):
            return False
        for r in range(NUM_RANKS):
            hands[i, r] = world[base + r]
    ratio = 1.0
    for i in range(count):
        for r in range(NUM_RANKS):
            h = hands[i, r]
            if h < low[i, r] or h > high[i, r]:
                return False
            ratio *= _factorial(h) / _factorial(h + offset[i, r])
    return _uniform(world) * _ratio_bound(offset, low, high, count) < ratio


@nb.njit(cache=True)
def _compositions(unseen_r, r, count, low, high):
    """Every way (h_0..h_count-1) to split ``unseen_r`` cards of rank r within the bounds."""
    total = 1
    for _ in range(count):
        total *= SUITS + 1
    out = np.zeros((total, max(count, 1)), dtype=np.int64)
    found = 0
    h = np.zeros(max(count, 1), dtype=np.int64)
    for code in range(total):
        rest = code
        ok = True
        s = 0
        for i in range(count):
            h[i] = rest % (SUITS + 1)
            rest //= SUITS + 1
            s += h[i]
            if h[i] < low[i, r] or h[i] > high[i, r]:
                ok = False
        if ok and s == unseen_r:
            out[found, :] = h
            found += 1
    return out[:found]


@nb.njit(cache=True)
def _weight(h, offset, extra):
    """A hidden hand's factor for one rank: 1 / (h + offset)!, times (h + offset + extra)
    when ``extra`` >= 0 (the outsider's give-back factor), 0 when negative."""
    dealt = h + offset
    if dealt < 0:
        return 0.0
    weight = 1.0 / _factorial(dealt)
    if extra >= 0:
        weight *= dealt + extra
    return weight


@nb.njit(cache=True)
def _exact_draw(world, unseen, count, sizes, offset, low, high, hands, extra, sample):
    """Dynamic programming over ranks, the state being the cards each hidden player still
    has to receive: returns the total weight of the consistent deals and, if ``sample``,
    draws one into ``hands`` exactly. ``extra[i, r] >= 0`` multiplies a factor by
    (dealt + extra) (see :func:`_weight`)."""
    stride = np.ones(max(count, 1), dtype=np.int64)
    states = 1
    for i in range(count):
        stride[i] = states
        states *= sizes[i] + 1
    table = np.zeros((NUM_RANKS + 1, states))
    table[NUM_RANKS, 0] = 1.0
    capacity = np.zeros(max(count, 1), dtype=np.int64)
    for r in range(NUM_RANKS - 1, -1, -1):
        comps = _compositions(unseen[r], r, count, low, high)
        weights = np.ones(comps.shape[0])
        for c in range(comps.shape[0]):
            for i in range(count):
                weights[c] *= _weight(comps[c, i], offset[i, r], extra[i, r])
        for index in range(states):
            rest = index
            for i in range(count):
                capacity[i] = rest % (sizes[i] + 1)
                rest //= sizes[i] + 1
            total = 0.0
            for c in range(comps.shape[0]):
                fits = True
                shift = 0
                for i in range(count):
                    if comps[c, i] > capacity[i]:
                        fits = False
                    shift += comps[c, i] * stride[i]
                if fits:
                    total += weights[c] * table[r + 1, index - shift]
            table[r, index] = total
    index = 0
    for i in range(count):
        index += sizes[i] * stride[i]
    total = table[0, index]
    if total <= 0.0 or not sample:
        return total
    for r in range(NUM_RANKS):
        comps = _compositions(unseen[r], r, count, low, high)
        rest = index
        for i in range(count):
            capacity[i] = rest % (sizes[i] + 1)
            rest //= sizes[i] + 1
        target = _uniform(world) * table[r, index]
        chosen = -1
        for c in range(comps.shape[0]):
            fits = True
            shift = 0
            weight = 1.0
            for i in range(count):
                if comps[c, i] > capacity[i]:
                    fits = False
                shift += comps[c, i] * stride[i]
                weight *= _weight(comps[c, i], offset[i, r], extra[i, r])
            if fits and weight * table[r + 1, index - shift] > 0.0:
                chosen = c
                target -= weight * table[r + 1, index - shift]
                if target < 0.0:
                    break
        for i in range(count):
            hands[i, r] = comps[chosen, i]
            index -= comps[chosen, i] * stride[i]
    return total


@nb.njit(cache=True)
def _exchange_weights(hands, offset, ia, il, pending, weights):
    """For a seat outside the exchange: the weight of each exchange (received R, given G)
    with the hidden hands ``hands``, over their weight with no exchange (the plays alone).

    With y = what the last player holds + played and z the same for the Président, undoing
    the exchange changes four factors 1 / D!, and a uniformly chosen give-back weighs the
    Président's cards of rank G after receiving. For G != R this is z_R * y_G / (y_R + 1),
    for G == R it is z_R + 1; the last player must have been dealt nothing above R and at
    least one R. ``pending``: the give-back is still to come (only R, weight z_R / (y_R + 1)).
    Returns the total; ``weights[R, G]`` (column 0 when pending) holds each term.
    """
    total = 0.0
    weights[:, :] = 0.0
    top = -1
    second = -1
    for r in range(NUM_RANKS):
        if hands[il, r] + offset[il, r] > 0:
            second = top
            top = r
    for big in range(NUM_RANKS):
        z = hands[ia, big] + offset[ia, big]
        y = hands[il, big] + offset[il, big]
        if pending:
            if z >= 1 and big >= top:
                weights[big, 0] = z / (y + 1.0)
                total += weights[big, 0]
            continue
        for g in range(NUM_RANKS):
            yg = hands[il, g] + offset[il, g]
            if g == big:
                # dealt = now + played; at least one R, nothing above
                if y >= 1 and big >= top:
                    weights[big, g] = z + 1.0
            elif z >= 1 and yg >= 1:
                # nothing above R once the card given back is taken out
                highest = top
                if g == top and yg == 1:
                    highest = second
                if big >= highest:
                    weights[big, g] = z * yg / (y + 1.0)
            total += weights[big, g]
    return total


@nb.njit(cache=True)
def _outsider_exact(world, unseen, count, sizes, offset, low, high, hands, ia, il, pending):
    """The exact draw for a seat outside the exchange: every exchange (R, G) weighed by the
    dynamic programming with the exchange undone, one chosen, then the hands drawn for it.
    Returns (R, G)."""
    off = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    lo = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    extra = np.full((MAX_PLAYERS, NUM_RANKS), -1, dtype=np.int64)
    totals = np.zeros((NUM_RANKS, NUM_RANKS))
    grand = 0.0
    last_big = -1
    last_g = -1
    for stage in range(3):
        target = _uniform(world) * grand
        for big in range(NUM_RANKS):
            for g in range(NUM_RANKS if not pending else 1):
                if stage > 0 and totals[big, g] <= 0.0:
                    continue
                if stage == 2 and (big != last_big or g != last_g):
                    continue
                off[:, :] = offset
                lo[:, :] = low
                hi = high.copy()
                extra[:, :] = -1
                off[il, big] += 1
                off[ia, big] -= 1
                if not pending:
                    off[il, g] -= 1
                    off[ia, g] += 1
                    extra[ia, g] = 1 if g == big else 0
                for r in range(NUM_RANKS):
                    lo[ia, r] = max(lo[ia, r], -off[ia, r])
                    lo[il, r] = max(lo[il, r], -off[il, r])
                    if r > big:  # dealt none: h = -offset, impossible if offset > 0
                        hi[il, r] = min(hi[il, r], -off[il, r])
                    elif r == big:
                        lo[il, r] = max(lo[il, r], 1 - off[il, r])
                if stage == 0:
                    totals[big, g] = _exact_draw(
                        world, unseen, count, sizes, off, lo, hi, hands, extra, False
                    )
                    grand += totals[big, g]
                    continue
                last_big = big
                last_g = g
                target -= totals[big, g]
                if target < 0.0 or stage == 2:  # stage 2: rounding left the last one
                    _exact_draw(world, unseen, count, sizes, off, lo, hi, hands, extra, True)
                    return big, (-1 if pending else g)
        if grand <= 0.0:
            break
    return -1, -1


@nb.njit(cache=True)
def draw_world(state, player, seed, world, tries):
    """``sample_world`` with the number of rejection draws to try before the exact fallback
    (0: the dynamic programming only; tests check both paths)."""
    world[:] = state
    rng_seed(world, seed)
    write_seed(world, seed)
    n = state[HDR_NUM_PLAYERS]
    unseen = np.empty(NUM_RANKS, dtype=np.int64)
    for r in range(NUM_RANKS):
        unseen[r] = SUITS - state[GONE + r] - state[HAND + player * NUM_RANKS + r]
    hidden = np.zeros(MAX_PLAYERS, dtype=np.int64)
    sizes = np.zeros(MAX_PLAYERS, dtype=np.int64)
    count = 0
    ia = -1
    il = -1
    for p in range(n):
        if p != player:
            if p == state[EXCH_TO]:
                ia = count
            if p == state[EXCH_FROM]:
                il = count
            hidden[count] = p
            sizes[count] = hand_size(state, p)
            count += 1
    # A seat outside an exchange that took place draws the exchange too.
    outsider = state[EXCH_RECEIVED] >= 0 and ia >= 0 and il >= 0
    pending = state[PHASE] == PHASE_GIVE_BACK
    offset = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    low = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    high = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    bounded = _knowledge(state, player, hidden, count, unseen, sizes, offset, low, high)
    hands = np.zeros((MAX_PLAYERS, NUM_RANKS), dtype=np.int64)
    no_extra = np.full((MAX_PLAYERS, NUM_RANKS), -1, dtype=np.int64)
    exchange = np.zeros((NUM_RANKS, NUM_RANKS))
    big = -1
    small = -1
    accepted = False
    bound = 0.0
    if outsider:
        # bound on the exchange weights: z_R <= m_A, y_G <= m_L summed (see _exchange_weights)
        m_a = 0
        m_l = 0
        for r in range(NUM_RANKS):
            m_a += offset[ia, r]
            m_l += offset[il, r]
        m_a += sizes[ia]
        m_l += sizes[il]
        bound = 1.0 * (m_a if pending else m_a * m_l + m_a + NUM_RANKS)
    for _ in range(tries):
        if not _rejection_draw(
            world, unseen, hidden, count, sizes, offset, low, high, bounded, hands
        ):
            continue
        if not outsider:
            accepted = True
            break
        total = _exchange_weights(hands, offset, ia, il, pending, exchange)
        if _uniform(world) * bound < total:
            target = _uniform(world) * total
            for r in range(NUM_RANKS):
                for g in range(NUM_RANKS):
                    if exchange[r, g] > 0.0 and target >= 0.0:
                        target -= exchange[r, g]
                        big = r  # the last positive one stands if rounding leaves target >= 0
                        small = -1 if pending else g
            accepted = True
            break
    if not accepted:
        if outsider:
            big, small = _outsider_exact(
                world, unseen, count, sizes, offset, low, high, hands, ia, il, pending
            )
            accepted = big >= 0
        else:
            accepted = (
                _exact_draw(world, unseen, count, sizes, offset, low, high, hands, no_extra, True)
                > 0.0
            )
    if outsider and accepted:
        world[EXCH_RECEIVED] = big
        world[EXCH_GIVEN] = small
    for i in range(count):
        base = HAND + hidden[i] * NUM_RANKS
        for r in range(NUM_RANKS):
            world[base + r] = hands[i, r] if accepted else state[base + r]


@nb.njit(cache=True)
def sample_world(state, player, seed, world):
    """Write into ``world`` a full state drawn uniformly among those ``player`` cannot tell
    apart from ``state`` (docs/president.md, "What a seat knows (sample_world)").

    Kept: ``player``'s hand and everything public (cards played and by whom, hand sizes,
    places, seating, the trick, scores), and the exchanged ranks if ``player`` took part in
    this manche's exchange. The other hands are drawn with the weight of the distinct-card
    deals behind them (see the comment above), by rejection from a uniform re-deal of the
    unseen cards, with an exact dynamic-programming fallback after ``_MAX_TRIES`` draws, so
    the draw is exact either way. A seat outside the exchange draws the exchange too (the
    rank received and, with the give-back taken as a uniformly chosen card of the
    Président's, the rank given back), which the world's exchange slots then hold. The
    world's RNG is re-seeded from ``seed`` so later deals are unknown.
    """
    draw_world(state, player, seed, world, _MAX_TRIES)
