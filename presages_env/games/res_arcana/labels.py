"""Res Arcana's actions by name (``place("Dragon Egg")``, ``essence("G")``...) and the name of
each action at the decision a state waits for (``action_label``, ``legal_labels``)."""

from __future__ import annotations

import itertools

import numpy as np

from presages_env.core.events import seat_name
from presages_env.core.header import HDR_CURRENT
from presages_env.core.validation import check_int
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import kernel as k
from presages_env.games.res_arcana import layout as lay
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
from presages_env.games.res_arcana.event_text import TARGET_KIND_NAMES
from presages_env.games.res_arcana.queries import deck, essences_on, monument_deck, node_name

NUM_ACTIONS = lay.NUM_ACTIONS
PASS = lay.A_PASS
DONE = lay.A_DONE
YES = lay.A_YES
NO = lay.A_NO
DRAGON_IGNORE = lay.A_DRAGON_IGNORE
LOOK_OWN_DECK = lay.A_LOOK_OWN
LOOK_MONUMENTS = lay.A_LOOK_MONUMENTS
CLAIM_MONUMENT_TOP = lay.A_CLAIM_MONUMENT_TOP


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
        return f"count the {counted} of {seat_name(action - lay.A_SEAT)}"
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
