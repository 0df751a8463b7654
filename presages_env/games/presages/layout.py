"""Présages state, action, observation and event layouts: every named offset, in one place.

The kernel modules (``kernel.py`` entry points, ``table.py``, ``deals.py``, ``scoring.py``,
``effects.py``, ``beliefs.py``) all index the state through these names.

State layout (``int8``, ``STATE_DTYPE``; slots after the shared header of
:mod:`presages_env.core.header`). Per-card arrays have 36 entries indexed by card value
(entry 0 unused); per-seat arrays have ``MAX_SEATS`` entries whatever the player count.
"seat+1" slots hold 0 for "nobody". Every slot fits a signed byte: card values are at most
35, locations 18, seats 6, bouts of a round at most the 30 cards in hands (each bout
discards one), rounds 4; the two exceptions are handled explicitly: the per-round pair
counters saturate at ``PAIR_COUNT_MAX`` (127; the observation showed them clipped there
already), and the shaping option, up to 1000 thousandths, spans two slots (a wide field,
read with :func:`presages_env.core.header.load_wide`).

Every slot and what it holds is declared below with :class:`~presages_env.core.layout.SlotLayout`
(``slots``); docs/presages.md shows them as a table generated from that list.
"""

import numpy as np

from presages_env.core.header import HEADER_SIZE
from presages_env.core.layout import SlotLayout
from presages_env.games.presages.cards import NUM_CARDS

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
slots = SlotLayout(start=HEADER_SIZE)
OPT_PRIDE_CARRIES = slots.add(
    "OPT_PRIDE_CARRIES",
    1,
    "option: Pride of a round's last bout names the next round's starter",
)
OPT_WINNER_IS_PLACER = slots.add(
    "OPT_WINNER_IS_PLACER", 1, "option: bout winner is who placed the winning card"
)
OPT_DREAM_BY_TARGET = slots.add(
    "OPT_DREAM_BY_TARGET", 1, "option: the Dream target resolves its reply's ⚡"
)
OPT_BETRAYAL_LAW_FIRST = slots.add(
    "OPT_BETRAYAL_LAW_FIRST",
    1,
    "option: Law binds Betrayal's gift as judged before the take",
)
OPT_REVEAL_ALL = slots.add("OPT_REVEAL_ALL", 1, "option: every hand is revealed at round end")
OPT_ROUND_REWARD_MILLI = slots.add(
    "OPT_ROUND_REWARD_MILLI",
    ROUND_REWARD_SLOTS,
    "option: per-round shaping reward, in thousandths (0..1000, a wide field: low byte first)",
)
GAME_START = slots.size  # first slot rewritten by reset
LOC = slots.add(
    "LOC",
    CARD_SLOTS,
    "where card c is: seat s's hand = s, in front of seat s = LOC_FRONT + "
    "s, LOC_DISCARD, LOC_ASIDE or LOC_BOX",
)
FRONT = slots.add("FRONT", MAX_SEATS, "card lying in front of seat s (0: none)")
HAND_COUNT = slots.add("HAND_COUNT", MAX_SEATS, "cards in seat s's hand")
TEAM = slots.add("TEAM", MAX_SEATS, "team of seat s (0..NUM_TEAMS-1)")
NUM_TEAMS = slots.add("NUM_TEAMS", 1, "2 (4-5 players) or 3 (6 players)")
ROUNDS_WON = slots.add("ROUNDS_WON", MAX_TEAMS, "laurels of each team")
ROUND = slots.add("ROUND", 1, "round of the game (from 1)")
BOUT = slots.add("BOUT", 1, "bout of the round (from 1)")
BOUT_STARTER = slots.add("BOUT_STARTER", 1, "seat that started the current bout")
NODE = slots.add("NODE", 1, "decision node (NODE_*); the deciding seat is HDR_CURRENT")
EFFECT = slots.add("EFFECT", 1, "⚡ card whose choices are being made (0: none)")
LAW_DIR = slots.add("LAW_DIR", 1, "Law's direction while Law is in play (0 none, 1 below, 2 above)")
GIVE_LAW_DIR = slots.add(
    "GIVE_LAW_DIR", 1, "direction binding Betrayal's gift (judged at the take)"
)
BLOCKED = slots.add("BLOCKED", 1, "card Wrath returned (the replacement must differ)")
VICTIM = slots.add("VICTIM", 1, "seat whose card Wrath returned or Betrayal took")
TAKEN = slots.add("TAKEN", 1, "card Betrayal took (the gift must differ)")
DREAM_PLAYER = slots.add("DREAM_PLAYER", 1, "seat the Dream target must reply to (-1: none)")
SECRET_HOLDER = slots.add("SECRET_HOLDER", 1, "pending Secret: its holder")
SECRET_MODE = slots.add("SECRET_MODE", 1, "pending Secret: its mode (1 show, 2 ask)")
SECRET_PARTNER = slots.add("SECRET_PARTNER", 1, "pending Secret: the other party")
ABS_ACTOR = slots.add("ABS_ACTOR", 1, "pending Absolu exchange: its actor")
ABS_TARGET = slots.add("ABS_TARGET", 1, "pending Absolu exchange: its target")
ABS_GIVEN = slots.add(
    "ABS_GIVEN",
    1,
    "pending Absolu exchange: the actor's committed card (never observed by the target)",
)
LUCK_HOLDER = slots.add("LUCK_HOLDER", 1, "seat that must discard for Luck (-1: none)")
NEXT_STARTER = slots.add(
    "NEXT_STARTER", 1, "starter of the next bout, decided at the last bout end"
)
PRIDE_LEFT = slots.add(
    "PRIDE_LEFT", 1, "left of Pride's holder if Pride was in the last bout, else -1"
)
LAST_BOUT_WINNER = slots.add("LAST_BOUT_WINNER", 1, "(-1: none yet this round)")
LAST_ROUND_WINNER = slots.add(
    "LAST_ROUND_WINNER", 1, "seat that won the last round for its team (-1: none)"
)
WINNING_TEAM = slots.add("WINNING_TEAM", 1, "(-1 until the game is over)")
DISCARD_COUNT = slots.add("DISCARD_COUNT", 1, "cards in the discard pile of the round")
DISCARD_LIST = slots.add("DISCARD_LIST", NUM_CARDS, "discard pile of the round, in order")
START_ABSOLU = slots.add(
    "START_ABSOLU", MAX_SEATS, "Absolu dealt face up to seat s in round 1 (public)"
)
# --- public per-round records (cleared at each deal) ---
ROUND_RECORDS = slots.size
ABS_PAIRS = slots.add(
    "ABS_PAIRS",
    (MAX_SEATS, MAX_SEATS),
    "Absolu exchanges actor*6+target counted this round, up to PAIR_COUNT_MAX (public)",
)
SECRET_PAIRS = slots.add(
    "SECRET_PAIRS",
    (MAX_SEATS, MAX_SEATS),
    "Secrets shower*6+viewer counted this round, up to PAIR_COUNT_MAX (public)",
)
PLACER = slots.add("PLACER", CARD_SLOTS, "seat+1 that placed card c now in play")
DISC_ORDER = slots.add("DISC_ORDER", CARD_SLOTS, "discarded card c's rank in the pile")
DISC_BOUT = slots.add("DISC_BOUT", CARD_SLOTS, "bout discarded card c was discarded in")
DISC_SEAT = slots.add("DISC_SEAT", CARD_SLOTS, "seat+1 discarded card c came from")
DISC_KIND = slots.add("DISC_KIND", CARD_SLOTS, "KIND_* reason discarded card c was discarded")
LAST_HAND_SEAT = slots.add(
    "LAST_HAND_SEAT",
    CARD_SLOTS,
    "seat+1 of the last public move of c into a hand (return "
    "at bout end, Wrath, Betrayal, round-1 face-up Absolu)",
)
LAST_HAND_BOUT = slots.add("LAST_HAND_BOUT", CARD_SLOTS, "bout of that move")
SEEN_FROM = slots.add(
    "SEEN_FROM", (MAX_SEATS, CARD_SLOTS), "private Secret memory of seat p: c shown to p by seat+1"
)
SHOWN_TO = slots.add(
    "SHOWN_TO", (MAX_SEATS, CARD_SLOTS), "private Secret memory of seat p: c shown by p to seat+1"
)
ABS_RECV = slots.add(
    "ABS_RECV", (MAX_SEATS, CARD_SLOTS), "private Absolu memory of p: c received from seat+1"
)
ABS_GAVE = slots.add(
    "ABS_GAVE", (MAX_SEATS, CARD_SLOTS), "private Absolu memory of p: c given to seat+1"
)
EXCLUDED = slots.add(
    "EXCLUDED",
    (KNOWERS, CARD_SLOTS),
    "what seat p (row 6: any onlooker) knows of where "
    "hidden card c is NOT: bit s for seat s's hand, bit 6 (ASIDE_BIT) for the set-aside "
    "cards; kept by the kernel from what p observes, 0 for a card face up or in the box "
    "(never observed itself; read by sample_world)",
)
LOG_LEN = slots.add("LOG_LEN", 1, "events in LOG")
LOG = slots.add(
    "LOG", (LOG_CAP, LOG_FIELDS), "public events of the current bout (EV_*, a, b, card)"
)
PREV_LOG_LEN = slots.add("PREV_LOG_LEN", 1, "events in PREV_LOG")
PREV_LOG = slots.add(
    "PREV_LOG",
    (LOG_CAP, LOG_FIELDS),
    "the same for the previous bout of this round "
    "(ABS_PAIRS .. PREV_LOG are cleared by every deal)",
)
ROUND_RECORDS_END = slots.size
# --- kept across the deal of a new round ---
REVEAL = slots.add("REVEAL", CARD_SLOTS, "seat+1 whose hand showed c at the last round end")
LAST_TABLE = slots.add(
    "LAST_TABLE",
    MAX_SEATS,
    "card in front of each seat at the last bout end, negated if it was discarded (for display)",
)
END_LOC = slots.add(
    "END_LOC", CARD_SLOTS, "LOC at the moment the last round ended (never observed)"
)
LAST_DISCARD_COUNT = slots.add(
    "LAST_DISCARD_COUNT", 1, "cards in the discard pile of the last finished round"
)
LAST_DISCARD_LIST = slots.add(
    "LAST_DISCARD_LIST", NUM_CARDS, "discard pile of the last finished round"
)
DECK = slots.add("DECK", NUM_CARDS, "scratch for shuffling")
STATE_SIZE = slots.size

