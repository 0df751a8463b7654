"""Res Arcana rules kernel: the entry points every caller uses.

Spec: ``shared/rules/res_arcana.md`` and its French seed; decisions taken where they are
silent are in ``docs/res_arcana.md``. The rules are split by concern behind these entry
points: ``layout.py`` (the documented state, action and observation layouts), ``cards.py``
(the card table), ``payments.py`` (essences, payments, gains), ``tableau.py`` (decks,
moving cards, scoring), ``effects.py`` (powers, reactions, component choices),
``phases.py`` (setup, rounds, victory checks, the decision loop) and ``beliefs.py``.

``reset``/``legal_mask``/``step``/``observe`` follow :mod:`presages_env.core.game`;
``sample_world`` (``beliefs.py``, re-exported here) draws a full state uniformly among those a
seat cannot tell from the real one (docs/res_arcana.md, "What a seat knows"), for search and
for the no-leak tests.
"""

import sys

import numba as nb
import numpy as np

from presages_env.core.batched import plain_kernels
from presages_env.core.global_state import bind_global_state
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_NUM_PLAYERS,
    HDR_TERMINAL,
    clear_mask,
    count_step,
)
from presages_env.core.rng import begin_game
from presages_env.games.res_arcana import beliefs as beliefs_module
from presages_env.games.res_arcana import cards as cards_module
from presages_env.games.res_arcana import effects as effects_module
from presages_env.games.res_arcana import event_kinds as event_kinds_module
from presages_env.games.res_arcana import layout as layout_module
from presages_env.games.res_arcana import payments as payments_module
from presages_env.games.res_arcana import phases as phases_module
from presages_env.games.res_arcana import tableau as tableau_module
from presages_env.games.res_arcana.beliefs import sample_world as sample_world
from presages_env.games.res_arcana.cards import (
    ALL,
    COST,
    COST_ANY,
    FIRST_MAGE,
    FIRST_MONUMENT,
    FIRST_PLACE,
    IS_DRAGON,
    MONUMENT_COST_GOLD,
    NUM_ARTIFACTS,
    NUM_COMPONENTS,
    NUM_ESSENCES,
    NUM_PLACES,
    NUM_POWERS,
    PW_COMP,
    G,
)
from presages_env.games.res_arcana.effects import (
    declinable,
    dragon_ignore_usable,
    orders,
    pay_x_options,
    power_usable,
    reaction_usable,
    target_ok,
)
from presages_env.games.res_arcana.layout import (
    A_CLAIM_MONUMENT,
    A_CLAIM_MONUMENT_TOP,
    A_CLAIM_PLACE,
    A_COMPONENT,
    A_DISCARD,
    A_DONE,
    A_DRAGON_IGNORE,
    A_ESSENCE,
    A_LOOK_MONUMENTS,
    A_LOOK_OWN,
    A_NO,
    A_ORDER,
    A_PASS,
    A_PLACE,
    A_POWER,
    A_SEAT,
    A_YES,
    ACT_COMP,
    ACT_COUNT,
    ACT_KIND,
    ACT_PLAYER,
    ACT_POWER,
    ACT_STAGE,
    ACT_TARGET,
    ACT_X,
    ACT_XTYPE,
    CHECK_ACTIVE,
    COL_K,
    COL_STAGE,
    DECK_SIZE,
    DISPLAY,
    FIRST_PLAYER,
    GAIN_DEST,
    GAIN_LEFT,
    GAIN_MASK,
    GAIN_MIN,
    GAIN_MODE,
    GAIN_PLAYER,
    KNOWN_TOP,
    LOC,
    LOC_BOX,
    LOC_CENTER,
    LOC_DECK,
    LOC_DISCARD,
    LOC_HAND,
    LOC_PLAY,
    LOOK_COUNT,
    LOOK_DECK,
    MAGE_PICK,
    MAX_PLAYERS,
    MON_DECK_SIZE,
    MON_KNOWN,
    NODE,
    NODE_ACTION,
    NODE_FORGE,
    NODE_GAIN,
    NODE_LOOK,
    NODE_PAY,
    NODE_PAY_X,
    NODE_REACT,
    NODE_REORDER,
    NODE_RIVAL,
    NODE_STATUE,
    NODE_TARGET,
    NUM_ACTIONS,
    OBS_COMPONENTS,
    OBS_CURRENT,
    OBS_FIRST_PLAYER,
    OBS_ME,
    OBS_MON_DECK_SIZE,
    OBS_MON_TOP,
    OBS_MY_MAGE_PICK,
    OBS_MY_TOP,
    OBS_NODE,
    OBS_NUM_PLAYERS,
    OBS_PENDING,
    OBS_PHASE,
    OBS_ROUND,
    OBS_SEATS,
    OBS_SIZE,
    OBS_TOKEN_TAKEN,
    OBS_TURN_PLAYER,
    OWNER,
    PASSED,
    PAY_APPLIED,
    PAY_GOLD_DISCOUNT,
    PAY_LEFT,
    PAY_MASK,
    PAY_MIN,
    PAY_NEED,
    PAY_PAID,
    PAY_PLAYER,
    PHASE,
    PLANE_OWNER,
    PLANE_STORED,
    PLANE_TURNED,
    PLANE_ZONE,
    POOL,
    ROUND,
    SEAT_DECK,
    SEAT_DISCARD,
    SEAT_FIELDS,
    SEAT_HAND,
    SEAT_KNOWN_TOP,
    SEAT_MAGE_PICKED,
    SEAT_MON_KNOWN,
    SEAT_PASSED,
    SEAT_POOL,
    SEAT_VP,
    SEAT_WINNER,
    SEEN,
    STATE_SIZE,
    STATUE_USER,
    STORED,
    TGT_CURSOR,
    TGT_KIND,
    TGT_PLAYER,
    TOKEN_TAKEN,
    TURN_PLAYER,
    TURNED,
    WINNER,
    Z_BOX,
    Z_CENTER,
    Z_DISCARD,
    Z_DISPLAY,
    Z_MON_DECK,
    Z_MY_DECK,
    Z_MY_HAND,
    Z_MY_MAGE_OPTION,
    Z_PLACING,
    Z_PLAY,
    Z_SUPPLY,
    Z_UNKNOWN,
)
from presages_env.games.res_arcana.payments import (
    can_pay,
    covers,
    gain_options,
    pay_options,
    pool_of,
    vector_of,
)
from presages_env.games.res_arcana.phases import (
    advance,
    advance_logged,
    apply_decision,
    deal,
    truncate_if_capped,
)
from presages_env.games.res_arcana.tableau import (
    all_victory_points,
    deck_top,
    monument_top,
    passive_discounts,
)

