"""Présages' table views (core/view.py): one seat's view from its observation alone, and the
referee's view with every hand.

Both are built by :func:`_build` from observations (kernel ``OBS_*``, docs/presages.md): a
seat's view from its own, with its private memory (Secrets, Absolu exchanges); the referee's
from seat 0's public part, with each seat's hand read from that seat's own observation.
Cards are the game's labels (``"La Loi (law, 15, yellow ⚡)"``: French name, English name,
value, colour, ⚡/⏳), as in the action labels and the all-hands render; events are the
render's.
"""

from __future__ import annotations

import numpy as np

from presages_env.core.events import seat_name
from presages_env.core.header import HDR_NUM_PLAYERS
from presages_env.core.view import PlayerView, TableView
from presages_env.games.presages import game as g
from presages_env.games.presages import kernel as k
from presages_env.games.presages.card_text import DECISION_TEXT
from presages_env.games.presages.cards import NUM_CARDS
from presages_env.games.presages.event_text import DIRECTION_NAMES, card_text, logged_text

CARDS = range(1, NUM_CARDS + 1)


def _label(card: int) -> str:
    return card_text(int(card), colour=False)


def _plane(obs: np.ndarray, plane: int) -> np.ndarray:
    """Entry ``c`` is about card ``c`` (entry 0 unused, 0)."""
    start = k.OBS_PLANES + plane * NUM_CARDS
    return np.concatenate(([0], obs[start : start + NUM_CARDS]))


def _hand(obs: np.ndarray) -> list[str]:
    mine = _plane(obs, k.PLANE_MY_HAND)
    return [_label(c) for c in CARDS if mine[c]]


def _log(obs: np.ndarray, start: int) -> list[str]:
    lines = []
    for i in range(k.LOG_CAP):
        kind, a, b, card = (int(x) for x in obs[start + 4 * i : start + 4 * i + 4])
        if not kind:
            break
        lines.append("    " + logged_text(kind, a, b, card, colour=False))
    return lines


def _pending(obs: np.ndarray, node: int) -> str:
    """Whose decision it is, in the game's words, with what the pending effect has fixed so
    far (the render's "now: ..." line too)."""

    def seat(offset: int) -> str:
        return seat_name(int(obs[offset]) - 1)

    fixed = {  # read only at its node: elsewhere the slots are 0
        k.NODE_DREAM_REPLY: lambda: f"the Le Rêve player is {seat(k.OBS_DREAM_PLAYER)}",
        k.NODE_WRATH_REPLACE: lambda: f"not {_label(obs[k.OBS_BLOCKED])}",
        k.NODE_BETRAYAL_GIVE: lambda: (
            f"not {_label(obs[k.OBS_TAKEN])}; it goes in front of {seat(k.OBS_VICTIM)}"
        ),
        k.NODE_SECRET_CARD: lambda: (
            f"between {seat(k.OBS_SECRET_HOLDER)} and {seat(k.OBS_SECRET_PARTNER)}"
        ),
        k.NODE_ABSOLUTE_GIVE: lambda: f"with {seat(k.OBS_ABS_TARGET)}",
        k.NODE_ABSOLUTE_RETURN: lambda: f"with {seat(k.OBS_ABS_ACTOR)}",
        k.NODE_LUCK_DISCARD: lambda: "any hand card but La Peur",
    }
    detail = f"; {fixed[node]()}" if node in fixed else ""
    return f"{seat(k.OBS_CURRENT)} to {DECISION_TEXT[node]}{detail}"


def _memory(obs: np.ndarray) -> list[str]:
    """The observer's private memory of this round: Secrets and Absolu exchanges."""
    lines = []
    for plane, text in (
        (k.PLANE_SEEN_FROM, "shown to you by {} (Le Secret)"),
        (k.PLANE_SHOWN_TO, "you showed it to {} (Le Secret)"),
        (k.PLANE_ABS_RECV, "you received it from {} (L'Absolu)"),
        (k.PLANE_ABS_GAVE, "you gave it to {} (L'Absolu)"),
    ):
        who = _plane(obs, plane)
        lines += [
            f"  {_label(c)}: {text.format(seat_name(int(who[c]) - 1))}" for c in CARDS if who[c]
        ]
    if obs[k.OBS_ABS_MY_GIVEN]:
        lines.append(f"  committed to the pending Absolu: {_label(obs[k.OBS_ABS_MY_GIVEN])}")
    return ["you know:"] + lines if lines else []


