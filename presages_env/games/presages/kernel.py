"""Présages rules kernel: the only place where the rules of Présages are written.

Spec: ``shared/rules/presages.md`` (section numbers below refer to it). Every choice the rules
give a player is one decision node with its own mask; ⚡ chains are tail calls (a Dream
reply, Wrath replacement or Betrayal gift is the last step of the effect that asked for
it), so the state needs no stack.

State layout (``int8``, ``STATE_DTYPE``; slots after the shared header of
:mod:`presages_env.core.header`). Per-card arrays have 36 entries indexed by card value
(entry 0 unused); per-seat arrays have ``MAX_SEATS`` entries whatever the player count.
"seat+1" slots hold 0 for "nobody". Every slot fits a signed byte: card values are at most
35, locations 18, seats 6, bouts of a round at most the 30 cards in hands (each bout
discards one), rounds 4; the two exceptions are handled explicitly: the per-round pair
counters saturate at ``PAIR_COUNT_MAX`` (127; the observation showed them clipped there
already), and the shaping option, up to 1000 thousandths, spans two slots (a wide field,
read with :func:`presages_env.core.header.load_wide`).

======================  =====  ===========================================================
slot                    size   meaning
======================  =====  ===========================================================
OPT_PRIDE_CARRIES       1      option: Pride of a round's last bout names the next round's
                               starter (§4.2, G4)
OPT_WINNER_IS_PLACER    1      option: bout winner is who placed the winning card (G1)
OPT_DREAM_BY_TARGET     1      option: the Dream target resolves its reply's ⚡ (G2)
OPT_BETRAYAL_LAW_FIRST  1      option: Law binds Betrayal's gift as judged before the take
                               (Game Park, G3)
OPT_REVEAL_ALL          1      option: every hand is revealed at round end (G5)
OPT_ROUND_REWARD_MILLI  2      option: per-round shaping reward, in thousandths (0..1000,
                               a wide field: low byte first)
LOC                     36     where card c is: seat s's hand = s, in front of seat s =
                               LOC_FRONT + s, LOC_DISCARD, LOC_ASIDE or LOC_BOX
FRONT                   6      card lying in front of seat s (0: none)
HAND_COUNT              6      cards in seat s's hand
TEAM                    6      team of seat s (0..NUM_TEAMS-1)
NUM_TEAMS               1      2 (4-5 players) or 3 (6 players)
ROUNDS_WON              3      laurels of each team
ROUND, BOUT             2      round of the game and bout of the round (both from 1)
BOUT_STARTER            1      seat that started the current bout
NODE                    1      decision node (NODE_*); the deciding seat is HDR_CURRENT
EFFECT                  1      ⚡ card whose choices are being made (0: none)
LAW_DIR                 1      Law's direction while Law is in play (0 none, 1 below, 2 above)
GIVE_LAW_DIR            1      direction binding Betrayal's gift (judged at the take)
BLOCKED                 1      card Wrath returned (the replacement must differ)
VICTIM                  1      seat whose card Wrath returned or Betrayal took
TAKEN                   1      card Betrayal took (the gift must differ)
DREAM_PLAYER            1      seat the Dream target must reply to (-1: none)
SECRET_HOLDER, _MODE,   3      pending Secret: holder, mode (1 show, 2 ask), other party
SECRET_PARTNER
ABS_ACTOR, ABS_TARGET,  3      pending Absolu exchange; ABS_GIVEN is the actor's committed
ABS_GIVEN                      card (never observed by the target)
LUCK_HOLDER             1      seat that must discard for Luck (-1: none)
NEXT_STARTER            1      starter of the next bout, decided at the last bout end
PRIDE_LEFT              1      left of Pride's holder if Pride was in the last bout, else -1
LAST_BOUT_WINNER        1      (-1: none yet this round)
LAST_ROUND_WINNER       1      seat that won the last round for its team (-1: none)
WINNING_TEAM            1      (-1 until the game is over)
DISCARD_COUNT, _LIST    1+35   discard pile of the round, in order
START_ABSOLU            6      Absolu dealt face up to seat s in round 1 (public)
ABS_PAIRS, SECRET_PAIRS 36+36  Absolu exchanges actor*6+target / Secrets shower*6+viewer,
                               counted this round, up to PAIR_COUNT_MAX (public)
PLACER                  36     seat+1 that placed card c now in play
DISC_ORDER, DISC_BOUT,  4x36   for each discarded card: rank in the pile, bout, seat+1 it
DISC_SEAT, DISC_KIND           came from, KIND_* reason
LAST_HAND_SEAT, _BOUT   2x36   seat+1 and bout of the last public move of c into a hand
                               (return at bout end, Wrath, Betrayal, round-1 face-up Absolu)
SEEN_FROM, SHOWN_TO     2x6x36 private Secret memory of seat p: c shown to p by seat+1 /
                               c shown by p to seat+1
ABS_RECV, ABS_GAVE      2x6x36 private Absolu memory of p: c received from / given to seat+1
EXCLUDED                7x36   what seat p (row 6: any onlooker) knows of where hidden card c
                               is NOT: bit s for seat s's hand, bit 6 (ASIDE_BIT) for the
                               set-aside cards; kept by the kernel from what p observes, 0 for
                               a card face up or in the box (never observed itself; read by
                               ``sample_world``)
LOG_LEN, LOG            1+24x4 public events of the current bout (EV_*, a, b, card)
PREV_LOG_LEN, PREV_LOG  1+24x4 the same for the previous bout of this round
                               (ABS_PAIRS .. PREV_LOG are cleared by every deal)
REVEAL                  36     seat+1 whose hand showed c at the last round end
LAST_TABLE              6      card in front of each seat at the last bout end, negated if
                               it was discarded (for display)
END_LOC                 36     LOC at the moment the last round ended (never observed)
LAST_DISCARD_COUNT,     1+35   discard pile of the last finished round
LAST_DISCARD_LIST
DECK                    35     scratch for shuffling
======================  =====  ===========================================================
"""

import numba as nb
import numpy as np

from presages_env.core.events import PUBLIC, emit, seat_bit
from presages_env.core.global_state import bind_global_state
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_NUM_PLAYERS,
    HDR_TERMINAL,
    HEADER_SIZE,
    count_step,
    load_wide,
    set_step,
    write_seed,
)
from presages_env.core.rng import rng_below, rng_next, rng_seed, rng_shuffle
from presages_env.games.presages.cards import (
    BETRAYAL,
    BLUE,
    COLOURS,
    DREAM,
    ENIGMA,
    FEAR,
    FIRST_ABSOLUTE,
    GREEN,
    JEALOUSY,
    LAST_ABSOLUTE,
    LAW,
    LUCK,
    MIRROR,
    NUM_CARDS,
    PRIDE,
    RED,
    SADNESS,
    SECRET,
    WRATH,
    YELLOW,
)

STATE_DTYPE = np.int8
MAX_SEATS = 6
MAX_TEAMS = 3
CARD_SLOTS = NUM_CARDS + 1
LOG_CAP = 24
LOG_FIELDS = 4
PAIR_COUNT_MAX = 127  # the pair counters stop there (the observation is int8)
KNOWERS = MAX_SEATS + 1  # rows of EXCLUDED: one per seat, then the public (an onlooker)
PUBLIC_KNOWER = MAX_SEATS
ASIDE_BIT = 1 << MAX_SEATS  # bit of EXCLUDED for the set-aside cards (bit s: seat s's hand)
ROUND_REWARD_SLOTS = 2

# ---- locations --------------------------------------------------------------------------
LOC_FRONT = 8
LOC_DISCARD = 16
LOC_ASIDE = 17
LOC_BOX = 18

