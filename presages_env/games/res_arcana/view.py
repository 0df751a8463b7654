"""Res Arcana's table views (core/view.py): one seat's view from its observation alone, and
the referee's view with every hand.

Both are built by :func:`_build` from observations (``layout.OBS_*``, docs/res_arcana.md):
the public part from one observation, and each seat's private part (hand, deck as it knows it,
mage options and hidden pick, the monument deck top it looked at) from that seat's own
observation: a seat's view has its own, the referee's view every seat's. Components are named
as in the action labels and the all-hands render (``cards.NAMES``); a player's area is its
tableau, with turned flags and stored essences. Observed counts are clipped to 127.
"""

from __future__ import annotations

import numpy as np

from presages_env.core.events import seat_name
from presages_env.core.header import HDR_NUM_PLAYERS
from presages_env.core.view import PlayerView, TableView
from presages_env.games.res_arcana import game as g
from presages_env.games.res_arcana import kernel as k
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.card_text import DECISION_TEXT
from presages_env.games.res_arcana.cards import FIRST_MAGE, FIRST_MONUMENT, NAMES, NUM_COMPONENTS
from presages_env.games.res_arcana.event_text import TARGET_KIND_NAMES
from presages_env.games.res_arcana.queries import PHASE_NAMES, essences_line

COMPONENTS = range(NUM_COMPONENTS)
PENDING = {name: lay.OBS_PENDING + i for i, name in enumerate(lay.PENDING_FIELDS)}


def _plane(obs: np.ndarray, plane: int) -> np.ndarray:
    start = lay.OBS_COMPONENTS + plane * NUM_COMPONENTS
    return obs[start : start + NUM_COMPONENTS]


def _seat_field(obs: np.ndarray, s: int, field: int) -> int:
    return int(obs[lay.OBS_SEATS + s * lay.SEAT_FIELDS + field])


def _in_zone(obs: np.ndarray, zone: int, owner: int | None = None) -> list[int]:
    zones, owners = _plane(obs, lay.PLANE_ZONE), _plane(obs, lay.PLANE_OWNER)
    return [c for c in COMPONENTS if zones[c] == zone and (owner is None or owners[c] == owner + 1)]


def _tableau_entry(obs: np.ndarray, c: int) -> str:
    """The render's ``_tableau_entry``, from the observation."""
    text = NAMES[c]
    if _plane(obs, lay.PLANE_TURNED)[c]:
        text += " (turned)"
    stored = [int(_plane(obs, lay.PLANE_STORED + e)[c]) for e in range(5)]
    if any(stored):
        text += f" [{essences_line(stored, colour=False)}]"
    return text


def _hand(obs: np.ndarray) -> list[str]:
    return [NAMES[c] for c in _in_zone(obs, lay.Z_MY_HAND)]


def _private_notes(obs: np.ndarray) -> list[str]:
    """What only the observer knows: its deck, mage options and pick, monument deck top."""
    notes = []
    top = [NAMES[int(c) - 1] for c in obs[lay.OBS_MY_TOP : lay.OBS_MY_TOP + lay.LOOK_DEPTH] if c]
    deck = sorted(NAMES[c] for c in _in_zone(obs, lay.Z_MY_DECK))
    if deck:
        notes.append(f"deck holds {', '.join(deck)}" + (f" (top: {', '.join(top)})" if top else ""))
    options = [NAMES[c] for c in _in_zone(obs, lay.Z_MY_MAGE_OPTION)]
    if options:
        notes.append(f"mage options {', '.join(options)}")
    if obs[lay.OBS_MY_MAGE_PICK]:
        notes.append(f"picked {NAMES[int(obs[lay.OBS_MY_MAGE_PICK]) + FIRST_MAGE - 1]}")
    monuments = [
        NAMES[int(c) + FIRST_MONUMENT - 1]
        for c in obs[lay.OBS_MON_TOP : lay.OBS_MON_TOP + lay.LOOK_DEPTH]
        if c
    ]
    if monuments:
        notes.append(f"knows the monument deck's top: {', '.join(monuments)}")
    return notes