def _build(obs: np.ndarray, n: int, hands: list[list[str] | None], seat: int | None) -> TableView:
    """The table seen through ``obs``; ``hands`` by seat; private memory when ``seat``."""
    over = bool(obs[k.OBS_WINNING_TEAM])
    team = [int(obs[k.OBS_TEAMS + s]) - 1 for s in range(n)]
    last_hand = _plane(obs, k.PLANE_LAST_HAND_SEAT)
    players = []
    for s in range(n):
        notes = [f"team {team[s]}"]
        if obs[k.OBS_BOUT_STARTER] == s + 1 and not over:
            notes.append("starter")
        if obs[k.OBS_START_ABSOLU + s]:
            notes.append(f"round-1 face-up Absolu: {_label(obs[k.OBS_START_ABSOLU + s])}")
        back = [_label(c) for c in CARDS if last_hand[c] == s + 1]
        if back:
            notes.append(f"went back to this hand: {', '.join(back)}")
        front = int(obs[k.OBS_FRONT + s])
        area = [_label(front)] if front else []
        players.append(
            PlayerView(seat_name(s), hands[s], int(obs[k.OBS_HAND_COUNTS + s]), notes, area)
        )
    starter = max(int(obs[k.OBS_BOUT_STARTER]) - 1, 0)
    order = [(starter + i) % n for i in range(n)]
    table = [_label(obs[k.OBS_FRONT + s]) for s in order if obs[k.OBS_FRONT + s]]
    laurels = [int(x) for x in obs[k.OBS_ROUNDS_WON : k.OBS_ROUNDS_WON + k.MAX_TEAMS]]
    teams = [
        f"team {t} ({', '.join(seat_name(s) for s in range(n) if team[s] == t)})"
        + " ★" * laurels[t]
        for t in sorted(set(team))
    ]
    status = [f"round {int(obs[k.OBS_ROUND])}, bout {int(obs[k.OBS_BOUT])}", " | ".join(teams)]
    if obs[k.OBS_LAW_DIR]:
        status.append(f"La Loi in play: {DIRECTION_NAMES[int(obs[k.OBS_LAW_DIR])]}")
    previous = _log(obs, k.OBS_PREV_LOG)
    if previous:
        status += ["previous bout:", *previous]
    current = _log(obs, k.OBS_LOG)
    if current:
        status += ["this bout:", *current]
    zone, rank = _plane(obs, k.PLANE_ZONE), _plane(obs, k.PLANE_DISC_ORDER)
    pile = sorted((int(rank[c]), c) for c in CARDS if zone[c] == k.ZONE_DISCARDED)
    status.append(f"discard pile ({len(pile)}): " + ", ".join(_label(c) for _, c in pile))
    if obs[k.OBS_LAST_ROUND_WINNER]:
        reveal = _plane(obs, k.PLANE_REVEAL)
        shown = ", ".join(
            f"{seat_name(int(reveal[c]) - 1)} {_label(c)}" for c in CARDS if reveal[c]
        )
        status.append(
            f"last round won by {seat_name(int(obs[k.OBS_LAST_ROUND_WINNER]) - 1)} for their team; "
            f"hands shown at its end: {shown or 'none (0 cards)'}"
        )
    if seat is not None:
        status += _memory(obs)
    if over:
        status.append(f"game over: team {int(obs[k.OBS_WINNING_TEAM]) - 1} wins")
        to_act = -1
    else:
        status.append(f"now: {_pending(obs, int(obs[k.OBS_NODE]))}")
        to_act = int(obs[k.OBS_CURRENT]) - 1
    return TableView(players, table, status, to_act, seat)


def seat_view(obs: np.ndarray, seat: int, num_players: int) -> TableView:
    """What ``seat`` sees: its own hand, its private memory, every public fact."""
    hands: list[list[str] | None] = [None] * num_players
    hands[seat] = _hand(obs)
    return _build(obs, num_players, hands, seat)


def state_view(state: np.ndarray) -> TableView:
    """Every hand (a referee's view, for debugging): seat 0's public view with each seat's
    hand from that seat's own observation (no seat's private memory)."""
    n = int(state[HDR_NUM_PLAYERS])
    obs = np.zeros((n, k.OBS_SIZE), dtype=g.PresagesGame.obs_dtype)
    for p in range(n):
        k.observe(state, np.int64(p), obs[p])
    return _build(obs[0], n, [_hand(obs[p]) for p in range(n)], None)