# ---- decision nodes ---------------------------------------------------------------------
NODE_PLACE = 0
NODE_DREAM_DEST = 1
NODE_DREAM_REPLY = 2
NODE_LAW_DIR = 3
NODE_WRATH_PICK = 4
NODE_WRATH_REPLACE = 5
NODE_BETRAYAL_TAKE = 6
NODE_BETRAYAL_GIVE = 7
NODE_JEALOUSY_PICK = 8
NODE_SECRET_MODE = 9
NODE_SECRET_TARGET = 10
NODE_SECRET_CARD = 11
NODE_ABSOLUTE_TARGET = 12
NODE_ABSOLUTE_GIVE = 13
NODE_ABSOLUTE_RETURN = 14
NODE_LUCK_DISCARD = 15
NODE_GAME_OVER = 16

# ---- actions ----------------------------------------------------------------------------
CARD_ACTION_BASE = 0  # card value v is action v - 1
SEAT_ACTION_BASE = 35  # seat s is action 35 + s
LAW_BELOW = 41
LAW_ABOVE = 42
SECRET_SHOW = 43
SECRET_ASK = 44
NUM_ACTIONS = 45

DIR_NONE = 0
DIR_BELOW = 1
DIR_ABOVE = 2
MODE_SHOW = 1
MODE_ASK = 2

# ---- public events (bout log) and discard reasons --------------------------------------
EV_PLACE = 1  # a placer+1, b seat+1 in front of whom, card
EV_DREAM = 2  # a Dream player+1, b target+1, Dream
EV_LAW = 3  # a holder+1, b direction, Law
EV_WRATH = 4  # a resolver+1, b seat+1 whose card went back to hand, card
EV_BETRAYAL = 5  # a taker+1, b seat+1 it was taken from, card
EV_JEALOUSY = 6  # a resolver+1, b seat+1 swapped with, card now in front of Jealousy's seat
EV_SECRET = 7  # a shower+1, b viewer+1 (the card is private)
EV_ABSOLU = 8  # a actor+1, b target+1 (the cards are private)
EV_BOUT_END = 9  # a winner+1, b next starter+1, winning card
EV_LUCK = 10  # a seat+1 that discarded, card

KIND_WINNER = 1
KIND_MARKED = 2
KIND_LUCK = 3

# ---- the event log (core/events.py) ----------------------------------------------------
# Kinds 1..10 are the bout log's kinds above, written with plain seats (-1: none) instead of
# seat+1; the others are new. Visibility follows §5: a card dealt to a seat is seen by that
# seat only; the card shown by Secret by its shower and viewer; the cards of an Absolu
# exchange by its two parties (the actor's committed card by the actor alone until the
# swap); everything else is public. Kind -> (name, argument names).
EV_ROUND_START = 11
EV_FACE_UP = 12
EV_DEALT = 13
EV_BOUT_START = 14
EV_SECRET_MODE = 15
EV_SECRET_TARGET = 16
EV_SECRET_CARD = 17
EV_ABSOLU_TARGET = 18
EV_ABSOLU_COMMIT = 19
EV_ABSOLU_COMMIT_CARD = 20
EV_ABSOLU_CARDS = 21
EV_DISCARDED = 22
EV_RETURNED = 23
EV_REVEALED = 24
EV_ROUND_WON = 25
EV_GAME_WON = 26
EVENT_KINDS = {
    EV_PLACE: ("place", ("seat", "card")),
    EV_DREAM: ("dream", ("target",)),
    EV_LAW: ("law", ("direction",)),
    EV_WRATH: ("wrath", ("victim", "card")),
    EV_BETRAYAL: ("betrayal", ("victim", "card")),
    EV_JEALOUSY: ("jealousy", ("other", "card")),
    EV_SECRET: ("secret", ("shower", "viewer")),
    EV_ABSOLU: ("absolu", ("actor", "target")),
    EV_BOUT_END: ("bout_won", ("winner", "next_starter", "card")),
    EV_LUCK: ("luck_discard", ("card",)),
    EV_ROUND_START: ("round_start", ("round",)),
    EV_FACE_UP: ("absolu_face_up", ("seat", "card", "team")),
    EV_DEALT: ("dealt", ("seat", "card")),
    EV_BOUT_START: ("bout_start", ("bout", "starter")),
    EV_SECRET_MODE: ("secret_mode", ("mode",)),
    EV_SECRET_TARGET: ("secret_target", ("partner", "shower")),
    EV_SECRET_CARD: ("secret_card", ("shower", "viewer", "card")),
    EV_ABSOLU_TARGET: ("absolu_target", ("target",)),
    EV_ABSOLU_COMMIT: ("absolu_commit", ("target",)),
    EV_ABSOLU_COMMIT_CARD: ("absolu_commit_card", ("target", "card")),
    EV_ABSOLU_CARDS: ("absolu_cards", ("actor", "target", "given", "returned")),
    EV_DISCARDED: ("discarded", ("seat", "card", "reason")),
    EV_RETURNED: ("returned", ("seat", "card")),
    EV_REVEALED: ("revealed", ("seat", "card")),
    EV_ROUND_WON: ("round_won", ("seat", "team", "laurels")),
    EV_GAME_WON: ("game_won", ("team",)),
}
# An Absolu swap shows the target the actor's committed card, which a world that
# sample_world draws for the target has redrawn (the target had not seen it): from there
# the world's events differ by design (tests/core/test_events.py).
WORLD_DIVERGING_EVENTS = ("absolu_cards",)
MAX_DEALT = 24  # cards a deal puts into hands, most at 6 players (§2.4)
# The most events one transition writes. The decision itself writes at most 2 (a Secret
# card, an Absolu commit or swap: a public and a private record). If it ends the bout:
# bout_won and one discarded/returned per seat (1 + MAX_SEATS). The bout's Luck discard, if
# any, is its own later transition (1 event, then the same tail). Then either the next
# bout_start (1), or the round end: every card left in hands revealed (at most NUM_CARDS,
# for a position set up with every card in hands), round_won (1), then game_won (1) or
# round_start, the new deal (MAX_DEALT) and its bout_start (1 + MAX_DEALT + 1). reset writes
# round_start, 6 face-up Absolus, 18 dealt cards and bout_start: 26, fewer.
MAX_STEP_EVENTS = 2 + (1 + MAX_SEATS) + NUM_CARDS + 1 + (1 + MAX_DEALT + 1)

