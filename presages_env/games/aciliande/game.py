"""Aciliande: options, sizes, rendering, position set-up and queries around the kernel.

Action space (47 actions, the same at every decision; the mask selects):

* ``0..10``  — dealer's hand size ``a + 1`` (node ``HAND_SIZE``)
* ``11..22`` — bid ``a - 11`` tricks (node ``BID``)
* ``23..44`` — play major arcanum ``a - 23`` (node ``PLAY``)
* ``45``     — ``TAKE``: the first Goddess of the trick wins it (node ``DECLARE``)
* ``46``     — ``LEAVE``: the first Goddess of the trick cannot win it (node ``DECLARE``)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from presages_env.core.card_face import card_face, face_name
from presages_env.core.events import seat_name
from presages_env.core.game import Game, PositionCount, RewardBounds
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL, seed_of
from presages_env.core.results import SeatResult, counted, places_by
from presages_env.core.state_io import apply_actions
from presages_env.core.validation import SEED_MAX
from presages_env.games.aciliande import card_text
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.cards import NUM_CARDS, ROMAN_NUMERALS, card_name
from presages_env.games.aciliande.options import (
    MAX_LIVES,
    MAX_STAKE,
    TIEBREAK_NAMES,
    AciliandeOptions,
)
from presages_env.games.aciliande.positions import is_int as _is_int
from presages_env.games.aciliande.positions import setup_position

TIEBREAKS = dict(zip(TIEBREAK_NAMES, (k.TIEBREAK_LIVES, k.TIEBREAK_SHARE), strict=True))

NUM_ACTIONS = k.NUM_ACTIONS
TAKE = k.ACT_TAKE
LEAVE = k.ACT_LEAVE

NODE_NAMES = ("HAND_SIZE", "BID", "PLAY", "DECLARE", "GAME_OVER")
END_REASONS = (
    "",
    "third Goddess",
    "last survivor",
    "all eliminated",
    "duel: more lives",
    "duel: shared",
    "one team left",
)
DECLARATIONS = ("", "take", "leave")


def _lives_per_seat(lives: Any, num_players: int) -> list[int]:
    """The starting lives of each seat (``lives`` is already checked: one or one per seat)."""
    return [int(x) for x in ([lives] * num_players if np.ndim(lives) == 0 else lives)]


class AciliandeGame(Game):
    name = "aciliande"
    title = "Aciliande"
    game_id = 3
    min_players = 2
    max_players = 7
    default_players = 4
    obs_dtype = np.int16
    state_dtype = k.STATE_DTYPE
    layout_version = 2
    # random rollouts misjudge bids over a whole game: search loses to the heuristic with them
    search_rollouts = "heuristic"
    compile_seconds = 170  # a first run's compile (docs/speed.md)
    ships_checkpoint = True
    benchmarked = True

    def reward_bounds(self, num_players: int, options: AciliandeOptions) -> RewardBounds:
        """The coins received (at most the pot) minus the stake."""
        stake = float(options.stake)
        return RewardBounds(-stake, (num_players - 1) * stake, zero_sum=True)

    def position_counts(self) -> tuple[PositionCount, ...]:
        """A manche's seed and its dealer."""
        return (
            PositionCount(
                "setup_position(seed=...)",
                lambda v: setup_position(3, dealer=0, seed=v),
                0,
                SEED_MAX,
            ),
            PositionCount("setup_position(dealer)", lambda v: setup_position(3, dealer=v), 0, 2),
        )

    def obs_high(self, num_players: int) -> np.ndarray:
        high = np.ones(k.OBS_SIZE, dtype=np.int64)
        seats = num_players
        high[k.OBS_PLAYED_BY : k.OBS_PLAYED_BY + NUM_CARDS] = seats
        high[k.OBS_PLAYED_IN : k.OBS_PLAYED_IN + NUM_CARDS] = k.MAX_TRICKS
        high[k.OBS_TRICK_CARDS : k.OBS_TRICK_CARDS + k.MAX_PLAYERS] = NUM_CARDS
        high[k.OBS_TRICK_SEATS : k.OBS_TRICK_SEATS + k.MAX_PLAYERS] = seats
        high[k.OBS_TRICK_DECL] = k.DECL_LEAVE
        high[k.OBS_PAST_WINNER : k.OBS_PAST_WINNER + k.MAX_TRICKS] = seats
        high[k.OBS_PAST_DECL : k.OBS_PAST_DECL + k.MAX_TRICKS] = k.DECL_LEAVE
        high[k.OBS_BIDS : k.OBS_BIDS + k.MAX_PLAYERS] = k.MAX_TRICKS + 1
        high[k.OBS_TRICKS : k.OBS_TRICKS + k.MAX_PLAYERS] = k.MAX_TRICKS
        high[k.OBS_LIVES : k.OBS_LIVES + k.MAX_PLAYERS] = MAX_LIVES
        high[k.OBS_HAND_SIZE] = k.MAX_TRICKS
        high[k.OBS_TRICK_INDEX] = k.MAX_TRICKS
        high[k.OBS_FACE_UP] = k.DUEL_MANCHES
        high[k.OBS_POT] = k.MAX_PLAYERS * MAX_STAKE
        return high

    def max_visible_events(self, num_players: int, options: AciliandeOptions) -> int:
        """Every manche costs at least one life card: the dealer rule keeps the bids' total
        off the hand size, which is the tricks' total, so some player (some team, whose
        members are all still in) misses its contract and each of them still has a card to
        lose. So a game has at most ``L`` manches, ``L`` the sum of the starting lives.

        In a manche with hand size ``h`` a seat sees its start, the deal, its own ``h``
        cards, at most ``n`` bids, at most ``min(22, h n)`` cards played (the hand size
        times the players in), a declaration and a won trick per trick (``h`` each), at
        most ``n`` scores and the duel's start or a Goddess turned face down (1). ``h`` is
        at most 11 (``min(22 // players in, 11)``, at least two in), or with a fixed hand
        size that size, or 3 in the duel. Once per game: at most ``n`` eliminations,
        ``n`` leftover draws, ``n`` coins and the end."""
        n = num_players
        lives = _lives_per_seat(options.lives, n)
        fixed = options.fixed_hand_size
        h = k.MAX_TRICKS if fixed is None else max(fixed, k.DUEL_MANCHES)
        per_manche = 3 + 3 * h + 2 * n + min(NUM_CARDS, h * n)
        return sum(lives) * per_manche + 3 * n + 1

    def validate_options(self, num_players: int, options: AciliandeOptions) -> None:
        """Each option in its range (core/options.py), and the team variant at 4 or 6."""
        super().validate_options(num_players, options)
        if options.teams and num_players not in (4, 6):
            raise ValueError(f"the team variant needs 4 or 6 players, got {num_players}")

    def write_options(self, state: np.ndarray, options: AciliandeOptions) -> None:
        n = int(state[HDR_NUM_PLAYERS])
        state[k.OPT_GODDESSES : k.OPT_GODDESSES + k.NUM_GODDESSES] = options.goddesses
        state[k.OPT_LIVES : k.OPT_LIVES + k.MAX_PLAYERS] = 0
        state[k.OPT_LIVES : k.OPT_LIVES + n] = _lives_per_seat(options.lives, n)
        state[k.OPT_STAKE] = options.stake
        state[k.OPT_FIXED_HAND] = options.fixed_hand_size or 0
        state[k.OPT_TEAMS] = int(options.teams)
        state[k.OPT_TIEBREAK] = TIEBREAKS[options.duel_tiebreak]

    def read_options(self, state: np.ndarray) -> AciliandeOptions:
        n = int(state[HDR_NUM_PLAYERS])
        lives = tuple(int(x) for x in state[k.OPT_LIVES : k.OPT_LIVES + n])
        tiebreak = {v: name for name, v in TIEBREAKS.items()}[int(state[k.OPT_TIEBREAK])]
        return AciliandeOptions(
            goddesses=tuple(int(c) for c in state[k.OPT_GODDESSES : k.OPT_GODDESSES + 3]),
            lives=lives[0] if len(set(lives)) == 1 else lives,
            stake=int(state[k.OPT_STAKE]),
            fixed_hand_size=int(state[k.OPT_FIXED_HAND]) or None,
            teams=bool(state[k.OPT_TEAMS]),
            duel_tiebreak=tiebreak,
        )

    # ---- reading a state ---------------------------------------------------------------
    def teams(self, state: np.ndarray) -> np.ndarray:
        """Team variant: even seats against odd seats; otherwise everyone alone."""
        seats = np.arange(int(state[HDR_NUM_PLAYERS]))
        return seats % 2 if state[k.OPT_TEAMS] else seats

    def info_key(self, state: np.ndarray) -> tuple[int, int]:
        return int(state[k.MANCHE]), int(state[HDR_TERMINAL])

    def infos(self, state: np.ndarray) -> list[dict]:
        """Public facts per seat: lives lost when the last manche was scored, coins, draw."""
        n = int(state[HDR_NUM_PLAYERS])
        return [
            {
                "manche": int(state[k.MANCHE]),
                "lives": int(state[k.LIVES + seat]),
                "lives_lost_last_manche": int(state[k.LOST_LAST + seat]),
                "coins": int(state[k.COINS + seat]),
                "leftover_draw": int(state[k.DRAW + seat]),
                "end_reason": END_REASONS[int(state[k.END_REASON])],
            }
            for seat in range(n)
        ]

    def result_summary(self, state: np.ndarray, totals: Sequence[float]) -> list[SeatResult]:
        """The seats that share the pot first (their team in the variant), then the others
        by the life cards they kept."""
        n = int(state[HDR_NUM_PLAYERS])
        lives = [int(x) for x in state[k.LIVES : k.LIVES + n]]
        coins = [int(x) for x in state[k.COINS : k.COINS + n]]
        places = places_by([(coins[s] > 0, lives[s]) for s in range(n)])
        team = [f"team {'AB'[s % 2]}, " if state[k.OPT_TEAMS] else "" for s in range(n)]
        return [
            SeatResult(
                s,
                places[s],
                f"{team[s]}{counted(lives[s], 'life', 'lives')} left, "
                f"{counted(coins[s], 'coin')} from the pot",
            )
            for s in range(n)
        ]

    def action_label(self, state: np.ndarray, action: int) -> str:
        if action < k.ACT_BID:
            return f"deal {action - k.ACT_HAND_SIZE + 1} card(s) each"
        if action < k.ACT_CARD:
            return f"bid {action - k.ACT_BID}"
        if action < k.ACT_TAKE:
            return f"play {card_name(action - k.ACT_CARD)}"
        return "take (je prends)" if action == k.ACT_TAKE else "leave (je laisse)"

    def card_face(self, label: str) -> dict[str, Any]:
        """A trump's value is the Roman numeral its label starts with (``"XVII L'Étoile"``)."""
        numeral, _, name = face_name(label).partition(" ")
        if numeral in ROMAN_NUMERALS and name:
            return card_face(self, label, name=name, value=numeral)
        return card_face(self, label)

    def render(self, state: np.ndarray) -> str:
        n = int(state[HDR_NUM_PLAYERS])
        goddesses = ", ".join(card_name(int(c)) for c in goddess_cards(state))
        header = (
            f"Aciliande — manche {int(state[k.MANCHE])}, dealer {seat_name(int(state[k.DEALER]))}, "
            f"hand size {int(state[k.HAND_SIZE]) or '(dealer chooses)'}, "
            f"pot {int(state[k.POT])} coin(s), seed {seed_of(state)}"
        )
        lines = [header, f"  Goddesses: {goddesses}"]
        if state[k.DUEL]:
            lines.append(f"  duel: {int(state[k.FACE_UP])} Goddess(es) face up")
        for seat in range(n):
            lines.append(_render_seat(state, seat))
        trick = current_trick(state)
        if trick:
            shown = ", ".join(f"{seat_name(s)} {card_name(c)}" for s, c in trick)
            declaration = DECLARATIONS[int(state[k.TRICK_DECL])]
            lines.append(f"  trick {int(state[k.TRICK_INDEX]) + 1}: {shown}")
            if declaration:
                lines.append(f"    first Goddess declared: {declaration}")
        for index in range(int(state[k.TRICK_INDEX])):
            cards = [c for c in range(NUM_CARDS) if state[k.CARD_TRICK + c] == index]
            shown = ", ".join(
                f"{seat_name(int(state[k.CARD_OWNER + c]))} {card_name(c)}" for c in cards
            )
            declaration = DECLARATIONS[int(state[k.PAST_DECL + index])]
            note = f" (Goddess: {declaration})" if declaration else ""
            winner = seat_name(int(state[k.PAST_WINNER + index]))
            lines.append(f"  past trick {index + 1}: {shown} -> {winner}{note}")
        if state[HDR_TERMINAL]:
            lines.append(_render_end(state))
        else:
            asked = card_text.DECISION_TEXT[int(state[k.NODE])]
            lines.append(f"  to act: {seat_name(int(state[HDR_CURRENT]))}, to {asked}")
        return "\n".join(lines)


