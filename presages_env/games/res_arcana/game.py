"""Res Arcana: options, sizes, labels, rendering, position set-up and queries around the kernel.

Actions (``NUM_ACTIONS``, the same indices at every decision; the mask selects): place or
discard artifact a (0-39, 40-79), claim a face-up monument (80-89) or the deck's top (90), a
Place of Power face (91-100), use power w (101-182), pass (183), one essence E/L/C/D/G
(184-188: pay it, gain it), done (189), component c (190-267), seat s (268-271), yes/no
(272-273), the attacking dragon's own ignore cost (274), look at my deck / the monument
deck (275-276), order k of looked-at cards (277-282). ``legal_labels(state)`` names each
legal action at the pending decision; docs/res_arcana.md has the full layout.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from presages_env.core.game import Game
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_NUM_PLAYERS,
    HDR_TERMINAL,
    TRUNCATED,
    seed_of,
    step_of,
)
from presages_env.core.results import SeatResult, counted, places_by
from presages_env.core.state_io import apply_actions
from presages_env.core.validation import check_int, check_seed, checked_state
from presages_env.games.res_arcana import action_features, card_text, event_text, view
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import kernel as k
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana import options as res_arcana_options
from presages_env.games.res_arcana import validate as v
from presages_env.games.res_arcana.cards import (
    ESSENCE_NAMES,
    ESSENCES,
    NAMES,
    cid_of,
    cost_text,
    essences_text,
    power_id,
)
from presages_env.games.res_arcana.effects import placement_discounts
from presages_env.games.res_arcana.event_kinds import max_episode_events
from presages_env.games.res_arcana.event_text import TARGET_KIND_NAMES
from presages_env.games.res_arcana.options import PLACE_FACES, ResArcanaOptions
from presages_env.games.res_arcana.phases import begin_collect, clear_game, holdings

NUM_ACTIONS = lay.NUM_ACTIONS
PASS = lay.A_PASS
DONE = lay.A_DONE
YES = lay.A_YES
NO = lay.A_NO
DRAGON_IGNORE = lay.A_DRAGON_IGNORE
LOOK_OWN_DECK = lay.A_LOOK_OWN
LOOK_MONUMENTS = lay.A_LOOK_MONUMENTS
CLAIM_MONUMENT_TOP = lay.A_CLAIM_MONUMENT_TOP

NODE_NAMES = (
    "ACTION",
    "PAY",
    "PAY_X",
    "GAIN",
    "TARGET",
    "REACT",
    "STATUE",
    "FORGE",
    "LOOK",
    "REORDER",
    "RIVAL",
    "OVER",
)
PHASE_NAMES = ("setup: mages", "setup: magic items", "collect", "actions", "over")


# ---- actions by name -------------------------------------------------------------------------
def _artifact(name: str) -> int:
    cid = cid_of(name)
    if cid >= cd.NUM_ARTIFACTS:
        raise ValueError(f"{name} is a {cd.KIND_NAMES[cd.KIND[cid]]}, not an artifact")
    return cid


def place(name: str) -> int:
    """Place artifact ``name`` from hand."""
    return lay.A_PLACE + _artifact(name)


def discard(name: str) -> int:
    """Discard artifact ``name`` from hand for 1 Gold or 2 other essences."""
    return lay.A_DISCARD + _artifact(name)


def claim_monument(name: str) -> int:
    cid = cid_of(name)
    if cd.KIND[cid] != cd.MONUMENT:
        raise ValueError(f"{name} is not a monument")
    return lay.A_CLAIM_MONUMENT + cid - cd.FIRST_MONUMENT


def claim_place(name: str) -> int:
    cid = cid_of(name)
    if cd.KIND[cid] != cd.PLACE:
        raise ValueError(f"{name} is not a Place of Power")
    return lay.A_CLAIM_PLACE + cid - cd.FIRST_PLACE


def power(name: str, index: int = 0) -> int:
    """Use power ``index`` (0: first, 1: second) of component ``name``."""
    return lay.A_POWER + power_id(name, index)


def essence(letter: str) -> int:
    """Pay or gain one essence: ``"E"``, ``"L"``, ``"C"``, ``"D"``, ``"G"`` or its name."""
    for e, (short, full) in enumerate(zip(ESSENCES, ESSENCE_NAMES, strict=True)):
        if letter in (short, full):
            return lay.A_ESSENCE + e
    raise ValueError(f"an essence is one of {list(ESSENCES)} or {list(ESSENCE_NAMES)}")


def component(name: str) -> int:
    """Choose component ``name`` (a target, a reaction, a mage or item pick...)."""
    return lay.A_COMPONENT + cid_of(name)


def seat_action(seat: int) -> int:
    return lay.A_SEAT + check_int(seat, "a seat", 0, lay.MAX_PLAYERS - 1)


def order_action(order: int) -> int:
    """Order ``order`` of the looked-at cards (permutations of top, second, third in
    lexicographic order; 0 keeps them as they are)."""
    return lay.A_ORDER + check_int(order, "an order", 0, lay.NUM_ORDERS - 1)


class ResArcanaGame(Game):
    name = "res_arcana"
    title = "Res Arcana"
    game_id = 4
    min_players = 2
    max_players = 4
    default_players = 4
    obs_dtype = np.int8
    Options = ResArcanaOptions
    option_space = res_arcana_options.option_space
    truncates_itself = True
    state_dtype = k.STATE_DTYPE
    layout_version = 3  # 3: what seats know of decks and monuments (exact sample_world)
    # 200 simulations won 92.5% of 100 games against the heuristic with heuristic rollouts,
    # 63.0% with random ones (2 players, docs/agents.md)
    search_rollouts = "heuristic"
    kernel = k
    validator = v
    viewer = view
    event_texts = event_text
    card_texts = card_text
    action_features = action_features

    def max_visible_events(self, num_players: int, options: ResArcanaOptions) -> int:
        """Every event of the longest episode bounds what one seat sees: the deal (90 at
        most), per decision its own events and the rest of its action (6 + 39), per round
        its end and its whole collect phase (6 + 51), with at most
        ``step_cap // num_players + 1`` rounds since every seat passes once a round, and a
        truncation (``event_kinds.max_episode_events``; the parts are derived in
        ``event_kinds._bounds`` from the card table). With the default ``step_cap`` of 5000:
        367,648 events for 2 players, 296,398 for 4."""
        return max_episode_events(num_players, int(options.step_cap))

    def validate_options(self, num_players: int, options: ResArcanaOptions) -> None:
        if options.places_of_power not in PLACE_FACES:
            raise ValueError(
                f"option places_of_power must be one of {PLACE_FACES}, "
                f"got {options.places_of_power!r}"
            )
        if not isinstance(options.starter_sets, (bool, np.bool_)):
            raise TypeError(f"option starter_sets must be a bool, got {options.starter_sets!r}")
        cap = options.step_cap
        if isinstance(cap, bool) or not isinstance(cap, (int, np.integer)):
            raise TypeError(f"option step_cap must be an int, got {cap!r}")
        if not 1 <= cap <= lay.MAX_STEP_CAP:
            raise ValueError(f"option step_cap must be in [1, {lay.MAX_STEP_CAP}], got {cap}")

    def write_options(self, state: np.ndarray, options: ResArcanaOptions) -> None:
        state[lay.OPT_PLACE_FACES] = PLACE_FACES.index(options.places_of_power)
        state[lay.OPT_STARTER_SETS] = int(bool(options.starter_sets))
        state[lay.OPT_STEP_CAP] = int(options.step_cap)

    def read_options(self, state: np.ndarray) -> ResArcanaOptions:
        return ResArcanaOptions(
            places_of_power=PLACE_FACES[int(state[lay.OPT_PLACE_FACES])],
            starter_sets=bool(state[lay.OPT_STARTER_SETS]),
            step_cap=int(state[lay.OPT_STEP_CAP]),
        )

    def obs_high(self, num_players: int) -> np.ndarray:
        """Upper bound of every observation entry (the lower bound is 0)."""
        return observation_high(num_players)

    # ---- reading a state ---------------------------------------------------------------
    def info_key(self, state: np.ndarray) -> bytes:
        """Changes whenever a VP total, a pool, the round or the end changes."""
        return _summary(state).tobytes()

    def infos(self, state: np.ndarray) -> list[dict]:
        """Public facts per seat: its VP, its pool (``essences``: E, L, C, D, G counts), every
        seat's VP, the round, the winners and whether the step cap cut the game."""
        n = int(state[HDR_NUM_PLAYERS])
        summary = _summary(state).tolist()
        points = summary[:n]
        terminal = summary[-1]
        won = winners(state) if terminal else []
        first = lay.MAX_PLAYERS
        return [
            {
                "vp": points[s],
                "essences": summary[first + 5 * s : first + 5 * s + 5],
                "victory_points": points,
                "round": summary[-2],
                "winners": won,
                "truncated": terminal == TRUNCATED,
            }
            for s in range(n)
        ]

    def result_summary(self, state: np.ndarray, totals: Sequence[float]) -> list[SeatResult]:
        """The winners first (the most victory points, ties broken by the rules), then the
        others by their victory points."""
        n = _n(state)
        points = _summary(state)[:n].tolist()
        won = winners(state)
        places = places_by([(s in won, points[s]) for s in range(n)])
        return [SeatResult(s, places[s], counted(points[s], "victory point")) for s in range(n)]

    def action_label(self, state: np.ndarray, action: int) -> str:
        return action_label(state, int(action))

    def action_label_for(self, state: np.ndarray, action: int, seat: int) -> str:
        """The mage kept at setup and the order of cards put back on a deck are the
        chooser's secret; the others read that a choice was made. Every other move is
        public."""
        hidden = hidden_choice(state)
        if hidden is None or seat == current_seat(state):
            return self.action_label(state, action)
        return hidden

    def render(self, state: np.ndarray) -> str:
        return render_text(state)