# ---- state layout -----------------------------------------------------------------------
OPT_PRIDE_CARRIES = HEADER_SIZE
OPT_WINNER_IS_PLACER = OPT_PRIDE_CARRIES + 1
OPT_DREAM_BY_TARGET = OPT_WINNER_IS_PLACER + 1
OPT_BETRAYAL_LAW_FIRST = OPT_DREAM_BY_TARGET + 1
OPT_REVEAL_ALL = OPT_BETRAYAL_LAW_FIRST + 1
OPT_ROUND_REWARD_MILLI = OPT_REVEAL_ALL + 1
GAME_START = OPT_ROUND_REWARD_MILLI + ROUND_REWARD_SLOTS  # first slot rewritten by reset
LOC = GAME_START
FRONT = LOC + CARD_SLOTS
HAND_COUNT = FRONT + MAX_SEATS
TEAM = HAND_COUNT + MAX_SEATS
NUM_TEAMS = TEAM + MAX_SEATS
ROUNDS_WON = NUM_TEAMS + 1
ROUND = ROUNDS_WON + MAX_TEAMS
BOUT = ROUND + 1
BOUT_STARTER = BOUT + 1
NODE = BOUT_STARTER + 1
EFFECT = NODE + 1
LAW_DIR = EFFECT + 1
GIVE_LAW_DIR = LAW_DIR + 1
BLOCKED = GIVE_LAW_DIR + 1
VICTIM = BLOCKED + 1
TAKEN = VICTIM + 1
DREAM_PLAYER = TAKEN + 1
SECRET_HOLDER = DREAM_PLAYER + 1
SECRET_MODE = SECRET_HOLDER + 1
SECRET_PARTNER = SECRET_MODE + 1
ABS_ACTOR = SECRET_PARTNER + 1
ABS_TARGET = ABS_ACTOR + 1
ABS_GIVEN = ABS_TARGET + 1
LUCK_HOLDER = ABS_GIVEN + 1
NEXT_STARTER = LUCK_HOLDER + 1
PRIDE_LEFT = NEXT_STARTER + 1
LAST_BOUT_WINNER = PRIDE_LEFT + 1
LAST_ROUND_WINNER = LAST_BOUT_WINNER + 1
WINNING_TEAM = LAST_ROUND_WINNER + 1
DISCARD_COUNT = WINNING_TEAM + 1
DISCARD_LIST = DISCARD_COUNT + 1
START_ABSOLU = DISCARD_LIST + NUM_CARDS
# --- public per-round records (cleared at each deal) ---
ROUND_RECORDS = START_ABSOLU + MAX_SEATS
ABS_PAIRS = ROUND_RECORDS
SECRET_PAIRS = ABS_PAIRS + MAX_SEATS * MAX_SEATS
PLACER = SECRET_PAIRS + MAX_SEATS * MAX_SEATS
DISC_ORDER = PLACER + CARD_SLOTS
DISC_BOUT = DISC_ORDER + CARD_SLOTS
DISC_SEAT = DISC_BOUT + CARD_SLOTS
DISC_KIND = DISC_SEAT + CARD_SLOTS
LAST_HAND_SEAT = DISC_KIND + CARD_SLOTS
LAST_HAND_BOUT = LAST_HAND_SEAT + CARD_SLOTS
SEEN_FROM = LAST_HAND_BOUT + CARD_SLOTS
SHOWN_TO = SEEN_FROM + MAX_SEATS * CARD_SLOTS
ABS_RECV = SHOWN_TO + MAX_SEATS * CARD_SLOTS
ABS_GAVE = ABS_RECV + MAX_SEATS * CARD_SLOTS
EXCLUDED = ABS_GAVE + MAX_SEATS * CARD_SLOTS
LOG_LEN = EXCLUDED + KNOWERS * CARD_SLOTS
LOG = LOG_LEN + 1
PREV_LOG_LEN = LOG + LOG_CAP * LOG_FIELDS
PREV_LOG = PREV_LOG_LEN + 1
ROUND_RECORDS_END = PREV_LOG + LOG_CAP * LOG_FIELDS
# --- kept across the deal of a new round ---
REVEAL = ROUND_RECORDS_END
LAST_TABLE = REVEAL + CARD_SLOTS
END_LOC = LAST_TABLE + MAX_SEATS
LAST_DISCARD_COUNT = END_LOC + CARD_SLOTS
LAST_DISCARD_LIST = LAST_DISCARD_COUNT + 1
DECK = LAST_DISCARD_LIST + NUM_CARDS
STATE_SIZE = DECK + NUM_CARDS

# ---- observation layout (int8; documented in docs/presages.md) -------------------------
OBS_ME = 0
OBS_NUM_PLAYERS = 1
OBS_ROUND = 2
OBS_BOUT = 3
OBS_NODE = 4
OBS_CURRENT = 5
OBS_BOUT_STARTER = 6
OBS_LAW_DIR = 7
OBS_BLOCKED = 8
OBS_TAKEN = 9
OBS_VICTIM = 10
OBS_DREAM_PLAYER = 11
OBS_SECRET_HOLDER = 12
OBS_SECRET_MODE = 13
OBS_SECRET_PARTNER = 14
OBS_ABS_ACTOR = 15
OBS_ABS_TARGET = 16
OBS_ABS_MY_GIVEN = 17
OBS_LUCK_HOLDER = 18
OBS_LAST_BOUT_WINNER = 19
OBS_NEXT_STARTER = 20
OBS_LAST_ROUND_WINNER = 21
OBS_WINNING_TEAM = 22
OBS_EFFECT = 23
OBS_HAND_COUNTS = 24
OBS_TEAMS = OBS_HAND_COUNTS + MAX_SEATS
OBS_START_ABSOLU = OBS_TEAMS + MAX_SEATS
OBS_FRONT = OBS_START_ABSOLU + MAX_SEATS
OBS_ROUNDS_WON = OBS_FRONT + MAX_SEATS
OBS_ABS_PAIRS = OBS_ROUNDS_WON + MAX_TEAMS
OBS_SECRET_PAIRS = OBS_ABS_PAIRS + MAX_SEATS * MAX_SEATS
OBS_PLANES = OBS_SECRET_PAIRS + MAX_SEATS * MAX_SEATS
# card planes, NUM_CARDS entries each (entry c-1 is about card c)
PLANE_MY_HAND = 0
PLANE_ZONE = 1  # 0 hidden (a hand or set aside), 1 in play, 2 discarded, 3 in the box
PLANE_HOLDER = 2
PLANE_PLACER = 3
PLANE_DISC_ORDER = 4
PLANE_DISC_BOUT = 5
PLANE_DISC_SEAT = 6
PLANE_DISC_KIND = 7
PLANE_LAST_HAND_SEAT = 8
PLANE_LAST_HAND_BOUT = 9
PLANE_REVEAL = 10
PLANE_SEEN_FROM = 11
PLANE_SHOWN_TO = 12
PLANE_ABS_RECV = 13
PLANE_ABS_GAVE = 14
NUM_PLANES = 15
OBS_LOG = OBS_PLANES + NUM_PLANES * NUM_CARDS
OBS_PREV_LOG = OBS_LOG + LOG_CAP * LOG_FIELDS
OBS_SIZE = OBS_PREV_LOG + LOG_CAP * LOG_FIELDS

ZONE_HIDDEN = 0
ZONE_IN_PLAY = 1
ZONE_DISCARDED = 2
ZONE_BOX = 3


# =========================================================================================
# small helpers
# =========================================================================================
@nb.njit(cache=True)
def hand_size_for(num_players, team_size):
    """Cards dealt to a seat (Absolu included in round 1): 5 at 4p, 4 at 6p, 5/4 at 5p."""
    if num_players == 4:
        return 5
    if num_players == 6:
        return 4
    return 5 if team_size == 3 else 4


@nb.njit(cache=True)
def _team_size(state, team):
    size = 0
    for s in range(state[HDR_NUM_PLAYERS]):
        if state[TEAM + s] == team:
            size += 1
    return size


@nb.njit(cache=True)
def _holder(state, card):
    """Seat the card in play lies in front of."""
    return state[LOC + card] - LOC_FRONT


@nb.njit(cache=True)
def _in_play(state, card):
    loc = state[LOC + card]
    return LOC_FRONT <= loc < LOC_FRONT + MAX_SEATS


@nb.njit(cache=True)
def binding_direction(state):
    """Law's direction while Law lies in play; none once it has left play."""
    if _in_play(state, LAW):
        return state[LAW_DIR]
    return DIR_NONE


@nb.njit(cache=True)
def placement_direction(state):
    """Law's direction binding the placement now asked (§3.4); Betrayal's gift may be judged
    before the take by option (G3)."""
    if state[NODE] == NODE_BETRAYAL_GIVE and state[OPT_BETRAYAL_LAW_FIRST]:
        return state[GIVE_LAW_DIR]
    return binding_direction(state)


@nb.njit(cache=True)
def _empty_seats(state):
    count = 0
    for s in range(state[HDR_NUM_PLAYERS]):
        if state[FRONT + s] == 0:
            count += 1
    return count


@nb.njit(cache=True)
def _log(state, kind, a, b, card):
    """Append a public event to the bout log (a bout never needs more than LOG_CAP)."""
    k = state[LOG_LEN]
    if k < LOG_CAP:
        base = LOG + k * LOG_FIELDS
        state[base] = kind
        state[base + 1] = a
        state[base + 2] = b
        state[base + 3] = card
        state[LOG_LEN] = k + 1


@nb.njit(cache=True)
def _ask(state, node, seat):
    state[NODE] = node
    state[HDR_CURRENT] = seat


# =========================================================================================
# what each seat knows of the hidden cards (EXCLUDED; read by sample_world)
# =========================================================================================
@nb.njit(cache=True)
def _places(state):
    """Bits of every place a hidden card may be at this table (the hands, set aside)."""
    return ((1 << state[HDR_NUM_PLAYERS]) - 1) | ASIDE_BIT


