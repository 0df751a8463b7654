"""Kuhn poker: options, sizes, labels and rendering around the rules kernel."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from presages_env.core.events import seat_name
from presages_env.core.game import Game, RewardBounds
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.core.results import SeatResult, counted, places_by
from presages_env.games.kuhn_poker import action_features, card_text, event_text, heuristic, view
from presages_env.games.kuhn_poker import kernel as k
from presages_env.games.kuhn_poker import layout as lay
from presages_env.games.kuhn_poker import options as kuhn_options
from presages_env.games.kuhn_poker import validate as v
from presages_env.games.kuhn_poker.cards import CARD_NAMES
from presages_env.games.kuhn_poker.options import KuhnPokerOptions


class KuhnPokerGame(Game):
    name = "kuhn_poker"
    title = "Kuhn poker"
    game_id = 5
    min_players = 2
    max_players = 3
    default_players = 2
    Options = KuhnPokerOptions
    option_space = kuhn_options.option_space
    state_dtype = lay.STATE_DTYPE
    layout_version = 2
    kernel = k
    state_layout = lay.slots
    validator = v
    viewer = view
    event_texts = event_text
    card_texts = card_text
    action_features = action_features
    heuristic = heuristic
    world_sampler = k.sample_world
    compile_seconds = 30  # a first run's compile (docs/speed.md)
    ships_checkpoint = False  # the exemplar: no trained policy, no row in the results tables
    benchmarked = False  # nor in the benchmarks: a template, not a game to compare

    def reward_bounds(self, num_players: int, options: KuhnPokerOptions) -> RewardBounds:
        """A seat loses at most its ante and a bet, and wins at most everyone else's."""
        stake = 1.0 + options.bet
        return RewardBounds(-stake, (num_players - 1) * stake, zero_sum=True)

    def max_game_length(self, num_players: int, options: KuhnPokerOptions) -> int:
        """Every seat but the last checks, the last bets, and everyone else answers."""
        return 2 * num_players - 1

    def max_visible_events(self, num_players: int, options: KuhnPokerOptions) -> int:
        """The antes, the seat's card, every move (at most 2n - 1) and the showdown."""
        return 2 + (2 * num_players - 1) + 1

    def obs_high(self, num_players: int) -> np.ndarray:
        return np.ones(lay.OBS_SIZE, dtype=np.int64)  # every entry is a flag

    def write_options(self, state: np.ndarray, options: KuhnPokerOptions) -> None:
        state[lay.OPT_BET] = options.bet

    def read_options(self, state: np.ndarray) -> KuhnPokerOptions:
        return KuhnPokerOptions(int(state[lay.OPT_BET]))

    def validate_options(self, num_players: int, options: KuhnPokerOptions) -> None:
        bet = options.bet
        if (
            isinstance(bet, bool)
            or not isinstance(bet, int)
            or not 1 <= bet <= kuhn_options.MAX_BET
        ):
            raise ValueError(f"bet must be an int from 1 to {kuhn_options.MAX_BET}, got {bet!r}")

    def action_label(self, state: np.ndarray, action: int) -> str:
        return lay.ACTION_NAMES[action]

    def result_summary(self, state: np.ndarray, totals: Sequence[float]) -> list[SeatResult]:
        """Chips won or lost; the winner of the pot first."""
        places = places_by([(total,) for total in totals])
        return [
            SeatResult(p, places[p], f"{'+' if total > 0 else ''}{counted(int(total), 'chip')}")
            for p, total in enumerate(totals)
        ]

    def render(self, state: np.ndarray) -> str:
        n = int(state[HDR_NUM_PLAYERS])
        cards = " ".join(
            f"{seat_name(p)}: {CARD_NAMES[int(state[lay.DECK + p])]}" for p in range(n)
        )
        words = view.move_words(self._observation(state))
        lines = [f"Kuhn poker — {cards}", f"  moves: {' '.join(words) or '-'}"]
        if state[HDR_TERMINAL]:
            lines.append(f"  hand over: {seat_name(int(k.winner(state)))} takes the pot")
        else:
            lines.append(f"  to act: {seat_name(int(state[HDR_CURRENT]))}")
        return "\n".join(lines)

    def _observation(self, state: np.ndarray) -> np.ndarray:
        obs = np.zeros(lay.OBS_SIZE, dtype=self.obs_dtype)
        k.observe(state, np.int64(0), obs)
        return obs
