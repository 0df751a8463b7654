"""The flow of a game: the deal, setup picks, the three phases of a round, the victory check.

:func:`advance` is the one loop that runs after every decision: it carries out whatever
needs no choice and stops at the next decision (setting ``NODE`` and ``HDR_CURRENT``). In
order of priority: an open payment, gain or component choice; a victory check; then the
phase's own program (setup picks, the collect of each seat in turn from the first player,
or the turn action under way / the next turn). :func:`apply_decision` applies one agent
decision at the pending node.
"""

import numba as nb
import numpy as np

from presages_env.core.events import PUBLIC, emit, seat_bit
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_NUM_PLAYERS,
    HDR_TERMINAL,
    TRUNCATED,
    read_step,
)
from presages_env.core.rng import rng_below, rng_shuffle
from presages_env.games.res_arcana.cards import (
    CID,
    CLAIM_CHOICE,
    COLLECT,
    COLLECT_CHOICE,
    COLLECT_MASK,
    COLLECT_SPECIAL,
    COLLECT_VAULT,
    COLLECT_WINDUP,
    COST,
    EF_PUT_PAID,
    FIRST_ITEM,
    FIRST_MAGE,
    FIRST_MONUMENT,
    FIRST_PLACE,
    MONUMENT_COST_GOLD,
    NON_GOLD,
    NUM_ARTIFACTS,
    NUM_COMPONENTS,
    NUM_ESSENCES,
    NUM_ITEMS,
    NUM_MAGES,
    NUM_MONUMENTS,
    NUM_TILES,
    PW_COMP,
    PW_EFFECT,
    REACT_COST,
    STARTER_SET,
    STARTER_SETS,
    D,
    G,
    as_numpy_scalars,
)
from presages_env.games.res_arcana.effects import (
    ASKED,
    CONTINUE,
    DONE,
    apply_target,
    ask,
    declinable,
    discard_from_hand,
    end_target,
    hides_a_hand,
    look,
    pay_x,
    react,
    reorder,
    rival_gain,
    run_power,
    start_placement,
    start_target,
    target_ok,
    target_scan,
)
from presages_env.games.res_arcana.event_kinds import (
    EV_CLAIM_MONUMENT,
    EV_CLAIM_PLACE,
    EV_COLLECT,
    EV_DEAL_CARD,
    EV_DEAL_MAGE,
    EV_DEALT,
    EV_DECLINE,
    EV_FORGE,
    EV_GAME_END,
    EV_ITEM,
    EV_MAGE,
    EV_PASS,
    EV_POWER,
    EV_ROUND,
    EV_STATUE,
    EV_TRUNCATED,
    EV_VP,
    FROM_MONUMENT_DECK,
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
    A_ORDER,
    A_PASS,
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
    CHECK_ASKED,
    CHECK_ROUND_END,
    COL_CURSOR,
    COL_FORGE,
    COL_GAINS,
    COL_K,
    COL_LEFT_ON,
    COL_NEXT,
    COL_STAGE,
    COL_TAKE,
    DECK,
    DECK_CAP,
    DECK_SIZE,
    DEST_POOL,
    DISPLAY,
    DO_CLAIM_MONUMENT,
    DO_CLAIM_PLACE,
    DO_DISCARD,
    DO_NONE,
    DO_PASS,
    DO_PLACE,
    DO_POWER,
    ESSENCE_CEILING,
    FIRST_PLAYER,
    FROM_FIRST,
    GAIN_ACTIVE,
    GAIN_DEST,
    GAIN_MIXED,
    GAIN_OR_GOLD,
    GAIN_PLAYER,
    GAINED,
    GAME_START,
    LOC,
    LOC_BOX,
    LOC_CENTER,
    LOC_DECK,
    LOC_HAND,
    LOC_MAGE_OPTION,
    LOC_MON_DECK,
    LOC_PLAY,
    LOC_SUPPLY,
    LOOK_COUNT,
    LOOK_DECK,
    MAGE_PICK,
    MAX_PLAYERS,
    MON_DECK,
    MON_DECK_SIZE,
    NO_COMPONENT,
    NO_POWER,
    NODE,
    NODE_ACTION,
    NODE_FORGE,
    NODE_GAIN,
    NODE_LOOK,
    NODE_OVER,
    NODE_PAY,
    NODE_PAY_X,
    NODE_REACT,
    NODE_REORDER,
    NODE_RIVAL,
    NODE_STATUE,
    NODE_TARGET,
    OPT_PLACE_FACES,
    OPT_STARTER_SETS,
    OPT_STEP_CAP,
    OWNER,
    PASSED,
    PAY_ACTIVE,
    PAY_LEFT,
    PAY_MIN,
    PAY_PLAYER,
    PHASE,
    PHASE_ACTIONS,
    PHASE_COLLECT,
    PHASE_OVER,
    PHASE_SETUP_ITEMS,
    PHASE_SETUP_MAGES,
    POOL,
    ROUND,
    SEEN,
    SEEN_BY_ALL,
    SEEN_BY_OWNER,
    SETUP_K,
    SPENT,
    STATE_SIZE,
    STATUE_USER,
    STORED,
    TGT_ACTIVE,
    TGT_KIND,
    TGT_PLAYER,
    TK_ITEM,
    TK_ITEM_SWAP,
    TK_MAGE,
    TK_TAKE,
    TOKEN_TAKEN,
    TURN_PLAYER,
    TURNED,
    UNSEEN,
    WIN_VP,
    WINNER,
)
from presages_env.games.res_arcana.payments import (
    gain,
    gain_fixed,
    gain_one,
    gain_options,
    pay_fixed,
    pay_one,
    pay_options,
    put_on,
    single_option,
    spend,
    start_gain,
)
from presages_env.games.res_arcana.tableau import (
    all_victory_points,
    draw,
    owns_in_play,
    pool_tiebreak,
    pop_monument,
    put_in_play,
    refill_display,
)