@nb.njit(cache=True)
def _hidden(state, card):
    """The card is in a hand or set aside."""
    loc = state[LOC + card]
    return loc < state[HDR_NUM_PLAYERS] or loc == LOC_ASIDE


@nb.njit(cache=True)
def _is_knower(state, knower):
    return knower < state[HDR_NUM_PLAYERS] or knower == PUBLIC_KNOWER


@nb.njit(cache=True)
def _know_at(state, knower, card, seat):
    """``knower`` learns that ``card`` is in ``seat``'s hand."""
    state[EXCLUDED + knower * CARD_SLOTS + card] = _places(state) & ~(1 << seat)


@nb.njit(cache=True)
def _all_know_at(state, card, seat):
    """Everyone learns that ``card`` is in ``seat``'s hand (a public move or reveal)."""
    for knower in range(KNOWERS):
        if _is_knower(state, knower):
            _know_at(state, knower, card, seat)


@nb.njit(cache=True)
def _all_forget(state, card):
    """The card is face up now: what anyone knew of where it was hidden is void."""
    for knower in range(KNOWERS):
        state[EXCLUDED + knower * CARD_SLOTS + card] = 0


@nb.njit(cache=True)
def _all_know_not_at(state, card, seat):
    """Everyone but ``seat`` learns that the hidden ``card`` is not in ``seat``'s hand."""
    for knower in range(KNOWERS):
        if knower != seat and _is_knower(state, knower):
            state[EXCLUDED + knower * CARD_SLOTS + card] |= 1 << seat


@nb.njit(cache=True)
def _blur_exchange(state, actor, target):
    """For everyone but the two parties, a hidden card that may have been in either hand may
    now be in either (one card went each way, unseen)."""
    pair = (1 << actor) | (1 << target)
    for knower in range(KNOWERS):
        if knower in (actor, target) or not _is_knower(state, knower):
            continue
        for c in range(1, CARD_SLOTS):
            i = EXCLUDED + knower * CARD_SLOTS + c
            if _hidden(state, c) and (state[i] & pair) != pair:
                state[i] &= ~pair


@nb.njit(cache=True)
def _note_law(state, seat, card, excluded, direction):
    """A placement against Law's ``direction`` shows that ``seat`` held no card obeying it
    (but ``excluded``, the card Wrath returned or Betrayal took, §3.4)."""
    if direction == DIR_NONE or obeys(card, direction):
        return
    for c in range(1, CARD_SLOTS):
        if c != excluded and obeys(c, direction) and _hidden(state, c):
            _all_know_not_at(state, c, seat)


# =========================================================================================
# card movements
# =========================================================================================
@nb.njit(cache=True)
def _place_from_hand(state, card, placer, seat, events):
    """``placer`` puts ``card`` from their hand face up in front of ``seat``."""
    state[HAND_COUNT + placer] -= 1
    state[LOC + card] = LOC_FRONT + seat
    state[FRONT + seat] = card
    state[PLACER + card] = placer + 1
    state[LAST_HAND_SEAT + card] = 0
    state[LAST_HAND_BOUT + card] = 0
    _all_forget(state, card)
    _log(state, EV_PLACE, placer + 1, seat + 1, card)
    emit(events, EV_PLACE, placer, PUBLIC, seat, card, 0, 0, 0)


@nb.njit(cache=True)
def _lift_into_hand(state, card, seat):
    """A card in play goes (publicly) into ``seat``'s hand; Law leaving play ends its rule."""
    state[FRONT + _holder(state, card)] = 0
    state[LOC + card] = seat
    state[HAND_COUNT + seat] += 1
    state[PLACER + card] = 0
    state[LAST_HAND_SEAT + card] = seat + 1
    state[LAST_HAND_BOUT + card] = state[BOUT]
    _all_know_at(state, card, seat)
    if card == LAW:
        state[LAW_DIR] = DIR_NONE


@nb.njit(cache=True)
def _discard(state, card, seat, kind):
    """Put ``card`` (in front of ``seat`` or in its hand) on the discard pile."""
    if _in_play(state, card):
        state[FRONT + seat] = 0
        state[PLACER + card] = 0
    else:
        state[HAND_COUNT + seat] -= 1
    state[LOC + card] = LOC_DISCARD
    count = state[DISCARD_COUNT]
    state[DISCARD_LIST + count] = card
    state[DISCARD_COUNT] = count + 1
    state[DISC_ORDER + card] = count + 1
    state[DISC_BOUT + card] = state[BOUT]
    state[DISC_SEAT + card] = seat + 1
    state[DISC_KIND + card] = kind
    state[LAST_HAND_SEAT + card] = 0
    state[LAST_HAND_BOUT + card] = 0
    _all_forget(state, card)


# =========================================================================================
# dealing and starting rounds and bouts
# =========================================================================================
@nb.njit(cache=True)
def _clear_pending(state):
    state[EFFECT] = 0
    state[GIVE_LAW_DIR] = DIR_NONE
    state[BLOCKED] = 0
    state[VICTIM] = -1
    state[TAKEN] = 0
    state[DREAM_PLAYER] = -1
    state[SECRET_HOLDER] = -1
    state[SECRET_MODE] = 0
    state[SECRET_PARTNER] = -1
    state[ABS_ACTOR] = -1
    state[ABS_TARGET] = -1
    state[ABS_GIVEN] = 0
    state[LUCK_HOLDER] = -1


@nb.njit(cache=True)
def _start_bout(state, starter):
    """Clear the table records of the last bout (kept as the previous-bout log)."""
    state[PREV_LOG_LEN] = state[LOG_LEN]
    for i in range(LOG_CAP * LOG_FIELDS):
        state[PREV_LOG + i] = state[LOG + i]
        state[LOG + i] = 0
    state[LOG_LEN] = 0
    state[LAW_DIR] = DIR_NONE
    _clear_pending(state)
    state[BOUT_STARTER] = starter
    _ask(state, NODE_PLACE, starter)


@nb.njit(cache=True)
def _begin_round(state):
    """Clear the per-round records and count hands; LOC already holds the new deal."""
    for i in range(ROUND_RECORDS, ROUND_RECORDS_END):
        state[i] = 0
    for s in range(MAX_SEATS):
        state[FRONT + s] = 0
        state[HAND_COUNT + s] = 0
    for c in range(1, CARD_SLOTS):
        loc = state[LOC + c]
        if loc < MAX_SEATS:
            state[HAND_COUNT + loc] += 1
    state[DISCARD_COUNT] = 0
    for i in range(NUM_CARDS):
        state[DISCARD_LIST + i] = 0
    state[BOUT] = 1
    state[LAST_BOUT_WINNER] = -1
    state[NEXT_STARTER] = -1
    state[PRIDE_LEFT] = -1


@nb.njit(cache=True)
def _deal_hands(state, deck_size, first_round, events):
    """Deal DECK[:deck_size] (already shuffled) seat by seat; the rest is set aside."""
    n = state[HDR_NUM_PLAYERS]
    pos = 0
    for s in range(n):
        want = hand_size_for(n, _team_size(state, state[TEAM + s]))
        if first_round:
            want -= 1  # the face-up Absolu is already in hand
        for _ in range(want):
            if pos < deck_size:
                state[LOC + state[DECK + pos]] = s
                emit(events, EV_DEALT, -1, seat_bit(s), s, state[DECK + pos], 0, 0, 0)
                pos += 1
    for i in range(pos, deck_size):
        state[LOC + state[DECK + i]] = LOC_ASIDE


@nb.njit(cache=True)
def form_teams(state):
    """Teams from the face-up Absolus (§2.1): team 0 holds the highest Absolu."""
    n = state[HDR_NUM_PLAYERS]
    if n == 6:
        state[NUM_TEAMS] = 3
        for s in range(n):
            v = state[START_ABSOLU + s]
            state[TEAM + s] = min(v - FIRST_ABSOLUTE, LAST_ABSOLUTE - v)
        return
    state[NUM_TEAMS] = 2
    high = 0
    low = 0
    for s in range(n):
        state[TEAM + s] = 1
        if state[START_ABSOLU + s] > state[START_ABSOLU + high]:
            high = s
        if state[START_ABSOLU + s] < state[START_ABSOLU + low]:
            low = s
    state[TEAM + high] = 0
    state[TEAM + low] = 0


