"""What each Res Arcana action is, from the deciding seat's observation (core/action_features.py).

Every action carries the decision it answers (the node and, for a component choice, what
the choice is for) and its kind. An action about a component — placing or discarding an
artifact, claiming a monument or a Place of Power, using a power, choosing a component —
describes that component from the card table (its identity, kind, cost, victory points,
dragon or creature, what it collects, its powers and reaction) and from the observation (where the
seat sees it, whether it is the seat's or a rival's, turned, the essences on it, how many
essences of its fixed cost the seat's pool lacks). Claiming the monument deck's top describes
that monument only when the seat has looked at it. A power also gives its own cost, effect
and gains; an essence its type and the seat's count of it; a seat its relation to the
deciding seat, its victory points, pool and hand; a reordering its permutation.
"""

from __future__ import annotations

import numba as nb

from presages_env.core.action_features import FeatureLayout
from presages_env.games.res_arcana import layout
from presages_env.games.res_arcana.cards import (
    COLLECT,
    COLLECT_CHOICE,
    COST,
    COST_ANY,
    EF_PUT_PAID,
    ESSENCE_NAMES,
    FIRST_MONUMENT,
    FIRST_PLACE,
    IS_CREATURE,
    IS_DRAGON,
    KIND,
    KIND_NAMES,
    NAMES,
    NUM_ARTIFACTS,
    NUM_COMPONENTS,
    NUM_ESSENCES,
    NUM_MONUMENTS,
    NUM_PLACES,
    NUM_POWERS,
    POWER_COUNT,
    PW_ANY,
    PW_CHOICE,
    PW_COMP,
    PW_COST,
    PW_DESTROY_SELF,
    PW_DISCARD,
    PW_EFFECT,
    PW_GAIN,
    PW_PUT,
    PW_RIVALS,
    PW_SACRIFICE,
    PW_TURN,
    PW_X,
    REACT_TRIGGER,
    VP,
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
    MAX_PLAYERS,
    NUM_NODES,
    NUM_ORDERS,
    NUM_TARGET_KINDS,
    OBS_COMPONENTS,
    OBS_ME,
    OBS_MON_TOP,
    OBS_NODE,
    OBS_NUM_PLAYERS,
    OBS_PENDING,
    OBS_SEATS,
    PENDING_FIELDS,
    PLANE_OWNER,
    PLANE_STORED,
    PLANE_TURNED,
    PLANE_ZONE,
    SEAT_FIELDS,
    SEAT_HAND,
    SEAT_POOL,
    SEAT_VP,
    Z_BOX,
)

OBS_TARGET_KIND = OBS_PENDING + PENDING_FIELDS.index("TGT_KIND")
EFFECTS = EF_PUT_PAID + 1  # the power effects EF_* of cards.py, the last one last
# Scales: counts above them read as 1 (costs and gains as printed are within them).
COST_SCALE, ESSENCE_SCALE, POOL_SCALE, VP_SCALE, HAND_SCALE = 10, 10, 20, 10, 10
ZONES = (
    "unknown",
    "my_hand",
    "my_deck",
    "play",
    "discard",
    "placing",
    "my_mage_option",
    "supply",
    "monument_deck",
    "display",
    "center",
    "box",
)
ACTION_KINDS = (
    "place",
    "discard",
    "claim_monument",
    "claim_monument_top",
    "claim_place",
    "power",
    "pass",
    "essence",
    "done",
    "component",
    "seat",
    "yes",
    "no",
    "dragon_ignore",
    "look_own",
    "look_monuments",
    "order",
)
ESSENCE_IDS = tuple(name.lower() for name in ESSENCE_NAMES)


def _named(prefix: str, count: int) -> tuple[str, ...]:
    """The names of layout's constants ``prefix*`` valued ``0..count - 1``, in value order."""
    names = {int(value): name for name, value in vars(layout).items() if name.startswith(prefix)}
    return tuple(names[value][len(prefix) :].lower() for value in range(count))


