"""Validation of a Kuhn poker state from outside: every slot of the layout in ``layout.py``.

The kernel indexes the observation with the cards and the moves, and derives who acts from
the moves, so a state is accepted only if the rules reach it: the deck is a deal of the
``n + 1`` cards, the moves a play from the deal, and the header's seat to act (hence its
terminal flag, which the header ties to it) and step counter are the ones those moves
give. The shared header is already checked (see :mod:`presages_env.core.validation`); the
first bad slot is reported by its name.
"""

from __future__ import annotations

import numpy as np

from presages_env.core.decisions import seat_relation
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, step_of
from presages_env.core.validation import SlotReader
from presages_env.games.kuhn_poker import kernel as k
from presages_env.games.kuhn_poker import layout as lay
from presages_env.games.kuhn_poker.options import MAX_BET


def validate_state(state: np.ndarray) -> None:
    """Raise :class:`~presages_env.core.validation.InvalidStateError` for the first bad slot."""
    r = SlotReader(state)
    n = r[HDR_NUM_PLAYERS]
    r.one("OPT_BET", lay.OPT_BET, 1, MAX_BET)
    deck = r.many("DECK", lay.DECK, n + 1, 0, n)
    r.require(sorted(deck) == list(range(n + 1)), "DECK", deck, "must deal each card once")
    r.many("DECK (beyond the cards in play)", lay.DECK + n + 1, lay.MAX_CARDS - n - 1, -1, -1)
    played = r.one("NUM_MOVES", lay.NUM_MOVES, 0, 2 * n - 1)
    moves = r.many("MOVES", lay.MOVES, played, lay.MOVE_PASS, lay.MOVE_BET)
    r.many("MOVES (not yet made)", lay.MOVES + played, lay.MAX_MOVES - played, -1, -1)
    current, prefix = 0, state.copy()
    for i, move in enumerate(moves):  # the kernel's own rule says who acts after each move
        r.require(current >= 0, f"MOVES[{i}]", move, "the hand was over before this move")
        prefix[lay.NUM_MOVES] = i + 1
        current = int(k.seat_to_act(prefix))
    r.require(r[HDR_CURRENT] == current, "HDR_CURRENT", r[HDR_CURRENT], f"the moves give {current}")
    step = step_of(state)
    r.require(step == played, "HDR_STEP", step, f"one step per move: NUM_MOVES = {played}")


# ---- the pending decision (core/decisions.py: the kernel's own combinations) ---------------
DECISION_FIELDS = ("moves made", "the bettor (seat relative to the decider)")


def decision_signature(state: np.ndarray) -> tuple[int, ...]:
    """The pending decision: how far the hand is, and whether the decider answers a bet."""
    s = state.tolist()
    played = s[lay.NUM_MOVES]
    moves = s[lay.MOVES : lay.MOVES + max(0, min(played, lay.MAX_MOVES))]
    bettor = moves.index(lay.MOVE_BET) if lay.MOVE_BET in moves else -1
    return (played, seat_relation(bettor, s[HDR_CURRENT]))
