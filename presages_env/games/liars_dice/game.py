"""Liar's dice around its kernel: validation, the seat's view, words and the ``Game``.

A game without cards: its words name no card, its pieces are dice (``1`` to ``6``); the
action features, the referee's view and the rendering are core's generic ones
(core/conventions.py, core/game.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from presages_env.core.decisions import seat_relation
from presages_env.core.events import Event, seat_name
from presages_env.core.game import Game, RewardBounds
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, step_of
from presages_env.core.validation import SlotReader
from presages_env.core.view import PlayerView, TableView
from presages_env.games.liars_dice import kernel as k


def validate_state(state: np.ndarray) -> None:
    """Accept only what the rules reach: a die per seat of the faces in play, bids of a
    count up to the dice, a call only after a bid, the seat to act and the step counter the
    ones the bids give (the options are checked before, from the option space)."""
    r = SlotReader(state)
    n, faces = r[HDR_NUM_PLAYERS], r[k.OPT_FACES]
    r.many("DICE", k.DICE, n, 0, faces - 1)
    r.many("DICE (beyond the seats)", k.DICE + n, k.MAX_PLAYERS - n, -1, -1)
    bids = r.many("BIDS", k.BIDS, k.MAX_BIDS, 0, 1)
    made = [a for a, flag in enumerate(bids) if flag]
    out = [a for a in made if a // k.MAX_FACES >= n or a % k.MAX_FACES >= faces]
    r.require(not out, "BIDS", out, f"a bid's count is at most {n}, its face at most {faces}")
    called = r.one("CALLED", k.CALLED, 0, 1)
    r.require(made or not called, "CALLED", called, "no bid was made to call")
    current = -1 if called else len(made) % n
    r.require(r[HDR_CURRENT] == current, "HDR_CURRENT", r[HDR_CURRENT], f"the bids give {current}")
    step = step_of(state)
    r.require(step == len(made) + called, "HDR_STEP", step, "one step per bid and per call")


DECISION_FIELDS = ("the bid to beat (-1: none)", "its bidder (seat relative to the decider)")


def decision_signature(state: np.ndarray) -> tuple[int, ...]:
    """The pending decision (core/decisions.py): the bid to beat and who made it."""
    s = state.tolist()
    n, current, bids = s[HDR_NUM_PLAYERS], s[HDR_CURRENT], s[k.BIDS : k.BIDS + k.MAX_BIDS]
    last = max((a for a, flag in enumerate(bids) if flag), default=-1)
    return (last, seat_relation((current - 1) % n if last >= 0 else -1, current))


def seat_view(obs: np.ndarray, seat: int, n: int) -> TableView:
    """What ``seat`` sees: its own die and every bid (bid i is seat ``i % n``'s)."""
    bids = [k.ACTION_NAMES[a][4:] for a in np.flatnonzero(k.obs_slots.view(obs, "BIDS").ravel())]
    called = bool(k.obs_slots.view(obs, "CALLED")[0])
    die = str(int(np.argmax(k.obs_slots.view(obs, "DIE"))) + 1)
    players = [
        PlayerView(seat_name(p), [die] if p == seat else None, 1, bids[p::n]) for p in range(n)
    ]
    to_act = -1 if called else len(bids) % n
    status = [f"bids: {' '.join(bids) or '-'}"]
    status.append(f"{seat_name((len(bids) - 1) % n)}'s bid was called" if called else "")
    return TableView(players, [], [line for line in status if line], to_act, seat)


EVENT_TEXTS = {  # each event kind's words (core/conventions.py fills in the seats)
    "roll": "every player rolls one die: {dice} dice on the table",
    "rolled": "{player} rolled a {face}",
    "bid": "{actor} bids {count}x{face}: at least {count} dice show {face}",
    "liar": "{actor} calls liar: {count} dice match the bid, {loser} loses",
    "shown": "{player} shows a {face}",
}


def round_title(event: Event) -> str | None:
    """A game is one round: the roll opens it."""
    return "Round 1" if event.kind == "roll" else None


LEGEND = (
    ("3x5", "a bid: at least 3 dice on the table show a 5 (the highest face is wild)"),
    ("liar", "call the last bid a lie: the dice are shown and the bid judged"),
    ("P1, P2", "the players by seat, counted from 1; P1 bids first"),
)
RULES_SUMMARY = (
    "Liar's dice: 2 or 3 players roll one die each, in secret.\nIn turn from P1, each player "
    "bids higher than the last bid (more dice, or as many of a higher face) or calls liar.\n"
    "At a call the dice are shown, the highest face counting as any face: if the bid holds, "
    "the caller loses, otherwise the bidder; the loser gets -1, the others share +1."
)


class LiarsDiceGame(Game):
    name = "liars_dice"
    title = "Liar's dice"
    game_id = 6
    min_players, max_players, default_players = 2, 3, 2
    state_dtype = k.STATE_DTYPE
    compile_seconds = 30  # a first run's compile
    ships_checkpoint = False  # an exemplar: no trained policy, no row in the results tables
    benchmarked = False  # nor in the benchmarks

    def reward_bounds(self, num_players: int, options: Any) -> RewardBounds:
        """The loser -1, every other seat +1 / (n - 1): at most 1 either way."""
        return RewardBounds(-1.0, 1.0, zero_sum=True)

    def max_game_length(self, num_players: int, options: Any) -> int:
        """Every bid in turn, from the lowest to the highest, then the call."""
        return num_players * options.faces + 1

    def max_visible_events(self, num_players: int, options: Any) -> int:
        """The roll, the seat's die, every bid, the call and every die shown."""
        return 2 + num_players * options.faces + 1 + num_players