def observation_high(num_players: int) -> np.ndarray:
    """Entry-wise maxima of the observation layout (``layout.py``, docs/res_arcana.md)."""
    n = num_players
    nc, cap = cd.NUM_COMPONENTS, 127
    high = np.zeros(lay.OBS_SIZE, dtype=np.int64)
    header = [n, n, lay.PHASE_OVER, lay.NUM_NODES - 1, n, n, n, cap, 1, cd.NUM_MONUMENTS]
    high[: len(header)] = header
    high[lay.OBS_MON_TOP : lay.OBS_MON_TOP + lay.LOOK_DEPTH] = cd.NUM_MONUMENTS
    high[lay.OBS_MY_TOP : lay.OBS_MY_TOP + lay.LOOK_DEPTH] = cd.NUM_ARTIFACTS
    high[lay.OBS_MY_MAGE_PICK] = cd.NUM_MAGES
    pending = {
        "ACT_KIND": lay.DO_PASS,
        "ACT_PLAYER": n,
        "ACT_COMP": nc,
        "ACT_POWER": cd.NUM_POWERS,
        "ACT_STAGE": lay.ST_FINISH,
        "ACT_TARGET": nc,
        "ACT_XTYPE": cd.NUM_ESSENCES,
        "ACT_COUNT": lay.LOOK_DEPTH,
        "PAY_PLAYER": n,
        "PAY_MASK": cd.ALL,
        "PAY_MIN": cd.NUM_ESSENCES - 1,
        "GAIN_PLAYER": n,
        "GAIN_MASK": cd.ALL,
        "GAIN_MIN": cd.NUM_ESSENCES - 1,
        "GAIN_DEST": nc,
        "GAIN_MODE": lay.GAIN_OR_GOLD,
        "TGT_KIND": lay.NUM_TARGET_KINDS - 1,
        "TGT_PLAYER": n,
        "TGT_CURSOR": nc,
        "CHECK_ACTIVE": lay.CHECK_MID_ROUND,
        "STATUE_USER": n,
        "LOOK_DECK": lay.LOOK_MONUMENTS,
        "LOOK_COUNT": lay.LOOK_DEPTH,
        "COL_K": n,
        "COL_STAGE": lay.COL_NEXT,
    }
    for i, field in enumerate(lay.PENDING_FIELDS):
        high[lay.OBS_PENDING + i] = pending.get(field, cap)
    seat = [
        1,
        cap,
        cap,
        cap,
        cap,
        cap,
        cap,
        cd.NUM_ARTIFACTS,
        lay.DECK_CAP,
        cd.NUM_ARTIFACTS,
        lay.LOOK_DEPTH,
        lay.LOOK_DEPTH,
        1,
        1,
    ]
    for s in range(n):
        base = lay.OBS_SEATS + s * lay.SEAT_FIELDS
        high[base : base + lay.SEAT_FIELDS] = seat
    planes = [lay.Z_BOX, n, 1] + [cap] * cd.NUM_ESSENCES
    for p, value in enumerate(planes):
        start = lay.OBS_COMPONENTS + p * nc
        high[start : start + nc] = value
    return high


