"""Président: options, sizes, rendering and position set-up around the rules kernel."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from presages_env.core.events import seat_name
from presages_env.core.game import Game, PositionCount, RewardBounds
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL, seed_of
from presages_env.core.results import SeatResult, counted, places_by
from presages_env.core.validation import SEED_MAX, check_int
from presages_env.games.president import kernel as k
from presages_env.games.president.cards import (
    NUM_CARDS,
    NUM_RANKS,
    PLACE_TITLES,
    RANK_NAMES,
    SET_NAMES,
    SUITS,
)
from presages_env.games.president.options import (
    REWARD_SCHEME_NAMES,
    PresidentOptions,
)
from presages_env.games.president.positions import setup_manche, setup_position

REWARD_SCHEMES = dict(
    zip(REWARD_SCHEME_NAMES, (k.REWARD_PLACES, k.REWARD_MATCH, k.REWARD_POINTS), strict=True)
)


class PresidentGame(Game):
    name = "president"
    title = "Président"
    game_id = 1
    min_players = 3
    max_players = 6
    default_players = 4
    state_dtype = k.STATE_DTYPE
    layout_version = 3
    compile_seconds = 75  # a first run's compile (docs/speed.md)
    ships_checkpoint = True
    benchmarked = True

    def reward_bounds(self, num_players: int, options: PresidentOptions) -> RewardBounds:
        """Per reward scheme: "places", one place's reward per manche; "match", a share of
        +1 or -1; "points", 2 points a manche at most. "match" cancels only up to float32
        rounding (-1/3 three times against +1), so only "places" is zero-sum."""
        manches = float(options.num_manches)
        if options.reward_scheme == "points":
            return RewardBounds(0.0, 2.0 * manches, zero_sum=False)
        if options.reward_scheme == "match":
            return RewardBounds(-1.0, 1.0, zero_sum=False)
        return RewardBounds(-manches, manches, zero_sum=True)

    def position_counts(self) -> tuple[PositionCount, ...]:
        """A later manche's score (the match's scores go in int8 slots), a position's seed
        and its leader."""
        hands = [["3", "4"], ["5", "6"], ["7", "8"], ["9", "10"]]
        later = [["3", "4", "5"], ["6", "7", "8"], ["9", "10", "J"], ["Q", "K", "A"]]
        return (
            PositionCount(  # 2: the only score of the Président after one manche with these
                "setup_manche(scores[0])",
                lambda v: setup_manche(4, later, [0, 1, 2, 3], scores=[v, 1, 0, 0]),
                2,
                2,
            ),
            PositionCount(
                "setup_position(seed=...)",
                lambda v: setup_position(4, hands, leader=0, seed=v),
                0,
                SEED_MAX,
            ),
            PositionCount(
                "setup_position(leader)", lambda v: setup_position(4, hands, leader=v), 0, 3
            ),
        )

    def max_visible_events(self, num_players: int, options: PresidentOptions) -> int:
        """Per manche: its start, the seat's dealt cards, the exchange's four events, at most
        52 plays each followed by at most n - 1 passes, a trick won per play, everyone out
        and scored; then the match's end."""
        n = num_players
        per_manche = 1 + -(-NUM_CARDS // n) + 4 + NUM_CARDS * (1 + (n - 1) + 1) + 2 * n
        return options.num_manches * per_manche + 1

    def obs_high(self, num_players: int) -> np.ndarray:
        high = np.ones(k.OBS_SIZE, dtype=np.int64)
        high[k.OBS_HAND : k.OBS_HAND + 2 * NUM_RANKS] = SUITS
        high[k.OBS_HAND_SIZE : k.OBS_HAND_SIZE + k.MAX_PLAYERS] = 52 // num_players + 2
        high[k.OBS_PLACE : k.OBS_PLACE + 2 * k.MAX_PLAYERS] = num_players
        high[k.OBS_SCORE : k.OBS_SCORE + k.MAX_PLAYERS] = 120
        high[k.OBS_MANCHES_LEFT] = 60
        return high

    # ---- reading a state ---------------------------------------------------------------
    def info_key(self, state: np.ndarray) -> tuple[int, int]:
        return int(state[k.MANCHE]), int(state[HDR_TERMINAL])

    def infos(self, state: np.ndarray) -> list[dict]:
        n = int(state[HDR_NUM_PLAYERS])
        last_places = [int(x) for x in state[k.LAST_PLACE : k.LAST_PLACE + n]]
        return [
            {
                "manche": int(state[k.MANCHE]),
                "last_manche_place": last_places[p],
                "last_manche_places": last_places,
                "score": int(state[k.SCORE + p]),
            }
            for p in range(n)
        ]

    def result_summary(self, state: np.ndarray, totals: Sequence[float]) -> list[SeatResult]:
        """One manche: the order the seats went out, with their title (Président ...). A
        match: the seed points (2 for 1st, 1 for 2nd each manche); equal points share."""
        n, manches = int(state[HDR_NUM_PLAYERS]), int(state[k.OPT_NUM_MANCHES])
        points = [int(x) for x in state[k.SCORE : k.SCORE + n]]
        finished = [int(x) for x in state[k.LAST_PLACE : k.LAST_PLACE + n]]
        if manches == 1:
            places = [place + 1 for place in finished]
            titles = [f" ({PLACE_TITLES[p]})" if p < len(PLACE_TITLES) else "" for p in finished]
            scores = [f"{counted(x, 'point')}{t}" for x, t in zip(points, titles, strict=True)]
        else:
            places = places_by([(x,) for x in points])
            scores = [f"{counted(x, 'point')} in {manches} manches" for x in points]
        return [SeatResult(p, places[p], scores[p]) for p in range(n)]

    def action_label(self, state: np.ndarray, action: int) -> str:
        if action == k.ACTION_PASS:
            return "pass"
        rank, count = divmod(action - 1, k.MAX_SET)
        if state[k.PHASE] == k.PHASE_GIVE_BACK:
            return f"give back a {RANK_NAMES[rank]}"
        return f"{SET_NAMES[count]} of {RANK_NAMES[rank]}"

    def action_label_for(self, state: np.ndarray, action: int, seat: int) -> str:
        """The card given back in the exchange is seen by the two seats of the exchange only;
        the others see that one was. Every other move is public."""
        exchange = (int(state[k.EXCH_TO]), int(state[k.EXCH_FROM]))
        if state[k.PHASE] == k.PHASE_GIVE_BACK and seat not in exchange:
            return "give back a card"
        return self.action_label(state, action)

    def render(self, state: np.ndarray) -> str:
        n = int(state[HDR_NUM_PLAYERS])
        lines = [
            f"Président — manche {min(int(state[k.MANCHE]) + 1, int(state[k.OPT_NUM_MANCHES]))}"
            f"/{int(state[k.OPT_NUM_MANCHES])}, "
            f"seed {seed_of(state)}"
        ]
        if state[k.TOP_RANK] >= 0:
            rank, count = int(state[k.TOP_RANK]), int(state[k.TOP_COUNT])
            lines.append(
                f"  to beat: {' '.join([RANK_NAMES[rank]] * count)}"
                f" ({SET_NAMES[count - 1]}, by {seat_name(int(state[k.TOP_PLAYER]))})"
            )
        else:
            lines.append("  table empty: the current player leads")
        if state[k.EXCH_RECEIVED] >= 0:
            given = int(state[k.EXCH_GIVEN])
            lines.append(
                f"  exchange: {seat_name(int(state[k.EXCH_FROM]))} gave a "
                f"{RANK_NAMES[int(state[k.EXCH_RECEIVED])]} to {seat_name(int(state[k.EXCH_TO]))}"
                + (f", who gave back a {RANK_NAMES[given]}" if given >= 0 else "")
            )
        for seat in range(n):
            p = int(state[k.PLAYER_AT_SEAT + seat])
            marker = ">" if state[HDR_CURRENT] == p else " "
            cards = " ".join(
                " ".join([RANK_NAMES[r]] * int(c)) for r, c in enumerate(hand_counts(state, p)) if c
            )
            status = ""
            if state[k.PLACE + p] >= 0:
                status = f" [out: place {int(state[k.PLACE + p]) + 1}]"
            elif state[k.PASSED + p]:
                status = " [passed]"
            lines.append(
                f"{marker} {seat_name(p)} (score {int(state[k.SCORE + p])}){status}: {cards or '-'}"
            )
        if state[HDR_TERMINAL]:
            lines.append("  match over")
        return "\n".join(lines)


# ---- position set-up and queries (for tests, scenario studies and search) -------------
def rank_index(card: int | str) -> int:
    """Rank index 0 (the 3) to 12 (the 2) of a rank name like ``"10"``, ``"Q"``, or an index."""
    if isinstance(card, str):
        if card not in RANK_NAMES:
            raise ValueError(f"unknown rank {card!r}; ranks are {RANK_NAMES}")
        return RANK_NAMES.index(card)
    return check_int(card, f"a rank (a name in {RANK_NAMES} or an index)", 0, NUM_RANKS - 1)


def hand_counts(state: np.ndarray, player: int) -> list[int]:
    """Cards of each rank held by ``player`` (index 0 is the 3, index 12 the 2)."""
    base = k.HAND + player * NUM_RANKS
    return [int(x) for x in state[base : base + NUM_RANKS]]


def places(state: np.ndarray) -> list[int]:
    """Finishing place of each player in the current manche (-1 while still holding cards)."""
    n = int(state[HDR_NUM_PLAYERS])
    return [int(x) for x in state[k.PLACE : k.PLACE + n]]


def seating(state: np.ndarray) -> list[int]:
    """Players in turn order, starting from seat 0."""
    n = int(state[HDR_NUM_PLAYERS])
    return [int(x) for x in state[k.PLAYER_AT_SEAT : k.PLAYER_AT_SEAT + n]]


def action_for(rank: int | str, count: int = 1) -> int:
    """The action that plays ``count`` cards of ``rank`` (or gives back one, count 1)."""
    count = check_int(count, "count", 1, k.MAX_SET)
    return 1 + rank_index(rank) * k.MAX_SET + count - 1
