"""Res Arcana state, action and observation layouts: every named offset, in one place.

The kernel modules (``kernel.py`` entry points, ``phases.py``, ``effects.py``,
``payments.py``, ``tableau.py``) all index the state through these names. Per-seat arrays have
``MAX_PLAYERS`` entries whatever the player count (unused entries 0, or -1 where -1 means
"nobody"); per-component arrays have 78 entries indexed by component id (see ``cards.py``);
essence vectors have 5 entries E, L, C, D, G.

State (``int16``, ``STATE_DTYPE``, after the shared header of :mod:`presages_env.core.header`;
the step cap keeps rounds and counts below 30,000 and ``ESSENCE_CEILING`` keeps every essence
count far inside ``int16``, see ``phases.truncate_if_capped``).

Every slot and what it holds is declared below with :class:`~presages_env.core.layout.SlotLayout`
(``slots``); docs/res_arcana.md shows them as a table generated from that list.
"""

import numpy as np

from presages_env.core.header import HEADER_SIZE
from presages_env.core.layout import SlotLayout
from presages_env.core.options import add_option_slots
from presages_env.games.res_arcana.cards import (
    NUM_ARTIFACTS,
    NUM_COMPONENTS,
    NUM_ESSENCES,
    NUM_MONUMENTS,
    NUM_PLACES,
    NUM_POWERS,
    as_numpy_scalars,
)

# declared with the other options, in a module that loads no kernel (help(presages_env.make))
from presages_env.games.res_arcana.options import (  # noqa: F401
    DEFAULT_STEP_CAP,
    MAX_STEP_CAP,
    option_space,
)

MAX_PLAYERS = 4
DECK_CAP = NUM_ARTIFACTS
WIN_VP = 10
LOOK_DEPTH = 3
STATE_DTYPE = np.int16
# A game where a seat holds more than this many essences of one type is truncated like a game
# at its step cap (runaway; never seen in play, see docs/res_arcana.md). One decision can at
# most add what the seats hold (a rival's pool, an X paid from one's own) plus a round's
# collect, so from below the ceiling no count can pass int16's 32,767 before the check.
ESSENCE_CEILING = 4000

# ---- component locations -------------------------------------------------------------------
LOC_BOX = 0  # out of the game (undealt, unchosen mage, unused Place of Power face)
LOC_HAND = 1
LOC_DECK = 2
LOC_DISCARD = 3
LOC_PLAY = 4
LOC_PLACING = 5  # an artifact being placed (its cost is being paid)
LOC_MAGE_OPTION = 6  # a mage dealt during setup
LOC_SUPPLY = 7  # a magic item nobody holds
LOC_MON_DECK = 8
LOC_DISPLAY = 9
LOC_CENTER = 10  # an unclaimed Place of Power
NUM_LOCS = 11

# ---- phases and decision nodes -------------------------------------------------------------
PHASE_SETUP_MAGES = 0
PHASE_SETUP_ITEMS = 1
PHASE_COLLECT = 2
PHASE_ACTIONS = 3
PHASE_OVER = 4

NODE_ACTION = 0  # the turn's action
NODE_PAY = 1  # pay one essence of a cost
NODE_PAY_X = 2  # pay one more essence of an X= cost, or stop
NODE_GAIN = 3  # take one essence of a gain
NODE_TARGET = 4  # choose a component (TGT_KIND says for what)
NODE_REACT = 5  # a rival facing a Life loss: accept or ignore it
NODE_STATUE = 6  # Golden Statue at a victory check
NODE_FORGE = 7  # Cursed Forge at collect: pay 1 Death or turn it
NODE_LOOK = 8  # which deck to look at
NODE_REORDER = 9  # order of the looked-at cards
NODE_RIVAL = 10  # which rival to count essences of
NODE_OVER = 11
NUM_NODES = 12

