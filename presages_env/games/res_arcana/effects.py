"""Powers, reactions and component choices, driven by the ability records of ``cards.py``.

A power runs as a small program (``ACT_STAGE``): its automatic cost parts (turning it,
destroying it, removing stored essences), the essence payment, the X= payment, a component
given up as cost (destroyed, discarded, turned), then its effect. Each part that needs a
choice opens the payment, gain or target engine (or asks a node) and returns; the loop in
``phases.advance`` runs the engines, then calls the program again at its next stage. Effects
are generic per kind (``EF_*``) with parameters from the table; only the genuinely unique
ones (Divination, looking at a deck, a rival's essences) have a kind of their own.
"""

import numba as nb
import numpy as np

from presages_env.core.events import PUBLIC, emit, seat_bit
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS
from presages_env.games.res_arcana.cards import (
    ALL,
    COST,
    COST_ANY,
    EF_ATTACK,
    EF_BASIC,
    EF_CHECK,
    EF_COST_GAIN,
    EF_DIVINATION,
    EF_DRAW,
    EF_LOOK,
    EF_PLACE,
    EF_PUT_PAID,
    EF_RIVAL_COUNT,
    EF_STRAIGHTEN,
    EF_X_TO_CHOICE,
    EF_X_TO_GOLD,
    FIRST_ITEM,
    IGNORE_DESTROY,
    IGNORE_DISCARD,
    IGNORE_PAY,
    IS_CREATURE,
    IS_DRAGON,
    ITEM,
    KIND,
    NON_LIFE,
    NUM_ARTIFACTS,
    NUM_COMPONENTS,
    NUM_ESSENCES,
    NUM_ITEMS,
    PRINTED_COST,
    PUT_SELF,
    PW_AMOUNT,
    PW_ANY,
    PW_ANY_MASK,
    PW_CHOICE,
    PW_CHOICE_MASK,
    PW_CHOICE_ON_SELF,
    PW_COMP,
    PW_COST,
    PW_DESTROY_SELF,
    PW_DISCARD,
    PW_EFFECT,
    PW_GAIN,
    PW_NEEDS_TURNED,
    PW_PARAM,
    PW_PARAM2,
    PW_PUT,
    PW_REMOVE,
    PW_RIVALS,
    PW_SACRIFICE,
    PW_TURN,
    PW_TURN_OTHER,
    PW_X,
    REACT_COST,
    REACT_DRAGON,
    REACT_LIFE,
    REACT_PUT,
    REACT_TRIGGER,
    REACT_TURN,
    SACRIFICE_ANY,
    SACRIFICE_NONE,
    SACRIFICE_OTHER,
    SOURCE_HAND_DRAGON,
    SOURCE_OWN_DISCARD,
    STRAIGHTEN_CREATURE,
    STRAIGHTEN_SELF,
    TURN_OTHER_DRAGON,
    TURN_OTHER_NONE,
    G,
    L,
    as_numpy_scalars,
)
from presages_env.games.res_arcana.event_kinds import (
    DECK_MONUMENTS,
    DECK_OWN,
    EV_DISCARD,
    EV_ITEM,
    EV_LOOK,
    EV_LOSE_LIFE,
    EV_MAGE_PICK,
    EV_MAGE_PICKED,
    EV_PLACE,
    EV_REACT,
    EV_REORDER,
    EV_REORDERED,
    EV_RIVAL,
    EV_SEEN,
    EV_TURN,
    EV_X,
    FROM_DISCARD,
    FROM_HAND,
)
from presages_env.games.res_arcana.layout import (
    A_LOOK_OWN,
    ACT_COMP,
    ACT_COUNT,
    ACT_PLAYER,
    ACT_POWER,
    ACT_STAGE,
    ACT_TARGET,
    ACT_X,
    ACT_XTYPE,
    CHECK_ACTIVE,
    CHECK_MID_ROUND,
    COL_CURSOR,
    COL_LEFT_ON,
    COL_STAGE,
    DECK,
    DECK_CAP,
    DECK_SIZE,
    DEST_POOL,
    FROM_FIRST,
    GAIN_MIXED,
    GAIN_ONE_TYPE,
    KNOWN_TOP,
    LOC,
    LOC_DISCARD,
    LOC_HAND,
    LOC_MAGE_OPTION,
    LOC_PLACING,
    LOC_PLAY,
    LOC_SUPPLY,
    LOOK_COUNT,
    LOOK_DECK,
    LOOK_DEPTH,
    LOOK_MONUMENTS,
    LOOK_OWN,
    MAGE_PICK,
    MAX_PLAYERS,
    MON_DECK,
    MON_DECK_SIZE,
    MON_GROUP,
    MON_GROUP_MASK,
    MON_KNOWN,
    NO_COMPONENT,
    NO_DISCOUNT,
    NODE,
    NODE_LOOK,
    NODE_PAY_X,
    NODE_REACT,
    NODE_REORDER,
    NODE_RIVAL,
    OWNER,
    PASSED,
    POOL,
    SEEN,
    SEEN_BY_OWNER,
    SETUP_K,
    ST_COST_TARGET,
    ST_COST_X,
    ST_EFFECT,
    ST_EFFECT_2,
    ST_FINISH,
    ST_START,
    STORED,
    TGT_ACTIVE,
    TGT_CURSOR,
    TGT_KIND,
    TGT_PLAYER,
    TK_DISCARD,
    TK_DISCARD_COST,
    TK_IGNORE_DESTROY,
    TK_IGNORE_DISCARD,
    TK_ITEM,
    TK_ITEM_SWAP,
    TK_MAGE,
    TK_NONE,
    TK_PLACE_ANY_DRAGON,
    TK_PLACE_HAND_DRAGON,
    TK_PLACE_OWN_DISCARD,
    TK_PUT_PAID,
    TK_SACRIFICE_ANY,
    TK_SACRIFICE_BEAST,
    TK_SACRIFICE_OTHER,
    TK_STRAIGHTEN_ANY,
    TK_STRAIGHTEN_CREATURE,
    TK_TAKE,
    TK_TURN_CREATURE,
    TK_TURN_DRAGON,
    TURNED,
)
from presages_env.games.res_arcana.payments import (
    can_pay,
    clear_stored,
    covers,
    gain,
    gain_fixed,
    pool_of,
    put_fixed,
    put_on,
    remove_from,
    spend,
    start_gain,
    start_payment,
    stored_total,
    take_stored,
    vector_of,
)
from presages_env.games.res_arcana.tableau import (
    count_at,
    destroy,
    draw,
    lose_monument_order,
    owns_in_play,
    passive_discounts,
    put_in_play,
    refill_deck,
    reorder_top,
)