_layout = FeatureLayout()
KIND_BLOCK = _layout.block("kind", ACTION_KINDS)
NODE = _layout.block("node", _named("NODE_", NUM_NODES))
TARGET = _layout.block("target", _named("TK_", NUM_TARGET_KINDS))
COMPONENT = _layout.block(
    "component",
    tuple(name.replace(" ", "_") for name in KIND_NAMES)
    + tuple(f"cost_{e}" for e in ESSENCE_IDS)
    + ("cost_any", "vp", "dragon", "creature")
    + tuple(f"collect_{e}" for e in ESSENCE_IDS)
    + ("collect_choice", "powers", "reaction")
    + tuple(f"zone_{zone}" for zone in ZONES)
    + ("mine", "rivals", "turned")
    + tuple(f"stored_{e}" for e in ESSENCE_IDS)
    + ("pool_lacks",),
)
IDENTITY = _layout.block("identity", tuple(name.lower().replace(" ", "_") for name in NAMES))
POWER = _layout.block(
    "power",
    ("turns", "cost_any", "x_cost", "destroys_itself", "sacrifices", "discards", "rivals_gain")
    + ("choice",)
    + tuple(f"cost_{e}" for e in ESSENCE_IDS)
    + tuple(f"gain_{e}" for e in ESSENCE_IDS)
    + tuple(f"put_{e}" for e in ESSENCE_IDS)
    + tuple(f"effect_{k}" for k in range(EFFECTS)),
)
ESSENCE = _layout.block("essence", ESSENCE_IDS + ("my_pool",))
SEAT = _layout.block(
    "seat",
    ("me", "rival") + tuple(f"clockwise_{k}" for k in range(MAX_PLAYERS)) + ("vp", "pool", "hand"),
)
ORDER = _layout.block("order", tuple(str(k) for k in range(NUM_ORDERS)))
FEATURE_NAMES = tuple(_layout.names)
ACTION_FEATURES = len(FEATURE_NAMES)
# offsets inside the blocks
COMP_COST = COMPONENT + len(KIND_NAMES)
COMP_VP = COMP_COST + NUM_ESSENCES + 1
COMP_COLLECT = COMP_VP + 3
COMP_ZONE = COMP_COLLECT + NUM_ESSENCES + 3
COMP_OWNER = COMP_ZONE + len(ZONES)
COMP_STORED = COMP_OWNER + 3
COMP_LACKS = COMP_STORED + NUM_ESSENCES
POWER_COST = POWER + 8
POWER_GAIN = POWER_COST + NUM_ESSENCES
POWER_PUT = POWER_GAIN + NUM_ESSENCES
POWER_EFFECT = POWER_PUT + NUM_ESSENCES
SEAT_CLOCKWISE = SEAT + 2
SEAT_COUNTS = SEAT_CLOCKWISE + MAX_PLAYERS
(
    K_PLACE,
    K_DISCARD,
    K_MONUMENT,
    K_MONUMENT_TOP,
    K_PLACE_OF_POWER,
    K_POWER,
    K_PASS,
    K_ESSENCE,
    K_DONE,
    K_COMPONENT,
    K_SEAT,
    K_YES,
    K_NO,
    K_DRAGON_IGNORE,
    K_LOOK_OWN,
    K_LOOK_MONUMENTS,
    K_ORDER,
) = range(len(ACTION_KINDS))


@nb.njit(cache=True)
def action_features(obs, out):
    """Fill ``out[i, a]`` with the features of action ``a`` seen from ``obs[i]``."""
    out[:] = 0.0
    for i in range(obs.shape[0]):
        _fill_row(obs[i], out[i])


@nb.njit(cache=True)
def _scaled(value, scale):
    return min(max(value, 0), scale) / scale


@nb.njit(cache=True)
def _fill_row(obs, out):
    n = min(max(obs[OBS_NUM_PLAYERS], 1), MAX_PLAYERS)
    me = obs[OBS_ME] - 1
    node = obs[OBS_NODE]
    if 0 <= node < NUM_NODES:
        out[:, NODE + node] = 1.0
    target = obs[OBS_TARGET_KIND]
    if 0 <= target < NUM_TARGET_KINDS:
        out[:, TARGET + target] = 1.0
    for a in range(NUM_ARTIFACTS):
        _describe_component(obs, out[A_PLACE + a], a, me, n, K_PLACE)
        _describe_component(obs, out[A_DISCARD + a], a, me, n, K_DISCARD)
    for m in range(NUM_MONUMENTS):
        _describe_component(obs, out[A_CLAIM_MONUMENT + m], FIRST_MONUMENT + m, me, n, K_MONUMENT)
    top = obs[OBS_MON_TOP] - 1  # 0: the seat has not seen the top
    out[A_CLAIM_MONUMENT_TOP, KIND_BLOCK + K_MONUMENT_TOP] = 1.0
    if 0 <= top < NUM_MONUMENTS:
        _describe_component(obs, out[A_CLAIM_MONUMENT_TOP], FIRST_MONUMENT + top, me, n, -1)
    for f in range(NUM_PLACES):
        _describe_component(obs, out[A_CLAIM_PLACE + f], FIRST_PLACE + f, me, n, K_PLACE_OF_POWER)
    for w in range(NUM_POWERS):
        _describe_power(obs, out[A_POWER + w], w, me, n)
    for c in range(NUM_COMPONENTS):
        _describe_component(obs, out[A_COMPONENT + c], c, me, n, K_COMPONENT)
    for e in range(NUM_ESSENCES):
        row = out[A_ESSENCE + e]
        row[KIND_BLOCK + K_ESSENCE] = 1.0
        row[ESSENCE + e] = 1.0
        if 0 <= me < n:
            pool = obs[OBS_SEATS + me * SEAT_FIELDS + SEAT_POOL + e]
            row[ESSENCE + NUM_ESSENCES] = _scaled(pool, ESSENCE_SCALE)
    for seat in range(MAX_PLAYERS):
        row = out[A_SEAT + seat]
        row[KIND_BLOCK + K_SEAT] = 1.0
        if seat < n:
            _describe_seat(obs, row, seat, me, n)
    for k in range(NUM_ORDERS):
        out[A_ORDER + k, KIND_BLOCK + K_ORDER] = 1.0
        out[A_ORDER + k, ORDER + k] = 1.0
    out[A_PASS, KIND_BLOCK + K_PASS] = 1.0
    out[A_DONE, KIND_BLOCK + K_DONE] = 1.0
    out[A_YES, KIND_BLOCK + K_YES] = 1.0
    out[A_NO, KIND_BLOCK + K_NO] = 1.0
    out[A_DRAGON_IGNORE, KIND_BLOCK + K_DRAGON_IGNORE] = 1.0
    out[A_LOOK_OWN, KIND_BLOCK + K_LOOK_OWN] = 1.0
    out[A_LOOK_MONUMENTS, KIND_BLOCK + K_LOOK_MONUMENTS] = 1.0


