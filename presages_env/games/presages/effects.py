"""Présages ⚡ effects and turn order: the decisions a card placed from a hand opens (§3.3).

Every choice an effect gives is one decision node; a chain (a Dream reply, a Wrath
replacement, a Betrayal gift) is the last step of the effect that asked for it, so the state
needs no stack. After an effect, :func:`continue_bout` asks the next seat without a card or
ends the bout (:mod:`presages_env.games.presages.scoring`).
"""

import numba as nb

from presages_env.core.events import PUBLIC, emit, seat_bit
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS
from presages_env.games.presages.cards import (
    BETRAYAL,
    DREAM,
    FIRST_ABSOLUTE,
    JEALOUSY,
    LAW,
    SECRET,
    WRATH,
)
from presages_env.games.presages.deals import clear_pending
from presages_env.games.presages.layout import (
    ABS_ACTOR,
    ABS_GAVE,
    ABS_GIVEN,
    ABS_PAIRS,
    ABS_RECV,
    ABS_TARGET,
    BLOCKED,
    BOUT_STARTER,
    CARD_ACTION_BASE,
    CARD_SLOTS,
    EFFECT,
    EV_ABSOLU,
    EV_ABSOLU_CARDS,
    EV_ABSOLU_COMMIT,
    EV_ABSOLU_COMMIT_CARD,
    EV_ABSOLU_TARGET,
    EV_BETRAYAL,
    EV_JEALOUSY,
    EV_SECRET,
    EV_SECRET_CARD,
    EV_SECRET_MODE,
    EV_SECRET_TARGET,
    EV_WRATH,
    FRONT,
    GIVE_LAW_DIR,
    HAND_COUNT,
    LOC,
    LOC_FRONT,
    MAX_SEATS,
    MODE_ASK,
    MODE_SHOW,
    NODE_ABSOLUTE_GIVE,
    NODE_ABSOLUTE_RETURN,
    NODE_ABSOLUTE_TARGET,
    NODE_BETRAYAL_GIVE,
    NODE_BETRAYAL_TAKE,
    NODE_DREAM_DEST,
    NODE_JEALOUSY_PICK,
    NODE_LAW_DIR,
    NODE_PLACE,
    NODE_SECRET_CARD,
    NODE_SECRET_MODE,
    NODE_SECRET_TARGET,
    NODE_WRATH_PICK,
    NODE_WRATH_REPLACE,
    PAIR_COUNT_MAX,
    SEAT_ACTION_BASE,
    SECRET_HOLDER,
    SECRET_MODE,
    SECRET_PAIRS,
    SECRET_PARTNER,
    SECRET_SHOW,
    SEEN_FROM,
    SHOWN_TO,
    TAKEN,
    VICTIM,
)
from presages_env.games.presages.scoring import end_bout
from presages_env.games.presages.table import (
    ask,
    binding_direction,
    blur_exchange,
    empty_seats,
    holder_of,
    know_at,
    lift_into_hand,
    log_bout,
)


@nb.njit(cache=True)
def _has_pick(state, resolver, effect):
    """A card lies in front of another player (Wrath, Betrayal and Jealousy need one)."""
    for s in range(state[HDR_NUM_PLAYERS]):
        card = state[FRONT + s]
        if s != resolver and card != 0 and card != effect:
            return True
    return False


@nb.njit(cache=True)
def _start_flash(state, card, resolver, dream_moves):
    """Open the ⚡ decision of ``card`` just placed from a hand; False if it has none (§3.3)."""
    state[EFFECT] = card
    if card == DREAM:
        if dream_moves and empty_seats(state) > 0:
            ask(state, NODE_DREAM_DEST, resolver)
            return True
    elif card == LAW:
        if empty_seats(state) > 0:
            ask(state, NODE_LAW_DIR, resolver)
            return True
    elif card in (WRATH, BETRAYAL, JEALOUSY):
        if _has_pick(state, resolver, card):
            if card == WRATH:
                ask(state, NODE_WRATH_PICK, resolver)
            elif card == BETRAYAL:
                ask(state, NODE_BETRAYAL_TAKE, resolver)
            else:
                ask(state, NODE_JEALOUSY_PICK, resolver)
            return True
    elif card == SECRET:
        state[SECRET_HOLDER] = resolver
        ask(state, NODE_SECRET_MODE, resolver)
        return True
    elif card >= FIRST_ABSOLUTE:
        state[ABS_ACTOR] = resolver
        ask(state, NODE_ABSOLUTE_TARGET, resolver)
        return True
    state[EFFECT] = 0
    return False


@nb.njit(cache=True)
def after_placement(state, card, resolver, dream_moves, rewards, events):
    if not _start_flash(state, card, resolver, dream_moves):
        continue_bout(state, rewards, events)


@nb.njit(cache=True)
def continue_bout(state, rewards, events):
    """§3.1: the next actor is the first seat clockwise from the starter with no card."""
    clear_pending(state)
    n = state[HDR_NUM_PLAYERS]
    starter = state[BOUT_STARTER]
    for k in range(n):
        seat = (starter + k) % n
        if state[FRONT + seat] == 0:
            ask(state, NODE_PLACE, seat)
            return
    end_bout(state, rewards, events)