# what a program step did: asked a decision, opened an engine (run the loop again), or ended
ASKED = 0
CONTINUE = 1
DONE = 2


@nb.njit(cache=True)
def ask(state, node, seat):
    state[NODE] = node
    state[HDR_CURRENT] = seat
    return ASKED


# =========================================================================================
# choosing a component
# =========================================================================================
@nb.njit(cache=True)
def declinable(kind):
    """Kinds where DONE is also legal: leaving stored essences, not placing after all."""
    return kind in (TK_TAKE, TK_PLACE_HAND_DRAGON, TK_PLACE_OWN_DISCARD, TK_PLACE_ANY_DRAGON)


@nb.njit(cache=True)
def placement_discounts(state, seat, card, power):
    """(any-part, non-Gold-part) discounts on placing ``card``: passives plus the power's."""
    dragon, artifact = passive_discounts(state, seat)
    all_part = PW_AMOUNT[power] if power >= 0 else 0
    non_gold = PW_PARAM2[power] if power >= 0 else 0
    if IS_DRAGON[card]:
        all_part += dragon
    return all_part, non_gold + artifact


@nb.njit(cache=True)
def can_place(state, seat, card, power):
    all_part, non_gold = placement_discounts(state, seat, card, power)
    need = vector_of(COST, card)
    return can_pay(pool_of(state, seat), need, COST_ANY[card], ALL, all_part, non_gold)


