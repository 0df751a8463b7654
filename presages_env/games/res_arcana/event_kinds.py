"""Res Arcana's event kinds (core/events.py): ``kind -> (name, argument names)``.

The kernels write them where they apply the rule (``payments.py``, ``tableau.py``,
``effects.py``, ``phases.py``); ``kernel.py`` re-exports the table. Who sees what follows
the observation (``kernel.observe``): a card drawn, dealt or looked at is seen by its seat
only (everyone sees that a draw or a look happened), a hidden mage pick by its seat only
(everyone sees that a pick was made, then every mage at the reveal), the order chosen for
looked-at cards by its seat only; everything else is public. Component ids are the card
table's (``cards.py``); essences are 0..4 = Elan, Life, Calm, Death, Gold; ``comp`` -1
means a seat's pool. A deck's order is never written: dealt deck cards come in card order.
"""

EV_DEALT = 1
EV_DEAL_MAGE = 2
EV_DEAL_CARD = 3
EV_DRAW = 4
EV_DREW = 5
EV_SHUFFLE = 6
EV_MAGE_PICK = 7
EV_MAGE_PICKED = 8
EV_MAGE = 9
EV_ITEM = 10
EV_ROUND = 11
EV_COLLECT = 12
EV_GAIN = 13
EV_PAY = 14
EV_TAKE = 15
EV_PLACE = 16
EV_DISCARD = 17
EV_CLAIM_MONUMENT = 18
EV_MONUMENT_SHOWN = 19
EV_CLAIM_PLACE = 20
EV_POWER = 21
EV_PASS = 22
EV_DESTROY = 23
EV_TURN = 24
EV_LOOK = 25
EV_SEEN = 26
EV_REORDERED = 27
EV_REORDER = 28
EV_LOSE_LIFE = 29
EV_REACT = 30
EV_STATUE = 31
EV_FORGE = 32
EV_RIVAL = 33
EV_X = 34
EV_DECLINE = 35
EV_VP = 36
EV_GAME_END = 37
EV_TRUNCATED = 38

# where a placed card comes from, and which deck a look or reorder is about
FROM_HAND = 0
FROM_DISCARD = 1
DECK_OWN = 0
DECK_MONUMENTS = 1
# EV_CLAIM_MONUMENT's ``from``: display slot 0 or 1, or the deck's top
FROM_MONUMENT_DECK = 2

EVENT_KINDS = {
    EV_DEALT: ("dealt", ("seat", "mages", "deck")),
    EV_DEAL_MAGE: ("deal_mage", ("seat", "mage")),
    EV_DEAL_CARD: ("deal_card", ("seat", "card", "to_hand")),
    EV_DRAW: ("draw", ("seat", "card")),
    EV_DREW: ("drew", ("seat",)),
    EV_SHUFFLE: ("shuffle", ("seat", "cards")),
    EV_MAGE_PICK: ("mage_pick", ("seat", "mage")),
    EV_MAGE_PICKED: ("mage_picked", ("seat",)),
    EV_MAGE: ("mage", ("seat", "mage")),
    EV_ITEM: ("item", ("seat", "item", "returned")),
    EV_ROUND: ("round", ("round", "first_player")),
    EV_COLLECT: ("collect", ("seat",)),
    EV_GAIN: ("gain", ("seat", "essence", "count", "comp")),
    EV_PAY: ("pay", ("seat", "essence", "count", "comp")),
    EV_TAKE: ("take", ("seat", "comp", "essence", "count")),
    EV_PLACE: ("place", ("seat", "card", "from")),
    EV_DISCARD: ("discard", ("seat", "card")),
    EV_CLAIM_MONUMENT: ("claim_monument", ("seat", "monument", "from")),
    EV_MONUMENT_SHOWN: ("monument_shown", ("slot", "monument")),
    EV_CLAIM_PLACE: ("claim_place", ("seat", "place")),
    EV_POWER: ("power", ("seat", "comp", "power")),
    EV_PASS: ("pass", ("seat", "took_token")),
    EV_DESTROY: ("destroy", ("seat", "comp")),
    EV_TURN: ("turn", ("seat", "comp", "turned")),
    EV_LOOK: ("look", ("seat", "deck", "count")),
    EV_SEEN: ("seen", ("seat", "deck", "depth", "card")),
    EV_REORDERED: ("reordered", ("seat", "deck", "count")),
    EV_REORDER: ("reorder", ("seat", "deck", "count", "order")),
    EV_LOSE_LIFE: ("lose_life", ("seat", "life")),
    EV_REACT: ("react", ("seat", "comp", "dragon_ignore")),
    EV_STATUE: ("statue", ("seat", "used")),
    EV_FORGE: ("forge", ("seat", "paid")),
    EV_RIVAL: ("rival", ("seat", "rival")),
    EV_X: ("x_paid", ("seat", "x", "essence")),
    EV_DECLINE: ("decline", ("seat", "target_kind")),
    EV_VP: ("vp", ("seat", "vp", "tiebreak", "winner")),
    EV_GAME_END: ("game_end", ("winners", "best_vp")),
    EV_TRUNCATED: ("truncated", ()),
}