# =========================================================================================
# labels
# =========================================================================================
def _name(cid: int) -> str:
    return NAMES[cid]


def _place_cost_text(state: np.ndarray, seat: int, card: int, power_index: int) -> str:
    all_part, non_gold = placement_discounts(state, seat, card, power_index)
    free = cd.PRINTED_COST[card] == 0 or all_part >= cd.PRINTED_COST[card]
    if free:
        return "free"
    discount = f", discount {all_part + non_gold}" if all_part + non_gold else ""
    return f"{cost_text(card)}{discount}"


def _turn_label(state: np.ndarray, action: int) -> str:
    seat = int(state[HDR_CURRENT])
    if action < lay.A_DISCARD:
        return f"place {_name(action)} ({_place_cost_text(state, seat, action, -1)})"
    if action < lay.A_CLAIM_MONUMENT:
        return f"discard {_name(action - lay.A_DISCARD)} for 1 Gold or 2 other essences"
    if action < lay.A_CLAIM_MONUMENT_TOP:
        monument = cd.FIRST_MONUMENT + action - lay.A_CLAIM_MONUMENT
        return f"claim monument {_name(monument)} ({cd.VP[monument]} VP) for 4 Gold"
    if action == lay.A_CLAIM_MONUMENT_TOP:
        return "claim the top of the monument deck (unseen) for 4 Gold"
    if action < lay.A_POWER:
        place_cid = cd.FIRST_PLACE + action - lay.A_CLAIM_PLACE
        return f"claim {_name(place_cid)} for {cost_text(place_cid)}"
    if action < lay.A_PASS:
        w = action - lay.A_POWER
        return f"use {_name(cd.PW_COMP[w])} power {cd.PW_INDEX[w] + 1}: {cd.POWER_TEXTS[w]}"
    return "pass (first to pass takes the token; swap the magic item; draw 1)"


def _essence_label(state: np.ndarray, node: str, e: int) -> str:
    name = ESSENCE_NAMES[e]
    if node == "PAY":
        return f"pay 1 {name}"
    if node == "PAY_X":
        return f"pay 1 more {name} for X (X = {int(state[lay.ACT_X]) + 1})"
    dest = int(state[lay.GAIN_DEST])
    mode = int(state[lay.GAIN_MODE])
    if mode == lay.GAIN_OR_GOLD and e == cd.G:
        return "gain 1 Gold (instead of 2 other essences)"
    left = int(state[lay.GAIN_LEFT])
    count = left if mode == lay.GAIN_ONE_TYPE else 1
    where = f"on {_name(dest)}" if dest >= 0 else "in the pool"
    return f"gain {count} {name} {where}"