@nb.njit(cache=True)
def _deal_first_round(state, events):
    """§2.1-2.2: one face-up Absolu each, teams, then the rest of the hand from 1..29."""
    n = state[HDR_NUM_PLAYERS]
    for i in range(6):
        state[DECK + i] = FIRST_ABSOLUTE + i
    rng_shuffle(state, state[DECK : DECK + 6], 6)
    starter = 0
    for i in range(6):
        card = state[DECK + i]
        if i < n:
            state[LOC + card] = i
            state[START_ABSOLU + i] = card
            if card > state[START_ABSOLU + starter]:
                starter = i
        else:
            state[LOC + card] = LOC_BOX
    form_teams(state)
    for s in range(n):
        card = state[START_ABSOLU + s]
        emit(events, EV_FACE_UP, -1, PUBLIC, s, card, state[TEAM + s], 0, 0)
    for i in range(FIRST_ABSOLUTE - 1):
        state[DECK + i] = i + 1
    rng_shuffle(state, state[DECK : DECK + FIRST_ABSOLUTE - 1], FIRST_ABSOLUTE - 1)
    _deal_hands(state, FIRST_ABSOLUTE - 1, True, events)
    _begin_round(state)
    _record_face_up_absolus(state)
    return starter


@nb.njit(cache=True)
def _record_face_up_absolus(state):
    """The round-1 Absolus were dealt face up: their entry into hands is public."""
    for s in range(state[HDR_NUM_PLAYERS]):
        card = state[START_ABSOLU + s]
        if card > 0 and state[LOC + card] == s:
            state[LAST_HAND_SEAT + card] = s + 1
            state[LAST_HAND_BOUT + card] = 0
            _all_know_at(state, card, s)


@nb.njit(cache=True)
def _deal_later_round(state, events):
    """§2.4: every card in use (not the box) is shuffled and dealt without a guaranteed Absolu."""
    size = 0
    for c in range(1, CARD_SLOTS):
        if state[LOC + c] != LOC_BOX:
            state[DECK + size] = c
            size += 1
    rng_shuffle(state, state[DECK : DECK + NUM_CARDS], size)
    _deal_hands(state, size, False, events)
    _begin_round(state)


@nb.njit(cache=True)
def reset(state, seed):
    """Deal a new game: teams from the face-up Absolus, round 1, first bout."""
    reset_logged(state, seed, None)


@nb.njit(cache=True)
def reset_logged(state, seed, events):
    """``reset``, writing its events (the face-up Absolus, the deal) to ``events``."""
    rng_seed(state, seed)
    write_seed(state, seed)
    set_step(state, 0)
    state[HDR_TERMINAL] = 0
    for i in range(GAME_START, STATE_SIZE):
        state[i] = 0
    state[ROUND] = 1
    state[LAST_ROUND_WINNER] = -1
    state[WINNING_TEAM] = -1
    emit(events, EV_ROUND_START, -1, PUBLIC, 1, 0, 0, 0, 0)
    starter = _deal_first_round(state, events)
    emit(events, EV_BOUT_START, -1, PUBLIC, 1, starter, 0, 0, 0)
    _start_bout(state, starter)


@nb.njit(cache=True)
def start_position(state, seed, starter):
    """Start a bout at a position written by ``game.setup_position`` (LOC, teams, round...)."""
    rng_seed(state, seed)
    write_seed(state, seed)
    set_step(state, 0)
    state[HDR_TERMINAL] = 0
    state[LAST_ROUND_WINNER] = -1
    state[WINNING_TEAM] = -1
    _begin_round(state)
    _record_face_up_absolus(state)
    _start_bout(state, starter)


# =========================================================================================
# ⚡ effects and turn order
# =========================================================================================
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
        if dream_moves and _empty_seats(state) > 0:
            _ask(state, NODE_DREAM_DEST, resolver)
            return True
    elif card == LAW:
        if _empty_seats(state) > 0:
            _ask(state, NODE_LAW_DIR, resolver)
            return True
    elif card in (WRATH, BETRAYAL, JEALOUSY):
        if _has_pick(state, resolver, card):
            if card == WRATH:
                _ask(state, NODE_WRATH_PICK, resolver)
            elif card == BETRAYAL:
                _ask(state, NODE_BETRAYAL_TAKE, resolver)
            else:
                _ask(state, NODE_JEALOUSY_PICK, resolver)
            return True
    elif card == SECRET:
        state[SECRET_HOLDER] = resolver
        _ask(state, NODE_SECRET_MODE, resolver)
        return True
    elif card >= FIRST_ABSOLUTE:
        state[ABS_ACTOR] = resolver
        _ask(state, NODE_ABSOLUTE_TARGET, resolver)
        return True
    state[EFFECT] = 0
    return False


@nb.njit(cache=True)
def _after_placement(state, card, resolver, dream_moves, rewards, events):
    if not _start_flash(state, card, resolver, dream_moves):
        _continue_bout(state, rewards, events)


@nb.njit(cache=True)
def _continue_bout(state, rewards, events):
    """§3.1: the next actor is the first seat clockwise from the starter with no card."""
    _clear_pending(state)
    n = state[HDR_NUM_PLAYERS]
    starter = state[BOUT_STARTER]
    for k in range(n):
        seat = (starter + k) % n
        if state[FRONT + seat] == 0:
            _ask(state, NODE_PLACE, seat)
            return
    _end_bout(state, rewards, events)


# =========================================================================================
# end of bout (§4.1), round end (§4.3) and game end (§4.4)
# =========================================================================================
@nb.njit(cache=True)
def winning_card(state, has_mirror, has_sadness):
    """§4.1 step 1: lowest under Mirror, second-highest under Sadness, else highest."""
    n = state[HDR_NUM_PLAYERS]
    low = 99
    high = 0
    second = 0
    for s in range(n):
        c = state[FRONT + s]
        low = min(low, c)
        if c > high:
            second = high
            high = c
        elif c > second:
            second = c
    if has_mirror:
        return low
    if has_sadness:
        return second
    return high


@nb.njit(cache=True)
def discard_set(state, winner):
    """§4.1 step 3 as a bit set over card values: the winner plus every ⏳ mark but Fear.

    Every condition reads the complete table, so a card being discarded still marks.
    """
    n = state[HDR_NUM_PLAYERS]
    lowest = 99
    has_absolu = False
    greens, green_low, green_high = 0, 99, 0
    yellows, yellow_low, yellow_high = 0, 99, 0
    reds, red_low, red_high = 0, 99, 0
    blues = 0
    for s in range(n):
        c = state[FRONT + s]
        colour = COLOURS[c]
        lowest = min(lowest, c)
        has_absolu = has_absolu or c >= FIRST_ABSOLUTE
        if colour & GREEN:
            greens += 1
            green_low, green_high = min(green_low, c), max(green_high, c)
        if colour & YELLOW:
            yellows += 1
            yellow_low, yellow_high = min(yellow_low, c), max(yellow_high, c)
        if colour & RED:
            reds += 1
            red_low, red_high = min(red_low, c), max(red_high, c)
        if colour & BLUE:
            blues += 1
    marks = np.int64(0)
    for s in range(n):
        e = state[FRONT + s]
        target = 0
        if e == 1:  # Life: highest green
            target = green_high
        elif e == 2:  # Love: another green in play
            target = e if greens >= 2 else 0
        elif e == 3:  # Friendship: a yellow in play
            target = e if yellows >= 1 else 0
        elif e == 4:  # Calm: a red in play
            target = e if reds >= 1 else 0
        elif e == 5:  # Feast: a blue in play
            target = e if blues >= 1 else 0
        elif e == 6:  # Hope: lowest card in play
            target = e if lowest == e else 0
        elif e == 7:  # Spring: only green
            target = e if greens == 1 else 0
        elif e == 8:  # Death: lowest green
            target = green_low
        elif e == 9:  # Lie: highest yellow
            target = yellow_high
        elif e == ENIGMA:  # an Absolu in play
            target = e if has_absolu else 0
        elif e == 11:  # Summer: only yellow
            target = e if yellows == 1 else 0
        elif e == 16:  # Truth: lowest yellow
            target = yellow_low
        elif e == 18:  # Day: highest red
            target = red_high
        elif e == 19:  # Autumn: only red
            target = e if reds == 1 else 0
        elif e == 20:  # Harmony: lowest card
            target = lowest
        elif e == 25:  # Night: lowest red
            target = red_low
        elif e == 27:  # Winter: every yellow
            for t in range(n):
                c = state[FRONT + t]
                if COLOURS[c] & YELLOW:
                    marks |= np.int64(1) << c
        if target > 0:
            marks |= np.int64(1) << target
    marks &= ~(np.int64(1) << FEAR)
    return marks | (np.int64(1) << winner)