# target kinds (what a component choice is for)
TK_NONE = 0
TK_MAGE = 1  # setup: keep one of the two dealt mages
TK_ITEM = 2  # setup: take a magic item
TK_ITEM_SWAP = 3  # pass: swap the magic item
TK_TAKE = 4  # collect: take the essences on a component (DONE leaves the rest)
TK_STRAIGHTEN_ANY = 5
TK_STRAIGHTEN_CREATURE = 6
TK_SACRIFICE_ANY = 7  # destroy one of your artifacts as a cost
TK_SACRIFICE_OTHER = 8
TK_SACRIFICE_BEAST = 9
TK_TURN_DRAGON = 10  # turn one of your dragons as a cost
TK_TURN_CREATURE = 11
TK_DISCARD_COST = 12  # discard a card as a cost (Sacrificial Dagger)
TK_DISCARD = 13  # Divination: discard a card
TK_IGNORE_DESTROY = 14  # Sea Serpent's rival: destroy an artifact to ignore the loss
TK_IGNORE_DISCARD = 15  # Wind Dragon's rival: discard a card to ignore the loss
TK_PLACE_HAND_DRAGON = 16  # Dragon Egg, Dragon Teeth (DONE places nothing)
TK_PLACE_OWN_DISCARD = 17  # Crypt
TK_PLACE_ANY_DRAGON = 18  # Sorcerer's Bestiary
TK_PUT_PAID = 19  # Mermaid: where the paid essence goes
NUM_TARGET_KINDS = 20

# turn actions under way (ACT_KIND)
DO_NONE = 0
DO_PLACE = 1
DO_CLAIM_MONUMENT = 2
DO_CLAIM_PLACE = 3
DO_DISCARD = 4
DO_POWER = 5
DO_PASS = 6

# program stages of a turn action (ACT_STAGE)
ST_START = 0
ST_COST_X = 1
ST_COST_TARGET = 2
ST_EFFECT = 3
ST_EFFECT_2 = 4
ST_EFFECT_3 = 5
ST_FINISH = 6

# collect stages (COL_STAGE)
COL_GAINS = 0
COL_TAKE = 1
COL_LEFT_ON = 2
COL_FORGE = 3
COL_NEXT = 4  # the seat is done: the next one collects

CHECK_ROUND_END = 1
CHECK_MID_ROUND = 2
LOOK_OWN = 1
LOOK_MONUMENTS = 2
DEST_POOL = -1
NO_COMPONENT = -1  # a declined choice; no component
NO_POWER = -1  # a placement from hand (no power's discount)
FROM_FIRST = 0  # a component choice open to every component id
NO_DISCOUNT = 0
SEEN_BY_OWNER = 1
UNSEEN = 0
SEEN_BY_ALL = 2  # in its owner's hand or deck, known to all: it came from the discard pile
# gain modes (GAIN_MODE)
GAIN_MIXED = 0  # one essence per decision, any mix of the mask
GAIN_ONE_TYPE = 1  # all of one type, one decision
GAIN_OR_GOLD = 2  # discarding a card: 1 Gold, or 2 non-Gold essences one by one