GOLDEN_STATUE = CID["Golden Statue"]
CURSED_FORGE = CID["Cursed Forge"]
PLACE_FACE_SUN = 0
PLACE_FACE_MOON = 1
DEALT_ARTIFACTS = 8
DEALT_MAGES = 2
STARTING_HAND = 3
LOOP_GUARD = 100_000
VAULT_INTEREST = 2  # non-Gold essences Vault gives when Gold is left on it
DISCARD_GAIN = 2  # non-Gold essences for a discarded card (or 1 Gold)
WINDUP_GROWTH = 2  # essences Windup Man adds per type on it


# =========================================================================================
# the deal (§2)
# =========================================================================================
@nb.njit(cache=True)
def clear_game(state):
    """Every slot after the options to its empty value (``-1`` where -1 means none)."""
    for i in range(GAME_START, STATE_SIZE):
        state[i] = 0
    for c in range(NUM_COMPONENTS):
        state[OWNER + c] = -1
    for s in range(MAX_PLAYERS):
        state[MAGE_PICK + s] = -1
    state[DISPLAY] = -1
    state[DISPLAY + 1] = -1
    state[HDR_TERMINAL] = 0
    clear_action(state)
    state[PAY_PLAYER] = -1
    state[GAIN_PLAYER] = -1
    state[GAIN_DEST] = DEST_POOL
    state[TGT_PLAYER] = -1


@nb.njit(cache=True)
def clear_action(state):
    state[ACT_KIND] = DO_NONE
    state[ACT_PLAYER] = -1
    state[ACT_COMP] = -1
    state[ACT_POWER] = -1
    state[ACT_STAGE] = 0
    state[ACT_TARGET] = -1
    state[ACT_X] = 0
    state[ACT_XTYPE] = -1
    state[ACT_COUNT] = 0
    state[LOOK_DECK] = 0
    state[LOOK_COUNT] = 0