@nb.njit(cache=True)
def _end_bout(state, rewards, events):
    """§4.1 exactly: winner, discard set, next starter, moves, Luck, round-end check."""
    n = state[HDR_NUM_PLAYERS]
    winner_card = winning_card(state, _in_play(state, MIRROR), _in_play(state, SADNESS))
    if state[OPT_WINNER_IS_PLACER]:
        winner = state[PLACER + winner_card] - 1
    else:
        winner = _holder(state, winner_card)
    discards = discard_set(state, winner_card)
    next_starter = winner
    state[PRIDE_LEFT] = -1
    if _in_play(state, PRIDE):
        next_starter = (_holder(state, PRIDE) + 1) % n
        state[PRIDE_LEFT] = next_starter
    luck_holder = -1
    if discards & (np.int64(1) << LUCK):
        luck_holder = _holder(state, LUCK)
    for s in range(MAX_SEATS):
        card = state[FRONT + s]
        state[LAST_TABLE + s] = -card if discards & (np.int64(1) << card) else card
    # the winning card goes first on the pile, then the others from the starter clockwise
    emit(events, EV_BOUT_END, -1, PUBLIC, winner, next_starter, winner_card, 0, 0)
    winner_seat = _holder(state, winner_card)
    _discard(state, winner_card, winner_seat, KIND_WINNER)
    emit(events, EV_DISCARDED, -1, PUBLIC, winner_seat, winner_card, KIND_WINNER, 0, 0)
    starter = state[BOUT_STARTER]
    for k in range(n):
        seat = (starter + k) % n
        card = state[FRONT + seat]
        if card == 0:
            continue
        if discards & (np.int64(1) << card):
            _discard(state, card, seat, KIND_MARKED)
            emit(events, EV_DISCARDED, -1, PUBLIC, seat, card, KIND_MARKED, 0, 0)
        else:
            _lift_into_hand(state, card, seat)
            emit(events, EV_RETURNED, -1, PUBLIC, seat, card, 0, 0, 0)
    state[LAW_DIR] = DIR_NONE
    state[LAST_BOUT_WINNER] = winner
    state[NEXT_STARTER] = next_starter
    _log(state, EV_BOUT_END, winner + 1, next_starter + 1, winner_card)
    _clear_pending(state)
    if luck_holder >= 0:
        for c in range(1, CARD_SLOTS):
            if c != FEAR and state[LOC + c] == luck_holder:
                if state[HAND_COUNT + luck_holder] == 1 and _hidden(state, FEAR):
                    _all_know_not_at(state, FEAR, luck_holder)  # asked: the one card is not Fear
                state[LUCK_HOLDER] = luck_holder
                _ask(state, NODE_LUCK_DISCARD, luck_holder)
                return
    _after_bout(state, rewards, events)


@nb.njit(cache=True)
def _round_winner(state):
    """§4.3: a 0-card seat (lowest index) beats every 1-card seat; else the highest single."""
    n = state[HDR_NUM_PLAYERS]
    best = -1
    best_card = -1
    for s in range(n):
        if state[HAND_COUNT + s] == 0:
            return s
    for s in range(n):
        if state[HAND_COUNT + s] == 1:
            for c in range(1, CARD_SLOTS):
                if state[LOC + c] == s and c > best_card:
                    best_card = c
                    best = s
    return best


@nb.njit(cache=True)
def _reveal_round_end(state, events):
    """Keep the final card locations and show the ≤1-card hands (or all, by option)."""
    n = state[HDR_NUM_PLAYERS]
    for c in range(1, CARD_SLOTS):
        loc = state[LOC + c]
        state[END_LOC + c] = loc
        state[REVEAL + c] = 0
        if loc < n and (state[OPT_REVEAL_ALL] or state[HAND_COUNT + loc] <= 1):
            state[REVEAL + c] = loc + 1
            emit(events, EV_REVEALED, loc, PUBLIC, loc, c, 0, 0, 0)
            _all_know_at(state, c, loc)
    state[LAST_DISCARD_COUNT] = state[DISCARD_COUNT]
    for i in range(NUM_CARDS):
        state[LAST_DISCARD_LIST + i] = state[DISCARD_LIST + i]


@nb.njit(cache=True)
def _team_rewards(state, team, amount, rewards):
    for s in range(state[HDR_NUM_PLAYERS]):
        rewards[s] += amount if state[TEAM + s] == team else -amount


@nb.njit(cache=True)
def _after_bout(state, rewards, events):
    """§4.1 step 7: end the round if a hand holds ≤ 1 card, else start the next bout."""
    n = state[HDR_NUM_PLAYERS]
    round_over = False
    for s in range(n):
        if state[HAND_COUNT + s] <= 1:
            round_over = True
    if not round_over:
        state[BOUT] += 1
        emit(events, EV_BOUT_START, -1, PUBLIC, state[BOUT], state[NEXT_STARTER], 0, 0, 0)
        _start_bout(state, state[NEXT_STARTER])
        return
    winner = _round_winner(state)
    team = state[TEAM + winner]
    state[LAST_ROUND_WINNER] = winner
    _reveal_round_end(state, events)
    shaping = np.int64(load_wide(state, OPT_ROUND_REWARD_MILLI, ROUND_REWARD_SLOTS))
    if shaping != 0:
        _team_rewards(state, team, np.float32(shaping / 1000.0), rewards)
    state[ROUNDS_WON + team] += 1
    emit(events, EV_ROUND_WON, winner, PUBLIC, winner, team, state[ROUNDS_WON + team], 0, 0)
    if state[ROUNDS_WON + team] >= 2:
        state[WINNING_TEAM] = team
        emit(events, EV_GAME_WON, -1, PUBLIC, team, 0, 0, 0, 0)
        state[HDR_TERMINAL] = 1
        _clear_pending(state)
        _ask(state, NODE_GAME_OVER, -1)
        _team_rewards(state, team, np.float32(1.0), rewards)
        return
    starter = winner
    if state[OPT_PRIDE_CARRIES] and state[PRIDE_LEFT] >= 0:
        starter = state[PRIDE_LEFT]
    state[ROUND] += 1
    emit(events, EV_ROUND_START, -1, PUBLIC, state[ROUND], 0, 0, 0, 0)
    _deal_later_round(state, events)
    emit(events, EV_BOUT_START, -1, PUBLIC, 1, starter, 0, 0, 0)
    _start_bout(state, starter)  # the new round's logs were cleared by the deal