def _component_label(state: np.ndarray, node: str, c: int) -> str:
    name = _name(c)
    if node == "REACT":
        return f"ignore the Life loss with {name}: {cd.REACTION_TEXTS[c]}"
    kind = int(state[lay.TGT_KIND])
    seat = int(state[lay.TGT_PLAYER])
    if node != "TARGET":
        return f"choose {name}"
    if kind == lay.TK_MAGE:
        return f"keep mage {name}"
    if kind == lay.TK_ITEM:
        return f"take magic item {name}"
    if kind == lay.TK_ITEM_SWAP:
        return f"swap the magic item for {name}"
    if kind == lay.TK_TAKE:
        return f"take the essences on {name} ({essences_text(essences_on(state, name).values())})"
    if kind in (lay.TK_STRAIGHTEN_ANY, lay.TK_STRAIGHTEN_CREATURE):
        return f"straighten {name}"
    if kind in (
        lay.TK_SACRIFICE_ANY,
        lay.TK_SACRIFICE_OTHER,
        lay.TK_SACRIFICE_BEAST,
        lay.TK_IGNORE_DESTROY,
    ):
        return f"destroy {name} (printed cost {cd.PRINTED_COST[c]})"
    if kind in (lay.TK_TURN_DRAGON, lay.TK_TURN_CREATURE):
        return f"turn {name}"
    if kind in (lay.TK_DISCARD_COST, lay.TK_DISCARD, lay.TK_IGNORE_DISCARD):
        return f"discard {name} (printed cost {cd.PRINTED_COST[c]})"
    if kind in (lay.TK_PLACE_HAND_DRAGON, lay.TK_PLACE_OWN_DISCARD, lay.TK_PLACE_ANY_DRAGON):
        cost = _place_cost_text(state, seat, c, int(state[lay.ACT_POWER]))
        return f"place {name} ({cost})"
    paid = ESSENCE_NAMES[int(state[lay.ACT_XTYPE])]
    return f"put the paid {paid} on {name}"


def _done_label(state: np.ndarray, node: str) -> str:
    if node == "PAY_X":
        return f"stop paying: X = {int(state[lay.ACT_X])}"
    if node == "REACT":
        life = int(cd.PW_AMOUNT[int(state[lay.ACT_POWER])])
        return f"accept the loss of {life} Life (2 other essences per Life not paid)"
    if int(state[lay.TGT_KIND]) == lay.TK_TAKE:
        return "leave the remaining stored essences"
    return "place nothing"


def _dragon_ignore_label(state: np.ndarray) -> str:
    w = int(state[lay.ACT_POWER])
    how = int(cd.PW_PARAM[w])
    if how == cd.IGNORE_PAY:
        return f"ignore the attack by paying 1 {ESSENCE_NAMES[int(cd.PW_PARAM2[w])]}"
    if how == cd.IGNORE_DESTROY:
        return "ignore the attack by destroying one of your artifacts"
    return "ignore the attack by discarding a card"


def _order_label(state: np.ndarray, order: int) -> str:
    count = int(state[lay.LOOK_COUNT])
    seat = int(state[HDR_CURRENT])
    if state[lay.LOOK_DECK] == lay.LOOK_OWN:
        top = deck(state, seat)[:count]
    else:
        top = monument_deck(state)[:count]
    orders = list(itertools.permutations(range(count)))
    if order >= len(orders):  # named in the refusal of an illegal action
        return f"order {order} of the cards looked at"
    return "put back, top first: " + ", ".join(top[i] for i in orders[order])


def action_label(state: np.ndarray, action: int) -> str:
    """A canonical, stable name of ``action`` at the decision ``state`` is waiting for."""
    node = node_name(state)
    if node == "ACTION":
        return _turn_label(state, action)
    if lay.A_ESSENCE <= action < lay.A_DONE:
        return _essence_label(state, node, action - lay.A_ESSENCE)
    if action == lay.A_DONE:
        return _done_label(state, node)
    if lay.A_COMPONENT <= action < lay.A_SEAT:
        return _component_label(state, node, action - lay.A_COMPONENT)
    if lay.A_SEAT <= action < lay.A_YES:
        w = int(state[lay.ACT_POWER])
        counted = ESSENCE_NAMES[int(cd.PW_PARAM2[w])]
        return f"count the {counted} of P{action - lay.A_SEAT}"
    if action in (lay.A_YES, lay.A_NO):
        yes = action == lay.A_YES
        if node == "STATUE":
            return (
                "use Golden Statue: turn + 3 Gold → 3 VP at this check"
                if yes
                else ("do not use Golden Statue")
            )
        return "pay 1 Death to Cursed Forge" if yes else "turn Cursed Forge instead of paying"
    if action == lay.A_DRAGON_IGNORE:
        return _dragon_ignore_label(state)
    if action == lay.A_LOOK_OWN:
        return "look at the top 3 of my deck"
    if action == lay.A_LOOK_MONUMENTS:
        return "look at the top 3 of the monument deck"
    if lay.A_ORDER <= action < lay.NUM_ACTIONS:
        return _order_label(state, action - lay.A_ORDER)
    return str(action)


def hidden_choice(state: np.ndarray) -> str | None:
    """How the seats that do not decide read the pending decision when it is secret (a
    mage kept face down at setup, the order of the cards looked at), else None."""
    node = node_name(state)
    if node == "TARGET" and state[lay.TGT_KIND] == lay.TK_MAGE:
        return TARGET_KIND_NAMES[lay.TK_MAGE]
    if node == "REORDER":
        return "put the cards looked at back in a secret order"
    return None


def legal_actions(state: np.ndarray) -> list[int]:
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    k.legal_mask(state, mask)
    return [int(a) for a in np.flatnonzero(mask)]