@nb.njit(cache=True)
def _deal_center(state, events):
    """Places of Power (one face per tile, §2.1) and monuments (2 face up, §2.2)."""
    faces = state[OPT_PLACE_FACES]
    for t in range(NUM_TILES):
        face = faces if faces != 2 else rng_below(state, 2)
        state[LOC + FIRST_PLACE + 2 * t + face] = LOC_CENTER
    for i in range(NUM_MONUMENTS):
        state[MON_DECK + i] = FIRST_MONUMENT + i
        state[LOC + FIRST_MONUMENT + i] = LOC_MON_DECK
    rng_shuffle(state, state[MON_DECK : MON_DECK + NUM_MONUMENTS], NUM_MONUMENTS)
    state[MON_DECK_SIZE] = NUM_MONUMENTS
    for slot in range(2):
        refill_display(state, slot, events)
    for c in range(FIRST_ITEM, FIRST_ITEM + NUM_ITEMS):
        state[LOC + c] = LOC_SUPPLY


@nb.njit(cache=True)
def _to_deck(state, seat, card, seen):
    size = state[DECK_SIZE + seat]
    state[DECK + seat * DECK_CAP + size] = card
    state[DECK_SIZE + seat] = size + 1
    state[LOC + card] = LOC_DECK
    state[OWNER + card] = seat
    state[SEEN + card] = seen


@nb.njit(cache=True)
def _deal_players(state, n, events):
    """2 mages and 8 artifacts each, 3 of them drawn (§2.5). A seat sees its mages and the
    cards of its deck (in card order: the deck's order is hidden), everyone the counts."""
    mages = np.arange(FIRST_MAGE, FIRST_MAGE + NUM_MAGES)
    rng_shuffle(state, mages, NUM_MAGES)
    artifacts = np.arange(NUM_ARTIFACTS)
    rng_shuffle(state, artifacts, NUM_ARTIFACTS)
    for s in range(n):
        for i in range(DEALT_MAGES):
            mage = mages[s * DEALT_MAGES + i]
            state[LOC + mage] = LOC_MAGE_OPTION
            state[OWNER + mage] = s
        for i in range(DEALT_ARTIFACTS):
            _to_deck(state, s, artifacts[s * DEALT_ARTIFACTS + i], SEEN_BY_OWNER)
        emit(events, EV_DEALT, -1, PUBLIC, s, DEALT_MAGES, DEALT_ARTIFACTS, 0, 0)
        for c in range(NUM_COMPONENTS):
            if state[OWNER + c] == s and state[LOC + c] == LOC_MAGE_OPTION:
                emit(events, EV_DEAL_MAGE, -1, seat_bit(s), s, c, 0, 0, 0)
            elif state[OWNER + c] == s and state[LOC + c] == LOC_DECK:
                emit(events, EV_DEAL_CARD, -1, seat_bit(s), s, c, 0, 0, 0)
        for _ in range(STARTING_HAND):
            draw(state, s, events)


@nb.njit(cache=True)
def _deal_starter_sets(state, n, events):
    """First-game variant (§2.7): a starter set each (mage in play, 3 cards in hand) and 5
    unseen random artifacts as the deck. A seat sees its hand (its draws), everyone the
    components put in play and the deck counts."""
    sets = np.arange(1, STARTER_SETS + 1)
    rng_shuffle(state, sets, STARTER_SETS)
    for s in range(n):
        for c in range(NUM_COMPONENTS):
            if STARTER_SET[c] == sets[s]:
                if c < NUM_ARTIFACTS:  # the set's number is printed: everyone knows them
                    emit(events, EV_DEAL_CARD, -1, PUBLIC, s, c, 1, 0, 0)
                    state[LOC + c] = LOC_HAND
                    state[OWNER + c] = s
                    state[SEEN + c] = SEEN_BY_ALL
                else:
                    kind = EV_ITEM if FIRST_ITEM <= c < FIRST_ITEM + NUM_ITEMS else EV_MAGE
                    emit(events, kind, s, PUBLIC, s, c, -1, 0, 0)
                    put_in_play(state, c, s)
    rest = np.empty(NUM_ARTIFACTS, dtype=np.int64)
    count = 0
    for c in range(NUM_ARTIFACTS):
        if state[LOC + c] == LOC_BOX:
            rest[count] = c
            count += 1
    rng_shuffle(state, rest, count)
    for s in range(n):
        emit(events, EV_DEALT, -1, PUBLIC, s, 0, DEALT_ARTIFACTS - STARTING_HAND, 0, 0)
        for i in range(DEALT_ARTIFACTS - STARTING_HAND):
            _to_deck(state, s, rest[s * (DEALT_ARTIFACTS - STARTING_HAND) + i], UNSEEN)


