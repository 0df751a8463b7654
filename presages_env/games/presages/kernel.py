"""Présages rules kernel: the entry points every caller uses.

Spec: ``shared/rules/presages.md`` (section numbers in the rules modules refer to it). Every
choice the rules give a player is one decision node with its own mask; ⚡ chains are tail
calls (a Dream reply, Wrath replacement or Betrayal gift is the last step of the effect that
asked for it), so the state needs no stack. The rules are split by concern behind these
entry points: ``layout.py`` (the documented state, action, observation and event layouts),
``cards.py`` (the card table), ``table.py`` (holders, what each seat knows, card moves),
``deals.py`` (deals, the start of rounds and bouts), ``scoring.py`` (the end of a bout, a
round and the game), ``effects.py`` (the ⚡ effects and turn order) and ``beliefs.py``
(``sample_world``).

``reset``/``legal_mask``/``step``/``observe`` follow :mod:`presages_env.core.game`. The
layout's names and the rule helpers the game's other modules call (``discard_set``,
``winning_card`` ...) are re-exported here, so they read them as ``kernel.X``.
"""

import sys

import numba as nb
import numpy as np

from presages_env.core.batched import plain_kernels
from presages_env.core.events import PUBLIC, emit
from presages_env.core.global_state import bind_global_state
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_NUM_PLAYERS,
    clear_mask,
    count_step,
)
from presages_env.core.rng import begin_game
from presages_env.games.presages import beliefs as beliefs_module
from presages_env.games.presages import cards as cards_module
from presages_env.games.presages import deals as deals_module
from presages_env.games.presages import effects as effects_module
from presages_env.games.presages import layout as layout_module
from presages_env.games.presages import scoring as scoring_module
from presages_env.games.presages import table as table_module
from presages_env.games.presages.beliefs import sample_world as sample_world
from presages_env.games.presages.cards import DREAM, FEAR, LAW, NUM_CARDS
from presages_env.games.presages.deals import (
    begin_round,
    deal_first_round,
    record_face_up_absolus,
    start_bout,
)
from presages_env.games.presages.deals import form_teams as form_teams
from presages_env.games.presages.effects import (
    after_placement,
    continue_bout,
    step_absolute,
    step_secret,
    step_table,
)
from presages_env.games.presages.layout import *  # noqa: F403 (re-exported, see above)
from presages_env.games.presages.layout import (
    ABS_ACTOR,
    ABS_GAVE,
    ABS_GIVEN,
    ABS_PAIRS,
    ABS_RECV,
    ABS_TARGET,
    BLOCKED,
    BOUT,
    BOUT_STARTER,
    CARD_ACTION_BASE,
    CARD_SLOTS,
    DECK,
    DIR_ABOVE,
    DIR_BELOW,
    DIR_NONE,
    DISC_BOUT,
    DISC_KIND,
    DISC_ORDER,
    DISC_SEAT,
    DREAM_PLAYER,
    EFFECT,
    EV_BOUT_START,
    EV_DREAM,
    EV_LAW,
    EV_LUCK,
    EV_ROUND_START,
    FRONT,
    GAME_START,
    HAND_COUNT,
    KIND_LUCK,
    LAST_BOUT_WINNER,
    LAST_HAND_BOUT,
    LAST_HAND_SEAT,
    LAST_ROUND_WINNER,
    LAW_ABOVE,
    LAW_BELOW,
    LAW_DIR,
    LOC,
    LOC_BOX,
    LOC_DISCARD,
    LOC_FRONT,
    LOG,
    LOG_CAP,
    LOG_FIELDS,
    LUCK_HOLDER,
    MAX_SEATS,
    MAX_TEAMS,
    NEXT_STARTER,
    NODE,
    NODE_ABSOLUTE_TARGET,
    NODE_BETRAYAL_GIVE,
    NODE_BETRAYAL_TAKE,
    NODE_DREAM_DEST,
    NODE_DREAM_REPLY,
    NODE_JEALOUSY_PICK,
    NODE_LAW_DIR,
    NODE_LUCK_DISCARD,
    NODE_PLACE,
    NODE_SECRET_CARD,
    NODE_SECRET_MODE,
    NODE_SECRET_TARGET,
    NODE_WRATH_PICK,
    NODE_WRATH_REPLACE,
    OBS_ABS_ACTOR,
    OBS_ABS_MY_GIVEN,
    OBS_ABS_PAIRS,
    OBS_ABS_TARGET,
    OBS_BLOCKED,
    OBS_BOUT,
    OBS_BOUT_STARTER,
    OBS_CURRENT,
    OBS_DREAM_PLAYER,
    OBS_EFFECT,
    OBS_FRONT,
    OBS_HAND_COUNTS,
    OBS_LAST_BOUT_WINNER,
    OBS_LAST_ROUND_WINNER,
    OBS_LAW_DIR,
    OBS_LOG,
    OBS_LUCK_HOLDER,
    OBS_ME,
    OBS_NEXT_STARTER,
    OBS_NODE,
    OBS_NUM_PLAYERS,
    OBS_PLANES,
    OBS_PREV_LOG,
    OBS_ROUND,
    OBS_ROUNDS_WON,
    OBS_SECRET_HOLDER,
    OBS_SECRET_MODE,
    OBS_SECRET_PAIRS,
    OBS_SECRET_PARTNER,
    OBS_START_ABSOLU,
    OBS_TAKEN,
    OBS_TEAMS,
    OBS_VICTIM,
    OBS_WINNING_TEAM,
    OPT_DREAM_BY_TARGET,
    PLACER,
    PLANE_ABS_GAVE,
    PLANE_ABS_RECV,
    PLANE_DISC_BOUT,
    PLANE_DISC_KIND,
    PLANE_DISC_ORDER,
    PLANE_DISC_SEAT,
    PLANE_HOLDER,
    PLANE_LAST_HAND_BOUT,
    PLANE_LAST_HAND_SEAT,
    PLANE_MY_HAND,
    PLANE_PLACER,
    PLANE_REVEAL,
    PLANE_SEEN_FROM,
    PLANE_SHOWN_TO,
    PLANE_ZONE,
    PREV_LOG,
    REVEAL,
    ROUND,
    ROUNDS_WON,
    SEAT_ACTION_BASE,
    SECRET_ASK,
    SECRET_HOLDER,
    SECRET_MODE,
    SECRET_PAIRS,
    SECRET_PARTNER,
    SECRET_SHOW,
    SEEN_FROM,
    SHOWN_TO,
    START_ABSOLU,
    STATE_DTYPE,
    STATE_SIZE,
    TAKEN,
    TEAM,
    VICTIM,
    WINNING_TEAM,
    ZONE_BOX,
    ZONE_DISCARDED,
    ZONE_HIDDEN,
    ZONE_IN_PLAY,
)
from presages_env.games.presages.scoring import after_bout
from presages_env.games.presages.scoring import discard_set as discard_set
from presages_env.games.presages.scoring import winning_card as winning_card
from presages_env.games.presages.table import (
    ask,
    discard,
    log_bout,
    note_law,
    place_from_hand,
    placement_direction,
)
from presages_env.games.presages.table import binding_direction as binding_direction
from presages_env.games.presages.table import hand_size_for as hand_size_for
from presages_env.games.presages.table import obeys as obeys