SUMMARY_SIZE = MAX_PLAYERS * (1 + NUM_ESSENCES) + 2

# the modules these kernels call: their sources name the batched copies' cache entries
KERNEL_MODULES = (
    event_kinds_module,
    cards_module,
    layout_module,
    payments_module,
    tableau_module,
    effects_module,
    phases_module,
    beliefs_module,
)

# sizes the core reads, as plain ints
STATE_DTYPE = layout_module.STATE_DTYPE
NUM_ACTIONS = int(NUM_ACTIONS)
OBS_SIZE = int(OBS_SIZE)
STATE_SIZE = int(STATE_SIZE)
# the event log (core/events.py): kinds, fields and the bound's derivation in event_kinds.py
EVENT_KINDS = event_kinds_module.EVENT_KINDS
MAX_STEP_EVENTS = event_kinds_module.MAX_STEP_EVENTS
# events that show what sample_world re-deals, where a world differs from the game by design
# (tests/core/test_events.py): a card drawn or looked at from a deck whose order it re-dealt
# (a rival's may be discarded, as Divination's cost, in the same transition), a monument
# from the re-dealt monument deck, a rival's re-dealt mage pick revealed
WORLD_DIVERGING_EVENTS = (
    "dealt",
    "deal_card",
    "draw",
    "seen",
    "monument_shown",
    "claim_monument",
    "mage",
)


@nb.njit(cache=True)
def reset_logged(state, seed, events):
    """Deal a new game (options kept) and run it to the first decision, a mage pick; its
    events (the deal, the setup run) go to ``events`` (``reset`` is this without events)."""
    begin_game(state, seed)
    deal(state, np.zeros(MAX_PLAYERS, dtype=np.float32), events)


@nb.njit(cache=True)
def start_position(state, seed):
    """Run a position written by ``game.setup_position`` to its first decision."""
    begin_game(state, seed)
    advance(state, np.zeros(MAX_PLAYERS, dtype=np.float32))