@nb.njit(cache=True)
def step_secret(state, node, action, rewards, events):
    holder = state[SECRET_HOLDER]
    if node == NODE_SECRET_MODE:
        state[SECRET_MODE] = MODE_SHOW if action == SECRET_SHOW else MODE_ASK
        emit(events, EV_SECRET_MODE, holder, PUBLIC, state[SECRET_MODE], 0, 0, 0, 0)
        ask(state, NODE_SECRET_TARGET, holder)
        return
    if node == NODE_SECRET_TARGET:
        partner = action - SEAT_ACTION_BASE
        state[SECRET_PARTNER] = partner
        shower = holder if state[SECRET_MODE] == MODE_SHOW else partner
        emit(events, EV_SECRET_TARGET, holder, PUBLIC, partner, shower, 0, 0, 0)
        if state[HAND_COUNT + shower] > 0:
            ask(state, NODE_SECRET_CARD, shower)
            return
        continue_bout(state, rewards, events)  # nothing to show (cannot happen, §3.3)
        return
    card = action + 1 - CARD_ACTION_BASE
    shower = state[HDR_CURRENT]
    viewer = state[SECRET_PARTNER] if shower == holder else holder
    state[SEEN_FROM + viewer * CARD_SLOTS + card] = shower + 1
    know_at(state, viewer, card, shower)
    state[SHOWN_TO + shower * CARD_SLOTS + card] = viewer + 1
    pair = SECRET_PAIRS + shower * MAX_SEATS + viewer
    state[pair] = min(state[pair] + 1, PAIR_COUNT_MAX)
    log_bout(state, EV_SECRET, shower + 1, viewer + 1, 0)
    emit(events, EV_SECRET, shower, PUBLIC, shower, viewer, 0, 0, 0)
    both = seat_bit(shower) | seat_bit(viewer)
    emit(events, EV_SECRET_CARD, shower, both, shower, viewer, card, 0, 0)
    continue_bout(state, rewards, events)


@nb.njit(cache=True)
def step_absolute(state, node, action, rewards, events):
    actor = state[ABS_ACTOR]
    if node == NODE_ABSOLUTE_TARGET:
        target = action - SEAT_ACTION_BASE
        state[ABS_TARGET] = target
        emit(events, EV_ABSOLU_TARGET, actor, PUBLIC, target, 0, 0, 0, 0)
        if state[HAND_COUNT + actor] > 0 and state[HAND_COUNT + target] > 0:
            ask(state, NODE_ABSOLUTE_GIVE, actor)
            return
        # an empty hand cannot exchange (cannot happen, §3.3)
        continue_bout(state, rewards, events)
        return
    card = action + 1 - CARD_ACTION_BASE
    target = state[ABS_TARGET]
    if node == NODE_ABSOLUTE_GIVE:
        state[ABS_GIVEN] = card
        # everyone sees that a card was committed; only the actor which (§3.7)
        emit(events, EV_ABSOLU_COMMIT, actor, PUBLIC, target, 0, 0, 0, 0)
        emit(events, EV_ABSOLU_COMMIT_CARD, actor, seat_bit(actor), target, card, 0, 0, 0)
        ask(state, NODE_ABSOLUTE_RETURN, target)
        return
    given = state[ABS_GIVEN]
    state[LOC + given] = target
    state[LOC + card] = actor
    state[ABS_GAVE + actor * CARD_SLOTS + given] = target + 1
    state[ABS_RECV + target * CARD_SLOTS + given] = actor + 1
    state[ABS_GAVE + target * CARD_SLOTS + card] = actor + 1
    state[ABS_RECV + actor * CARD_SLOTS + card] = target + 1
    blur_exchange(state, actor, target)
    know_at(state, actor, given, target)
    know_at(state, actor, card, actor)
    know_at(state, target, card, actor)
    know_at(state, target, given, target)
    pair = ABS_PAIRS + actor * MAX_SEATS + target
    state[pair] = min(state[pair] + 1, PAIR_COUNT_MAX)
    log_bout(state, EV_ABSOLU, actor + 1, target + 1, 0)
    emit(events, EV_ABSOLU, actor, PUBLIC, actor, target, 0, 0, 0)
    both = seat_bit(actor) | seat_bit(target)
    emit(events, EV_ABSOLU_CARDS, target, both, actor, target, given, card, 0)
    continue_bout(state, rewards, events)


@nb.njit(cache=True)
def step_table(state, node, action, rewards, events):
    """Wrath, Betrayal and Jealousy: the picked card in front of another seat."""
    seat = state[HDR_CURRENT]
    card = action + 1 - CARD_ACTION_BASE
    victim = holder_of(state, card)
    if node == NODE_WRATH_PICK:
        lift_into_hand(state, card, victim)
        log_bout(state, EV_WRATH, seat + 1, victim + 1, card)
        emit(events, EV_WRATH, seat, PUBLIC, victim, card, 0, 0, 0)
        state[BLOCKED] = card
        state[VICTIM] = victim
        state[EFFECT] = 0
        ask(state, NODE_WRATH_REPLACE, victim)
    elif node == NODE_BETRAYAL_TAKE:
        state[GIVE_LAW_DIR] = binding_direction(state)
        lift_into_hand(state, card, seat)
        log_bout(state, EV_BETRAYAL, seat + 1, victim + 1, card)
        emit(events, EV_BETRAYAL, seat, PUBLIC, victim, card, 0, 0, 0)
        state[TAKEN] = card
        state[VICTIM] = victim
        state[EFFECT] = 0
        ask(state, NODE_BETRAYAL_GIVE, seat)
    else:
        jealous_seat = holder_of(state, JEALOUSY)
        state[FRONT + jealous_seat] = card
        state[LOC + card] = LOC_FRONT + jealous_seat
        state[FRONT + victim] = JEALOUSY
        state[LOC + JEALOUSY] = LOC_FRONT + victim
        log_bout(state, EV_JEALOUSY, seat + 1, victim + 1, card)
        emit(events, EV_JEALOUSY, seat, PUBLIC, victim, card, 0, 0, 0)
        continue_bout(state, rewards, events)