def _render_seat(state: np.ndarray, seat: int) -> str:
    marker = ">" if state[HDR_CURRENT] == seat else " "
    lives_left = int(state[k.LIVES + seat])
    if not state[k.IN_MANCHE + seat]:
        return f"{marker} {seat_name(seat)}: eliminated"
    bid = int(state[k.BIDS + seat])
    cards = " ".join(card_name(c) for c in hand(state, seat)) or "-"
    status = "" if state[k.ALIVE + seat] else " [eliminated]"
    return (
        f"{marker} {seat_name(seat)}: lives {lives_left}, bid {bid if bid >= 0 else '?'}, "
        f"tricks {int(state[k.TRICKS + seat])}{status} | hand: {cards}"
    )


def _render_end(state: np.ndarray) -> str:
    n = int(state[HDR_NUM_PLAYERS])
    coins_text = ", ".join(f"{seat_name(s)} {int(state[k.COINS + s])}" for s in range(n))
    text = f"  game over ({END_REASONS[int(state[k.END_REASON])]}): coins {coins_text}"
    draws = [(s, int(state[k.DRAW + s])) for s in range(n) if state[k.DRAW + s] >= 0]
    if draws:
        text += "; leftover draw: " + ", ".join(f"{seat_name(s)} {card_name(c)}" for s, c in draws)
    return text