# the modules these kernels call: their sources name the batched copies' cache entries
KERNEL_MODULES = (
    layout_module,
    cards_module,
    table_module,
    deals_module,
    scoring_module,
    effects_module,
    beliefs_module,
)


@nb.njit(cache=True)
def reset_logged(state, seed, events):
    """Deal a new game: teams from the face-up Absolus, round 1, first bout; its events (the
    face-up Absolus, the deal) go to ``events`` (``reset`` is this without events)."""
    begin_game(state, seed)
    for i in range(GAME_START, STATE_SIZE):
        state[i] = 0
    state[ROUND] = 1
    state[LAST_ROUND_WINNER] = -1
    state[WINNING_TEAM] = -1
    emit(events, EV_ROUND_START, -1, PUBLIC, 1, 0, 0, 0, 0)
    starter = deal_first_round(state, events)
    emit(events, EV_BOUT_START, -1, PUBLIC, 1, starter, 0, 0, 0)
    start_bout(state, starter)


@nb.njit(cache=True)
def start_position(state, seed, starter):
    """Start a bout at a position written by ``game.setup_position`` (LOC, teams, round...)."""
    begin_game(state, seed)
    state[LAST_ROUND_WINNER] = -1
    state[WINNING_TEAM] = -1
    begin_round(state)
    record_face_up_absolus(state)
    start_bout(state, starter)