def legal_labels(state: np.ndarray) -> dict[int, str]:
    """Every legal action at the pending decision with its label."""
    return {a: action_label(state, a) for a in legal_actions(state)}


# =========================================================================================
# queries
# =========================================================================================
def _n(state: np.ndarray) -> int:
    return int(state[HDR_NUM_PLAYERS])


def _names_at(state: np.ndarray, seat: int, loc: int, first: int = 0, last: int = 78) -> list[str]:
    return [
        NAMES[c]
        for c in range(first, last)
        if state[lay.LOC + c] == loc and state[lay.OWNER + c] == seat
    ]


def hand(state: np.ndarray, seat: int) -> list[str]:
    return _names_at(state, seat, lay.LOC_HAND, 0, cd.NUM_ARTIFACTS)


def deck(state: np.ndarray, seat: int) -> list[str]:
    """``seat``'s deck, top first."""
    size = int(state[lay.DECK_SIZE + seat])
    base = lay.DECK + seat * lay.DECK_CAP
    return [NAMES[int(state[base + i])] for i in range(size - 1, -1, -1)]


def discard_pile(state: np.ndarray, seat: int) -> list[str]:
    return _names_at(state, seat, lay.LOC_DISCARD, 0, cd.NUM_ARTIFACTS)


def in_play(state: np.ndarray, seat: int) -> list[str]:
    """Every component of ``seat`` in play: mage, magic item, artifacts, monuments, places."""
    return _names_at(state, seat, lay.LOC_PLAY)


def pool(state: np.ndarray, seat: int) -> dict[str, int]:
    base = lay.POOL + seat * cd.NUM_ESSENCES
    return {ESSENCES[e]: int(state[base + e]) for e in range(cd.NUM_ESSENCES)}


def essences_on(state: np.ndarray, name: str) -> dict[str, int]:
    """Essences lying on component ``name``."""
    base = lay.STORED + cid_of(name) * cd.NUM_ESSENCES
    return {ESSENCES[e]: int(state[base + e]) for e in range(cd.NUM_ESSENCES)}


def is_turned(state: np.ndarray, name: str) -> bool:
    return bool(state[lay.TURNED + cid_of(name)])


def _summary(state: np.ndarray) -> np.ndarray:
    out = np.empty(k.SUMMARY_SIZE, dtype=np.int64)
    k.public_summary(state, out)
    return out


def victory_points(state: np.ndarray, seat: int) -> int:
    return int(_summary(state)[seat])


def winners(state: np.ndarray) -> list[int]:
    return [s for s in range(_n(state)) if state[lay.WINNER + s]]


def display(state: np.ndarray) -> list[str]:
    return [NAMES[int(c)] for c in state[lay.DISPLAY : lay.DISPLAY + 2] if c >= 0]


def monument_deck(state: np.ndarray) -> list[str]:
    """The monument deck, top first."""
    size = int(state[lay.MON_DECK_SIZE])
    return [NAMES[int(state[lay.MON_DECK + i])] for i in range(size - 1, -1, -1)]


def places_available(state: np.ndarray) -> list[str]:
    return [
        NAMES[c]
        for c in range(cd.FIRST_PLACE, cd.NUM_COMPONENTS)
        if state[lay.LOC + c] == lay.LOC_CENTER
    ]


def supply_items(state: np.ndarray) -> list[str]:
    return [
        NAMES[c]
        for c in range(cd.FIRST_ITEM, cd.FIRST_ITEM + cd.NUM_ITEMS)
        if state[lay.LOC + c] == lay.LOC_SUPPLY
    ]


def owner(state: np.ndarray, name: str) -> int:
    return int(state[lay.OWNER + cid_of(name)])


def node_name(state: np.ndarray) -> str:
    return NODE_NAMES[int(state[lay.NODE])]


def phase_name(state: np.ndarray) -> str:
    return PHASE_NAMES[int(state[lay.PHASE])]


def current_seat(state: np.ndarray) -> int:
    return int(state[HDR_CURRENT])


def first_player(state: np.ndarray) -> int:
    return int(state[lay.FIRST_PLAYER])


def passed(state: np.ndarray) -> list[bool]:
    return [bool(state[lay.PASSED + s]) for s in range(_n(state))]


def round_number(state: np.ndarray) -> int:
    return int(state[lay.ROUND])


def target_kind(state: np.ndarray) -> str:
    return TARGET_KIND_NAMES[int(state[lay.TGT_KIND])]


def play(state: np.ndarray, *actions: int) -> np.ndarray:
    """Apply ``actions`` in order through the kernels; returns the summed rewards.

    An illegal action raises ``ValueError`` naming the decision and the legal actions with
    their labels; the state then holds every action before it, none of it.
    """
    return apply_actions(ResArcanaGame(), state, actions, _decision)


def _decision(state: np.ndarray) -> str:
    return f"at node {node_name(state)} (seat {current_seat(state)})"


# =========================================================================================
# rendering
# =========================================================================================
_ANSI = {"E": "31", "L": "32", "C": "34", "D": "35", "G": "33"}


def _essences(values: Mapping[str, int] | Sequence[int], colour: bool = True) -> str:
    items = values.items() if isinstance(values, Mapping) else zip(ESSENCES, values, strict=True)
    parts = []
    for letter, count in items:
        if count:
            text = f"{count}{letter}"
            parts.append(f"\x1b[{_ANSI[letter]}m{text}\x1b[0m" if colour else text)
    return " ".join(parts) or "-"


