"""A simple engine-building Res Arcana player that reads only its observation (and the card
table, which is printed on the cards).

Turns: claim a Place of Power, else a monument (face up, most VP first), else place the
artifact worth most (VP, collect abilities, powers), else use the best power (points stored
on a Place of Power or monument, Gold, essences gained, attacks, draws; a victory check only
when it wins), else discard an expensive card while holding three or more, else pass.
Payments spend the essence held most, Gold last; gains take Gold for a monument when short
of 4, else the essence held least. Component choices keep the most valuable card (mages and
items by a fixed ranking, placements by VP) and give up the cheapest; stored essences are
taken except where they score or grow (Places of Power, Vault, Windup Man). Attacked, it
ignores the loss whenever it can; it always uses Golden Statue and pays Cursed Forge.
"""

import numba as nb
import numpy as np

from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import layout as lay

# preference among the ten mages and the eight magic items (higher first)
MAGE_RANK = np.array([9, 3, 4, 5, 7, 6, 2, 6, 8, 8], dtype=np.int64)
ITEM_RANK = np.array([4, 8, 8, 3, 2, 3, 6, 5], dtype=np.int64)
PASS_SCORE = 10.0


@nb.njit(cache=True)
def _pending(obs, field):
    """A field of the pending-decision block (``layout.PENDING_FIELDS`` order)."""
    return np.int64(obs[lay.OBS_PENDING + field])


ACT_POWER_FIELD = np.int64(lay.PENDING_FIELDS.index("ACT_POWER"))
ACT_XTYPE_FIELD = np.int64(lay.PENDING_FIELDS.index("ACT_XTYPE"))
TGT_KIND_FIELD = np.int64(lay.PENDING_FIELDS.index("TGT_KIND"))


@nb.njit(cache=True)
def _pool(obs, seat, essence):
    return np.int64(obs[lay.OBS_SEATS + seat * lay.SEAT_FIELDS + lay.SEAT_POOL + essence])


@nb.njit(cache=True)
def _vp(obs, seat):
    return np.int64(obs[lay.OBS_SEATS + seat * lay.SEAT_FIELDS + lay.SEAT_VP])


@nb.njit(cache=True)
def _card_value(c):
    """What an artifact in play is worth: VP, collect, powers."""
    value = 10.0 * cd.VP[c] + 3.0 * (cd.COLLECT[c].sum() + cd.COLLECT_CHOICE[c])
    value += 2.0 * cd.POWER_COUNT[c] + 4.0 * cd.IS_DRAGON[c]
    return value


@nb.njit(cache=True)
def _power_score(obs, me, w):
    """A power as this turn's action."""
    effect = cd.PW_EFFECT[w]
    comp = cd.PW_COMP[w]
    if effect == cd.EF_CHECK:
        best_rival = 0
        for s in range(obs[lay.OBS_NUM_PLAYERS]):
            if s != me:
                best_rival = max(best_rival, _vp(obs, s))
        return 200.0 if _vp(obs, me) >= lay.WIN_VP and _vp(obs, me) > best_rival else -1.0
    if cd.PW_DESTROY_SELF[w] or cd.PW_SACRIFICE[w] != cd.SACRIFICE_NONE or cd.PW_DISCARD[w]:
        return 5.0
    scoring = cd.VP_PER[comp]
    if scoring >= 0 and cd.PW_PUT[w, scoring] > 0:
        return 45.0 + cd.PW_PUT[w, scoring]
    gained = cd.PW_GAIN[w].sum() + cd.PW_CHOICE[w] + 2.0 * cd.PW_GAIN[w, cd.G]
    if effect == cd.EF_ATTACK:
        return 35.0
    if effect == cd.EF_X_TO_GOLD:
        return 25.0
    if effect == cd.EF_DRAW or effect == cd.EF_DIVINATION:
        return 20.0
    if effect == cd.EF_PLACE:
        return 30.0
    if effect == cd.EF_RIVAL_COUNT:
        return 15.0
    if not cd.PW_TURN[w]:
        return 4.0  # repeatable conversions: not before better uses of the turn
    spent = cd.PW_COST[w].sum() + cd.PW_ANY[w]
    return 15.0 + 3.0 * (gained - spent) + 2.0 * cd.PW_PUT[w].sum()