@nb.njit(cache=True)
def deal(state, rewards, events):
    """A new game from the options already in ``state`` and its freshly seeded RNG."""
    n = state[HDR_NUM_PLAYERS]
    clear_game(state)
    state[ROUND] = 1
    state[FIRST_PLAYER] = rng_below(state, n)
    for s in range(n):
        for e in range(NUM_ESSENCES):
            gain(state, s, e, 1, events)
    _deal_center(state, events)
    if state[OPT_STARTER_SETS]:
        _deal_starter_sets(state, n, events)
        state[PHASE] = PHASE_SETUP_ITEMS
    else:
        _deal_players(state, n, events)
        state[PHASE] = PHASE_SETUP_MAGES
    advance_logged(state, rewards, events)


# =========================================================================================
# setup picks and the collect phase
# =========================================================================================
@nb.njit(cache=True)
def _reveal_mages(state, n, events):
    """Everyone's hidden pick goes into play at once; the other mages leave the game."""
    for c in range(FIRST_MAGE, FIRST_MAGE + NUM_MAGES):
        if state[LOC + c] == LOC_MAGE_OPTION:
            seat = state[OWNER + c]
            if state[MAGE_PICK + seat] == c:
                emit(events, EV_MAGE, seat, PUBLIC, seat, c, 0, 0, 0)
                put_in_play(state, c, seat)
            else:
                state[LOC + c] = LOC_BOX
                state[OWNER + c] = -1
    for s in range(MAX_PLAYERS):
        state[MAGE_PICK + s] = -1


@nb.njit(cache=True)
def _run_setup(state, n, events):
    k = state[SETUP_K]
    if state[PHASE] == PHASE_SETUP_MAGES:
        if k < n:  # in turn order, each pick hidden until all are made
            start_target(state, TK_MAGE, (state[FIRST_PLAYER] + k) % n, FROM_FIRST)
            return CONTINUE
        _reveal_mages(state, n, events)
        state[PHASE] = PHASE_SETUP_ITEMS
        state[SETUP_K] = 0
        return CONTINUE
    if k < n:  # reverse turn order, from the first player's right
        start_target(state, TK_ITEM, (state[FIRST_PLAYER] + 2 * n - 1 - k) % n, FROM_FIRST)
        return CONTINUE
    state[SETUP_K] = 0
    begin_collect(state)
    emit(events, EV_ROUND, -1, PUBLIC, state[ROUND], state[FIRST_PLAYER], 0, 0, 0)
    return CONTINUE


@nb.njit(cache=True)
def begin_collect(state):
    state[PHASE] = PHASE_COLLECT
    state[COL_K] = 0
    state[COL_STAGE] = COL_GAINS
    state[COL_CURSOR] = 0


@nb.njit(cache=True)
def _collect_gains(state, seat, events):
    """Fixed collects at once; a chosen collect opens a gain and resumes after it."""
    if state[COL_CURSOR] == 0:
        emit(events, EV_COLLECT, seat, PUBLIC, seat, 0, 0, 0, 0)
    for c in range(state[COL_CURSOR], NUM_COMPONENTS):
        if not owns_in_play(state, c, seat):
            continue
        gain_fixed(state, seat, COLLECT, c, events)
        if COLLECT_CHOICE[c]:
            state[COL_CURSOR] = c + 1
            start_gain(state, seat, COLLECT_CHOICE[c], COLLECT_MASK[c], DEST_POOL, GAIN_MIXED)
            return CONTINUE
    state[COL_STAGE] = COL_TAKE
    state[COL_CURSOR] = 0
    return CONTINUE