# =========================================================================================
# the four kernels
# =========================================================================================
@nb.njit(cache=True)
def obeys(card, direction):
    return direction == DIR_NONE or (direction == DIR_BELOW) == (card < LAW)


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
    mask[:] = 0
    if state[HDR_TERMINAL]:
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
def _step_secret(state, node, action, rewards, events):
    holder = state[SECRET_HOLDER]
    if node == NODE_SECRET_MODE:
        state[SECRET_MODE] = MODE_SHOW if action == SECRET_SHOW else MODE_ASK
        emit(events, EV_SECRET_MODE, holder, PUBLIC, state[SECRET_MODE], 0, 0, 0, 0)
        _ask(state, NODE_SECRET_TARGET, holder)
        return
    if node == NODE_SECRET_TARGET:
        partner = action - SEAT_ACTION_BASE
        state[SECRET_PARTNER] = partner
        shower = holder if state[SECRET_MODE] == MODE_SHOW else partner
        emit(events, EV_SECRET_TARGET, holder, PUBLIC, partner, shower, 0, 0, 0)
        if state[HAND_COUNT + shower] > 0:
            _ask(state, NODE_SECRET_CARD, shower)
            return
        _continue_bout(state, rewards, events)  # nothing to show (cannot happen, §3.3)
        return
    card = action + 1 - CARD_ACTION_BASE
    shower = state[HDR_CURRENT]
    viewer = state[SECRET_PARTNER] if shower == holder else holder
    state[SEEN_FROM + viewer * CARD_SLOTS + card] = shower + 1
    _know_at(state, viewer, card, shower)
    state[SHOWN_TO + shower * CARD_SLOTS + card] = viewer + 1
    pair = SECRET_PAIRS + shower * MAX_SEATS + viewer
    state[pair] = min(state[pair] + 1, PAIR_COUNT_MAX)
    _log(state, EV_SECRET, shower + 1, viewer + 1, 0)
    emit(events, EV_SECRET, shower, PUBLIC, shower, viewer, 0, 0, 0)
    both = seat_bit(shower) | seat_bit(viewer)
    emit(events, EV_SECRET_CARD, shower, both, shower, viewer, card, 0, 0)
    _continue_bout(state, rewards, events)


@nb.njit(cache=True)
def _step_absolute(state, node, action, rewards, events):
    actor = state[ABS_ACTOR]
    if node == NODE_ABSOLUTE_TARGET:
        target = action - SEAT_ACTION_BASE
        state[ABS_TARGET] = target
        emit(events, EV_ABSOLU_TARGET, actor, PUBLIC, target, 0, 0, 0, 0)
        if state[HAND_COUNT + actor] > 0 and state[HAND_COUNT + target] > 0:
            _ask(state, NODE_ABSOLUTE_GIVE, actor)
            return
        # an empty hand cannot exchange (cannot happen, §3.3)
        _continue_bout(state, rewards, events)
        return
    card = action + 1 - CARD_ACTION_BASE
    target = state[ABS_TARGET]
    if node == NODE_ABSOLUTE_GIVE:
        state[ABS_GIVEN] = card
        # everyone sees that a card was committed; only the actor which (§3.7)
        emit(events, EV_ABSOLU_COMMIT, actor, PUBLIC, target, 0, 0, 0, 0)
        emit(events, EV_ABSOLU_COMMIT_CARD, actor, seat_bit(actor), target, card, 0, 0, 0)
        _ask(state, NODE_ABSOLUTE_RETURN, target)
        return
    given = state[ABS_GIVEN]
    state[LOC + given] = target
    state[LOC + card] = actor
    state[ABS_GAVE + actor * CARD_SLOTS + given] = target + 1
    state[ABS_RECV + target * CARD_SLOTS + given] = actor + 1
    state[ABS_GAVE + target * CARD_SLOTS + card] = actor + 1
    state[ABS_RECV + actor * CARD_SLOTS + card] = target + 1
    _blur_exchange(state, actor, target)
    _know_at(state, actor, given, target)
    _know_at(state, actor, card, actor)
    _know_at(state, target, card, actor)
    _know_at(state, target, given, target)
    pair = ABS_PAIRS + actor * MAX_SEATS + target
    state[pair] = min(state[pair] + 1, PAIR_COUNT_MAX)
    _log(state, EV_ABSOLU, actor + 1, target + 1, 0)
    emit(events, EV_ABSOLU, actor, PUBLIC, actor, target, 0, 0, 0)
    both = seat_bit(actor) | seat_bit(target)
    emit(events, EV_ABSOLU_CARDS, target, both, actor, target, given, card, 0)
    _continue_bout(state, rewards, events)


@nb.njit(cache=True)
def _step_table(state, node, action, rewards, events):
    """Wrath, Betrayal and Jealousy: the picked card in front of another seat."""
    seat = state[HDR_CURRENT]
    card = action + 1 - CARD_ACTION_BASE
    victim = _holder(state, card)
    if node == NODE_WRATH_PICK:
        _lift_into_hand(state, card, victim)
        _log(state, EV_WRATH, seat + 1, victim + 1, card)
        emit(events, EV_WRATH, seat, PUBLIC, victim, card, 0, 0, 0)
        state[BLOCKED] = card
        state[VICTIM] = victim
        state[EFFECT] = 0
        _ask(state, NODE_WRATH_REPLACE, victim)
    elif node == NODE_BETRAYAL_TAKE:
        state[GIVE_LAW_DIR] = binding_direction(state)
        _lift_into_hand(state, card, seat)
        _log(state, EV_BETRAYAL, seat + 1, victim + 1, card)
        emit(events, EV_BETRAYAL, seat, PUBLIC, victim, card, 0, 0, 0)
        state[TAKEN] = card
        state[VICTIM] = victim
        state[EFFECT] = 0
        _ask(state, NODE_BETRAYAL_GIVE, seat)
    else:
        jealous_seat = _holder(state, JEALOUSY)
        state[FRONT + jealous_seat] = card
        state[LOC + card] = LOC_FRONT + jealous_seat
        state[FRONT + victim] = JEALOUSY
        state[LOC + JEALOUSY] = LOC_FRONT + victim
        _log(state, EV_JEALOUSY, seat + 1, victim + 1, card)
        emit(events, EV_JEALOUSY, seat, PUBLIC, victim, card, 0, 0, 0)
        _continue_bout(state, rewards, events)


@nb.njit(cache=True)
def step(state, action, rewards):
    """Apply the current seat's legal ``action`` and advance to the next decision."""
    step_logged(state, action, rewards, None)


@nb.njit(cache=True)
def step_logged(state, action, rewards, events):
    """``step``, writing its events to ``events`` (core/events.py)."""
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
        _note_law(state, seat, card, excluded, placement_direction(state))
    if node in (NODE_PLACE, NODE_WRATH_REPLACE):
        state[BLOCKED] = 0
        _place_from_hand(state, card, seat, seat, events)
        _after_placement(state, card, seat, True, rewards, events)
    elif node == NODE_DREAM_DEST:
        target = action - SEAT_ACTION_BASE
        emit(events, EV_DREAM, seat, PUBLIC, target, 0, 0, 0, 0)
        if target == seat:
            _continue_bout(state, rewards, events)
            return
        state[FRONT + seat] = 0
        state[FRONT + target] = DREAM
        state[LOC + DREAM] = LOC_FRONT + target
        _log(state, EV_DREAM, seat + 1, target + 1, DREAM)
        state[EFFECT] = 0
        state[DREAM_PLAYER] = seat
        _ask(state, NODE_DREAM_REPLY, target)
    elif node == NODE_DREAM_REPLY:
        dreamer = state[DREAM_PLAYER]
        state[DREAM_PLAYER] = -1
        _place_from_hand(state, card, seat, dreamer, events)
        resolver = seat if state[OPT_DREAM_BY_TARGET] else dreamer
        _after_placement(state, card, resolver, False, rewards, events)
    elif node == NODE_LAW_DIR:
        state[LAW_DIR] = DIR_BELOW if action == LAW_BELOW else DIR_ABOVE
        _log(state, EV_LAW, seat + 1, state[LAW_DIR], LAW)
        emit(events, EV_LAW, seat, PUBLIC, state[LAW_DIR], 0, 0, 0, 0)
        _continue_bout(state, rewards, events)
    elif node in (NODE_WRATH_PICK, NODE_BETRAYAL_TAKE, NODE_JEALOUSY_PICK):
        _step_table(state, node, action, rewards, events)
    elif node == NODE_BETRAYAL_GIVE:
        victim = state[VICTIM]
        state[TAKEN] = 0
        _place_from_hand(state, card, seat, victim, events)
        _after_placement(state, card, victim, False, rewards, events)
    elif node in (NODE_SECRET_MODE, NODE_SECRET_TARGET, NODE_SECRET_CARD):
        _step_secret(state, node, action, rewards, events)
    elif node == NODE_LUCK_DISCARD:
        _discard(state, card, seat, KIND_LUCK)
        _log(state, EV_LUCK, seat + 1, 0, card)
        emit(events, EV_LUCK, seat, PUBLIC, card, 0, 0, 0, 0)
        state[LUCK_HOLDER] = -1
        _after_bout(state, rewards, events)
    else:
        _step_absolute(state, node, action, rewards, events)


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