# ---- state offsets -----------------------------------------------------------------------
slots = SlotLayout(start=HEADER_SIZE)
# one slot per option, derived from the option space (places_of_power: its index, sun first)
OPT_PLACE_FACES, OPT_STARTER_SETS, OPT_STEP_CAP = add_option_slots(slots, option_space)
GAME_START = slots.size  # first slot rewritten by reset
PHASE = slots.add("PHASE", 1, "PHASE_*: setup (mages, items), collect, actions, game over")
NODE = slots.add("NODE", 1, "NODE_*: the pending decision; the deciding seat is HDR_CURRENT")
ROUND = slots.add("ROUND", 1, "round number, from 1")
FIRST_PLAYER = slots.add("FIRST_PLAYER", 1, "holder of the first-player token")
TOKEN_TAKEN = slots.add("TOKEN_TAKEN", 1, "1 once someone passed first this round (took the token)")
TURN_PLAYER = slots.add("TURN_PLAYER", 1, "seat whose turn it is in the actions phase")
SETUP_K = slots.add("SETUP_K", 1, "setup picks made in the current setup phase")
PASSED = slots.add("PASSED", MAX_PLAYERS, "1 = the seat has passed this round")
WINNER = slots.add("WINNER", MAX_PLAYERS, "1 = the seat won (shared wins: several)")
POOL = slots.add("POOL", (MAX_PLAYERS, NUM_ESSENCES), "essences in each seat's pool")
GAINED = slots.add(
    "GAINED",
    (MAX_PLAYERS, NUM_ESSENCES),
    "essences each seat took from the supply this "
    "round, plus its holdings (pool + on its components) when the round began: holdings = "
    "GAINED - SPENT always",
)
SPENT = slots.add(
    "SPENT", (MAX_PLAYERS, NUM_ESSENCES), "essences each seat returned to the supply this round"
)
LOC = slots.add("LOC", NUM_COMPONENTS, "LOC_*: where each component is")
OWNER = slots.add(
    "OWNER",
    NUM_COMPONENTS,
    "seat that owns it (-1 none): hand, deck, discard, in play, being placed, a mage option",
)
TURNED = slots.add("TURNED", NUM_COMPONENTS, "1 = turned sideways")
STORED = slots.add("STORED", (NUM_COMPONENTS, NUM_ESSENCES), "essences lying on each component")
SEEN = slots.add(
    "SEEN",
    NUM_ARTIFACTS,
    "1 = the artifact's owner knows it (0 only for the unseen deck "
    "cards of the starter-set variant); 2 = everyone knows it: it went into its owner's "
    "deck from the face-up discard pile (what a rival knows of that hand or deck; see "
    "sample_world)",
)
DECK = slots.add(
    "DECK", (MAX_PLAYERS, DECK_CAP), "each seat's deck, bottom first (top = DECK_SIZE - 1)"
)
DECK_SIZE = slots.add("DECK_SIZE", MAX_PLAYERS, "cards in each seat's deck")
KNOWN_TOP = slots.add(
    "KNOWN_TOP", MAX_PLAYERS, "how many top cards of its own deck the seat knows (≤ 3)"
)
MON_DECK = slots.add("MON_DECK", NUM_MONUMENTS, "monument deck, bottom first")
MON_DECK_SIZE = slots.add("MON_DECK_SIZE", 1, "monuments in the monument deck")
MON_KNOWN = slots.add("MON_KNOWN", MAX_PLAYERS, "how many top monuments each seat knows (≤ 3)")
DISPLAY = slots.add("DISPLAY", 2, "face-up monuments (-1: empty)")
MAGE_PICK = slots.add(
    "MAGE_PICK", MAX_PLAYERS, "mage chosen during setup, hidden until everyone chose (-1)"
)
COL_K = slots.add("COL_K", 1, "collect phase: seats done (from the first player)")
COL_STAGE = slots.add("COL_STAGE", 1, "collect phase: COL_* stage of the current seat")
COL_CURSOR = slots.add("COL_CURSOR", 1, "collect phase: next component to consider")
ACT_KIND = slots.add("ACT_KIND", 1, "DO_*: the turn action under way (0: none, asking the action)")
ACT_PLAYER = slots.add("ACT_PLAYER", 1, "seat doing it")
ACT_COMP = slots.add("ACT_COMP", 1, "its component (-1)")
ACT_POWER = slots.add("ACT_POWER", 1, "its power id (-1)")
ACT_STAGE = slots.add("ACT_STAGE", 1, "ST_*: where its program stands")
ACT_TARGET = slots.add(
    "ACT_TARGET", 1, "component chosen for it (-1): placed, destroyed, discarded"
)
ACT_X = slots.add("ACT_X", 1, 'X paid for an "X=" cost (-1)')
ACT_XTYPE = slots.add("ACT_XTYPE", 1, "the essence X was paid in (-1)")
ACT_COUNT = slots.add("ACT_COUNT", 1, "Divination: cards still to discard; attack: rivals done")
PAY_ACTIVE = slots.add("PAY_ACTIVE", 1, "1 while a payment is under way")
PAY_PLAYER = slots.add("PAY_PLAYER", 1, "the payer")
PAY_NEED = slots.add("PAY_NEED", NUM_ESSENCES, "fixed essences still to pay")
PAY_LEFT = slots.add("PAY_LEFT", 1, "essences still to pay in all")
PAY_MASK = slots.add("PAY_MASK", 1, 'essences allowed for the "any" part')
PAY_APPLIED = slots.add("PAY_APPLIED", 1, "discount applied to the cost")
PAY_GOLD_DISCOUNT = slots.add("PAY_GOLD_DISCOUNT", 1, "how much of it may waive Gold")
PAY_MIN = slots.add(
    "PAY_MIN", 1, "lowest essence still allowed (essences are paid in E, L, C, D, G order)"
)
PAY_PAID = slots.add("PAY_PAID", NUM_ESSENCES, "paid so far")
GAIN_ACTIVE = slots.add("GAIN_ACTIVE", 1, "1 while an essence gain is under way")
GAIN_PLAYER = slots.add("GAIN_PLAYER", 1, "the gainer")
GAIN_LEFT = slots.add("GAIN_LEFT", 1, "units left")
GAIN_MASK = slots.add("GAIN_MASK", 1, "essences allowed")
GAIN_MIN = slots.add("GAIN_MIN", 1, "lowest essence allowed")
GAIN_DEST = slots.add("GAIN_DEST", 1, "destination (-1 pool or a component)")
GAIN_MODE = slots.add("GAIN_MODE", 1, "GAIN_MIXED, GAIN_ONE_TYPE or GAIN_OR_GOLD")
TGT_ACTIVE = slots.add("TGT_ACTIVE", 1, "1 while a component choice is under way")
TGT_KIND = slots.add("TGT_KIND", 1, "TK_*: what it is for")
TGT_PLAYER = slots.add("TGT_PLAYER", 1, "the chooser")
TGT_CURSOR = slots.add("TGT_CURSOR", 1, "lowest component allowed")
CHECK_ACTIVE = slots.add("CHECK_ACTIVE", 1, "0, CHECK_ROUND_END or CHECK_MID_ROUND")
CHECK_ASKED = slots.add("CHECK_ASKED", 1, "the Golden Statue owner was asked at this check")
STATUE_USER = slots.add("STATUE_USER", 1, "seat + 1 who used the Golden Statue at this check")
LOOK_DECK = slots.add("LOOK_DECK", 1, "deck looked at (LOOK_OWN / LOOK_MONUMENTS)")
LOOK_COUNT = slots.add("LOOK_COUNT", 1, "cards seen")
MON_GROUP = slots.add(
    "MON_GROUP",
    MAX_PLAYERS,
    "per seat: depth of a top group of the monument deck whose "
    "order it lost (a rival looked at and could reorder it), 0 none",
)
MON_GROUP_MASK = slots.add(
    "MON_GROUP_MASK", MAX_PLAYERS, "per seat: monuments (bit m - 58) it knows are in that group"
)
STATE_SIZE = slots.size