@nb.njit(cache=True)
def _mask_hand(state, mask, seat, excluded, direction):
    """Hand cards of ``seat`` but ``excluded``, kept to Law's ``direction`` if possible.

    Written without branches on the cards (the loops vectorise); the card entries of
    ``mask`` are all written, the others left alone.
    """
    free = direction == DIR_NONE
    below = direction == DIR_BELOW
    obeys_any = False
    for c in range(1, CARD_SLOTS):
        held = (state[LOC + c] == seat) & (c != excluded)
        obeys_any |= held & (free | (below == (c < LAW)))
    free |= not obeys_any
    for c in range(1, CARD_SLOTS):
        held = (state[LOC + c] == seat) & (c != excluded)
        mask[c - 1] = held & (free | (below == (c < LAW)))


@nb.njit(cache=True)
def _mask_picks(state, mask, resolver):
    """Cards lying in front of another seat (not the effect card itself)."""
    effect = state[EFFECT]
    for s in range(state[HDR_NUM_PLAYERS]):
        card = state[FRONT + s]
        if s != resolver and card != 0 and card != effect:
            mask[card - 1] = 1


@nb.njit(cache=True)
def legal_mask(state, mask):
    if clear_mask(state, mask):
        return
    n = state[HDR_NUM_PLAYERS]
    node = state[NODE]
    seat = state[HDR_CURRENT]
    if node in (NODE_PLACE, NODE_DREAM_REPLY):
        _mask_hand(state, mask, seat, 0, placement_direction(state))
    elif node == NODE_WRATH_REPLACE:
        _mask_hand(state, mask, seat, state[BLOCKED], placement_direction(state))
    elif node == NODE_BETRAYAL_GIVE:
        _mask_hand(state, mask, seat, state[TAKEN], placement_direction(state))
    elif node == NODE_DREAM_DEST:
        for s in range(n):
            if s == seat or state[FRONT + s] == 0:
                mask[SEAT_ACTION_BASE + s] = 1
    elif node == NODE_LAW_DIR:
        mask[LAW_BELOW] = 1
        mask[LAW_ABOVE] = 1
    elif node in (NODE_WRATH_PICK, NODE_BETRAYAL_TAKE, NODE_JEALOUSY_PICK):
        _mask_picks(state, mask, seat)
    elif node == NODE_SECRET_MODE:
        mask[SECRET_SHOW] = 1
        mask[SECRET_ASK] = 1
    elif node in (NODE_SECRET_TARGET, NODE_ABSOLUTE_TARGET):
        for s in range(n):
            if s != seat:
                mask[SEAT_ACTION_BASE + s] = 1
    elif node == NODE_LUCK_DISCARD:
        _mask_hand(state, mask, seat, FEAR, DIR_NONE)
    else:  # SECRET_CARD, ABSOLUTE_GIVE, ABSOLUTE_RETURN: any hand card
        _mask_hand(state, mask, seat, 0, DIR_NONE)


