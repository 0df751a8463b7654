"""Aciliande's table views (core/view.py): one seat's view from its observation alone, and the
referee's view with every hand.

Both are built by :func:`_build` from observations (kernel ``OBS_*``, docs/aciliande.md): a
seat's view from its own; the referee's from seat 0's, with each seat's hand read from that
seat's own observation. Cards are ``card_name`` labels (``"XVII L'Étoile"``), as in the
action labels and the all-hands render. The observation carries no manche number, coins or
end reason (public facts of the envs' ``infos``), so the views do not show them.
"""

from __future__ import annotations

import numpy as np

from presages_env.core.events import seat_name
from presages_env.core.header import HDR_NUM_PLAYERS
from presages_env.core.view import PlayerView, TableView
from presages_env.games.aciliande import game as g
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.card_text import DECISION_TEXT
from presages_env.games.aciliande.cards import NUM_CARDS, card_name


def _hand(obs: np.ndarray) -> list[str]:
    return [card_name(c) for c in range(NUM_CARDS) if obs[k.OBS_HAND + c]]


def _build(
    obs: np.ndarray, me: int, n: int, hands: list[list[str] | None], seat: int | None
) -> TableView:
    """The table seen through ``obs``, seat ``me``'s observation; ``hands`` by seat."""

    def seat_of(relative: int) -> int:
        return (me + relative) % n

    def name(relative_plus_one: int) -> str:
        return seat_name(seat_of(int(relative_plus_one) - 1))

    node = int(np.flatnonzero(obs[k.OBS_NODE : k.OBS_NODE + k.NUM_NODES])[0])
    teams = bool(obs[k.OBS_TEAMS])
    dealt = int(obs[k.OBS_HAND_SIZE])
    played_by = obs[k.OBS_PLAYED_BY : k.OBS_PLAYED_BY + NUM_CARDS]
    players: list[PlayerView | None] = [None] * n
    for r in range(n):
        s = seat_of(r)
        out = bool(obs[k.OBS_ELIMINATED + r])
        notes = [f"lives {int(obs[k.OBS_LIVES + r])}"]
        if teams:
            notes.append(f"team {'AB'[s % 2]}")
        bid = int(obs[k.OBS_BIDS + r]) - 1
        if not out:
            notes += [f"bid {bid if bid >= 0 else '?'}", f"tricks {int(obs[k.OBS_TRICKS + r])}"]
        if obs[k.OBS_DEALER + r]:
            notes.append("dealer")
        if out:
            notes.append("eliminated")
        size = 0 if out else max(0, dealt - int(np.count_nonzero(played_by == r + 1)))
        players[s] = PlayerView(seat_name(s), hands[s], size, notes)
    length = int(np.count_nonzero(obs[k.OBS_TRICK_CARDS : k.OBS_TRICK_CARDS + k.MAX_PLAYERS]))
    table = [card_name(int(obs[k.OBS_TRICK_CARDS + i]) - 1) for i in range(length)]
    goddesses = [card_name(c) for c in range(NUM_CARDS) if obs[k.OBS_GODDESS + c]]
    status = [
        f"hand size {dealt or '(dealer chooses)'}, pot {int(obs[k.OBS_POT])} coin(s)",
        f"Goddesses: {', '.join(goddesses)}",
    ]
    if obs[k.OBS_DUEL]:
        status.append(f"duel: {int(obs[k.OBS_FACE_UP])} Goddess(es) face up")
    if length:
        shown = ", ".join(f"{name(obs[k.OBS_TRICK_SEATS + i])} {table[i]}" for i in range(length))
        declared = g.DECLARATIONS[int(obs[k.OBS_TRICK_DECL])]
        status.append(
            f"trick {int(obs[k.OBS_TRICK_INDEX]) + 1}: {shown}"
            + (f" (first Goddess: {declared})" if declared else "")
        )
    played_in = obs[k.OBS_PLAYED_IN : k.OBS_PLAYED_IN + NUM_CARDS]
    for i in range(int(obs[k.OBS_TRICK_INDEX])):
        shown = ", ".join(
            f"{name(played_by[c])} {card_name(c)}"
            for c in range(NUM_CARDS)
            if played_in[c] == i + 1
        )
        declared = g.DECLARATIONS[int(obs[k.OBS_PAST_DECL + i])]
        status.append(
            f"past trick {i + 1}: {shown} -> {name(obs[k.OBS_PAST_WINNER + i])}"
            + (f" (Goddess: {declared})" if declared else "")
        )
    current = np.flatnonzero(obs[k.OBS_CURRENT : k.OBS_CURRENT + n])
    to_act = seat_of(int(current[0])) if len(current) else -1
    if to_act >= 0:
        status.append(f"to act: {seat_name(to_act)}, to {DECISION_TEXT[node]}")
    else:
        status.append("game over")
    return TableView(players, table, status, to_act, seat)  # type: ignore[arg-type]


def seat_view(obs: np.ndarray, seat: int, num_players: int) -> TableView:
    """What ``seat`` sees: its own hand, every public fact, from its observation alone."""
    hands: list[list[str] | None] = [None] * num_players
    hands[seat] = _hand(obs)
    return _build(obs, seat, num_players, hands, seat)


def state_view(state: np.ndarray) -> TableView:
    """Every hand (a referee's view, for debugging): seat 0's view with each seat's hand from
    that seat's own observation."""
    n = int(state[HDR_NUM_PLAYERS])
    obs = np.zeros((n, k.OBS_SIZE), dtype=g.AciliandeGame.obs_dtype)
    for p in range(n):
        k.observe(state, np.int64(p), obs[p])
    return _build(obs[0], 0, n, [_hand(obs[p]) for p in range(n)], None)