@nb.njit(cache=True)
def target_ok(state, kind, seat, comp, self_comp, cursor):
    """``comp`` is a legal choice of ``seat`` for a target of ``kind``."""
    loc = state[LOC + comp]
    mine = state[OWNER + comp] == seat
    artifact = comp < NUM_ARTIFACTS
    in_play = loc == LOC_PLAY and mine
    if kind == TK_MAGE:
        return loc == LOC_MAGE_OPTION and mine
    if kind in (TK_ITEM, TK_ITEM_SWAP):
        return KIND[comp] == ITEM and loc == LOC_SUPPLY
    if kind == TK_TAKE:
        return in_play and comp >= cursor and stored_total(state, comp) > 0
    if kind == TK_STRAIGHTEN_ANY:
        return in_play and state[TURNED + comp] == 1
    if kind == TK_STRAIGHTEN_CREATURE:
        return in_play and state[TURNED + comp] == 1 and IS_CREATURE[comp] == 1
    if kind in (TK_SACRIFICE_ANY, TK_IGNORE_DESTROY):
        return in_play and artifact
    if kind == TK_SACRIFICE_OTHER:
        return in_play and artifact and comp != self_comp
    if kind == TK_SACRIFICE_BEAST:
        return in_play and artifact and (IS_DRAGON[comp] + IS_CREATURE[comp]) > 0
    if kind == TK_TURN_DRAGON:
        return in_play and IS_DRAGON[comp] == 1 and state[TURNED + comp] == 0
    if kind == TK_TURN_CREATURE:
        return in_play and IS_CREATURE[comp] == 1 and state[TURNED + comp] == 0
    if kind in (TK_DISCARD_COST, TK_DISCARD, TK_IGNORE_DISCARD):
        return artifact and loc == LOC_HAND and mine
    if kind == TK_PLACE_HAND_DRAGON:
        return (
            artifact
            and loc == LOC_HAND
            and mine
            and IS_DRAGON[comp] == 1
            and can_place(state, seat, comp, state[ACT_POWER])
        )
    if kind == TK_PLACE_OWN_DISCARD:
        return (
            artifact
            and loc == LOC_DISCARD
            and mine
            and can_place(state, seat, comp, state[ACT_POWER])
        )
    if kind == TK_PLACE_ANY_DRAGON:
        return (
            artifact
            and loc == LOC_DISCARD
            and IS_DRAGON[comp] == 1
            and can_place(state, seat, comp, state[ACT_POWER])
        )
    if kind == TK_PUT_PAID:
        return in_play
    return False


@nb.njit(cache=True)
def target_scan(state):
    """(number of legal components, the last one) for the target under way."""
    kind = state[TGT_KIND]
    seat = state[TGT_PLAYER]
    count = 0
    last = -1
    for c in range(NUM_COMPONENTS):
        if target_ok(state, kind, seat, c, state[ACT_COMP], state[TGT_CURSOR]):
            count += 1
            last = c
    return count, last


@nb.njit(cache=True)
def hides_a_hand(state):
    """Placing a dragon from hand with none placeable is still asked of a seat holding cards:
    skipping the question would tell its rivals it holds no dragon it can place."""
    seat = state[TGT_PLAYER]
    return state[TGT_KIND] == TK_PLACE_HAND_DRAGON and count_at(state, seat, LOC_HAND) > 0


@nb.njit(cache=True)
def start_target(state, kind, seat, cursor):
    state[TGT_ACTIVE] = 1
    state[TGT_KIND] = kind
    state[TGT_PLAYER] = seat
    state[TGT_CURSOR] = cursor


@nb.njit(cache=True)
def end_target(state):
    state[TGT_ACTIVE] = 0
    state[TGT_KIND] = TK_NONE
    state[TGT_PLAYER] = -1
    state[TGT_CURSOR] = 0


@nb.njit(cache=True)
def discard_from_hand(state, card, events):
    owner = state[OWNER + card]
    emit(events, EV_DISCARD, owner, PUBLIC, owner, card, 0, 0, 0)
    state[LOC + card] = LOC_DISCARD


@nb.njit(cache=True)
def start_placement(state, seat, card, power, events):
    """``card`` leaves its hand or discard pile (publicly) and its cost is opened."""
    source = FROM_HAND if state[LOC + card] == LOC_HAND else FROM_DISCARD
    emit(events, EV_PLACE, seat, PUBLIC, seat, card, source, 0, 0)
    state[ACT_TARGET] = card
    state[LOC + card] = LOC_PLACING
    state[OWNER + card] = seat
    state[SEEN + card] = 1
    all_part, non_gold = placement_discounts(state, seat, card, power)
    start_payment(state, seat, vector_of(COST, card), COST_ANY[card], ALL, all_part, non_gold)


