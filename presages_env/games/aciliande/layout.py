"""Aciliande's state, action and event layouts, and the one read of the state the rules and
the belief sampler share (``kernel.py``, ``beliefs.py``).

State layout (offsets after the shared header; seats 0..n-1, unused seat slots stay 0).
``int16`` because the stake (up to 1000), the pot and the coins received (up to 7 x 1000)
need more than a byte; every other slot fits one (lives at most 99, cards 21, tricks 11).

Every slot and what it holds is declared below with :class:`~presages_env.core.layout.SlotLayout`
(``slots``); docs/aciliande.md shows them as a table generated from that list.

A card is in a hand when CARD_OWNER >= 0 and CARD_TRICK == -1. Seats are clockwise in
increasing order: the player "to the left" of seat s is the next seat still in the game.
"""

import numba as nb
import numpy as np

from presages_env.core.header import HEADER_SIZE
from presages_env.core.layout import SlotLayout
from presages_env.games.aciliande.cards import NUM_CARDS

STATE_DTYPE = np.int16
MAX_PLAYERS = 7
MAX_TRICKS = NUM_CARDS // 2  # two players, eleven cards each
NUM_GODDESSES = 3
DUEL_MANCHES = 3

# ---- state layout -------------------------------------------------------------------------
slots = SlotLayout(start=HEADER_SIZE)
# options (written by AciliandeGame.write_options, never touched by reset)
OPT_GODDESSES = slots.add(
    "OPT_GODDESSES", NUM_GODDESSES, "option: card numbers of the three Goddesses"
)
OPT_LIVES = slots.add("OPT_LIVES", MAX_PLAYERS, "option: starting life cards of each seat")
OPT_STAKE = slots.add("OPT_STAKE", 1, "option: coins each player puts in the pot")
OPT_FIXED_HAND = slots.add(
    "OPT_FIXED_HAND", 1, "option: hand size for every ordinary manche; 0 = the dealer chooses"
)
OPT_TEAMS = slots.add(
    "OPT_TEAMS", 1, "option: 1 = team variant (partners: even seats against odd seats)"
)
OPT_TIEBREAK = slots.add(
    "OPT_TIEBREAK",
    1,
    "option: end of a duel with both players still in: TIEBREAK_LIVES or TIEBREAK_SHARE",
)
# the game (rewritten by reset)
NODE = slots.add(
    "NODE",
    1,
    "decision awaited: NODE_HAND_SIZE, NODE_BID, NODE_PLAY, NODE_DECLARE, "
    "NODE_GAME_OVER (the seat deciding is the header's HDR_CURRENT)",
)
DEALER = slots.add("DEALER", 1, "dealer of the current manche")
HAND_SIZE = slots.add(
    "HAND_SIZE", 1, "cards dealt to each player this manche (0 before the dealer chose)"
)
LEADER = slots.add("LEADER", 1, "seat that led the current trick")
TRICK_INDEX = slots.add("TRICK_INDEX", 1, "tricks completed in this manche")
TRICK_LEN = slots.add("TRICK_LEN", 1, "cards in the current trick")
TRICK_DECL = slots.add(
    "TRICK_DECL", 1, "the current trick's first Goddess: DECL_NONE, DECL_TAKE, DECL_LEAVE"
)
TRICK_GODDESSES = slots.add("TRICK_GODDESSES", 1, "Goddesses played in the current trick")
DUEL = slots.add("DUEL", 1, "1 once two players are left and the duel has begun")
FACE_UP = slots.add(
    "FACE_UP", 1, "Goddesses still face up in the duel (3, 2, 1); 0 outside the duel"
)
MANCHE = slots.add("MANCHE", 1, "manches begun since the deal of the game")
END_REASON = slots.add("END_REASON", 1, "END_* code once the game is over, END_NONE before")
POT = slots.add("POT", 1, "coins in the pot (players x stake)")
LIVES = slots.add("LIVES", MAX_PLAYERS, "life cards left")
ALIVE = slots.add("ALIVE", MAX_PLAYERS, "1 while the seat is still in the game")
IN_MANCHE = slots.add(
    "IN_MANCHE", MAX_PLAYERS, "1 if the seat was dealt into the current (or last) manche"
)
BIDS = slots.add("BIDS", MAX_PLAYERS, "bid of this manche, -1 before the seat bid")
TRICKS = slots.add("TRICKS", MAX_PLAYERS, "tricks won this manche")
LOST_LAST = slots.add("LOST_LAST", MAX_PLAYERS, "life cards lost when the last manche was scored")
COINS = slots.add("COINS", MAX_PLAYERS, "coins received from the pot (set when the game ends)")
DRAW = slots.add(
    "DRAW", MAX_PLAYERS, "card drawn for the leftover coins, -1 if the seat did not draw"
)
CARD_OWNER = slots.add(
    "CARD_OWNER", NUM_CARDS, "seat the card was dealt to this manche, -1 if undealt"
)
CARD_TRICK = slots.add(
    "CARD_TRICK", NUM_CARDS, "trick (0-based) the card was played in this manche, -1 if not played"
)
TRICK_CARDS = slots.add(
    "TRICK_CARDS", MAX_PLAYERS, "cards of the current trick in play order, -1 in empty slots"
)
TRICK_SEATS = slots.add("TRICK_SEATS", MAX_PLAYERS, "who played them, -1 in empty slots")
PAST_WINNER = slots.add(
    "PAST_WINNER", MAX_TRICKS, "winner of each completed trick of this manche, -1 otherwise"
)
PAST_DECL = slots.add(
    "PAST_DECL", MAX_TRICKS, "declaration made in each completed trick of this manche"
)
STATE_SIZE = slots.size