def _tableau_entry(state: np.ndarray, c: int, colour: bool) -> str:
    text = NAMES[c]
    if state[lay.TURNED + c]:
        text += " (turned)"
    on = [int(x) for x in state[lay.STORED + c * 5 : lay.STORED + c * 5 + 5]]
    if any(on):
        text += f" [{_essences(on, colour)}]"
    return text


def render_text(state: np.ndarray, colour: bool = True) -> str:
    """A picture of the whole state for people (it shows every hand and deck)."""
    n = _n(state)
    lines = [
        f"Res Arcana — {n} players, seed {seed_of(state)}, round {round_number(state)}, "
        f"{phase_name(state)}, decision {step_of(state)}",
        f"  first player P{first_player(state)}"
        + (" (token taken this round)" if state[lay.TOKEN_TAKEN] else ""),
    ]
    for s in range(n):
        marker = ">" if s == current_seat(state) else " "
        flags = " passed" if state[lay.PASSED + s] else ""
        flags += " WINNER" if state[lay.WINNER + s] else ""
        tableau = ", ".join(
            _tableau_entry(state, c, colour)
            for c in range(cd.NUM_COMPONENTS)
            if state[lay.LOC + c] == lay.LOC_PLAY and state[lay.OWNER + c] == s
        )
        cards = [
            ", ".join(x) or "-" for x in (hand(state, s), deck(state, s), discard_pile(state, s))
        ]
        lines.append(
            f"{marker} P{s}: {victory_points(state, s)} VP, pool "
            f"{_essences(pool(state, s), colour)}{flags}\n      in play: {tableau or '-'}\n"
            f"      hand: {cards[0]} | deck (top first): {cards[1]} | discard: {cards[2]}"
        )
    lines.append(
        f"  monuments: display {', '.join(display(state)) or '-'}; deck "
        f"{len(monument_deck(state))} left"
    )
    lines.append(f"  places of power: {', '.join(places_available(state)) or '-'}")
    lines.append(f"  magic items: {', '.join(supply_items(state))}")
    if state[HDR_TERMINAL] == TRUNCATED:
        lines.append("  truncated at the step cap: no winner")
    elif state[HDR_TERMINAL]:
        lines.append(f"  game over: {', '.join(f'P{s}' for s in winners(state))} won")
    else:
        detail = f" ({target_kind(state)})" if node_name(state) == "TARGET" else ""
        lines.append(f"  now: P{current_seat(state)} decides {node_name(state)}{detail}")
    return "\n".join(lines)


# =========================================================================================
# position set-up
# =========================================================================================
def _parse_pool(value: str | Mapping[str, int], what: str) -> list[int]:
    """Essence counts, each at most ``ESSENCE_CEILING`` (what a game still going holds)."""
    if isinstance(value, Mapping):
        counts = [0] * 5
        for letter, count in value.items():
            if not isinstance(letter, str) or len(letter) != 1 or letter not in ESSENCES:
                raise ValueError(f"{what}: {letter!r} is not an essence (one of {list(ESSENCES)})")
            counts[ESSENCES.index(letter)] = count
    elif isinstance(value, str):
        try:
            counts, any_count = cd.parse_essences(value)
        except (ValueError, IndexError):
            raise ValueError(f"{what}: cannot read essences {value!r} (write '2E 1G')") from None
        if any_count:
            raise ValueError(f"{what}: 'A' is not an essence")
    else:
        raise TypeError(f"{what} must be a string like '2E 1G' or a dict, got {value!r}")
    return [
        check_int(count, f"{what}[{letter!r}]", 0, lay.ESSENCE_CEILING)
        for letter, count in zip(ESSENCES, counts, strict=True)
    ]