@nb.njit(cache=True)
def step_logged(state, action, rewards, events):
    """Apply the current seat's legal ``action`` and advance to the next decision, writing its
    events to ``events`` (core/events.py; ``step`` is this without events)."""
    rewards[:] = 0.0
    count_step(state)
    node = state[NODE]
    seat = state[HDR_CURRENT]
    card = action + 1 - CARD_ACTION_BASE
    if node in (NODE_PLACE, NODE_WRATH_REPLACE, NODE_DREAM_REPLY, NODE_BETRAYAL_GIVE):
        excluded = 0
        if node == NODE_WRATH_REPLACE:
            excluded = state[BLOCKED]
        elif node == NODE_BETRAYAL_GIVE:
            excluded = state[TAKEN]
        note_law(state, seat, card, excluded, placement_direction(state))
    if node in (NODE_PLACE, NODE_WRATH_REPLACE):
        state[BLOCKED] = 0
        place_from_hand(state, card, seat, seat, events)
        after_placement(state, card, seat, True, rewards, events)
    elif node == NODE_DREAM_DEST:
        target = action - SEAT_ACTION_BASE
        emit(events, EV_DREAM, seat, PUBLIC, target, 0, 0, 0, 0)
        if target == seat:
            continue_bout(state, rewards, events)
            return
        state[FRONT + seat] = 0
        state[FRONT + target] = DREAM
        state[LOC + DREAM] = LOC_FRONT + target
        log_bout(state, EV_DREAM, seat + 1, target + 1, DREAM)
        state[EFFECT] = 0
        state[DREAM_PLAYER] = seat
        ask(state, NODE_DREAM_REPLY, target)
    elif node == NODE_DREAM_REPLY:
        dreamer = state[DREAM_PLAYER]
        state[DREAM_PLAYER] = -1
        place_from_hand(state, card, seat, dreamer, events)
        resolver = seat if state[OPT_DREAM_BY_TARGET] else dreamer
        after_placement(state, card, resolver, False, rewards, events)
    elif node == NODE_LAW_DIR:
        state[LAW_DIR] = DIR_BELOW if action == LAW_BELOW else DIR_ABOVE
        log_bout(state, EV_LAW, seat + 1, state[LAW_DIR], LAW)
        emit(events, EV_LAW, seat, PUBLIC, state[LAW_DIR], 0, 0, 0, 0)
        continue_bout(state, rewards, events)
    elif node in (NODE_WRATH_PICK, NODE_BETRAYAL_TAKE, NODE_JEALOUSY_PICK):
        step_table(state, node, action, rewards, events)
    elif node == NODE_BETRAYAL_GIVE:
        victim = state[VICTIM]
        state[TAKEN] = 0
        place_from_hand(state, card, seat, victim, events)
        after_placement(state, card, victim, False, rewards, events)
    elif node in (NODE_SECRET_MODE, NODE_SECRET_TARGET, NODE_SECRET_CARD):
        step_secret(state, node, action, rewards, events)
    elif node == NODE_LUCK_DISCARD:
        discard(state, card, seat, KIND_LUCK)
        log_bout(state, EV_LUCK, seat + 1, 0, card)
        emit(events, EV_LUCK, seat, PUBLIC, card, 0, 0, 0, 0)
        state[LUCK_HOLDER] = -1
        after_bout(state, rewards, events)
    else:
        step_absolute(state, node, action, rewards, events)


# the plain kernels: ``reset_logged``/``step_logged`` without events (core/batched.py)
reset, step = plain_kernels(sys.modules[__name__])


@nb.njit(cache=True)
def observe(state, player, obs):
    """What ``player`` may know (a seat outside the game, e.g. -1, gets the public part)."""
    n = state[HDR_NUM_PLAYERS]
    me = player if 0 <= player < n else -1
    obs[OBS_ME] = me + 1
    obs[OBS_NUM_PLAYERS] = n
    obs[OBS_ROUND] = state[ROUND]
    obs[OBS_BOUT] = state[BOUT]
    obs[OBS_NODE] = state[NODE]
    obs[OBS_CURRENT] = state[HDR_CURRENT] + 1
    obs[OBS_BOUT_STARTER] = state[BOUT_STARTER] + 1
    obs[OBS_LAW_DIR] = placement_direction(state)
    obs[OBS_BLOCKED] = state[BLOCKED]
    obs[OBS_TAKEN] = state[TAKEN]
    obs[OBS_VICTIM] = state[VICTIM] + 1
    obs[OBS_DREAM_PLAYER] = state[DREAM_PLAYER] + 1
    obs[OBS_SECRET_HOLDER] = state[SECRET_HOLDER] + 1
    obs[OBS_SECRET_MODE] = state[SECRET_MODE]
    obs[OBS_SECRET_PARTNER] = state[SECRET_PARTNER] + 1
    obs[OBS_ABS_ACTOR] = state[ABS_ACTOR] + 1
    obs[OBS_ABS_TARGET] = state[ABS_TARGET] + 1
    mine = me >= 0 and me == state[ABS_ACTOR]
    obs[OBS_ABS_MY_GIVEN] = state[ABS_GIVEN] if mine else 0
    obs[OBS_LUCK_HOLDER] = state[LUCK_HOLDER] + 1
    obs[OBS_LAST_BOUT_WINNER] = state[LAST_BOUT_WINNER] + 1
    obs[OBS_NEXT_STARTER] = state[NEXT_STARTER] + 1
    obs[OBS_LAST_ROUND_WINNER] = state[LAST_ROUND_WINNER] + 1
    obs[OBS_WINNING_TEAM] = state[WINNING_TEAM] + 1
    obs[OBS_EFFECT] = state[EFFECT]
    for s in range(MAX_SEATS):
        seated = s < n
        obs[OBS_HAND_COUNTS + s] = state[HAND_COUNT + s]
        obs[OBS_TEAMS + s] = state[TEAM + s] + 1 if seated else 0
        obs[OBS_START_ABSOLU + s] = state[START_ABSOLU + s]
        obs[OBS_FRONT + s] = state[FRONT + s]
    for t in range(MAX_TEAMS):
        obs[OBS_ROUNDS_WON + t] = state[ROUNDS_WON + t]
    for i in range(MAX_SEATS * MAX_SEATS):
        obs[OBS_ABS_PAIRS + i] = state[ABS_PAIRS + i]
        obs[OBS_SECRET_PAIRS + i] = state[SECRET_PAIRS + i]
    _observe_cards(state, me, obs)
    for i in range(LOG_CAP * LOG_FIELDS):
        obs[OBS_LOG + i] = state[LOG + i]
        obs[OBS_PREV_LOG + i] = state[PREV_LOG + i]