@nb.njit(cache=True)
def _turn_score(obs, me, a):
    if a < lay.A_DISCARD:
        return 50.0 + _card_value(a)
    if a < lay.A_CLAIM_MONUMENT:
        card = a - lay.A_DISCARD
        hand = obs[lay.OBS_SEATS + me * lay.SEAT_FIELDS + lay.SEAT_HAND]
        if hand >= 3 and cd.VP[card] == 0:
            return 11.0 + 0.1 * cd.PRINTED_COST[card]
        return 0.0
    if a < lay.A_CLAIM_MONUMENT_TOP:
        return 80.0 + cd.VP[cd.FIRST_MONUMENT + a - lay.A_CLAIM_MONUMENT]
    if a == lay.A_CLAIM_MONUMENT_TOP:
        return 79.0
    if a < lay.A_POWER:
        return 100.0 + cd.VP[cd.FIRST_PLACE + a - lay.A_CLAIM_PLACE]
    if a < lay.A_PASS:
        return _power_score(obs, me, a - lay.A_POWER)
    return PASS_SCORE


@nb.njit(cache=True)
def _essence_score(obs, me, node, e):
    held = _pool(obs, me, e)
    if node == lay.NODE_PAY or node == lay.NODE_PAY_X:
        return held - (1000.0 if e == cd.G else 0.0)
    if e == cd.G and _pool(obs, me, cd.G) < cd.MONUMENT_COST_GOLD:
        return 100.0
    return -held


@nb.njit(cache=True)
def _target_score(obs, me, c):
    kind = _pending(obs, TGT_KIND_FIELD)
    if kind == lay.TK_MAGE and cd.FIRST_MAGE <= c < cd.FIRST_ITEM:
        return MAGE_RANK[c - cd.FIRST_MAGE]
    if (kind == lay.TK_ITEM or kind == lay.TK_ITEM_SWAP) and cd.FIRST_ITEM <= c < cd.FIRST_MONUMENT:
        return ITEM_RANK[c - cd.FIRST_ITEM]
    if kind == lay.TK_TAKE:
        keeps = cd.VP_PER[c] >= 0 or cd.COLLECT_SPECIAL[c] != cd.COLLECT_PLAIN
        return -1.0 if keeps else 1.0
    if kind == lay.TK_STRAIGHTEN_ANY or kind == lay.TK_STRAIGHTEN_CREATURE:
        return cd.POWER_COUNT[c]
    if kind in (lay.TK_PLACE_HAND_DRAGON, lay.TK_PLACE_OWN_DISCARD, lay.TK_PLACE_ANY_DRAGON):
        return 10.0 + _card_value(c)
    if kind == lay.TK_PUT_PAID:
        xtype = _pending(obs, ACT_XTYPE_FIELD) - 1
        return 10.0 if xtype >= 0 and cd.VP_PER[c] == xtype else 0.0
    if kind in (lay.TK_TURN_DRAGON, lay.TK_TURN_CREATURE):
        return 0.0
    # destroy or discard: give up the cheapest
    return -_card_value(c) - cd.PRINTED_COST[c] if c < cd.NUM_ARTIFACTS else -100.0


@nb.njit(cache=True)
def _score(obs, me, node, a):
    if node == lay.NODE_ACTION:
        return _turn_score(obs, me, a)
    if lay.A_ESSENCE <= a < lay.A_DONE:
        return _essence_score(obs, me, node, a - lay.A_ESSENCE)
    if lay.A_COMPONENT <= a < lay.A_SEAT:
        if node == lay.NODE_REACT:
            return 10.0
        return _target_score(obs, me, a - lay.A_COMPONENT)
    if a == lay.A_DONE:
        if node == lay.NODE_PAY_X:
            return -500.0  # pay all it can for X
        return 0.0
    if lay.A_SEAT <= a < lay.A_YES:
        w = _pending(obs, ACT_POWER_FIELD) - 1
        return _pool(obs, a - lay.A_SEAT, cd.PW_PARAM2[w])
    if a == lay.A_YES or a == lay.A_LOOK_OWN or a == lay.A_DRAGON_IGNORE:
        return 8.0
    if a >= lay.A_ORDER:
        return -(a - lay.A_ORDER)
    return 0.0


@nb.njit(cache=True)
def heuristic_actions(obs, masks, actions):
    """One action per row: the legal action with the best score (lowest index on ties)."""
    for i in range(obs.shape[0]):
        me = np.int64(obs[i, lay.OBS_ME]) - 1
        node = np.int64(obs[i, lay.OBS_NODE])
        best = -1
        best_score = -np.inf
        for a in range(masks.shape[1]):
            if masks[i, a]:
                score = _score(obs[i], me, node, a)
                if score > best_score:
                    best_score = score
                    best = a
        actions[i] = best