def _build(obs: np.ndarray, n: int, private: dict[int, np.ndarray], seat: int | None) -> TableView:
    """The table seen through ``obs``, with the private part of each seat in ``private``
    read from that seat's observation."""
    current = int(obs[lay.OBS_CURRENT]) - 1
    first = int(obs[lay.OBS_FIRST_PLAYER]) - 1
    players = []
    for s in range(n):
        pool = [_seat_field(obs, s, lay.SEAT_POOL + e) for e in range(5)]
        notes = [
            f"{_seat_field(obs, s, lay.SEAT_VP)} VP",
            f"pool {essences_line(pool, colour=False)}",
        ]
        notes.append(f"deck {_seat_field(obs, s, lay.SEAT_DECK)}")
        discard = [NAMES[c] for c in _in_zone(obs, lay.Z_DISCARD, s)]
        notes.append(f"discard: {', '.join(discard) or '-'}")
        if s == first:
            notes.append("first player")
        if _seat_field(obs, s, lay.SEAT_MAGE_PICKED) and not _in_zone(obs, lay.Z_PLAY, s):
            notes.append("has picked a mage")
        if _seat_field(obs, s, lay.SEAT_PASSED):
            notes.append("passed")
        if _seat_field(obs, s, lay.SEAT_WINNER):
            notes.append("WINNER")
        hand = None
        if s in private:
            hand = _hand(private[s])
            notes += _private_notes(private[s])
        area = [_tableau_entry(obs, c) for c in _in_zone(obs, lay.Z_PLAY, s)]
        area += [f"{NAMES[c]} (being placed)" for c in _in_zone(obs, lay.Z_PLACING, s)]
        size = _seat_field(obs, s, lay.SEAT_HAND)
        players.append(PlayerView(seat_name(s), hand, size, notes, area))
    display = [NAMES[c] for c in _in_zone(obs, lay.Z_DISPLAY)]
    places = [NAMES[c] for c in _in_zone(obs, lay.Z_CENTER)]
    phase = int(obs[lay.OBS_PHASE])
    token = " (token taken this round)" if obs[lay.OBS_TOKEN_TAKEN] else ""
    status = [
        f"round {int(obs[lay.OBS_ROUND])}, {PHASE_NAMES[phase]}; "
        f"first player {seat_name(first)}{token}",
        f"on the table: face-up monuments, then Places of Power; monument deck "
        f"{int(obs[lay.OBS_MON_DECK_SIZE])} left",
        f"magic items: {', '.join(NAMES[c] for c in _in_zone(obs, lay.Z_SUPPLY))}",
    ]
    if current >= 0:
        node = int(obs[lay.OBS_NODE])
        asked = DECISION_TEXT[node]
        if node == lay.NODE_TARGET:  # which component, for what: "keep a mage", ...
            asked = TARGET_KIND_NAMES[int(obs[PENDING["TGT_KIND"]])]
        status.append(f"now: {seat_name(current)} to {asked}")
    elif phase == lay.PHASE_OVER:
        won = [seat_name(s) for s in range(n) if _seat_field(obs, s, lay.SEAT_WINNER)]
        status.append(f"game over: {', '.join(won)} won")
    else:
        status.append("truncated at the step cap: no winner")
    table = display + places
    return TableView(players, table, status, current, seat)


def seat_view(obs: np.ndarray, seat: int, num_players: int) -> TableView:
    """What ``seat`` sees: its own hand and private knowledge, every public fact."""
    return _build(obs, num_players, {seat: obs}, seat)


def state_view(state: np.ndarray) -> TableView:
    """Every hand (a referee's view, for debugging): seat 0's public view with each seat's
    private part from that seat's own observation."""
    n = int(state[HDR_NUM_PLAYERS])
    obs = np.zeros((n, k.OBS_SIZE), dtype=g.ResArcanaGame.obs_dtype)
    for p in range(n):
        k.observe(state, np.int64(p), obs[p])
    return _build(obs[0], n, {p: obs[p] for p in range(n)}, None)