# ---- actions ------------------------------------------------------------------------------
def hand_size_action(size: int) -> int:
    """The dealer's action dealing ``size`` cards to each player."""
    if not _is_int(size) or not 1 <= size <= k.MAX_TRICKS:
        raise ValueError(f"a hand size is an int from 1 to {k.MAX_TRICKS}, got {size!r}")
    return k.ACT_HAND_SIZE + int(size) - 1


def bid_action(bid: int) -> int:
    """The action bidding ``bid`` tricks."""
    if not _is_int(bid) or not 0 <= bid <= k.MAX_TRICKS:
        raise ValueError(f"a bid is an int from 0 to {k.MAX_TRICKS}, got {bid!r}")
    return k.ACT_BID + int(bid)


def card_action(card: int) -> int:
    """The action playing major arcanum ``card`` (0..21)."""
    if not _is_int(card) or not 0 <= card < NUM_CARDS:
        raise ValueError(f"a card is an int from 0 to {NUM_CARDS - 1}, got {card!r}")
    return k.ACT_CARD + int(card)


# ---- queries (read only) ------------------------------------------------------------------
def _seats(state: np.ndarray, offset: int) -> list[int]:
    return [int(x) for x in state[offset : offset + int(state[HDR_NUM_PLAYERS])]]


def node_name(state: np.ndarray) -> str:
    return NODE_NAMES[int(state[k.NODE])]