# =========================================================================================
# determinisation for search
# =========================================================================================
# ---- global state (a referee's view, for centralised critics; docs/research.md) ----------
# Every seat's observation, then the state's slots up to GLOBAL_SLOTS_END minus the RNG and
# seed (core/global_state.py): every card's location (LOC: hands, the cards set
# aside, the box), the pending choices (ABS_GIVEN ...), every seat's private memories; the shuffle
# scratch (DECK) is left out.
GLOBAL_DTYPE = STATE_DTYPE  # the observation's dtype too
GLOBAL_SEATS = MAX_SEATS
GLOBAL_SLOTS_END = DECK
GLOBAL_SLOTS, GLOBAL_SIZE, global_state = bind_global_state(__name__, np.int8)


SAMPLE_TRIES = 64  # rejection rounds before the counted deal (both are exact)
PLACES = MAX_SEATS + 1  # the hands, then the set-aside cards


@nb.njit(cache=True)
def sample_world(state, player, seed, world):
    """Write into ``world`` a full state drawn uniformly among those ``player`` cannot tell
    apart from ``state`` (docs/presages.md, "What a seat knows").

    Kept: everything public and ``player``'s hand and memories. The other hidden cards (the
    other hands and the set-aside cards) are dealt again into the same hand sizes and
    set-aside count, each card only to a place ``player`` does not know it is not in
    (``EXCLUDED``: public moves into hands, cards a Secret showed ``player``, the two cards of
    each of its Absolu exchanges, what a placement against Law or the Luck discard showed,
    round-end reveals). The cards confined to one place go there; the rest are dealt by
    rejection (a uniform shuffle, kept if every card lies where it may; exact), and after
    ``SAMPLE_TRIES`` rejected shuffles by sequential dealing with counted completions (exact
    up to float64 rounding of the counts). A pending Absolu card ``player`` did not commit is
    drawn uniformly from the actor's new hand. The other seats' private memories that do not
    involve ``player`` (which ``player`` does not know) are cleared, and their knowledge rows
    are the public one, which every world satisfies. The RNG is re-seeded from ``seed``; the
    shuffle scratch and the last round's final hands are cleared.
    """
    world[:] = state
    rng_seed(world, seed)
    write_seed(world, seed)
    n = state[HDR_NUM_PLAYERS]
    room = np.zeros(PLACES, dtype=np.int64)
    cards = np.zeros(NUM_CARDS, dtype=np.int64)
    allowed = np.zeros(NUM_CARDS, dtype=np.int64)
    free = 0
    places = _places(state) & ~(1 << player)
    for c in range(1, CARD_SLOTS):
        world[END_LOC + c] = LOC_ASIDE
        loc = state[LOC + c]
        if not ((loc < n and loc != player) or loc == LOC_ASIDE):
            continue
        may = places & ~state[EXCLUDED + player * CARD_SLOTS + c]
        if may & (may - 1) == 0:  # one place (or none, if the state lies): keep it there
            continue
        cards[free] = c
        allowed[free] = may
        free += 1
        room[loc if loc < n else MAX_SEATS] += 1
    if free > 0 and not _deal_by_rejection(world, cards, allowed, room, free):
        _deal_by_counting(world, cards, allowed, room, free)
    for i in range(NUM_CARDS):
        world[DECK + i] = 0
    actor = state[ABS_ACTOR]
    if state[NODE] == NODE_ABSOLUTE_RETURN and actor != player:
        _redraw_committed_card(world, actor)
    _forget_others(world, player)


@nb.njit(cache=True)
def _place_of(place):
    return place if place < MAX_SEATS else LOC_ASIDE


@nb.njit(cache=True)
def _deal_by_rejection(world, cards, allowed, room, free):
    """Shuffle the free cards into the free places; keep the first shuffle where every card
    lies where it may (uniform among those). False after ``SAMPLE_TRIES`` failures."""
    for _ in range(SAMPLE_TRIES):
        for i in range(free):
            world[DECK + i] = cards[i]
        rng_shuffle(world, world[DECK : DECK + NUM_CARDS], free)
        pos = 0
        fits = True
        for place in range(PLACES):
            for _ in range(room[place]):
                c = world[DECK + pos]
                pos += 1
                for i in range(free):
                    if cards[i] == c and not allowed[i] & (1 << place):
                        fits = False
        if fits:
            pos = 0
            for place in range(PLACES):
                for _ in range(room[place]):
                    world[LOC + world[DECK + pos]] = _place_of(place)
                    pos += 1
            return True
    return False


@nb.njit(cache=True)
def _deal_by_counting(world, cards, allowed, room, free):
    """Deal the free cards one by one, each to a place with probability proportional to the
    number of ways to place the cards after it (counted backwards over the rooms left)."""
    stride = np.ones(PLACES + 1, dtype=np.int64)
    for place in range(PLACES):
        stride[place + 1] = stride[place] * (room[place] + 1)
    size = stride[PLACES]
    ways = np.zeros((free + 1, size), dtype=np.float64)
    ways[free, 0] = 1.0
    for i in range(free - 1, -1, -1):
        for index in range(size):
            total = 0.0
            for place in range(PLACES):
                left = (index // stride[place]) % (room[place] + 1)
                if left > 0 and allowed[i] & (1 << place):
                    total += ways[i + 1, index - stride[place]]
            ways[i, index] = total
    index = size - 1  # every room full
    for i in range(free):
        target = _rng_unit(world) * ways[i, index]
        chosen = -1
        for place in range(PLACES):
            left = (index // stride[place]) % (room[place] + 1)
            if left > 0 and allowed[i] & (1 << place):
                weight = ways[i + 1, index - stride[place]]
                if weight > 0.0:
                    chosen = place
                    if target < weight:
                        break
                    target -= weight
        if chosen < 0:  # no completion: the state's knowledge lies; keep the card
            continue
        world[LOC + cards[i]] = _place_of(chosen)
        index -= stride[chosen]


@nb.njit(cache=True)
def _rng_unit(world):
    """A float in [0, 1) from the world's RNG (53 random bits)."""
    return np.float64(rng_next(world) >> np.uint64(11)) / 9007199254740992.0


@nb.njit(cache=True)
def _forget_others(world, player):
    """Clear the other seats' memories ``player`` has no part in; their knowledge rows become
    the public one (``player``'s own row and the public row are kept)."""
    mine = player + 1
    for p in range(MAX_SEATS):
        if p == player:
            continue
        for c in range(CARD_SLOTS):
            for block in (SEEN_FROM, SHOWN_TO, ABS_RECV, ABS_GAVE):
                i = block + p * CARD_SLOTS + c
                if world[i] != mine:
                    world[i] = 0
            if _is_knower(world, p):
                world[EXCLUDED + p * CARD_SLOTS + c] = world[
                    EXCLUDED + PUBLIC_KNOWER * CARD_SLOTS + c
                ]


@nb.njit(cache=True)
def _redraw_committed_card(world, actor):
    """A uniformly drawn card of the actor's hand replaces the committed Absolu card."""
    pick = rng_below(world, world[HAND_COUNT + actor])
    for c in range(1, CARD_SLOTS):
        if world[LOC + c] == actor:
            if pick == 0:
                world[ABS_GIVEN] = c
                return
            pick -= 1
