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
"""

from __future__ import annotations

import numba as nb

from presages_env.core.action_features import FeatureLayout
from presages_env.games.presages.cards import (
    BLUE,
    COLOURS,
    ENGLISH_IDS,
    GREEN,
    IS_FLASH,
    LAW,
    NUM_CARDS,
    RED,
    YELLOW,
)
from presages_env.games.presages.kernel import (
    CARD_ACTION_BASE,
    LAW_ABOVE,
    LAW_BELOW,
    MAX_SEATS,
    NODE_GAME_OVER,
    OBS_FRONT,
    OBS_HAND_COUNTS,
    OBS_ME,
    OBS_NODE,
    OBS_NUM_PLAYERS,
    OBS_PLANES,
    OBS_TEAMS,
    PLANE_HOLDER,
    PLANE_MY_HAND,
    PLANE_SEEN_FROM,
    PLANE_ZONE,
    SEAT_ACTION_BASE,
    SECRET_ASK,
    SECRET_SHOW,
    ZONE_BOX,
    ZONE_DISCARDED,
    ZONE_HIDDEN,
    ZONE_IN_PLAY,
)

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