@nb.njit(cache=True)
def _collect_left_on(state, seat, events):
    """Windup Man and Vault reward essences left on them (rulebook, fine points)."""
    state[COL_STAGE] = COL_FORGE
    for c in range(NUM_ARTIFACTS):
        if not owns_in_play(state, c, seat):
            continue
        if COLLECT_SPECIAL[c] == COLLECT_WINDUP:
            for e in range(NUM_ESSENCES):
                if state[STORED + c * NUM_ESSENCES + e]:
                    put_on(state, seat, c, e, WINDUP_GROWTH, events)
    for c in range(NUM_ARTIFACTS):
        vault = owns_in_play(state, c, seat) and COLLECT_SPECIAL[c] == COLLECT_VAULT
        if vault and state[STORED + c * NUM_ESSENCES + G]:
            start_gain(state, seat, VAULT_INTEREST, NON_GOLD, DEST_POOL, GAIN_MIXED)
    return CONTINUE


@nb.njit(cache=True)
def _run_collect(state, n, events):
    """§3 phase 1, one seat after another from the first player (rulebook: allowed)."""
    if state[COL_K] >= n:
        begin_actions(state)
        return CONTINUE
    seat = (state[FIRST_PLAYER] + state[COL_K]) % n
    stage = state[COL_STAGE]
    if stage == COL_GAINS:
        return _collect_gains(state, seat, events)
    if stage == COL_TAKE:
        for c in range(state[COL_CURSOR], NUM_COMPONENTS):
            if target_ok(state, TK_TAKE, seat, c, NO_COMPONENT, state[COL_CURSOR]):
                start_target(state, TK_TAKE, seat, state[COL_CURSOR])
                return CONTINUE
        state[COL_STAGE] = COL_LEFT_ON
        return CONTINUE
    if stage == COL_LEFT_ON:
        return _collect_left_on(state, seat, events)
    if stage == COL_FORGE:
        state[COL_STAGE] = COL_NEXT
        if owns_in_play(state, CURSED_FORGE, seat):
            if state[POOL + seat * NUM_ESSENCES + D] > 0:
                return ask(state, NODE_FORGE, seat)
            emit(events, EV_FORGE, seat, PUBLIC, seat, 0, 0, 0, 0)
            state[TURNED + CURSED_FORGE] = 1
        return CONTINUE
    state[COL_K] += 1
    state[COL_STAGE] = COL_GAINS
    state[COL_CURSOR] = 0
    return CONTINUE


@nb.njit(cache=True)
def begin_actions(state):
    state[PHASE] = PHASE_ACTIONS
    state[TURN_PLAYER] = state[FIRST_PLAYER]
    state[COL_K] = 0
    state[COL_STAGE] = 0
    state[COL_CURSOR] = 0


# =========================================================================================
# the actions phase
# =========================================================================================
@nb.njit(cache=True)
def _claim_monument(state, seat, monument, source, events):
    emit(events, EV_CLAIM_MONUMENT, seat, PUBLIC, seat, monument, source, 0, 0)
    spend(state, seat, G, MONUMENT_COST_GOLD, events)
    put_in_play(state, monument, seat)
    state[ACT_KIND] = DO_CLAIM_MONUMENT
    state[ACT_TARGET] = monument
    # Obelisk: chosen before the display is refilled (spec §7)
    start_gain(state, seat, CLAIM_CHOICE[monument], NON_GOLD, DEST_POOL, GAIN_MIXED)