def current_seat(state: np.ndarray) -> int:
    return int(state[HDR_CURRENT])


def hand(state: np.ndarray, seat: int) -> list[int]:
    """Cards ``seat`` still holds, ascending."""
    owner = state[k.CARD_OWNER : k.CARD_OWNER + NUM_CARDS]
    played = state[k.CARD_TRICK : k.CARD_TRICK + NUM_CARDS]
    return [c for c in range(NUM_CARDS) if owner[c] == seat and played[c] < 0]


def goddess_cards(state: np.ndarray) -> list[int]:
    return [int(c) for c in state[k.OPT_GODDESSES : k.OPT_GODDESSES + k.NUM_GODDESSES]]


def bids(state: np.ndarray) -> list[int]:
    """Bid of each seat this manche (-1 before it bid or when out of the game)."""
    return _seats(state, k.BIDS)


def tricks_won(state: np.ndarray) -> list[int]:
    return _seats(state, k.TRICKS)


def lives(state: np.ndarray) -> list[int]:
    return _seats(state, k.LIVES)


def lives_lost_last_manche(state: np.ndarray) -> list[int]:
    return _seats(state, k.LOST_LAST)


def eliminated(state: np.ndarray) -> list[bool]:
    return [not x for x in _seats(state, k.ALIVE)]