# =========================================================================================
# bounds (the card table's maxima, so a change of the table moves them)
# =========================================================================================
def _bounds() -> dict[str, int]:
    """The most events each part of one transition can write; see ``MAX_STEP_EVENTS``."""
    import numpy as np

    from presages_env.games.res_arcana import cards as cd
    from presages_env.games.res_arcana.layout import LOOK_DEPTH, MAX_PLAYERS

    def kinds(table) -> np.ndarray:  # essence types in each row of a table
        return (np.asarray(table) > 0).sum(axis=1)

    e = cd.NUM_ESSENCES
    rivals = MAX_PLAYERS - 1
    of = cd.PW_EFFECT
    fixed = int(kinds(cd.PW_GAIN).max() + kinds(cd.PW_PUT).max())
    place_pay = int((cd.COST.sum(axis=1) + cd.COST_ANY).max())
    power_pay = int((cd.PW_COST.sum(axis=1) + cd.PW_ANY).max())
    cost_gain = int(cd.PRINTED_COST.max() + cd.PW_AMOUNT[of == cd.EF_COST_GAIN].max())
    choice = int(max(cd.PW_CHOICE.max(), cd.COLLECT_CHOICE.max()))
    attack_life = int(cd.PW_AMOUNT[of == cd.EF_ATTACK].max())
    draws = int(cd.PW_AMOUNT[(of == cd.EF_DRAW) | (of == cd.EF_DIVINATION)].max())
    # an essence engine left with one option runs without asking, one event per essence, so
    # it writes at most its size: a cost ("any" parts included) or a chosen gain
    power = (
        1  # the power used
        + int(kinds(cd.PW_REMOVE).max())  # essences removed from it
        + (1 + e)  # itself destroyed, its essences back
        + power_pay  # its payment
        + 1  # X paid
        + (1 + e)  # a component given up: destroyed (the largest)
        + max(
            fixed + rivals * int(kinds(cd.PW_RIVALS).max()) + choice,  # every rival gains too
            4 * draws,  # per card drawn: a reshuffle, 2 events, a discard with no choice
            # every rival: lose_life, Life paid, 2 essences per Life owed; or a dragon's
            # ignore cost with no choice (a component destroyed, its essences back)
            rivals * max(2 + 2 * attack_life, 1 + e),
            cost_gain,  # a gain of the given-up card's printed cost plus the amount
            1 + place_pay,  # a placement and its payment
            MAX_PLAYERS + 1,  # a mid-round victory check: every seat's VP, the end
            2,  # a rival chosen and the essences gained
        )
    )
    action = max(
        1 + 3 + (1 + e),  # a pass, its draw, an item swap with no choice
        1 + place_pay,  # a placement and its payment
        1 + 2,  # a discard and its gain (1 Gold or 2 others)
        1 + 1 + 1 + int(cd.CLAIM_CHOICE.max()),  # a monument: claim, Gold, refill, gain
        1 + int(kinds(cd.COST).max()),  # a Place of Power and its cost
        power,
    )
    return {
        # the decision's own events, the largest being an item swap or a destruction (1 + 5
        # essences back), a look (a reshuffle, the look, 3 cards seen), a reaction (react,
        # its cost paid, essences put on it), a reorder or a mage pick (2)
        "decision": max(
            1 + e, 2 + LOOK_DEPTH, 1 + int(kinds(cd.REACT_COST).max() + kinds(cd.REACT_PUT).max())
        ),
        # what an action writes over all its decisions, the largest kind (a power: its
        # costs and the largest effect); each decision writes a part of it
        "action": action,
        # a round's end: every seat's VP, the game's end or the next round
        "round_end": MAX_PLAYERS + 2,
        # a whole collect phase, every seat: its start, every component's fixed collect (an
        # event per essence type) and chosen collect (an event per essence left with one
        # option), Windup Man's growth (one per type on it), Vault's 2, Cursed Forge; a
        # stored essences' take is a decision's
        "collect": (
            MAX_PLAYERS * 2 + int(kinds(cd.COLLECT).sum()) + int(cd.COLLECT_CHOICE.sum()) + e + 2
        ),
        # the deal: 5 essences each, the display, each seat's deal, 2 mages, 8 cards and 3
        # draws (2 events each)
        "reset": MAX_PLAYERS * (e + 1 + 2 + 8 + 3 * 2) + 2,
    }


BOUNDS = {part: int(count) for part, count in _bounds().items()}
# One transition: the decision, the rest of the action it belongs to, a round's end and a
# whole collect phase (a last pass ends the round and runs every seat's collect up to the
# first choice), a truncation. Every other path writes a part of these.
MAX_STEP_EVENTS = max(  # 141 with the current table
    BOUNDS["decision"] + BOUNDS["action"] + BOUNDS["round_end"] + BOUNDS["collect"] + 1,
    BOUNDS["reset"] + BOUNDS["collect"],
)


def max_episode_events(num_players: int, step_cap: int) -> int:
    """Every event of an episode (so those one seat sees): the deal; per decision, itself
    and the rest of its action; per round, its end and its collect; a truncation. Every
    seat passes once per round, a decision each, so a game of ``step_cap`` decisions has at
    most ``step_cap // num_players + 1`` rounds (the last possibly unfinished)."""
    rounds = step_cap // num_players + 1
    per_decision = BOUNDS["decision"] + BOUNDS["action"]
    per_round = BOUNDS["round_end"] + BOUNDS["collect"]
    return BOUNDS["reset"] + step_cap * per_decision + rounds * per_round + 1