class _Placer:
    """Collects where each named component goes; each may be named once."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.where: dict[int, str] = {}

    def take(self, name: Any, what: str, kinds: tuple[int, ...]) -> int:
        if not isinstance(name, str):
            raise TypeError(f"{what}: components are named by strings, got {name!r}")
        cid = cid_of(name)
        if cd.KIND[cid] not in kinds:
            allowed = ", ".join(cd.KIND_NAMES[x] for x in kinds)
            raise ValueError(f"{what}: {name} is a {cd.KIND_NAMES[cd.KIND[cid]]}, not a {allowed}")
        if cid in self.where:
            raise ValueError(f"{name} is named in {self.where[cid]} and in {what}")
        self.where[cid] = what
        return cid

    def seat_lists(
        self, lists: Sequence[Iterable[str]] | None, what: str, kinds
    ) -> list[list[int]]:
        if lists is None:
            return [[] for _ in range(self.n)]
        if isinstance(lists, (str, bytes)) or len(lists) != self.n:
            raise ValueError(f"{what} must give one list per seat ({self.n})")
        return [[self.take(x, f"{what}[{s}]", kinds) for x in lst] for s, lst in enumerate(lists)]


def setup_position(
    num_players: int,
    mages: Sequence[str],
    items: Sequence[str],
    in_play: Sequence[Iterable[str]] | None = None,
    hands: Sequence[Iterable[str]] | None = None,
    decks: Sequence[Iterable[str]] | None = None,
    discards: Sequence[Iterable[str]] | None = None,
    pools: Sequence[str | Mapping[str, int]] | None = None,
    stored: Mapping[str, str | Mapping[str, int]] | None = None,
    turned: Iterable[str] = (),
    display: Sequence[str] | None = None,
    monument_deck: Sequence[str] | None = None,
    places: Sequence[str] | None = None,
    first_player: int = 0,
    passed: Sequence[bool] | None = None,
    to_act: int | None = None,
    phase: str = "actions",
    round_number: int = 1,
    seed: int = 0,
    known_tops: Sequence[int] | None = None,
    monuments_known: Sequence[int] | None = None,
    public: Sequence[Iterable[str]] | None = None,
    **options: Any,
) -> np.ndarray:
    """A position at the start of a collect phase, or at a turn of the actions phase.

    ``mages[s]``/``items[s]``: seat s's mage and magic item. ``in_play[s]``: its artifacts,
    monuments and Places of Power. ``hands``, ``decks`` (top first), ``discards``: its cards.
    ``pools[s]``: ``"2E 1G"`` or ``{"E": 2, "G": 1}`` (default empty). ``stored`` and
    ``turned`` name components in play. ``display``/``monument_deck`` (top first): the unowned
    monuments (defaults: the rest, shuffled from ``seed``, the first two face up).
    ``places``: faces of unowned Place of Power tiles in the centre (the other unowned tiles
    show the face the ``places_of_power`` option gives). ``phase``: ``"actions"`` (``to_act``
    decides, default the first seat from the first player that has not passed) or
    ``"collect"`` (from the first player). Once a seat has ``passed``, the first to pass
    took the first-player token: ``first_player`` must then be one of the seats that passed
    (play reaches no other position). Everything not named is out of the game.
    What the seats know, carried from earlier rounds (default nothing): ``known_tops[s]``,
    how many top cards of its own deck seat s has looked at (at most 3);
    ``monuments_known[s]``, how many top monuments it knows in order (at most 3);
    ``public[s]``, cards of its hand or deck everyone knows are there (they went from its
    face-up discard pile into its deck). Every other hidden card is unknown to the rivals.
    The position is validated; the state's RNG (later shuffles) is seeded from ``seed``.
    """
    game = ResArcanaGame()
    n = game.check_num_players(num_players)
    seed = check_seed(seed)
    opts = game.make_options(n, **options)
    if phase not in ("actions", "collect"):
        raise ValueError(f"phase must be 'actions' or 'collect', got {phase!r}")
    first_player = _seat(first_player, n, "first_player")
    placer = _Placer(n)
    mage_ids = placer.seat_lists([[m] for m in _per_seat(mages, n, "mages")], "mages", (cd.MAGE,))
    item_ids = placer.seat_lists([[i] for i in _per_seat(items, n, "items")], "items", (cd.ITEM,))
    owned = placer.seat_lists(in_play, "in_play", (cd.ARTIFACT, cd.MONUMENT, cd.PLACE))
    hand_ids = placer.seat_lists(hands, "hands", (cd.ARTIFACT,))
    deck_ids = placer.seat_lists(decks, "decks", (cd.ARTIFACT,))
    discard_ids = placer.seat_lists(discards, "discards", (cd.ARTIFACT,))
    passed_flags = (
        [False] * n if passed is None else [bool(x) for x in _per_seat(passed, n, "passed")]
    )
    if to_act is None:  # the first seat from the first player that has not passed
        waiting = [
            (first_player + k) % n for k in range(n) if not passed_flags[(first_player + k) % n]
        ]
        to_act = waiting[0] if waiting else first_player
    to_act = _seat(to_act, n, "to_act")
    if phase == "actions" and passed_flags[to_act]:
        raise ValueError(f"seat {to_act} has passed and cannot act")
    if phase == "collect" and any(passed_flags):
        raise ValueError("nobody has passed when a round's collect phase begins")
    rng = np.random.default_rng(seed)

    state = game.blank_state(n, opts)
    clear_game(state)
    state[lay.ROUND] = check_int(round_number, "round_number", 1, 10_000)
    state[lay.FIRST_PLAYER] = first_player
    state[lay.TOKEN_TAKEN] = int(any(passed_flags))
    for s in range(n):
        state[lay.PASSED + s] = int(passed_flags[s])
        for c in mage_ids[s] + item_ids[s] + owned[s]:
            state[lay.LOC + c] = lay.LOC_PLAY
            state[lay.OWNER + c] = s
        for c in hand_ids[s] + discard_ids[s]:
            state[lay.LOC + c] = lay.LOC_HAND if c in hand_ids[s] else lay.LOC_DISCARD
            state[lay.OWNER + c] = s
            state[lay.SEEN + c] = 1
        for i, c in enumerate(reversed(deck_ids[s])):
            state[lay.DECK + s * lay.DECK_CAP + i] = c
            state[lay.LOC + c] = lay.LOC_DECK
            state[lay.OWNER + c] = s
            state[lay.SEEN + c] = 1
        state[lay.DECK_SIZE + s] = len(deck_ids[s])
        for c in owned[s]:
            if c < cd.NUM_ARTIFACTS:
                state[lay.SEEN + c] = 1
    for c in range(cd.FIRST_ITEM, cd.FIRST_ITEM + cd.NUM_ITEMS):
        if state[lay.LOC + c] != lay.LOC_PLAY:
            state[lay.LOC + c] = lay.LOC_SUPPLY
    _setup_monuments(state, placer, display, monument_deck, rng)
    _setup_places(state, placer, places, opts, rng)
    if pools is not None:
        for s, value in enumerate(_per_seat(pools, n, "pools")):
            state[lay.POOL + 5 * s : lay.POOL + 5 * s + 5] = _parse_pool(value, f"pools[{s}]")
    for name, value in (stored or {}).items():
        cid = cid_of(name)
        if state[lay.LOC + cid] != lay.LOC_PLAY:
            raise ValueError(f"stored: {name} is not in play")
        state[lay.STORED + 5 * cid : lay.STORED + 5 * cid + 5] = _parse_pool(
            value, f"stored[{name}]"
        )
    for name in turned:
        cid = cid_of(name)
        if state[lay.LOC + cid] != lay.LOC_PLAY:
            raise ValueError(f"turned: {name} is not in play")
        state[lay.TURNED + cid] = 1
    for s in range(n):
        for e in range(cd.NUM_ESSENCES):
            state[lay.GAINED + 5 * s + e] = holdings(state, s, e)
    _setup_knowledge(state, n, known_tops, monuments_known, public)
    if phase == "actions":
        state[lay.PHASE] = lay.PHASE_ACTIONS
        state[lay.TURN_PLAYER] = to_act
    else:
        begin_collect(state)
    k.start_position(state, np.int64(seed))
    return checked_state(game, state, n)


def _seat(value: Any, n: int, what: str) -> int:
    return check_int(value, what, 0, n - 1)


def _per_seat(values: Any, n: int, what: str) -> list:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) != n:
        raise ValueError(f"{what} must give one entry per seat ({n})")
    return list(values)


def _setup_knowledge(state, n, known_tops, monuments_known, public) -> None:
    for s, count in enumerate(_per_seat(known_tops or [0] * n, n, "known_tops")):
        limit = min(lay.LOOK_DEPTH, int(state[lay.DECK_SIZE + s]))
        state[lay.KNOWN_TOP + s] = check_int(count, f"known_tops[{s}]", 0, limit)
    for s, count in enumerate(_per_seat(monuments_known or [0] * n, n, "monuments_known")):
        limit = min(lay.LOOK_DEPTH, int(state[lay.MON_DECK_SIZE]))
        state[lay.MON_KNOWN + s] = check_int(count, f"monuments_known[{s}]", 0, limit)
    for s, names in enumerate(_per_seat(public or [[]] * n, n, "public")):
        for name in names:
            c = cid_of(name)
            where = (int(state[lay.LOC + c]), int(state[lay.OWNER + c]))
            if where not in ((lay.LOC_HAND, s), (lay.LOC_DECK, s)):
                raise ValueError(f"public[{s}]: {name} is not in seat {s}'s hand or deck")
            state[lay.SEEN + c] = lay.SEEN_BY_ALL


def _setup_monuments(state, placer, display, monument_deck, rng) -> None:
    shown = [placer.take(x, "display", (cd.MONUMENT,)) for x in (display or [])]
    if len(shown) > 2:
        raise ValueError(f"at most 2 monuments are face up, got {len(shown)}")
    rest = [
        c
        for c in range(cd.FIRST_MONUMENT, cd.FIRST_MONUMENT + cd.NUM_MONUMENTS)
        if c not in placer.where
    ]
    if monument_deck is None:
        order = [int(c) for c in rng.permutation(rest)]
        if display is None:
            shown, order = order[:2], order[2:]
    else:
        order = [placer.take(x, "monument_deck", (cd.MONUMENT,)) for x in monument_deck]
        left = sorted(set(rest) - set(order) - set(shown))
        if left:
            raise ValueError(
                "every monument is owned, face up or in monument_deck; missing: "
                + ", ".join(NAMES[c] for c in left)
            )
    for slot in range(2):
        card = shown[slot] if slot < len(shown) else -1
        state[lay.DISPLAY + slot] = card
        if card >= 0:
            state[lay.LOC + card] = lay.LOC_DISPLAY
    for i, c in enumerate(reversed(order)):
        state[lay.MON_DECK + i] = c
        state[lay.LOC + c] = lay.LOC_MON_DECK
    state[lay.MON_DECK_SIZE] = len(order)


def _setup_places(state, placer, places, opts, rng) -> None:
    owned_tiles = {
        (c - cd.FIRST_PLACE) // 2
        for c in range(cd.FIRST_PLACE, cd.NUM_COMPONENTS)
        if state[lay.LOC + c] == lay.LOC_PLAY
    }
    if len(owned_tiles) != sum(
        1 for c in range(cd.FIRST_PLACE, cd.NUM_COMPONENTS) if state[lay.LOC + c] == lay.LOC_PLAY
    ):
        raise ValueError("both faces of one Place of Power tile are in play")
    center = [placer.take(x, "places", (cd.PLACE,)) for x in (places or [])]
    tiles = [(c - cd.FIRST_PLACE) // 2 for c in center]
    if len(set(tiles)) != len(tiles) or set(tiles) & owned_tiles:
        raise ValueError("places: one face per tile, and not of a tile in play")
    faces = PLACE_FACES.index(opts.places_of_power)
    for t in range(cd.NUM_TILES):
        if t not in owned_tiles and t not in tiles:
            face = faces if faces < 2 else int(rng.integers(2))
            center.append(cd.FIRST_PLACE + 2 * t + face)
    for c in center:
        state[lay.LOC + c] = lay.LOC_CENTER