@nb.njit(cache=True)
def held_item(state, seat):
    for c in range(FIRST_ITEM, FIRST_ITEM + NUM_ITEMS):
        if owns_in_play(state, c, seat):
            return c
    return -1


@nb.njit(cache=True)
def apply_target(state, comp, events):
    """The chooser picked ``comp`` (``-1``: declined) for the target under way."""
    kind = state[TGT_KIND]
    seat = state[TGT_PLAYER]
    end_target(state)
    if comp < 0:
        if kind == TK_TAKE:
            state[COL_STAGE] = COL_LEFT_ON
        else:
            state[ACT_TARGET] = -1
        return
    if kind == TK_MAGE:  # hidden until every seat has picked
        emit(events, EV_MAGE_PICK, seat, seat_bit(seat), seat, comp, 0, 0, 0)
        emit(events, EV_MAGE_PICKED, seat, PUBLIC, seat, 0, 0, 0, 0)
        state[MAGE_PICK + seat] = comp
        state[SETUP_K] += 1
    elif kind == TK_ITEM:
        emit(events, EV_ITEM, seat, PUBLIC, seat, comp, -1, 0, 0)
        put_in_play(state, comp, seat)
        state[SETUP_K] += 1
    elif kind == TK_ITEM_SWAP:
        old = held_item(state, seat)
        emit(events, EV_ITEM, seat, PUBLIC, seat, comp, old, 0, 0)
        if old >= 0:
            clear_stored(state, seat, old, events)
            state[LOC + old] = LOC_SUPPLY
            state[OWNER + old] = -1
            state[TURNED + old] = 0
        put_in_play(state, comp, seat)
    elif kind == TK_TAKE:
        take_stored(state, seat, comp, events)
        state[COL_CURSOR] = comp + 1
    elif kind in (TK_STRAIGHTEN_ANY, TK_STRAIGHTEN_CREATURE):
        emit(events, EV_TURN, seat, PUBLIC, seat, comp, 0, 0, 0)
        state[TURNED + comp] = 0
    elif kind in (TK_SACRIFICE_ANY, TK_SACRIFICE_OTHER, TK_SACRIFICE_BEAST):
        state[ACT_TARGET] = comp
        destroy(state, comp, events)
    elif kind == TK_IGNORE_DESTROY:
        destroy(state, comp, events)
    elif kind in (TK_TURN_DRAGON, TK_TURN_CREATURE):
        emit(events, EV_TURN, seat, PUBLIC, seat, comp, 1, 0, 0)
        state[TURNED + comp] = 1
    elif kind == TK_DISCARD_COST:
        state[ACT_TARGET] = comp
        discard_from_hand(state, comp, events)
    elif kind in (TK_DISCARD, TK_IGNORE_DISCARD):
        discard_from_hand(state, comp, events)
    elif kind in (TK_PLACE_HAND_DRAGON, TK_PLACE_OWN_DISCARD, TK_PLACE_ANY_DRAGON):
        start_placement(state, seat, comp, state[ACT_POWER], events)
    elif kind == TK_PUT_PAID:
        put_on(state, seat, comp, state[ACT_XTYPE], 1, events)


# =========================================================================================
# using a power
# =========================================================================================
@nb.njit(cache=True)
def _sacrifice_kind(sacrifice):
    if sacrifice == SACRIFICE_ANY:
        return TK_SACRIFICE_ANY
    if sacrifice == SACRIFICE_OTHER:
        return TK_SACRIFICE_OTHER
    return TK_SACRIFICE_BEAST


@nb.njit(cache=True)
def _exists(state, kind, seat, self_comp):
    for c in range(NUM_COMPONENTS):  # a plain loop: numba compiles no generators
        if target_ok(state, kind, seat, c, self_comp, FROM_FIRST):
            return True
    return False