@nb.njit(cache=True)
def _observe_cards(state, me, obs):
    """The per-card planes; only the own-hand and private planes depend on ``me``."""
    private = me * CARD_SLOTS
    for c in range(1, CARD_SLOTS):
        i = OBS_PLANES + c - 1
        loc = state[LOC + c]
        zone = ZONE_HIDDEN
        holder = 0
        if LOC_FRONT <= loc < LOC_FRONT + MAX_SEATS:
            zone = ZONE_IN_PLAY
            holder = loc - LOC_FRONT + 1
        elif loc == LOC_DISCARD:
            zone = ZONE_DISCARDED
        elif loc == LOC_BOX:
            zone = ZONE_BOX
        obs[i + PLANE_MY_HAND * NUM_CARDS] = 1 if me >= 0 and loc == me else 0
        obs[i + PLANE_ZONE * NUM_CARDS] = zone
        obs[i + PLANE_HOLDER * NUM_CARDS] = holder
        obs[i + PLANE_PLACER * NUM_CARDS] = state[PLACER + c]
        obs[i + PLANE_DISC_ORDER * NUM_CARDS] = state[DISC_ORDER + c]
        obs[i + PLANE_DISC_BOUT * NUM_CARDS] = state[DISC_BOUT + c]
        obs[i + PLANE_DISC_SEAT * NUM_CARDS] = state[DISC_SEAT + c]
        obs[i + PLANE_DISC_KIND * NUM_CARDS] = state[DISC_KIND + c]
        obs[i + PLANE_LAST_HAND_SEAT * NUM_CARDS] = state[LAST_HAND_SEAT + c]
        obs[i + PLANE_LAST_HAND_BOUT * NUM_CARDS] = state[LAST_HAND_BOUT + c]
        obs[i + PLANE_REVEAL * NUM_CARDS] = state[REVEAL + c]
        seen = shown = received = given = 0
        if me >= 0:
            seen = state[SEEN_FROM + private + c]
            shown = state[SHOWN_TO + private + c]
            received = state[ABS_RECV + private + c]
            given = state[ABS_GAVE + private + c]
        obs[i + PLANE_SEEN_FROM * NUM_CARDS] = seen
        obs[i + PLANE_SHOWN_TO * NUM_CARDS] = shown
        obs[i + PLANE_ABS_RECV * NUM_CARDS] = received
        obs[i + PLANE_ABS_GAVE * NUM_CARDS] = given


# ---- global state (a referee's view, for centralised critics; docs/research.md) ----------
# Every seat's observation, then the state's slots up to GLOBAL_SLOTS_END minus the RNG and
# seed (core/global_state.py): every card's location (LOC: hands, the cards set
# aside, the box), the pending choices (ABS_GIVEN ...), every seat's private memories; the shuffle
# scratch (DECK) is left out.
GLOBAL_DTYPE = STATE_DTYPE  # the observation's dtype too
GLOBAL_SEATS = MAX_SEATS
GLOBAL_SLOTS_END = DECK
GLOBAL_SLOTS, GLOBAL_SIZE, global_state = bind_global_state(__name__, np.int8)