# ---- actions (the same indices at every node; the mask selects) ---------------------------
A_PLACE = 0  # place artifact a from hand (40)
A_DISCARD = A_PLACE + NUM_ARTIFACTS  # discard artifact a from hand for essences (40)
A_CLAIM_MONUMENT = A_DISCARD + NUM_ARTIFACTS  # claim face-up monument m (10)
A_CLAIM_MONUMENT_TOP = A_CLAIM_MONUMENT + NUM_MONUMENTS  # claim the monument deck's top
A_CLAIM_PLACE = A_CLAIM_MONUMENT_TOP + 1  # claim Place of Power face f (10)
A_POWER = A_CLAIM_PLACE + NUM_PLACES  # use power w (NUM_POWERS)
A_PASS = A_POWER + NUM_POWERS
A_ESSENCE = A_PASS + 1  # pay / gain one essence e (5)
A_DONE = A_ESSENCE + NUM_ESSENCES  # stop paying X, decline, leave the rest, accept a loss
A_COMPONENT = A_DONE + 1  # choose component c (78)
A_SEAT = A_COMPONENT + NUM_COMPONENTS  # choose seat s (4)
A_YES = A_SEAT + MAX_PLAYERS
A_NO = A_YES + 1
A_DRAGON_IGNORE = A_NO + 1  # pay the attacking dragon's own ignore cost
A_LOOK_OWN = A_DRAGON_IGNORE + 1
A_LOOK_MONUMENTS = A_LOOK_OWN + 1
A_ORDER = A_LOOK_MONUMENTS + 1  # order k of the looked-at cards (6 permutations)
NUM_ORDERS = 6
NUM_ACTIONS = A_ORDER + NUM_ORDERS