@nb.njit(cache=True)
def power_usable(state, seat, power):
    """``seat`` may use ``power`` as its action: the component is theirs, straight (turned
    for Guard Dog's power) and every part of the cost can be paid (decision 9: the effect
    need not do anything)."""
    comp = PW_COMP[power]
    if not owns_in_play(state, comp, seat):
        return False
    if state[TURNED + comp] != PW_NEEDS_TURNED[power]:
        return False
    for e in range(NUM_ESSENCES):
        if state[STORED + comp * NUM_ESSENCES + e] < PW_REMOVE[power, e]:
            return False
    sacrifice = PW_SACRIFICE[power]
    if sacrifice != SACRIFICE_NONE and not _exists(state, _sacrifice_kind(sacrifice), seat, comp):
        return False
    if PW_DISCARD[power] and count_at(state, seat, LOC_HAND) == 0:
        return False
    if PW_TURN_OTHER[power] != TURN_OTHER_NONE:
        kind = TK_TURN_DRAGON if PW_TURN_OTHER[power] == TURN_OTHER_DRAGON else TK_TURN_CREATURE
        if not _exists(state, kind, seat, comp):
            return False
    need = vector_of(PW_COST, power)
    return can_pay(
        pool_of(state, seat), need, PW_ANY[power], PW_ANY_MASK[power], NO_DISCOUNT, NO_DISCOUNT
    )


@nb.njit(cache=True)
def _rivals_gain(state, seat, power, events):
    n = state[HDR_NUM_PLAYERS]
    for k in range(1, n):
        gain_fixed(state, (seat + k) % n, PW_RIVALS, power, events)


@nb.njit(cache=True)
def _costs(state, seat, comp, power, stage, events):
    """The cost stages of a power; returns the program status."""
    if stage == ST_START:
        if PW_TURN[power]:
            state[TURNED + comp] = 1
        for e in range(NUM_ESSENCES):
            if PW_REMOVE[power, e]:
                remove_from(state, seat, comp, e, PW_REMOVE[power, e], events)
        if PW_DESTROY_SELF[power]:
            destroy(state, comp, events)
        state[ACT_STAGE] = ST_COST_X
        need = vector_of(PW_COST, power)
        start_payment(
            state, seat, need, PW_ANY[power], PW_ANY_MASK[power], NO_DISCOUNT, NO_DISCOUNT
        )
        return CONTINUE
    if stage == ST_COST_X:
        if PW_X[power] and pay_x_options(state, seat):
            return ask(state, NODE_PAY_X, seat)
        state[ACT_STAGE] = ST_COST_TARGET  # no X to pay, or nothing left to pay it with
        return CONTINUE
    # ST_COST_TARGET: at most one component is given up per power
    state[ACT_STAGE] = ST_EFFECT
    if PW_SACRIFICE[power] != SACRIFICE_NONE:
        start_target(state, _sacrifice_kind(PW_SACRIFICE[power]), seat, FROM_FIRST)
    elif PW_DISCARD[power]:
        start_target(state, TK_DISCARD_COST, seat, FROM_FIRST)
    elif PW_TURN_OTHER[power] == TURN_OTHER_DRAGON:
        start_target(state, TK_TURN_DRAGON, seat, FROM_FIRST)
    elif PW_TURN_OTHER[power] != TURN_OTHER_NONE:
        start_target(state, TK_TURN_CREATURE, seat, FROM_FIRST)
    return CONTINUE