@nb.njit(cache=True)
def step_logged(state, action, rewards, events):
    """Apply the current seat's legal ``action`` and run to the next decision, writing its
    events to ``events`` (core/events.py; ``step`` is this without events)."""
    rewards[:] = 0.0
    count_step(state)
    apply_decision(state, action, events)
    advance_logged(state, rewards, events)
    truncate_if_capped(state, events)


# the plain kernels: ``reset_logged``/``step_logged`` without events (core/batched.py)
reset, step = plain_kernels(sys.modules[__name__])


# =========================================================================================
# legal actions
# =========================================================================================
@nb.njit(cache=True)
def _mask_turn(state, seat, mask):
    """§3 phase 2: place, claim, discard, use a power, pass."""
    pool = pool_of(state, seat)
    dragon, artifact = passive_discounts(state, seat)
    for a in range(NUM_ARTIFACTS):
        if state[LOC + a] == LOC_HAND and state[OWNER + a] == seat:
            mask[A_DISCARD + a] = 1
            dragon_part = dragon if IS_DRAGON[a] else 0
            if can_pay(pool, vector_of(COST, a), COST_ANY[a], ALL, dragon_part, artifact):
                mask[A_PLACE + a] = 1
    if pool[G] >= MONUMENT_COST_GOLD:
        for slot in range(2):
            monument = state[DISPLAY + slot]
            if monument >= 0:
                mask[A_CLAIM_MONUMENT + monument - FIRST_MONUMENT] = 1
        if state[MON_DECK_SIZE] > 0:
            mask[A_CLAIM_MONUMENT_TOP] = 1
    for f in range(NUM_PLACES):
        place = FIRST_PLACE + f
        if state[LOC + place] == LOC_CENTER and covers(pool, vector_of(COST, place)):
            mask[A_CLAIM_PLACE + f] = 1
    for w in range(NUM_POWERS):
        if state[OWNER + PW_COMP[w]] == seat and power_usable(state, seat, w):
            mask[A_POWER + w] = 1
    mask[A_PASS] = 1


@nb.njit(cache=True)
def _mask_essences(mask, options):
    for e in range(NUM_ESSENCES):
        if (options >> e) & 1:
            mask[A_ESSENCE + e] = 1


@nb.njit(cache=True)
def legal_mask(state, mask):
    if clear_mask(state, mask):
        return
    node = state[NODE]
    seat = state[HDR_CURRENT]
    if node == NODE_ACTION:
        _mask_turn(state, seat, mask)
    elif node == NODE_PAY:
        _mask_essences(mask, pay_options(state))
    elif node == NODE_PAY_X:
        _mask_essences(mask, pay_x_options(state, seat))
        mask[A_DONE] = 1
    elif node == NODE_GAIN:
        _mask_essences(mask, gain_options(state))
    elif node == NODE_TARGET:
        kind = state[TGT_KIND]
        for c in range(NUM_COMPONENTS):
            if target_ok(state, kind, seat, c, state[ACT_COMP], state[TGT_CURSOR]):
                mask[A_COMPONENT + c] = 1
        if declinable(kind):
            mask[A_DONE] = 1
    elif node == NODE_REACT:
        power = state[ACT_POWER]
        by_dragon = IS_DRAGON[PW_COMP[power]] == 1
        for c in range(NUM_COMPONENTS):
            if reaction_usable(state, seat, c, by_dragon):
                mask[A_COMPONENT + c] = 1
        if dragon_ignore_usable(state, seat, power):
            mask[A_DRAGON_IGNORE] = 1
        mask[A_DONE] = 1
    elif node in (NODE_STATUE, NODE_FORGE):
        mask[A_YES] = 1
        mask[A_NO] = 1
    elif node == NODE_LOOK:
        mask[A_LOOK_OWN] = 1
        mask[A_LOOK_MONUMENTS] = 1
    elif node == NODE_REORDER:
        for k in range(orders(state[LOOK_COUNT])):
            mask[A_ORDER + k] = 1
    elif node == NODE_RIVAL:
        for s in range(state[HDR_NUM_PLAYERS]):
            if s != seat:
                mask[A_SEAT + s] = 1


# =========================================================================================
# observation
# =========================================================================================
@nb.njit(cache=True)
def _clip(value):
    return min(max(value, 0), 127)