# ---- observation (int8) -------------------------------------------------------------------
obs_slots = SlotLayout()  # its table in docs/res_arcana.md is generated from it
OBS_ME = obs_slots.add("ME", 1, "observer's seat + 1")
OBS_NUM_PLAYERS = obs_slots.add("NUM_PLAYERS", 1, "number of players")
OBS_PHASE = obs_slots.add(
    "PHASE", 1, "phase (0 setup: mages, 1 setup: items, 2 collect, 3 actions, 4 over)"
)
OBS_NODE = obs_slots.add("NODE", 1, "decision node (NODE_*)")
OBS_CURRENT = obs_slots.add("CURRENT", 1, "seat to decide + 1")
OBS_FIRST_PLAYER = obs_slots.add("FIRST_PLAYER", 1, "first player + 1")
OBS_TURN_PLAYER = obs_slots.add("TURN_PLAYER", 1, "seat whose turn it is + 1")
OBS_ROUND = obs_slots.add("ROUND", 1, "round")
OBS_TOKEN_TAKEN = obs_slots.add("TOKEN_TAKEN", 1, "the first-player token was taken this round")
OBS_MON_DECK_SIZE = obs_slots.add("MON_DECK_SIZE", 1, "monument deck size")
OBS_MON_TOP = obs_slots.add(
    "MON_TOP",
    LOOK_DEPTH,
    "monument deck top as the observer knows it, top first (cid - 57; 0 unknown)",
)
OBS_MY_TOP = obs_slots.add(
    "MY_TOP", LOOK_DEPTH, "the observer's own deck top as it knows it, top first (cid + 1)"
)
OBS_MY_MAGE_PICK = obs_slots.add(
    "MY_MAGE_PICK", 1, "the observer's hidden mage pick (cid - 39; 0 none)"
)
# pending decision details, in this order
PENDING_FIELDS = (
    "ACT_KIND",
    "ACT_PLAYER",  # seat + 1
    "ACT_COMP",  # cid + 1
    "ACT_POWER",  # power + 1
    "ACT_STAGE",
    "ACT_TARGET",  # cid + 1
    "ACT_X",
    "ACT_XTYPE",  # essence + 1
    "ACT_COUNT",
    "PAY_PLAYER",  # seat + 1 (0: no payment under way)
    "PAY_NEED_E",
    "PAY_NEED_L",
    "PAY_NEED_C",
    "PAY_NEED_D",
    "PAY_NEED_G",
    "PAY_LEFT",
    "PAY_MASK",
    "PAY_APPLIED",
    "PAY_GOLD_DISCOUNT",
    "PAY_MIN",
    "PAY_PAID_E",
    "PAY_PAID_L",
    "PAY_PAID_C",
    "PAY_PAID_D",
    "PAY_PAID_G",
    "GAIN_PLAYER",  # seat + 1 (0: no gain under way)
    "GAIN_LEFT",
    "GAIN_MASK",
    "GAIN_MIN",
    "GAIN_DEST",  # cid + 1 (0: the pool)
    "GAIN_MODE",
    "TGT_KIND",
    "TGT_PLAYER",  # seat + 1
    "TGT_CURSOR",
    "CHECK_ACTIVE",
    "STATUE_USER",
    "LOOK_DECK",
    "LOOK_COUNT",
    "COL_K",
    "COL_STAGE",
)
OBS_PENDING = obs_slots.add(
    "PENDING", len(PENDING_FIELDS), "the decision under way, one entry per PENDING_FIELDS name"
)
# per seat (4 blocks)
SEAT_PASSED = 0
SEAT_POOL = 1  # 5
SEAT_VP = 6
SEAT_HAND = 7
SEAT_DECK = 8
SEAT_DISCARD = 9
SEAT_KNOWN_TOP = 10
SEAT_MON_KNOWN = 11
SEAT_MAGE_PICKED = 12
SEAT_WINNER = 13
SEAT_FIELDS = 14
OBS_SEATS = obs_slots.add(
    "SEATS",
    (MAX_PLAYERS, SEAT_FIELDS),
    "per seat: passed, pool E L C D G, VP, hand, deck and discard sizes, known tops, "
    "mage picked, winner (SEAT_*)",
)
# component planes, NUM_COMPONENTS entries each (entry c is about component c)
PLANE_ZONE = 0  # Z_* as the observer sees it
PLANE_OWNER = 1  # seat + 1 (0: none or unknown)
PLANE_TURNED = 2
PLANE_STORED = 3  # 5 planes, one per essence
NUM_PLANES = 8
OBS_COMPONENTS = obs_slots.add(
    "COMPONENTS",
    (NUM_PLANES, NUM_COMPONENTS),
    "component planes, entry c about component c: zone (Z_*), owner + 1, turned, stored E L C D G",
)
OBS_SIZE = obs_slots.size

# zones as observed
Z_UNKNOWN = 0  # where the observer cannot see: a rival's hand or deck, or out of the game
Z_MY_HAND = 1
Z_MY_DECK = 2  # in my deck (order unknown beyond OBS_MY_TOP)
Z_PLAY = 3
Z_DISCARD = 4
Z_PLACING = 5
Z_MY_MAGE_OPTION = 6
Z_SUPPLY = 7
Z_MON_DECK = 8
Z_DISPLAY = 9
Z_CENTER = 10
Z_BOX = 11  # known to be out of the game (the unused face of a Place of Power)


as_numpy_scalars(globals())