@nb.njit(cache=True)
def run_power(state, events):
    """One stage of the power under way (``ACT_POWER`` of ``ACT_PLAYER``)."""
    seat = state[ACT_PLAYER]
    comp = state[ACT_COMP]
    power = state[ACT_POWER]
    stage = state[ACT_STAGE]
    if stage == ST_FINISH:
        return DONE
    if stage < ST_EFFECT:
        return _costs(state, seat, comp, power, stage, events)
    effect = PW_EFFECT[power]
    if stage == ST_EFFECT_2:
        return _second_stage(state, seat, comp, power, effect, events)
    state[ACT_STAGE] = ST_FINISH
    if effect == EF_BASIC:
        gain_fixed(state, seat, PW_GAIN, power, events)
        put_fixed(state, seat, comp, PW_PUT, power, events)
        _rivals_gain(state, seat, power, events)
        dest = comp if PW_CHOICE_ON_SELF[power] else DEST_POOL
        start_gain(state, seat, PW_CHOICE[power], PW_CHOICE_MASK[power], dest, GAIN_MIXED)
    elif effect == EF_DRAW:
        for _ in range(PW_AMOUNT[power]):
            draw(state, seat, events)
    elif effect == EF_DIVINATION:
        drawn = 0
        for _ in range(PW_AMOUNT[power]):
            if draw(state, seat, events) >= 0:
                drawn += 1
        state[ACT_COUNT] = drawn
        state[ACT_STAGE] = ST_EFFECT_2
    elif effect == EF_LOOK:
        state[ACT_STAGE] = ST_EFFECT
        return ask(state, NODE_LOOK, seat)
    elif effect == EF_STRAIGHTEN:
        if PW_PARAM[power] == STRAIGHTEN_SELF:
            state[TURNED + comp] = 0
        elif PW_PARAM[power] == STRAIGHTEN_CREATURE:
            start_target(state, TK_STRAIGHTEN_CREATURE, seat, FROM_FIRST)
        else:
            start_target(state, TK_STRAIGHTEN_ANY, seat, FROM_FIRST)
    elif effect == EF_ATTACK:
        state[ACT_COUNT] = 0
        state[ACT_STAGE] = ST_EFFECT_2
    elif effect == EF_PLACE:
        state[ACT_STAGE] = ST_EFFECT_2
        if PW_PARAM[power] == SOURCE_HAND_DRAGON:
            start_target(state, TK_PLACE_HAND_DRAGON, seat, FROM_FIRST)
        elif PW_PARAM[power] == SOURCE_OWN_DISCARD:
            start_target(state, TK_PLACE_OWN_DISCARD, seat, FROM_FIRST)
        else:
            start_target(state, TK_PLACE_ANY_DRAGON, seat, FROM_FIRST)
    elif effect == EF_CHECK:
        state[CHECK_ACTIVE] = CHECK_MID_ROUND
    elif effect == EF_X_TO_GOLD:
        gain(state, seat, G, state[ACT_X], events)
    elif effect == EF_X_TO_CHOICE:
        start_gain(state, seat, state[ACT_X], PW_CHOICE_MASK[power], DEST_POOL, GAIN_ONE_TYPE)
    elif effect == EF_COST_GAIN:
        mask = PW_CHOICE_MASK[power]
        count = PRINTED_COST[state[ACT_TARGET]] + PW_AMOUNT[power]
        mode = GAIN_ONE_TYPE if mask == 1 << G else GAIN_MIXED
        start_gain(state, seat, count, mask, DEST_POOL, mode)
    elif effect == EF_RIVAL_COUNT:
        n = state[HDR_NUM_PLAYERS]
        if n == 2:
            rival_gain(state, seat, power, 1 - seat, events)
        else:
            state[ACT_STAGE] = ST_EFFECT
            return ask(state, NODE_RIVAL, seat)
    elif effect == EF_PUT_PAID:
        if PW_PARAM[power] == PUT_SELF:
            put_on(state, seat, comp, state[ACT_XTYPE], 1, events)
        else:
            start_target(state, TK_PUT_PAID, seat, FROM_FIRST)
    return CONTINUE


@nb.njit(cache=True)
def _second_stage(state, seat, comp, power, effect, events):
    if effect == EF_DIVINATION:
        if state[ACT_COUNT] > 0:
            state[ACT_COUNT] -= 1
            start_target(state, TK_DISCARD, seat, FROM_FIRST)
            return CONTINUE
    elif effect == EF_LOOK:
        if state[LOOK_COUNT] >= 2:
            state[ACT_STAGE] = ST_FINISH
            return ask(state, NODE_REORDER, seat)
    elif effect == EF_ATTACK:
        return _attack_next(state, seat, comp, power, events)
    elif effect == EF_PLACE and state[ACT_TARGET] >= 0:
        put_in_play(state, state[ACT_TARGET], seat)
    state[ACT_STAGE] = ST_FINISH
    return DONE


@nb.njit(cache=True)
def rival_gain(state, seat, power, rival, events):
    """Hypnotic Basin / Treant: essence ``param`` per essence ``param2`` the rival holds."""
    emit(events, EV_RIVAL, seat, PUBLIC, seat, rival, 0, 0, 0)
    held = state[POOL + rival * NUM_ESSENCES + PW_PARAM2[power]]
    gain(state, seat, PW_PARAM[power], held, events)
    state[ACT_STAGE] = ST_FINISH


