"""Kuhn poker around its kernel: validation, views, words and the ``Game`` (core/game.py).

The Game finds everything here and in ``kernel.py`` by name (core/conventions.py); its
options, and their dataclass, slots and checks, follow from the package's ``option_space``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from presages_env.core.decisions import seat_relation
from presages_env.core.events import Event, seat_name
from presages_env.core.game import Game, RewardBounds
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, step_of
from presages_env.core.results import SeatResult, counted, places_by
from presages_env.core.validation import SlotReader
from presages_env.core.view import PlayerView, TableView
from presages_env.games.kuhn_poker import kernel as k


def validate_state(state: np.ndarray) -> None:
    """Accept only what the rules reach: the deck a deal of the ``n + 1`` cards, the moves a
    play from it, the seat to act and the step counter the ones those moves give."""
    r = SlotReader(state)
    n = r[HDR_NUM_PLAYERS]
    deck = r.many("DECK", k.DECK, n + 1, 0, n)
    r.require(sorted(deck) == list(range(n + 1)), "DECK", deck, "must deal each card once")
    r.many("DECK (beyond the cards in play)", k.DECK + n + 1, k.MAX_CARDS - n - 1, -1, -1)
    played = r.one("NUM_MOVES", k.NUM_MOVES, 0, 2 * n - 1)
    moves = r.many("MOVES", k.MOVES, played, k.MOVE_PASS, k.MOVE_BET)
    r.many("MOVES (not yet made)", k.MOVES + played, k.MAX_MOVES - played, -1, -1)
    current, prefix = 0, state.copy()
    for i, move in enumerate(moves):  # the kernel's own rule says who acts after each move
        r.require(current >= 0, f"MOVES[{i}]", move, "the hand was over before this move")
        prefix[k.NUM_MOVES] = i + 1
        current = int(k.seat_to_act(prefix))
    r.require(r[HDR_CURRENT] == current, "HDR_CURRENT", r[HDR_CURRENT], f"the moves give {current}")
    step = step_of(state)
    r.require(step == played, "HDR_STEP", step, f"one step per move: NUM_MOVES = {played}")


DECISION_FIELDS = ("moves made", "the bettor (seat relative to the decider)")


def decision_signature(state: np.ndarray) -> tuple[int, ...]:
    """The pending decision (core/decisions.py): how far the hand is, who bet."""
    s = state.tolist()
    moves = s[k.MOVES : k.MOVES + max(0, min(s[k.NUM_MOVES], k.MAX_MOVES))]
    bettor = moves.index(k.MOVE_BET) if k.MOVE_BET in moves else -1
    return (s[k.NUM_MOVES], seat_relation(bettor, s[HDR_CURRENT]))


def move_words(obs: np.ndarray) -> list[str]:
    """Each move so far in words: check, bet, call or fold."""
    words, facing = [], False
    for passed, bet in k.obs_slots.view(obs, "MOVES"):
        if passed or bet:
            words.append(("call" if facing else "bet") if bet else ("fold" if facing else "check"))
            facing |= bool(bet)
    return words


def seat_view(obs: np.ndarray, seat: int, n: int) -> TableView:
    """What ``seat`` sees: its card and every move (move i is seat ``i % n``'s)."""
    words = move_words(obs)
    over = len(words) == (words.index("bet") + n if "bet" in words else n)
    to_act = -1 if over else len(words) % n
    card = k.CARD_NAMES[int(np.argmax(k.obs_slots.view(obs, "CARD")))]
    players = [
        PlayerView(seat_name(p), [card] if p == seat else None, 1, words[p::n]) for p in range(n)
    ]
    status = [f"moves: {' '.join(words) or '-'}", "hand over" if over else f"to act: P{to_act + 1}"]
    return TableView(players, [], status, to_act, seat)


EVENT_TEXTS = {  # each event kind's words (core/conventions.py fills in seats and cards)
    "antes": "every player antes 1: {pot} chips in the pot",
    "dealt": "{player} was dealt the {card}",
    "check": "{actor} checks",
    "bet": "{actor} bets {chips}",
    "fold": "{actor} folds",
    "call": "{actor} calls {chips}",
    "showdown": "{winner} wins the pot of {pot} with the {card}",
}


def round_title(event: Event) -> str | None:
    """A game is one hand, one round: the antes open it."""
    return "Round 1" if event.kind == "antes" else None


CARD_NAMES = k.CARD_NAMES  # card_help, card_summary: their place (core/conventions.py)
LEGEND = (
    ("J Q K A", "the cards, weakest to strongest; two players play J Q K, three J Q K A"),
    ("pot", "the chips put in: every seat's ante of 1, plus each bet and call"),
    ("P1, P2", "the players by seat, counted from 1; P1 acts first"),
)
RULES_SUMMARY = (
    "Kuhn poker: 2 or 3 players, one card each from the n + 1 lowest of J Q K A; every "
    "player antes 1 chip.\nIn turn from P1, each player checks or bets (the bet option, 1 "
    "chip by default). Once someone bets, each other player answers once, in turn: call (put "
    "the bet in) or fold.\nWhen everyone checked, or everyone answered the bet, the highest "
    "card among the players who did not fold takes the pot."
)


class KuhnPokerGame(Game):
    name = "kuhn_poker"
    title = "Kuhn poker"
    game_id = 5
    min_players, max_players, default_players = 2, 3, 2
    state_dtype = k.STATE_DTYPE
    layout_version = 2
    compile_seconds = 30  # a first run's compile (docs/speed.md)
    ships_checkpoint = False  # the exemplar: no trained policy, no row in the results tables
    benchmarked = False  # nor in the benchmarks: a template, not a game to compare

    def reward_bounds(self, num_players: int, options: Any) -> RewardBounds:
        """A seat loses at most its ante and a bet, and wins at most everyone else's."""
        stake = 1.0 + options.bet
        return RewardBounds(-stake, (num_players - 1) * stake, zero_sum=True)

    def max_game_length(self, num_players: int, options: Any) -> int:
        """Every seat but the last checks, the last bets, and everyone else answers."""
        return 2 * num_players - 1

    def max_visible_events(self, num_players: int, options: Any) -> int:
        """The antes, the seat's card, every move (at most 2n - 1) and the showdown."""
        return 2 + (2 * num_players - 1) + 1

    def result_summary(self, state: np.ndarray, totals: Sequence[float]) -> list[SeatResult]:
        """Chips won or lost; the winner of the pot first."""
        places = places_by([(total,) for total in totals])
        return [
            SeatResult(p, places[p], f"{'+' if total > 0 else ''}{counted(int(total), 'chip')}")
            for p, total in enumerate(totals)
        ]
