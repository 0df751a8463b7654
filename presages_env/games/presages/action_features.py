"""What each Présages action is, from the deciding seat's observation (core/action_features.py).

Every action carries the decision it answers (the node: placing, Wrath's pick, the Secret's
card, ...) and its kind. A card action (``CARD_ACTION_BASE + value - 1``) describes the card:
its value, colours (Malice has all four), timing (⚡ or ⏳), its identity (each card has an
effect of its own, so the identity is its effect), where the seat sees it (in its hand,
hidden elsewhere, in play, discarded, in the box), whether a Secret showed it to the seat,
and how many cards in play lie below and above it; a card in play also describes the seat
it lies in front of. A seat action (``SEAT_ACTION_BASE + seat``) describes the seat: itself,
partner or opponent, how far clockwise, its hand count and the card in front of it. Law's
two directions give the share of the seat's hand each one allows. Seats not at the table
are all zero but for the kind and the node.

The ``bout`` block says what an action that sets the table makes of the bout: a card of the
hand laid (placing, Wrath's replacement, Dream's reply, Betrayal's gift) or an option of a
⚡ choice its holder makes (Law's direction, Dream's destination, Wrath's or Jealousy's
pick; not Betrayal's, whose table depends on the gift chosen next). Over the same 16
completions of the empty seats by cards the seat has not seen, the kernel's own end-of-bout
rules (``lookahead.py``: ``winning_card``, ``discard_set``) say how often the card of the
seat concerned (where the card is laid; the chooser's own for a choice) is discarded and
wins, the share of the team's and of the opponents' cards discarded, how often the team
starts the next bout, and the seat's hand, its partners' smallest and the opponents'
smallest once the bout is over. These are consequences the seat could work out from what
it knows, not a judgement of them: the network learns what they are worth, where the
heuristic weighs the same outcomes by hand. A ⚡ card laid is described without its
follow-up choice. The completions are seeded from the observation, so the features stay a
function of what the seat knows.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from presages_env.core.action_features import FeatureLayout
from presages_env.core.header import HDR_NUM_PLAYERS
from presages_env.core.rng import rng_seed
from presages_env.games.presages.cards import (
    BLUE,
    COLOURS,
    DREAM,
    ENGLISH_IDS,
    GREEN,
    IS_FLASH,
    JEALOUSY,
    LAW,
    NUM_CARDS,
    RED,
    WRATH,
    YELLOW,
)
from presages_env.games.presages.kernel import (
    CARD_ACTION_BASE,
    DIR_ABOVE,
    DIR_BELOW,
    DIR_NONE,
    LAW_ABOVE,
    LAW_BELOW,
    MAX_SEATS,
    NODE_BETRAYAL_GIVE,
    NODE_DREAM_DEST,
    NODE_DREAM_REPLY,
    NODE_GAME_OVER,
    NODE_JEALOUSY_PICK,
    NODE_LAW_DIR,
    NODE_PLACE,
    NODE_WRATH_PICK,
    NODE_WRATH_REPLACE,
    OBS_DREAM_PLAYER,
    OBS_EFFECT,
    OBS_FRONT,
    OBS_HAND_COUNTS,
    OBS_LAW_DIR,
    OBS_LOG,
    OBS_ME,
    OBS_NODE,
    OBS_NUM_PLAYERS,
    OBS_PLANES,
    OBS_TEAMS,
    OBS_VICTIM,
    PLANE_HOLDER,
    PLANE_MY_HAND,
    PLANE_SEEN_FROM,
    PLANE_ZONE,
    SEAT_ACTION_BASE,
    SECRET_ASK,
    SECRET_SHOW,
    STATE_DTYPE,
    STATE_SIZE,
    ZONE_BOX,
    ZONE_DISCARDED,
    ZONE_HIDDEN,
    ZONE_IN_PLAY,
)
from presages_env.games.presages.lookahead import (
    end_bout,
    fill_empty_seats,
    holds,
    next_starter,
    seat_of,
    table_and_hands,
    unseen_cards,
)

BOUT_SAMPLES = 16  # completions of the empty seats a card's bout block averages over
HAND_SCALE = 7  # hand counts are at most 6 in play (5 dealt, one returned by Wrath)
NODE_NAMES = (
    "place",
    "dream_destination",
    "dream_reply",
    "law_direction",
    "wrath_pick",
    "wrath_replace",
    "betrayal_take",
    "betrayal_give",
    "jealousy_pick",
    "secret_mode",
    "secret_target",
    "secret_card",
    "absolu_target",
    "absolu_give",
    "absolu_return",
    "luck_discard",
)

_layout = FeatureLayout()
KIND = _layout.block(
    "kind", ("card", "seat", "law_below", "law_above", "secret_show", "secret_ask")
)
NODE = _layout.block("node", NODE_NAMES)
CARD = _layout.block("card", ("value", "green", "yellow", "red", "blue", "flash"))
IDENTITY = _layout.block("identity", ENGLISH_IDS[1:])
WHERE = _layout.block(
    "where", ("my_hand", "hidden_elsewhere", "in_play", "discarded", "box", "shown_to_me")
)
TABLE = _layout.block("table", ("lower_in_play", "higher_in_play"))
SEAT = _layout.block(
    "seat",
    ("me", "partner", "opponent")
    + tuple(f"clockwise_{k}" for k in range(MAX_SEATS))
    + ("hand_count", "has_card_in_front", "card_in_front_value"),
)
LAW_SHARE = _layout.block("law", ("hand_share_allowed",))
BOUT = _layout.block(
    "bout",
    (
        "seat_card_discarded",
        "seat_card_wins",
        "team_cards_discarded",
        "opponent_cards_discarded",
        "team_starts_next",
        "my_hand_after",
        "team_fewest_after",
        "opponent_fewest_after",
    ),
)
BOUT_SIZE = 8
FEATURE_NAMES = tuple(_layout.names)
ACTION_FEATURES = len(FEATURE_NAMES)
KIND_CARD, KIND_SEAT, KIND_LAW_BELOW, KIND_LAW_ABOVE, KIND_SHOW, KIND_ASK = range(6)
CLOCKWISE = SEAT + 3
SEAT_HAND = CLOCKWISE + MAX_SEATS


@nb.njit(cache=True)
def action_features(obs, out):
    """Fill ``out[i, a]`` with the features of action ``a`` seen from ``obs[i]``."""
    out[:] = 0.0
    for i in range(obs.shape[0]):
        _fill_row(obs[i], out[i])


@nb.njit(cache=True)
def _plane(obs, plane, card):
    return obs[OBS_PLANES + plane * NUM_CARDS + card - 1]


@nb.njit(cache=True)
def _fill_row(obs, out):
    n = min(max(obs[OBS_NUM_PLAYERS], 1), MAX_SEATS)
    me = obs[OBS_ME] - 1  # -1: an onlooker's observation
    node = obs[OBS_NODE]
    if 0 <= node < NODE_GAME_OVER:
        out[:, NODE + node] = 1.0
    for card in range(1, NUM_CARDS + 1):
        _describe_card(obs, out[CARD_ACTION_BASE + card - 1], card, me, n)
    for seat in range(MAX_SEATS):
        row = out[SEAT_ACTION_BASE + seat]
        row[KIND + KIND_SEAT] = 1.0
        if seat < n:
            _describe_seat(obs, row, seat, me, n)
    below = above = held = 0
    for card in range(1, NUM_CARDS + 1):
        if _plane(obs, PLANE_MY_HAND, card) == 1:
            held += 1
            below += card < LAW
            above += card > LAW
    out[LAW_BELOW, KIND + KIND_LAW_BELOW] = 1.0
    out[LAW_ABOVE, KIND + KIND_LAW_ABOVE] = 1.0
    if held:
        out[LAW_BELOW, LAW_SHARE] = below / held
        out[LAW_ABOVE, LAW_SHARE] = above / held
    out[SECRET_SHOW, KIND + KIND_SHOW] = 1.0
    out[SECRET_ASK, KIND + KIND_ASK] = 1.0
    if 0 <= me < n:
        _bout_blocks(obs, out, me, n, node)


@nb.njit(cache=True)
def _describe_card(obs, row, card, me, n):
    row[KIND + KIND_CARD] = 1.0
    row[CARD] = card / NUM_CARDS
    colours = COLOURS[card]
    row[CARD + 1] = (colours & GREEN) != 0
    row[CARD + 2] = (colours & YELLOW) != 0
    row[CARD + 3] = (colours & RED) != 0
    row[CARD + 4] = (colours & BLUE) != 0
    row[CARD + 5] = IS_FLASH[card]
    row[IDENTITY + card - 1] = 1.0
    zone = _plane(obs, PLANE_ZONE, card)
    if _plane(obs, PLANE_MY_HAND, card) == 1:
        row[WHERE] = 1.0
    elif zone == ZONE_HIDDEN:
        row[WHERE + 1] = 1.0
    elif zone == ZONE_IN_PLAY:
        row[WHERE + 2] = 1.0
    elif zone == ZONE_DISCARDED:
        row[WHERE + 3] = 1.0
    elif zone == ZONE_BOX:
        row[WHERE + 4] = 1.0
    row[WHERE + 5] = _plane(obs, PLANE_SEEN_FROM, card) > 0
    lower = higher = 0
    for seat in range(n):
        other = obs[OBS_FRONT + seat]
        if 1 <= other <= NUM_CARDS and other != card:
            lower += other < card
            higher += other > card
    row[TABLE] = lower / MAX_SEATS
    row[TABLE + 1] = higher / MAX_SEATS
    holder = _plane(obs, PLANE_HOLDER, card) - 1
    if zone == ZONE_IN_PLAY and 0 <= holder < n:
        _describe_seat(obs, row, holder, me, n)


@nb.njit(cache=True)
def _describe_seat(obs, row, seat, me, n):
    """The seat block: ``seat`` as the deciding seat ``me`` sees it."""
    if 0 <= me < n:
        if seat == me:
            row[SEAT] = 1.0
        elif obs[OBS_TEAMS + seat] == obs[OBS_TEAMS + me]:
            row[SEAT + 1] = 1.0
        else:
            row[SEAT + 2] = 1.0
        row[CLOCKWISE + (seat - me) % n] = 1.0
    row[SEAT_HAND] = min(obs[OBS_HAND_COUNTS + seat], HAND_SCALE) / HAND_SCALE
    front = obs[OBS_FRONT + seat]
    if 1 <= front <= NUM_CARDS:
        row[SEAT_HAND + 1] = 1.0
        row[SEAT_HAND + 2] = front / NUM_CARDS


@nb.njit(cache=True)
def _laying_seat(obs, node, me, n):
    """The seat in front of which a card chosen at ``node`` is laid (-1: no card is laid)."""
    if node in (NODE_PLACE, NODE_WRATH_REPLACE):
        return me
    seat = -1
    if node == NODE_DREAM_REPLY:
        seat = obs[OBS_DREAM_PLAYER] - 1
    elif node == NODE_BETRAYAL_GIVE:
        seat = obs[OBS_VICTIM] - 1
    return seat if 0 <= seat < n else -1


@nb.njit(cache=True)
def _bout_blocks(obs, out, me, n, node):
    """The bout block of each action that sets the table: a card of the hand laid (in front
    of the seat ``_laying_seat`` names) or an option of a ⚡ choice (Law's direction, Dream's
    destination, Wrath's or Jealousy's pick) taken by the seat whose ⚡ card it is. Betrayal's
    pick is left out: the table it leaves depends on the card given next, a decision with
    blocks of its own."""
    table, hands = table_and_hands(obs)
    pool = unseen_cards(obs)
    scratch = np.zeros(STATE_SIZE, dtype=STATE_DTYPE)
    scratch[HDR_NUM_PLAYERS] = n
    seed = 0
    for j in range(OBS_LOG):
        seed = seed * 31 + obs[j]
    team = np.zeros(MAX_SEATS, dtype=np.bool_)
    for s in range(n):
        team[s] = obs[OBS_TEAMS + s] == obs[OBS_TEAMS + me]
    direction = obs[OBS_LAW_DIR]
    seat = _laying_seat(obs, node, me, n)
    if seat >= 0 and table[seat] == 0:
        if seat != me:  # the card leaves my hand and returns to that seat's if it stays
            hands[me] -= 1
            hands[seat] += 1
        for card in range(1, NUM_CARDS + 1):
            if holds(obs, card):
                trial = table.copy()
                trial[seat] = card
                row = out[CARD_ACTION_BASE + card - 1]
                _sample_block(row, trial, hands, direction, pool, team, n, seat, me, scratch, seed)
    elif _choice_of(obs[OBS_EFFECT]) == node and table[me] == obs[OBS_EFFECT]:
        for action in range(out.shape[0]):
            trial = table.copy()
            chosen = _apply_choice(trial, node, action, me, n, direction)
            if chosen >= 0:
                _sample_block(
                    out[action], trial, hands, chosen, pool, team, n, me, me, scratch, seed
                )


@nb.njit(cache=True)
def _choice_of(card):
    """The node where the holder of a freshly laid ⚡ ``card`` chooses how it acts (-1: none
    this block describes)."""
    if card == LAW:
        return NODE_LAW_DIR
    if card == DREAM:
        return NODE_DREAM_DEST
    if card == WRATH:
        return NODE_WRATH_PICK
    if card == JEALOUSY:
        return NODE_JEALOUSY_PICK
    return -1


@nb.njit(cache=True)
def _apply_choice(table, node, action, me, n, direction):
    """Set ``table`` as option ``action`` of the ⚡ choice at ``node`` leaves it; returns Law's
    direction after it, or -1 for an action the node never offers."""
    if node == NODE_LAW_DIR:
        if action == LAW_BELOW:
            return DIR_BELOW
        return DIR_ABOVE if action == LAW_ABOVE else -1
    if node == NODE_DREAM_DEST:
        seat = action - SEAT_ACTION_BASE
        if not 0 <= seat < n:
            return -1
        if seat != me:  # Dream goes there, and that seat's reply (unseen) comes to mine
            table[seat], table[me] = DREAM, 0
        return direction
    card = action - CARD_ACTION_BASE + 1
    if not 1 <= card <= NUM_CARDS:
        return -1
    victim = seat_of(table[:n], card)
    if victim < 0:
        return -1
    if node == NODE_WRATH_PICK:
        table[victim] = 0  # its holder lays another
        return DIR_NONE if card == LAW else direction
    table[victim], table[me] = JEALOUSY, card  # Jealousy's pick: the two cards swap seats
    return DIR_NONE if card == LAW else direction


@nb.njit(cache=True)
def _sample_block(row, table, hands, direction, pool, team, n, subject, me, scratch, seed):
    """``row``'s bout block: ``table`` completed ``BOUT_SAMPLES`` times (the same completions
    for every action: the RNG restarts from ``seed``) and ended by the kernel's rules;
    ``subject`` is the seat whose card the block's first two features follow."""
    after = np.empty_like(hands)
    rng_seed(scratch, seed)
    for _ in range(BOUT_SAMPLES):
        trial = table.copy()
        fill_empty_seats(n, trial, pool, direction, scratch)
        winner, discards = end_bout(trial, hands, scratch, after)
        starter = next_starter(trial, n, winner)
        _add_outcome(row, trial, after, team, n, subject, me, winner, discards, starter)
    row[BOUT : BOUT + BOUT_SIZE] /= BOUT_SAMPLES


@nb.njit(cache=True)
def _add_outcome(row, trial, after, team, n, seat, me, winner, discards, starter):
    """Add one ended bout to ``row``'s bout block."""
    team_size = team[:n].sum()
    team_fewest = opponent_fewest = HAND_SCALE
    for s in range(n):
        gone = (discards >> trial[s]) & 1
        if team[s]:
            row[BOUT + 2] += gone / team_size
            if s != me:
                team_fewest = min(team_fewest, after[s])
        else:
            row[BOUT + 3] += gone / max(n - team_size, 1)
            opponent_fewest = min(opponent_fewest, after[s])
    row[BOUT] += (discards >> trial[seat]) & 1
    row[BOUT + 1] += trial[seat] == winner
    row[BOUT + 4] += team[starter] if starter >= 0 else 0
    row[BOUT + 5] += _hand_share(after[me])
    row[BOUT + 6] += _hand_share(team_fewest)
    row[BOUT + 7] += _hand_share(opponent_fewest)


@nb.njit(cache=True)
def _hand_share(count):
    return min(max(count, 0), HAND_SCALE) / HAND_SCALE