@nb.njit(cache=True)
def pay_x_options(state, seat):
    """Bit e: one more essence e may be paid for X (one type only)."""
    options = 0
    chosen = state[ACT_XTYPE]
    for e in range(NUM_ESSENCES):
        if state[POOL + seat * NUM_ESSENCES + e] > 0 and (chosen < 0 or chosen == e):
            options |= 1 << e
    return options


@nb.njit(cache=True)
def pay_x(state, seat, essence, events):
    """One more essence for X; ``-1`` stops (X may be 0, decision 11)."""
    if essence < 0:
        emit(events, EV_X, seat, PUBLIC, seat, state[ACT_X], state[ACT_XTYPE], 0, 0)
        state[ACT_STAGE] = ST_COST_TARGET
        return
    spend(state, seat, essence, 1, events)
    state[ACT_X] += 1
    state[ACT_XTYPE] = essence


@nb.njit(cache=True)
def look(state, seat, action, events):
    """Look at the top 3 of the own deck (reshuffling the discard pile under it if it holds
    fewer, decision 13) or of the monument deck (never refilled). Everyone sees the look,
    the seat alone the cards."""
    if action == A_LOOK_OWN:
        refill_deck(state, seat, LOOK_DEPTH, events)
        count = min(LOOK_DEPTH, state[DECK_SIZE + seat])
        emit(events, EV_LOOK, seat, PUBLIC, seat, DECK_OWN, count, 0, 0)
        state[KNOWN_TOP + seat] = count
        base = DECK + seat * DECK_CAP + state[DECK_SIZE + seat]
        for i in range(count):
            card = state[base - 1 - i]
            emit(events, EV_SEEN, seat, seat_bit(seat), seat, DECK_OWN, i, card, 0)
            state[SEEN + card] = max(state[SEEN + card], SEEN_BY_OWNER)
        state[LOOK_DECK] = LOOK_OWN
    else:
        count = min(LOOK_DEPTH, state[MON_DECK_SIZE])
        emit(events, EV_LOOK, seat, PUBLIC, seat, DECK_MONUMENTS, count, 0, 0)
        for i in range(count):
            card = state[MON_DECK + state[MON_DECK_SIZE] - 1 - i]
            emit(events, EV_SEEN, seat, seat_bit(seat), seat, DECK_MONUMENTS, i, card, 0)
        state[MON_KNOWN + seat] = count
        state[MON_GROUP + seat] = 0
        state[MON_GROUP_MASK + seat] = 0
        state[LOOK_DECK] = LOOK_MONUMENTS
    state[LOOK_COUNT] = count
    state[ACT_STAGE] = ST_EFFECT_2


@nb.njit(cache=True)
def reorder(state, seat, order, events):
    """The looked-at cards in the chosen order: everyone sees a reorder, the seat the order."""
    deck = DECK_OWN if state[LOOK_DECK] == LOOK_OWN else DECK_MONUMENTS
    count = state[LOOK_COUNT]
    emit(events, EV_REORDERED, seat, PUBLIC, seat, deck, count, 0, 0)
    emit(events, EV_REORDER, seat, seat_bit(seat), seat, deck, count, order, 0)
    if state[LOOK_DECK] == LOOK_OWN:
        base = DECK + seat * DECK_CAP
        reorder_top(state, base, state[DECK_SIZE + seat], state[LOOK_COUNT], order)
    else:
        for s in range(MAX_PLAYERS):  # the others cannot tell whether the order changed
            if s != seat:
                lose_monument_order(state, s, state[LOOK_COUNT])
        reorder_top(state, MON_DECK, state[MON_DECK_SIZE], state[LOOK_COUNT], order)


@nb.njit(cache=True)
def orders(count):
    """Orders of ``count`` looked-at cards: 3! or 2! (one card has none to choose)."""
    return 6 if count == 3 else (2 if count == 2 else 0)