@nb.njit(cache=True)
def apply_action(state, seat, action, events):
    """The turn's action (§3 phase 2); its choices follow through the engines."""
    clear_action(state)
    state[ACT_PLAYER] = seat
    if action < A_DISCARD:
        state[ACT_KIND] = DO_PLACE
        start_placement(state, seat, action, NO_POWER, events)
    elif action < A_CLAIM_MONUMENT:
        state[ACT_KIND] = DO_DISCARD
        discard_from_hand(state, action - A_DISCARD, events)
        start_gain(state, seat, DISCARD_GAIN, NON_GOLD, DEST_POOL, GAIN_OR_GOLD)
    elif action < A_CLAIM_MONUMENT_TOP:
        monument = FIRST_MONUMENT + action - A_CLAIM_MONUMENT
        slot = 0 if state[DISPLAY] == monument else 1
        state[DISPLAY + slot] = -1
        _claim_monument(state, seat, monument, slot, events)
        state[ACT_COUNT] = slot + 1
    elif action == A_CLAIM_MONUMENT_TOP:
        _claim_monument(state, seat, pop_monument(state), FROM_MONUMENT_DECK, events)
    elif action < A_POWER:
        place = FIRST_PLACE + action - A_CLAIM_PLACE
        state[ACT_KIND] = DO_CLAIM_PLACE
        state[ACT_TARGET] = place
        emit(events, EV_CLAIM_PLACE, seat, PUBLIC, seat, place, 0, 0, 0)
        pay_fixed(state, seat, COST, place, events)
        put_in_play(state, place, seat)
    elif action < A_PASS:
        power = action - A_POWER
        state[ACT_KIND] = DO_POWER
        state[ACT_COMP] = PW_COMP[power]
        state[ACT_POWER] = power
        emit(events, EV_POWER, seat, PUBLIC, seat, PW_COMP[power], power, 0, 0)
    else:
        state[ACT_KIND] = DO_PASS
        state[PASSED + seat] = 1
        took = 0 if state[TOKEN_TAKEN] else 1
        emit(events, EV_PASS, seat, PUBLIC, seat, took, 0, 0, 0)
        if not state[TOKEN_TAKEN]:  # the first to pass takes the token
            state[FIRST_PLAYER] = seat
            state[TOKEN_TAKEN] = 1
        start_target(state, TK_ITEM_SWAP, seat, FROM_FIRST)


@nb.njit(cache=True)
def _run_action(state, events):
    kind = state[ACT_KIND]
    if kind == DO_PLACE:
        put_in_play(state, state[ACT_TARGET], state[ACT_PLAYER])
    elif kind == DO_CLAIM_MONUMENT:
        if state[ACT_COUNT] > 0:
            refill_display(state, state[ACT_COUNT] - 1, events)
    elif kind == DO_PASS:
        draw(state, state[ACT_PLAYER], events)
    elif kind != DO_DISCARD and kind != DO_CLAIM_PLACE:
        return run_power(state, events)
    return DONE


@nb.njit(cache=True)
def _finish_action(state, n):
    """Next seat that has not passed, clockwise; a victory check once all have passed."""
    seat = state[ACT_PLAYER]
    clear_action(state)
    for k in range(1, n + 1):
        other = (seat + k) % n
        if not state[PASSED + other]:
            state[TURN_PLAYER] = other
            return
    state[CHECK_ACTIVE] = CHECK_ROUND_END


# =========================================================================================
# victory checks (§3 phase 3)
# =========================================================================================
@nb.njit(cache=True)
def holdings(state, seat, essence):
    """Pool plus the essences on the seat's components in play."""
    total = state[POOL + seat * NUM_ESSENCES + essence]
    for c in range(NUM_COMPONENTS):
        if owns_in_play(state, c, seat):
            total += state[STORED + c * NUM_ESSENCES + essence]
    return total


@nb.njit(cache=True)
def _new_round(state, n, events):
    """Straighten everything, flip the token back, restart the audit counters."""
    for c in range(NUM_COMPONENTS):
        state[TURNED + c] = 0
    for s in range(MAX_PLAYERS):
        state[PASSED + s] = 0
        for e in range(NUM_ESSENCES):
            state[GAINED + s * NUM_ESSENCES + e] = holdings(state, s, e) if s < n else 0
            state[SPENT + s * NUM_ESSENCES + e] = 0
    state[TOKEN_TAKEN] = 0
    state[ROUND] += 1
    begin_collect(state)
    emit(events, EV_ROUND, -1, PUBLIC, state[ROUND], state[FIRST_PLAYER], 0, 0, 0)