# The decision under way, in the order of ``layout.PENDING_FIELDS``: the state slot of each
# field and what is added to it (1 where -1 means "none").
PENDING_SLOTS = np.array(
    [
        ACT_KIND,
        ACT_PLAYER,
        ACT_COMP,
        ACT_POWER,
        ACT_STAGE,
        ACT_TARGET,
        ACT_X,
        ACT_XTYPE,
        ACT_COUNT,
        PAY_PLAYER,
        PAY_NEED,
        PAY_NEED + 1,
        PAY_NEED + 2,
        PAY_NEED + 3,
        PAY_NEED + 4,
        PAY_LEFT,
        PAY_MASK,
        PAY_APPLIED,
        PAY_GOLD_DISCOUNT,
        PAY_MIN,
        PAY_PAID,
        PAY_PAID + 1,
        PAY_PAID + 2,
        PAY_PAID + 3,
        PAY_PAID + 4,
        GAIN_PLAYER,
        GAIN_LEFT,
        GAIN_MASK,
        GAIN_MIN,
        GAIN_DEST,
        GAIN_MODE,
        TGT_KIND,
        TGT_PLAYER,
        TGT_CURSOR,
        CHECK_ACTIVE,
        STATUE_USER,
        LOOK_DECK,
        LOOK_COUNT,
        COL_K,
        COL_STAGE,
    ],
    dtype=np.int64,
)
# slots where -1 means "none", shown + 1
SHIFTED_SLOTS = (
    ACT_PLAYER, ACT_COMP, ACT_POWER, ACT_TARGET, ACT_XTYPE, PAY_PLAYER, GAIN_PLAYER, GAIN_DEST,
    TGT_PLAYER,
)  # fmt: skip
PENDING_SHIFT = np.array([int(slot in SHIFTED_SLOTS) for slot in PENDING_SLOTS], dtype=np.int64)


@nb.njit(cache=True)
def _pending(state, obs):
    """The decision under way, in the order of ``layout.PENDING_FIELDS``."""
    for i in range(PENDING_SLOTS.size):
        obs[OBS_PENDING + i] = _clip(state[PENDING_SLOTS[i]] + PENDING_SHIFT[i])


# zone seen for each location: public ones as they are; hands, decks and dealt mages only
# for their owner (see _observe_component); out of the game: unknown (Z_UNKNOWN) except
# the other face of a Place of Power tile in the centre, which everyone knows
ZONE_OF_LOC = np.array(
    [
        Z_UNKNOWN,
        Z_MY_HAND,
        Z_MY_DECK,
        Z_DISCARD,
        Z_PLAY,
        Z_PLACING,
        Z_MY_MAGE_OPTION,
        Z_SUPPLY,
        Z_MON_DECK,
        Z_DISPLAY,
        Z_CENTER,
    ],
    dtype=np.int64,
)
PRIVATE_LOC = np.array([0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0], dtype=np.int64)
OWNED_LOC = np.array([0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0], dtype=np.int64)


@nb.njit(cache=True)
def _observe_component(state, me, comp, obs):
    """Zone and owner of ``comp`` as seat ``me`` sees them; turned flag and stored essences
    (only components in play have any)."""
    loc = state[LOC + comp]
    owner = state[OWNER + comp]
    zone = ZONE_OF_LOC[loc]
    seen_owner = owner + 1 if OWNED_LOC[loc] else 0
    if PRIVATE_LOC[loc] and (owner != me or (loc == LOC_DECK and state[SEEN + comp] == 0)):
        zone = Z_UNKNOWN
        seen_owner = 0
    elif loc == LOC_BOX and comp >= FIRST_PLACE:
        zone = Z_BOX
    obs[OBS_COMPONENTS + PLANE_ZONE * NUM_COMPONENTS + comp] = zone
    obs[OBS_COMPONENTS + PLANE_OWNER * NUM_COMPONENTS + comp] = seen_owner
    if loc == LOC_PLAY:
        obs[OBS_COMPONENTS + PLANE_TURNED * NUM_COMPONENTS + comp] = state[TURNED + comp]
        for e in range(NUM_ESSENCES):
            value = _clip(state[STORED + comp * NUM_ESSENCES + e])
            obs[OBS_COMPONENTS + (PLANE_STORED + e) * NUM_COMPONENTS + comp] = value