# =========================================================================================
# attacks and reactions
# =========================================================================================
@nb.njit(cache=True)
def reaction_usable(state, victim, comp, by_dragon):
    """``victim``'s component ``comp`` can ignore the Life loss under way: it reacts to
    Life losses (or to a dragon's power, if the attacker is one), its cost can be paid,
    and it is straight if that cost turns it (reactions work while turned otherwise)."""
    trigger = REACT_TRIGGER[comp]
    if trigger != REACT_LIFE and not (trigger == REACT_DRAGON and by_dragon):
        return False
    if not owns_in_play(state, comp, victim):
        return False
    if REACT_TURN[comp] and state[TURNED + comp]:
        return False
    return covers(pool_of(state, victim), vector_of(REACT_COST, comp))


@nb.njit(cache=True)
def dragon_ignore_usable(state, victim, power):
    kind = PW_PARAM[power]
    if kind == IGNORE_PAY:
        return state[POOL + victim * NUM_ESSENCES + PW_PARAM2[power]] > 0
    if kind == IGNORE_DESTROY:
        return _exists(state, TK_IGNORE_DESTROY, victim, NO_COMPONENT)
    if kind == IGNORE_DISCARD:
        return count_at(state, victim, LOC_HAND) > 0
    return False


@nb.njit(cache=True)
def may_react(state, victim, power):
    by_dragon = IS_DRAGON[PW_COMP[power]] == 1
    for c in range(NUM_COMPONENTS):
        if reaction_usable(state, victim, c, by_dragon):
            return True
    return dragon_ignore_usable(state, victim, power)


@nb.njit(cache=True)
def victim_of(state):
    n = state[HDR_NUM_PLAYERS]
    return (state[ACT_PLAYER] + 1 + state[ACT_COUNT]) % n


@nb.njit(cache=True)
def lose_life(state, victim, life, events):
    """Pay ``life`` Life; for each Life not paid, 2 other essences chosen by the victim, or
    everything left if that is less (decision 1)."""
    emit(events, EV_LOSE_LIFE, victim, PUBLIC, victim, life, 0, 0, 0)
    held = state[POOL + victim * NUM_ESSENCES + L]
    paid = min(life, held)
    if paid:
        spend(state, victim, L, paid, events)
    owed = 2 * (life - paid)
    if owed:
        pool = pool_of(state, victim)
        total = 0
        for e in range(NUM_ESSENCES):
            total += pool[e]
        none = (np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))
        start_payment(state, victim, none, min(owed, total), NON_LIFE, NO_DISCOUNT, NO_DISCOUNT)


@nb.njit(cache=True)
def _attack_next(state, seat, comp, power, events):
    """Ask the next rival who has not passed (passed players are immune)."""
    n = state[HDR_NUM_PLAYERS]
    while state[ACT_COUNT] < n - 1:
        victim = victim_of(state)
        if state[PASSED + victim]:
            state[ACT_COUNT] += 1
            continue
        if may_react(state, victim, power):
            return ask(state, NODE_REACT, victim)
        state[ACT_COUNT] += 1
        lose_life(state, victim, PW_AMOUNT[power], events)
        return CONTINUE
    state[ACT_STAGE] = ST_FINISH
    return DONE


@nb.njit(cache=True)
def react(state, victim, action_comp, dragon_ignore, events):
    """The victim's answer: a reaction of component ``action_comp`` (``-1`` for none), the
    dragon's own ignore cost, or (neither) accepting the loss."""
    ignored = 1 if dragon_ignore else 0
    emit(events, EV_REACT, victim, PUBLIC, victim, action_comp, ignored, 0, 0)
    power = state[ACT_POWER]
    state[ACT_COUNT] += 1
    if action_comp >= 0:
        if REACT_TURN[action_comp]:
            state[TURNED + action_comp] = 1
        for e in range(NUM_ESSENCES):
            if REACT_COST[action_comp, e]:
                spend(state, victim, e, REACT_COST[action_comp, e], events)
        put_fixed(state, victim, action_comp, REACT_PUT, action_comp, events)
    elif dragon_ignore:
        kind = PW_PARAM[power]
        if kind == IGNORE_PAY:
            spend(state, victim, PW_PARAM2[power], 1, events)
        elif kind == IGNORE_DESTROY:
            start_target(state, TK_IGNORE_DESTROY, victim, FROM_FIRST)
        else:
            start_target(state, TK_IGNORE_DISCARD, victim, FROM_FIRST)
    else:
        lose_life(state, victim, PW_AMOUNT[power], events)


as_numpy_scalars(globals())  # see cards.as_numpy_scalars