@nb.njit(cache=True)
def _end_game(state, rewards, n, best, events):
    """Most VP wins; ties: most pool essences, Gold double; then a shared win (decision 2).
    Winners share +1, losers share -1 (nothing if everyone won)."""
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    all_victory_points(state, points)
    top = -1
    for s in range(n):
        if points[s] == best:
            top = max(top, pool_tiebreak(state, s))
    winners = 0
    for s in range(n):
        if points[s] == best and pool_tiebreak(state, s) == top:
            state[WINNER + s] = 1
            winners += 1
    for s in range(n):
        tiebreak = pool_tiebreak(state, s)
        emit(events, EV_VP, s, PUBLIC, s, points[s], tiebreak, state[WINNER + s], 0)
    emit(events, EV_GAME_END, -1, PUBLIC, winners, best, 0, 0, 0)
    for s in range(n):
        if winners == n:
            rewards[s] = 0.0
        elif state[WINNER + s]:
            rewards[s] = 1.0 / winners
        else:
            rewards[s] = -1.0 / (n - winners)
    clear_action(state)
    state[CHECK_ACTIVE] = 0
    state[CHECK_ASKED] = 0
    state[PHASE] = PHASE_OVER
    state[NODE] = NODE_OVER
    state[HDR_TERMINAL] = 1
    state[HDR_CURRENT] = -1


@nb.njit(cache=True)
def _run_check(state, rewards, n, events):
    """Golden Statue's owner may react first (decision 4), then 10+ VP ends the game."""
    if not state[CHECK_ASKED]:
        state[CHECK_ASKED] = 1
        owner = state[OWNER + GOLDEN_STATUE]
        if (
            owner >= 0
            and state[LOC + GOLDEN_STATUE] == LOC_PLAY
            and state[TURNED + GOLDEN_STATUE] == 0
            and state[POOL + owner * NUM_ESSENCES + G] >= REACT_COST[GOLDEN_STATUE, G]
        ):
            return ask(state, NODE_STATUE, owner)
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    all_victory_points(state, points)
    best = points[:n].max()
    if best >= WIN_VP:
        _end_game(state, rewards, n, best, events)
        return ASKED
    for s in range(n):
        emit(events, EV_VP, s, PUBLIC, s, points[s], pool_tiebreak(state, s), 0, 0)
    state[STATUE_USER] = 0
    state[CHECK_ASKED] = 0
    kind = state[CHECK_ACTIVE]
    state[CHECK_ACTIVE] = 0
    if kind == CHECK_ROUND_END:
        _new_round(state, n, events)
    return CONTINUE


# =========================================================================================
# the loop and the decisions
# =========================================================================================
@nb.njit(cache=True)
def _end_payment(state):
    """Close a finished payment; Mermaid and Windup Man keep the essence paid."""
    power = state[ACT_POWER]
    if power >= 0 and PW_EFFECT[power] == EF_PUT_PAID:
        state[ACT_XTYPE] = state[PAY_MIN]
    for slot in range(PAY_ACTIVE, GAIN_ACTIVE):
        state[slot] = 0
    state[PAY_PLAYER] = -1


@nb.njit(cache=True)
def _run_engines(state, events):
    """One step of an open payment, gain or component choice; ASKED, CONTINUE or DONE
    (nothing open)."""
    if state[PAY_ACTIVE]:
        if state[PAY_LEFT] == 0:
            _end_payment(state)
            return CONTINUE
        options = pay_options(state)
        single = single_option(options)
        if single >= 0:
            pay_one(state, single, events)
            return CONTINUE
        return ask(state, NODE_PAY, state[PAY_PLAYER])
    if state[GAIN_ACTIVE]:
        single = single_option(gain_options(state))
        if single >= 0:
            gain_one(state, single, events)
            return CONTINUE
        return ask(state, NODE_GAIN, state[GAIN_PLAYER])
    if state[TGT_ACTIVE]:
        count, last = target_scan(state)
        if declinable(state[TGT_KIND]):
            if count == 0 and not hides_a_hand(state):
                apply_target(state, NO_COMPONENT, events)
                return CONTINUE
        elif count <= 1:  # no choice: the only one, or nothing to do (decision 9)
            if count == 1:
                apply_target(state, last, events)
            else:
                end_target(state)
            return CONTINUE
        return ask(state, NODE_TARGET, state[TGT_PLAYER])
    return DONE


@nb.njit(cache=True)
def advance(state, rewards):
    """Run everything that needs no decision; stop at the next decision or the end."""
    advance_logged(state, rewards, None)