# ---- decision nodes ---------------------------------------------------------------------
NODE_HAND_SIZE = 0
NODE_BID = 1
NODE_PLAY = 2
NODE_DECLARE = 3
NODE_GAME_OVER = 4
NUM_NODES = 5

DECL_NONE = 0
DECL_TAKE = 1
DECL_LEAVE = 2

TIEBREAK_LIVES = 0
TIEBREAK_SHARE = 1

# Passed to win_alone/share_among as np.int64(END_...): numba compiles a function once per
# literal constant it is called with, and the game's end is a large function.
END_NONE = 0
END_THIRD_GODDESS = 1  # a third Goddess in one trick: its player wins at once
END_LAST_SURVIVOR = 2  # one player left after a manche
END_ALL_ELIMINATED = 3  # nobody left: the players of the last manche share
END_DUEL_MORE_LIVES = 4  # both duellists still in after three duel manches, unequal lives
END_DUEL_SHARE = 5  # both duellists still in after three duel manches, sharing
END_TEAM_SURVIVES = 6  # team variant: everybody left is on one team

# ---- actions ------------------------------------------------------------------------------
ACT_HAND_SIZE = 0  # ACT_HAND_SIZE + k - 1: deal k cards each (k = 1..11)
ACT_BID = ACT_HAND_SIZE + MAX_TRICKS  # ACT_BID + b: bid b tricks (b = 0..11)
ACT_CARD = ACT_BID + MAX_TRICKS + 1  # ACT_CARD + c: play card c (c = 0..21)
ACT_TAKE = ACT_CARD + NUM_CARDS  # the first Goddess of the trick takes it
ACT_LEAVE = ACT_TAKE + 1  # the first Goddess of the trick leaves it
NUM_ACTIONS = ACT_LEAVE + 1

# ---- events (core/events.py): kind -> (name, argument names) -------------------------------
# Only the cards dealt to a seat are private (to that seat); undealt cards are in no event.
# Everything else is public: the rules make bids, cards played, declarations, lives, the
# duel's Goddesses and the leftover draw seen by everyone.
EV_MANCHE_START = 1
EV_DEAL = 2
EV_DEALT = 3
EV_BID = 4
EV_PLAY = 5
EV_DECLARE = 6
EV_TRICK_WON = 7
EV_MANCHE_SCORED = 8
EV_ELIMINATED = 9
EV_DUEL_START = 10
EV_GODDESS_FACE_DOWN = 11
EV_LEFTOVER_DRAW = 12
EV_COINS = 13
EV_GAME_END = 14
EVENT_KINDS = {
    EV_MANCHE_START: ("manche_start", ("manche", "dealer", "leader", "face_up")),
    EV_DEAL: ("deal", ("hand_size", "players")),
    EV_DEALT: ("dealt", ("player", "card")),
    EV_BID: ("bid", ("bid",)),
    EV_PLAY: ("play", ("card", "trick", "goddess")),
    EV_DECLARE: ("declare", ("declaration",)),
    EV_TRICK_WON: ("trick_won", ("player", "card", "trick", "declaration", "tricks")),
    EV_MANCHE_SCORED: ("manche_scored", ("player", "bid", "tricks", "lost", "lives")),
    EV_ELIMINATED: ("eliminated", ("player",)),
    EV_DUEL_START: ("duel_start", ("goddess_a", "goddess_b", "goddess_c")),
    EV_GODDESS_FACE_DOWN: ("goddess_face_down", ("face_up",)),
    EV_LEFTOVER_DRAW: ("leftover_draw", ("player", "card")),
    EV_COINS: ("coins", ("player", "coins", "reward")),
    EV_GAME_END: ("game_end", ("reason", "pot")),
}
# The most events one transition writes. The longest is the card (or the declaration) that
# completes a manche's last trick: that play or declaration and the trick won (2), a score
# and at most an elimination per seat (2 x 7), then the larger of
#   - the next manche: the duel's start or a Goddess turned face down, its start, the deal
#     and at most 22 cards dealt (3 + 22 = 25), and
#   - the end of the game: a Goddess turned face down, at most 7 leftover draws, the coins
#     of each seat and the end (1 + 7 + 7 + 1 = 16).
# The others are shorter: reset (start, deal, 22 cards), the dealer's hand size (deal, 22
# cards), a bid (1), a third Goddess (play, 7 draws, 7 coins, end).
MAX_STEP_EVENTS = 2 + 2 * MAX_PLAYERS + max(3 + NUM_CARDS, 2 * MAX_PLAYERS + 2)
# Events after which a world sample_world dealt may differ from the game by design, beyond
# draws from the RNG (tests/core/test_events.py): none, every shuffle is the RNG's.
WORLD_DIVERGING_EVENTS = ()


@nb.njit(cache=True)
def is_goddess(state, card):
    """Whether ``card`` is one of the game's three Goddesses (an option of the deal)."""
    return (
        card == state[OPT_GODDESSES]
        or card == state[OPT_GODDESSES + 1]
        or card == state[OPT_GODDESSES + 2]
    )
