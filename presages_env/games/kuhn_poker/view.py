"""Kuhn poker's table views (core/view.py): one seat's view from its observation alone, and
the referee's view with every card, built by the same :func:`_build` from observations.

Move i of a hand is seat ``i % n``'s (see ``kernel.seat_to_act``), so any seat's
observation, which lists every move, says who did what and who acts next.
"""

from __future__ import annotations

import numpy as np

from presages_env.core.events import seat_name
from presages_env.core.header import HDR_NUM_PLAYERS
from presages_env.core.view import PlayerView, TableView
from presages_env.games.kuhn_poker import kernel as k
from presages_env.games.kuhn_poker import layout as lay
from presages_env.games.kuhn_poker.cards import CARD_NAMES


def _card(obs: np.ndarray) -> str:
    hits = np.flatnonzero(obs[lay.OBS_CARD : lay.OBS_CARD + lay.MAX_CARDS])
    return CARD_NAMES[int(hits[0])] if len(hits) else "?"


def move_words(obs: np.ndarray) -> list[str]:
    """Each move so far in words: check, bet, call or fold."""
    pairs = obs[lay.OBS_MOVES : lay.OBS_MOVES + 2 * lay.MAX_MOVES].reshape(-1, 2)
    words, facing = [], False
    for passed, bet in pairs:
        if passed or bet:
            words.append(("call" if facing else "bet") if bet else ("fold" if facing else "check"))
            facing |= bool(bet)
    return words


def _build(obs: np.ndarray, n: int, hands: list[str | None], seat: int | None) -> TableView:
    """The table seen through ``obs`` (any seat's: the moves are public); ``hands[p]`` is
    seat p's card, None where hidden."""
    words = move_words(obs)
    bet = "bet" in words
    over = len(words) == (words.index("bet") + n if bet else n)
    to_act = -1 if over else len(words) % n
    players = [
        PlayerView(seat_name(p), None if hands[p] is None else [hands[p]], 1, words[p::n])
        for p in range(n)
    ]
    status = [f"moves: {' '.join(words) or '-'}"]
    status.append("hand over" if over else f"to act: {seat_name(to_act)}")
    return TableView(players, [], status, to_act, seat)


def seat_view(obs: np.ndarray, seat: int, num_players: int) -> TableView:
    """What ``seat`` sees: its own card and every move."""
    hands: list[str | None] = [None] * num_players
    hands[seat] = _card(obs)
    return _build(obs, num_players, hands, seat)


def state_view(state: np.ndarray) -> TableView:
    """Every card (a referee's view, for debugging), each from its holder's observation."""
    n = int(state[HDR_NUM_PLAYERS])
    obs = np.zeros((n, lay.OBS_SIZE), dtype=np.int8)
    for p in range(n):
        k.observe(state, np.int64(p), obs[p])
    return _build(obs[0], n, [_card(obs[p]) for p in range(n)], None)