@nb.njit(cache=True)
def advance_logged(state, rewards, events):
    """``advance``, writing its events to ``events`` (core/events.py)."""
    n = state[HDR_NUM_PLAYERS]
    for _ in range(LOOP_GUARD):
        if state[HDR_TERMINAL]:
            return
        status = _run_engines(state, events)
        if status == ASKED:
            return
        if status == CONTINUE:
            continue
        if state[CHECK_ACTIVE]:
            if _run_check(state, rewards, n, events) == ASKED:
                return
            continue
        phase = state[PHASE]
        if phase in (PHASE_SETUP_MAGES, PHASE_SETUP_ITEMS):
            _run_setup(state, n, events)
        elif phase == PHASE_COLLECT:
            if _run_collect(state, n, events) == ASKED:
                return
        elif state[ACT_KIND] == DO_NONE:
            ask(state, NODE_ACTION, state[TURN_PLAYER])
            return
        else:
            status = _run_action(state, events)
            if status == ASKED:
                return
            if status == DONE:
                _finish_action(state, n)
    raise RuntimeError("res_arcana: the game loop made no progress")


@nb.njit(cache=True)
def apply_decision(state, action, events):
    """Apply the current seat's ``action`` at the pending node."""
    node = state[NODE]
    seat = state[HDR_CURRENT]
    if node == NODE_ACTION:
        apply_action(state, seat, action, events)
    elif node == NODE_PAY:
        pay_one(state, action - A_ESSENCE, events)
    elif node == NODE_PAY_X:
        pay_x(state, seat, -1 if action == A_DONE else action - A_ESSENCE, events)
    elif node == NODE_GAIN:
        gain_one(state, action - A_ESSENCE, events)
    elif node == NODE_TARGET:
        if action == A_DONE:  # a chosen decline (one with no choice writes nothing)
            emit(events, EV_DECLINE, seat, PUBLIC, seat, state[TGT_KIND], 0, 0, 0)
        apply_target(state, NO_COMPONENT if action == A_DONE else action - A_COMPONENT, events)
    elif node == NODE_REACT:
        comp = action - A_COMPONENT if A_COMPONENT <= action < A_SEAT else -1
        react(state, seat, comp, action == A_DRAGON_IGNORE, events)
    elif node == NODE_STATUE:
        emit(events, EV_STATUE, seat, PUBLIC, seat, 1 if action == A_YES else 0, 0, 0, 0)
        if action == A_YES:
            state[TURNED + GOLDEN_STATUE] = 1
            pay_fixed(state, seat, REACT_COST, GOLDEN_STATUE, events)
            state[STATUE_USER] = seat + 1
    elif node == NODE_FORGE:
        emit(events, EV_FORGE, seat, PUBLIC, seat, 1 if action == A_YES else 0, 0, 0, 0)
        if action == A_YES:
            spend(state, seat, D, 1, events)
        else:
            state[TURNED + CURSED_FORGE] = 1
    elif node == NODE_LOOK:
        look(state, seat, action, events)
    elif node == NODE_REORDER:
        reorder(state, seat, action - A_ORDER, events)
    elif node == NODE_RIVAL:
        rival_gain(state, seat, state[ACT_POWER], action - A_SEAT, events)


@nb.njit(cache=True)
def truncate_if_capped(state, events):
    """A game still going after OPT_STEP_CAP decisions, or where a seat has taken more than
    ESSENCE_CEILING of one essence this round (holdings at its start included), is
    truncated: no winner, no reward."""
    if state[HDR_TERMINAL]:
        return
    runaway = read_step(state) >= state[OPT_STEP_CAP]
    for i in range(MAX_PLAYERS * NUM_ESSENCES):
        runaway |= state[GAINED + i] > ESSENCE_CEILING
    if runaway:
        emit(events, EV_TRUNCATED, -1, PUBLIC, 0, 0, 0, 0, 0)
        state[HDR_TERMINAL] = TRUNCATED
        state[HDR_CURRENT] = -1
        state[NODE] = NODE_OVER


as_numpy_scalars(globals())  # see cards.as_numpy_scalars
