"""Président's table views (core/view.py): one seat's view from its observation alone, and the
referee's view with every hand.

Both are built by :func:`_build` from observations: a seat's view from its own, the referee's
from seat 0's (the public part) with every player's hand read from that player's own
observation, so nothing is drawn from hidden state in one and differently in the other.

The observation (kernel ``OBS_*``) describes the table relative to the observer, in turn
order, and names neither the seating (it changes after every manche) nor whose turn it is
unless it is the observer's. A seat's view therefore places the player ``k`` seats after
the observer at index ``(seat + k) % n``: in the first manche the seating is player order,
so index ``p`` is ``player_p``; later the others are named by their place in turn order
(``"+1"``: the next to play) and their place last manche. ``to_act`` is the seat itself on
its turn, the player to act when the observation shows it (the give-back, a trick under way),
and -1 otherwise (the game is over, or another player leads a trick: the status says which).
"""

from __future__ import annotations

import numpy as np

from presages_env.core.events import seat_name
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.core.view import PlayerView, TableView
from presages_env.games.president import game as g
from presages_env.games.president import kernel as k
from presages_env.games.president.cards import NUM_RANKS, PLACE_TITLES, RANK_NAMES, SET_NAMES


def _cards(counts) -> list[str]:
    """Rank labels, weakest first, one per card (``["3", "3", "K", "2"]``)."""
    return [RANK_NAMES[r] for r in range(NUM_RANKS) for _ in range(int(counts[r]))]


def _one_hot(obs: np.ndarray, start: int, size: int) -> int:
    hits = np.flatnonzero(obs[start : start + size])
    return int(hits[0]) if len(hits) else -1


def _place_text(place: int) -> str:
    """``place`` counted from 1."""
    title = f" {PLACE_TITLES[place - 1]}" if place <= len(PLACE_TITLES) else ""
    return f"#{place}{title}"


def _to_act_relative(obs: np.ndarray, n: int) -> int:
    """The relative position to act, when the observation shows it (-1 otherwise)."""
    if obs[k.OBS_MY_TURN]:
        return 0
    if obs[k.OBS_PHASE + k.PHASE_GIVE_BACK]:  # the Président gives back
        return next(r for r in range(n) if obs[k.OBS_LAST_PLACE + r] == 1)
    top = _one_hot(obs, k.OBS_TOP_PLAYER, n)
    if obs[k.OBS_PHASE + k.PHASE_PLAY] and top >= 0:
        # Since the last play, the players after it in turn order passed one by one.
        for step in range(1, n + 1):
            r = (top + step) % n
            if obs[k.OBS_IN_PLAY + r] and not obs[k.OBS_PASSED + r]:
                return r
    return -1


def _build(
    obs: np.ndarray,
    n: int,
    index: list[int],
    names: list[str],
    hands: list[list[str] | None],
    to_act: int,
    seat: int | None,
) -> TableView:
    """The table seen through ``obs``: relative position r is ``players[index[r]]``, named
    ``names[r]``, holding ``hands[r]`` (None: hidden)."""
    over = not obs[k.OBS_PHASE : k.OBS_PHASE + 2].any()
    players: list[PlayerView | None] = [None] * n
    for r in range(n):
        notes = [f"score {int(obs[k.OBS_SCORE + r])}"]
        last = int(obs[k.OBS_LAST_PLACE + r])
        if last:
            notes.append(f"last manche {_place_text(last)}")
        if not obs[k.OBS_IN_PLAY + r]:
            notes.append(f"out: {_place_text(int(obs[k.OBS_PLACE + r]))}")
        elif obs[k.OBS_PASSED + r]:
            notes.append("passed")
        size = int(obs[k.OBS_HAND_SIZE + r])
        players[index[r]] = PlayerView(names[r], hands[r], size, notes)
    table: list[str] = []
    status = [f"manches left: {int(obs[k.OBS_MANCHES_LEFT])}"]
    rank = _one_hot(obs, k.OBS_TOP_RANK, NUM_RANKS)
    if rank >= 0:
        count = _one_hot(obs, k.OBS_TOP_COUNT, k.MAX_SET) + 1
        table = [RANK_NAMES[rank]] * count
        by = names[_one_hot(obs, k.OBS_TOP_PLAYER, n)]
        status.append(f"to beat: {SET_NAMES[count - 1]} of {RANK_NAMES[rank]} by {by}")
    received = _one_hot(obs, k.OBS_RECEIVED, NUM_RANKS)
    if received >= 0:
        given = _one_hot(obs, k.OBS_GIVEN, NUM_RANKS)
        status.append(
            f"exchange: the last player gave the Président a {RANK_NAMES[received]}"
            + (f", who gave back a {RANK_NAMES[given]}" if given >= 0 else "")
        )
    gone = _cards(obs[k.OBS_GONE : k.OBS_GONE + NUM_RANKS])
    status.append(f"played this manche: {' '.join(gone) or '-'}")
    if over:
        status.append("match over")
    elif obs[k.OBS_PHASE + k.PHASE_GIVE_BACK]:
        status.append("phase: the Président gives a card back to the last player")
    elif to_act >= 0:
        status.append(f"to act: {players[to_act].name}" + (" (lead)" if rank < 0 else ""))
    else:
        status.append("to act: another player leads (the observation does not say who)")
    return TableView(players, table, status, to_act, seat)  # type: ignore[arg-type]


def seat_view(obs: np.ndarray, seat: int, num_players: int) -> TableView:
    """What ``seat`` sees, from its observation alone (see the module's docstring)."""
    n = num_players
    first_manche = not obs[k.OBS_LAST_PLACE : k.OBS_LAST_PLACE + n].any()
    index = [(seat + r) % n for r in range(n)]
    if first_manche:
        names = [seat_name(i) for i in index]
    else:
        names = [seat_name(seat)] + [f"+{r}" for r in range(1, n)]
    hands: list[list[str] | None] = [_cards(obs[k.OBS_HAND : k.OBS_HAND + NUM_RANKS])]
    hands += [None] * (n - 1)
    relative = _to_act_relative(obs, n)
    to_act = index[relative] if relative >= 0 else -1
    return _build(obs, n, index, names, hands, to_act, seat)


def state_view(state: np.ndarray) -> TableView:
    """Every hand (a referee's view, for debugging): players by identity, each hand from its
    owner's observation, the rest from the Président's while an exchange is on record (it
    shows the exchange), else from player 0's."""
    n = int(state[HDR_NUM_PLAYERS])
    obs = np.zeros((n, k.OBS_SIZE), dtype=g.PresidentGame.obs_dtype)
    for p in range(n):
        k.observe(state, np.int64(p), obs[p])
    base = max(int(state[k.EXCH_TO]), 0)
    first = int(state[k.SEAT_OF + base])
    index = [int(state[k.PLAYER_AT_SEAT + (first + r) % n]) for r in range(n)]
    names = [seat_name(p) for p in index]
    hands: list[list[str] | None] = [
        _cards(obs[p, k.OBS_HAND : k.OBS_HAND + NUM_RANKS]) for p in index
    ]
    to_act = -1 if state[HDR_TERMINAL] else int(state[HDR_CURRENT])
    return _build(obs[base], n, index, names, hands, to_act, None)