# ---- observation layout (int8; its table in docs/presages.md is generated from it) ----
obs_slots = SlotLayout()
OBS_ME = obs_slots.add("ME", 1, "observer's seat + 1")
OBS_NUM_PLAYERS = obs_slots.add("NUM_PLAYERS", 1, "number of players")
OBS_ROUND = obs_slots.add("ROUND", 1, "round number (from 1)")
OBS_BOUT = obs_slots.add("BOUT", 1, "bout number in the round (from 1)")
OBS_NODE = obs_slots.add("NODE", 1, "decision node (0 PLACE ... 15 LUCK_DISCARD, 16 GAME_OVER)")
OBS_CURRENT = obs_slots.add("CURRENT", 1, "seat to decide + 1")
OBS_BOUT_STARTER = obs_slots.add("BOUT_STARTER", 1, "bout starter + 1")
OBS_LAW_DIR = obs_slots.add(
    "LAW_DIR", 1, "Law direction binding the current placement (0 none, 1 below, 2 above)"
)
OBS_BLOCKED = obs_slots.add("BLOCKED", 1, "card Wrath returned (the replacement must differ)")
OBS_TAKEN = obs_slots.add("TAKEN", 1, "card Betrayal took (the gift must differ)")
OBS_VICTIM = obs_slots.add("VICTIM", 1, "seat + 1 whose card Wrath returned / Betrayal took")
OBS_DREAM_PLAYER = obs_slots.add("DREAM_PLAYER", 1, "Dream player + 1 the target must reply to")
OBS_SECRET_HOLDER = obs_slots.add("SECRET_HOLDER", 1, "pending Secret: holder + 1")
OBS_SECRET_MODE = obs_slots.add("SECRET_MODE", 1, "pending Secret: mode (1 show, 2 ask)")
OBS_SECRET_PARTNER = obs_slots.add("SECRET_PARTNER", 1, "pending Secret: other party + 1")
OBS_ABS_ACTOR = obs_slots.add("ABS_ACTOR", 1, "pending Absolu: actor + 1")
OBS_ABS_TARGET = obs_slots.add("ABS_TARGET", 1, "pending Absolu: target + 1")
OBS_ABS_MY_GIVEN = obs_slots.add(
    "ABS_MY_GIVEN", 1, "the card the observer committed to a pending Absolu exchange (actor only)"
)
OBS_LUCK_HOLDER = obs_slots.add("LUCK_HOLDER", 1, "seat + 1 that must discard for Luck")
OBS_LAST_BOUT_WINNER = obs_slots.add("LAST_BOUT_WINNER", 1, "last bout winner + 1 (this round)")
OBS_NEXT_STARTER = obs_slots.add(
    "NEXT_STARTER", 1, "next bout starter + 1 (decided at the last bout end)"
)
OBS_LAST_ROUND_WINNER = obs_slots.add("LAST_ROUND_WINNER", 1, "last round winner + 1")
OBS_WINNING_TEAM = obs_slots.add("WINNING_TEAM", 1, "winning team + 1 (game over)")
OBS_EFFECT = obs_slots.add("EFFECT", 1, "⚡ card whose choice is being made")
OBS_HAND_COUNTS = obs_slots.add("HAND_COUNTS", MAX_SEATS, "hand size per seat")
OBS_TEAMS = obs_slots.add("TEAMS", MAX_SEATS, "team + 1 per seat")
OBS_START_ABSOLU = obs_slots.add(
    "START_ABSOLU", MAX_SEATS, "Absolu dealt face up in round 1, per seat"
)
OBS_FRONT = obs_slots.add("FRONT", MAX_SEATS, "card in front of each seat")
OBS_ROUNDS_WON = obs_slots.add("ROUNDS_WON", MAX_TEAMS, "laurels per team")
OBS_ABS_PAIRS = obs_slots.add(
    "ABS_PAIRS", (MAX_SEATS, MAX_SEATS), "Absolu exchanges this round, [actor, target]"
)
OBS_SECRET_PAIRS = obs_slots.add(
    "SECRET_PAIRS", (MAX_SEATS, MAX_SEATS), "Secrets this round, [shower, viewer]"
)
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
OBS_PLANES = obs_slots.add(
    "PLANES",
    (NUM_PLANES, NUM_CARDS),
    "card planes: entry c - 1 of plane p is about card c (PLANE_*)",
)
OBS_LOG = obs_slots.add(
    "LOG", (LOG_CAP, LOG_FIELDS), "this bout's public events (kind, a, b, card) in order"
)
OBS_PREV_LOG = obs_slots.add(
    "PREV_LOG", (LOG_CAP, LOG_FIELDS), "the previous bout's events (this round)"
)
OBS_SIZE = obs_slots.size

ZONE_HIDDEN = 0
ZONE_IN_PLAY = 1
ZONE_DISCARDED = 2
ZONE_BOX = 3