@nb.njit(cache=True)
def _plane(obs, plane, comp):
    return obs[OBS_COMPONENTS + plane * NUM_COMPONENTS + comp]


@nb.njit(cache=True)
def _describe_component(obs, row, comp, me, n, kind):
    """The component block for ``comp``; ``kind`` (-1: none) sets the action kind."""
    if kind >= 0:
        row[KIND_BLOCK + kind] = 1.0
    row[COMPONENT + KIND[comp]] = 1.0
    row[IDENTITY + comp] = 1.0
    lacks = 0
    for e in range(NUM_ESSENCES):
        row[COMP_COST + e] = _scaled(COST[comp, e], COST_SCALE)
        row[COMP_COLLECT + e] = _scaled(COLLECT[comp, e], ESSENCE_SCALE)
        row[COMP_STORED + e] = _scaled(_plane(obs, PLANE_STORED + e, comp), ESSENCE_SCALE)
        if 0 <= me < n:
            pool = obs[OBS_SEATS + me * SEAT_FIELDS + SEAT_POOL + e]
            lacks += max(COST[comp, e] - pool, 0)
    row[COMP_COST + NUM_ESSENCES] = _scaled(COST_ANY[comp], COST_SCALE)
    row[COMP_VP] = _scaled(VP[comp], VP_SCALE)
    row[COMP_VP + 1] = IS_DRAGON[comp]
    row[COMP_VP + 2] = IS_CREATURE[comp]
    row[COMP_COLLECT + NUM_ESSENCES] = _scaled(COLLECT_CHOICE[comp], ESSENCE_SCALE)
    row[COMP_COLLECT + NUM_ESSENCES + 1] = POWER_COUNT[comp] / 2
    row[COMP_COLLECT + NUM_ESSENCES + 2] = REACT_TRIGGER[comp] != 0
    zone = _plane(obs, PLANE_ZONE, comp)
    if 0 <= zone <= Z_BOX:
        row[COMP_ZONE + zone] = 1.0
    owner = _plane(obs, PLANE_OWNER, comp) - 1
    if 0 <= owner < n and 0 <= me < n:
        row[COMP_OWNER + (0 if owner == me else 1)] = 1.0
    row[COMP_OWNER + 2] = _plane(obs, PLANE_TURNED, comp) != 0
    row[COMP_LACKS] = _scaled(lacks, COST_SCALE)


@nb.njit(cache=True)
def _describe_power(obs, row, power, me, n):
    _describe_component(obs, row, PW_COMP[power], me, n, K_POWER)
    row[POWER] = PW_TURN[power]
    row[POWER + 1] = _scaled(PW_ANY[power], COST_SCALE)
    row[POWER + 2] = PW_X[power]
    row[POWER + 3] = PW_DESTROY_SELF[power]
    row[POWER + 4] = PW_SACRIFICE[power] != 0
    row[POWER + 5] = PW_DISCARD[power]
    rivals_gain = False
    for e in range(NUM_ESSENCES):
        rivals_gain = rivals_gain or PW_RIVALS[power, e] != 0
        row[POWER_COST + e] = _scaled(PW_COST[power, e], COST_SCALE)
        row[POWER_GAIN + e] = _scaled(PW_GAIN[power, e], ESSENCE_SCALE)
        row[POWER_PUT + e] = _scaled(PW_PUT[power, e], ESSENCE_SCALE)
    row[POWER + 6] = rivals_gain
    row[POWER + 7] = _scaled(PW_CHOICE[power], ESSENCE_SCALE)
    effect = PW_EFFECT[power]
    if 0 <= effect < EFFECTS:
        row[POWER_EFFECT + effect] = 1.0


@nb.njit(cache=True)
def _describe_seat(obs, row, seat, me, n):
    if 0 <= me < n:
        row[SEAT + (0 if seat == me else 1)] = 1.0
        row[SEAT_CLOCKWISE + (seat - me) % n] = 1.0
    base = OBS_SEATS + seat * SEAT_FIELDS
    pool = 0
    for e in range(NUM_ESSENCES):
        pool += obs[base + SEAT_POOL + e]
    row[SEAT_COUNTS] = _scaled(obs[base + SEAT_VP], VP_SCALE)
    row[SEAT_COUNTS + 1] = _scaled(pool, POOL_SCALE)
    row[SEAT_COUNTS + 2] = _scaled(obs[base + SEAT_HAND], HAND_SCALE)