@nb.njit(cache=True)
def observe(state, player, obs):
    """What ``player`` may know: own hand and deck contents, everything in play, pools,
    discard piles, the centre, counts, the decision under way; never a rival's hand, deck
    order, unrevealed mage pick or the monument deck's order beyond what it looked at."""
    n = state[HDR_NUM_PLAYERS]
    me = player
    obs[:] = 0
    obs[OBS_ME] = me + 1
    obs[OBS_NUM_PLAYERS] = n
    obs[OBS_PHASE] = state[PHASE]
    obs[OBS_NODE] = state[NODE]
    obs[OBS_CURRENT] = state[HDR_CURRENT] + 1
    obs[OBS_FIRST_PLAYER] = state[FIRST_PLAYER] + 1
    obs[OBS_TURN_PLAYER] = state[TURN_PLAYER] + 1
    obs[OBS_ROUND] = _clip(state[ROUND])
    obs[OBS_TOKEN_TAKEN] = state[TOKEN_TAKEN]
    obs[OBS_MON_DECK_SIZE] = state[MON_DECK_SIZE]
    for i in range(state[MON_KNOWN + me]):
        obs[OBS_MON_TOP + i] = monument_top(state, i) - FIRST_MONUMENT + 1
    for i in range(state[KNOWN_TOP + me]):
        obs[OBS_MY_TOP + i] = deck_top(state, me, i) + 1
    if state[MAGE_PICK + me] >= 0:
        obs[OBS_MY_MAGE_PICK] = state[MAGE_PICK + me] - FIRST_MAGE + 1
    _pending(state, obs)
    hands = np.zeros(MAX_PLAYERS, dtype=np.int64)
    discards = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for c in range(NUM_COMPONENTS):
        if c < NUM_ARTIFACTS:
            if state[LOC + c] == LOC_HAND:
                hands[state[OWNER + c]] += 1
            elif state[LOC + c] == LOC_DISCARD:
                discards[state[OWNER + c]] += 1
        _observe_component(state, me, c, obs)
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    all_victory_points(state, points)
    for s in range(n):
        base = OBS_SEATS + s * SEAT_FIELDS
        obs[base + SEAT_PASSED] = state[PASSED + s]
        for e in range(NUM_ESSENCES):
            obs[base + SEAT_POOL + e] = _clip(state[POOL + s * NUM_ESSENCES + e])
        obs[base + SEAT_VP] = _clip(points[s])
        obs[base + SEAT_HAND] = hands[s]
        obs[base + SEAT_DECK] = state[DECK_SIZE + s]
        obs[base + SEAT_DISCARD] = discards[s]
        obs[base + SEAT_KNOWN_TOP] = state[KNOWN_TOP + s]
        obs[base + SEAT_MON_KNOWN] = state[MON_KNOWN + s]
        obs[base + SEAT_MAGE_PICKED] = state[MAGE_PICK + s] >= 0
        obs[base + SEAT_WINNER] = state[WINNER + s]


@nb.njit(cache=True)
def public_summary(state, out):
    """What the envs' ``infos`` show, into ``out`` (``int64[SUMMARY_SIZE]``): every seat's VP,
    then its pool (E, L, C, D, G), then the round and the terminal flag."""
    all_victory_points(state, out[:MAX_PLAYERS])
    for i in range(MAX_PLAYERS * NUM_ESSENCES):
        out[MAX_PLAYERS + i] = state[POOL + i]
    out[SUMMARY_SIZE - 2] = state[ROUND]
    out[SUMMARY_SIZE - 1] = state[HDR_TERMINAL]


# ---- global state (a referee's view, for centralised critics; docs/research.md) ----------
# Every seat's observation, then the state's slots up to GLOBAL_SLOTS_END minus the RNG and
# seed (core/global_state.py): every hand, each seat's deck in order (DECK),
# the monument deck in order (MON_DECK), hidden mage picks and every pending choice.
GLOBAL_DTYPE = STATE_DTYPE  # int16: the slots need it (the observations are int8)
GLOBAL_SEATS = int(MAX_PLAYERS)
GLOBAL_SLOTS_END = int(STATE_SIZE)
GLOBAL_SLOTS, GLOBAL_SIZE, global_state = bind_global_state(__name__, np.int8)