def coins(state: np.ndarray) -> list[int]:
    """Coins each seat received from the pot (all 0 until the game is over)."""
    return _seats(state, k.COINS)


def leftover_draw(state: np.ndarray) -> list[int]:
    """Card each seat drew for the leftover coins (-1 if it did not draw)."""
    return _seats(state, k.DRAW)


def dealer(state: np.ndarray) -> int:
    return int(state[k.DEALER])


def hand_size(state: np.ndarray) -> int:
    return int(state[k.HAND_SIZE])


def manche_number(state: np.ndarray) -> int:
    return int(state[k.MANCHE])


def in_duel(state: np.ndarray) -> bool:
    return bool(state[k.DUEL])


def face_up_goddesses(state: np.ndarray) -> int:
    return int(state[k.FACE_UP])


def pot(state: np.ndarray) -> int:
    return int(state[k.POT])


def end_reason(state: np.ndarray) -> str:
    """Why the game ended ('' while it goes on); one of :data:`END_REASONS`."""
    return END_REASONS[int(state[k.END_REASON])]


def current_trick(state: np.ndarray) -> list[tuple[int, int]]:
    """``(seat, card)`` pairs of the trick in progress, in play order."""
    length = int(state[k.TRICK_LEN])
    return [(int(state[k.TRICK_SEATS + i]), int(state[k.TRICK_CARDS + i])) for i in range(length)]


def declaration(state: np.ndarray) -> str:
    """The current trick's first-Goddess declaration: '', 'take' or 'leave'."""
    return DECLARATIONS[int(state[k.TRICK_DECL])]


def past_trick_winners(state: np.ndarray) -> list[int]:
    """Winner of each completed trick of the current manche, in order."""
    return [int(state[k.PAST_WINNER + i]) for i in range(int(state[k.TRICK_INDEX]))]


# ---- driving and setting up positions -----------------------------------------------------
def play(state: np.ndarray, *actions: int) -> np.ndarray:
    """Apply ``actions`` in order through the kernels; returns the summed rewards.

    An illegal action raises ``ValueError`` (a non-int ``TypeError``) naming the decision
    node and the legal actions; the state then holds every action before it, none of it.
    """
    return apply_actions(AciliandeGame(), state, actions, _decision)


def _decision(state: np.ndarray) -> str:
    return f"at node {node_name(state)} (seat {current_seat(state)})"
