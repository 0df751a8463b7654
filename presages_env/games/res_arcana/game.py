"""Res Arcana's ``Game``: options, sizes, rewards and infos around the kernel. Beside it, and
re-exported here: actions by name and their labels (``labels.py``), the reads of a state and
its rendering (``queries.py``), positions set up by hand (``positions.py``).

Actions (``NUM_ACTIONS``, the same indices at every decision; the mask selects): place or
discard artifact a (0-39, 40-79), claim a face-up monument (80-89) or the deck's top (90), a
Place of Power face (91-100), use power w (101-182), pass (183), one essence E/L/C/D/G
(184-188: pay it, gain it), done (189), component c (190-267), seat s (268-271), yes/no
(272-273), the attacking dragon's own ignore cost (274), look at my deck / the monument
deck (275-276), order k of looked-at cards (277-282). ``legal_labels(state)`` names each
legal action at the pending decision; docs/res_arcana.md has the full layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from presages_env.core.game import Game, PositionCount, RewardBounds
from presages_env.core.header import HDR_NUM_PLAYERS, TRUNCATED
from presages_env.core.results import SeatResult, counted, places_by
from presages_env.core.state_io import apply_actions
from presages_env.core.validation import SEED_MAX
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import kernel as k
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.event_kinds import max_episode_events
from presages_env.games.res_arcana.labels import (
    CLAIM_MONUMENT_TOP,
    DONE,
    DRAGON_IGNORE,
    LOOK_MONUMENTS,
    LOOK_OWN_DECK,
    NO,
    NUM_ACTIONS,
    PASS,
    YES,
    action_label,
    claim_monument,
    claim_place,
    component,
    discard,
    essence,
    hidden_choice,
    legal_actions,
    legal_labels,
    order_action,
    place,
    power,
    seat_action,
)
from presages_env.games.res_arcana.options import ResArcanaOptions
from presages_env.games.res_arcana.positions import setup_position
from presages_env.games.res_arcana.queries import (
    NODE_NAMES,
    PHASE_NAMES,
    current_seat,
    deck,
    discard_pile,
    display,
    essences_on,
    first_player,
    hand,
    in_play,
    is_turned,
    monument_deck,
    node_name,
    owner,
    passed,
    phase_name,
    places_available,
    pool,
    public_summary,
    render_text,
    round_number,
    supply_items,
    target_kind,
    victory_points,
    winners,
)

# Every name people and tests import from this module, wherever it is defined since the split
# (labels.py, queries.py, positions.py).
__all__ = [
    "ResArcanaGame",
    "observation_high",
    "play",
    "CLAIM_MONUMENT_TOP",
    "DONE",
    "DRAGON_IGNORE",
    "LOOK_MONUMENTS",
    "LOOK_OWN_DECK",
    "NO",
    "NODE_NAMES",
    "NUM_ACTIONS",
    "PASS",
    "PHASE_NAMES",
    "YES",
    "action_label",
    "claim_monument",
    "claim_place",
    "component",
    "current_seat",
    "deck",
    "discard",
    "discard_pile",
    "display",
    "essence",
    "essences_on",
    "first_player",
    "hand",
    "hidden_choice",
    "in_play",
    "is_turned",
    "legal_actions",
    "legal_labels",
    "monument_deck",
    "node_name",
    "order_action",
    "owner",
    "passed",
    "phase_name",
    "place",
    "places_available",
    "pool",
    "power",
    "render_text",
    "round_number",
    "seat_action",
    "setup_position",
    "supply_items",
    "target_kind",
    "victory_points",
    "winners",
]


class ResArcanaGame(Game):
    name = "res_arcana"
    title = "Res Arcana"
    game_id = 4
    min_players = 2
    max_players = 4
    default_players = 4
    obs_dtype = np.int8
    truncates_itself = True
    state_dtype = k.STATE_DTYPE
    layout_version = 3
    # 200 simulations won 92.5% of 100 games against the heuristic with heuristic rollouts,
    # 63.0% with random ones (2 players, docs/agents.md)
    search_rollouts = "heuristic"
    compile_seconds = 410  # a first run's compile (docs/speed.md)
    ships_checkpoint = True
    benchmarked = True

    def reward_bounds(self, num_players: int, options: ResArcanaOptions) -> RewardBounds:
        """+1 for the winner, a share of -1 for the others: zero-sum only up to float32
        rounding (-1/3 three times against +1), so declared general-sum."""
        return RewardBounds(-1.0, 1.0, zero_sum=False)

    def short_options(self, rng: np.random.Generator) -> dict[str, Any]:
        """A random step cap of 10 to 79: random games run to hundreds of decisions."""
        return {"step_cap": int(rng.integers(10, 80))}

    def position_counts(self) -> tuple[PositionCount, ...]:
        """A position's seed and the essence in seat 0's pool, up to what a game still
        going holds."""
        base = {"mages": ["Scholar", "Transmuter"], "items": ["Research", "Alchemy"]}
        return (
            PositionCount(
                "setup_position(seed=...)",
                lambda v: setup_position(2, **base, seed=v),
                0,
                SEED_MAX,
            ),
            PositionCount(
                "setup_position(pools[0].E)",
                lambda v: setup_position(2, **base, pools=[{"E": v}, {}]),
                0,
                lay.ESSENCE_CEILING,
            ),
        )

    def max_visible_events(self, num_players: int, options: ResArcanaOptions) -> int:
        """Every event of the longest episode bounds what one seat sees: the deal (90 at
        most), per decision its own events and the rest of its action (6 + 39), per round
        its end and its whole collect phase (6 + 51), with at most
        ``step_cap // num_players + 1`` rounds since every seat passes once a round, and a
        truncation (``event_kinds.max_episode_events``; the parts are derived in
        ``event_kinds._bounds`` from the card table). With the default ``step_cap`` of 5000:
        367,648 events for 2 players, 296,398 for 4."""
        return max_episode_events(num_players, int(options.step_cap))

    def obs_high(self, num_players: int) -> np.ndarray:
        """Upper bound of every observation entry (the lower bound is 0)."""
        return observation_high(num_players)

    # ---- reading a state ---------------------------------------------------------------
    def info_key(self, state: np.ndarray) -> bytes:
        """Changes whenever a VP total, a pool, the round or the end changes."""
        return public_summary(state).tobytes()

    def infos(self, state: np.ndarray) -> list[dict]:
        """Public facts per seat: its VP, its pool (``essences``: E, L, C, D, G counts), every
        seat's VP, the round, the winners and whether the step cap cut the game."""
        n = int(state[HDR_NUM_PLAYERS])
        summary = public_summary(state).tolist()
        points = summary[:n]
        terminal = summary[-1]
        won = winners(state) if terminal else []
        first = lay.MAX_PLAYERS
        return [
            {
                "vp": points[s],
                "essences": summary[first + 5 * s : first + 5 * s + 5],
                "victory_points": points,
                "round": summary[-2],
                "winners": won,
                "truncated": terminal == TRUNCATED,
            }
            for s in range(n)
        ]

    def result_summary(self, state: np.ndarray, totals: Sequence[float]) -> list[SeatResult]:
        """The winners first (the most victory points, ties broken by the rules), then the
        others by their victory points."""
        n = int(state[HDR_NUM_PLAYERS])
        points = public_summary(state)[:n].tolist()
        won = winners(state)
        places = places_by([(s in won, points[s]) for s in range(n)])
        return [SeatResult(s, places[s], counted(points[s], "victory point")) for s in range(n)]

    def action_label(self, state: np.ndarray, action: int) -> str:
        return action_label(state, int(action))

    def action_label_for(self, state: np.ndarray, action: int, seat: int) -> str:
        """The mage kept at setup and the order of cards put back on a deck are the
        chooser's secret; the others read that a choice was made. Every other move is
        public."""
        hidden = hidden_choice(state)
        if hidden is None or seat == current_seat(state):
            return self.action_label(state, action)
        return hidden

    def render(self, state: np.ndarray) -> str:
        return render_text(state)


def observation_high(num_players: int) -> np.ndarray:
    """Entry-wise maxima of the observation layout (``layout.py``, docs/res_arcana.md)."""
    n = num_players
    nc, cap = cd.NUM_COMPONENTS, 127
    high = np.zeros(lay.OBS_SIZE, dtype=np.int64)
    header = [n, n, lay.PHASE_OVER, lay.NUM_NODES - 1, n, n, n, cap, 1, cd.NUM_MONUMENTS]
    high[: len(header)] = header
    high[lay.OBS_MON_TOP : lay.OBS_MON_TOP + lay.LOOK_DEPTH] = cd.NUM_MONUMENTS
    high[lay.OBS_MY_TOP : lay.OBS_MY_TOP + lay.LOOK_DEPTH] = cd.NUM_ARTIFACTS
    high[lay.OBS_MY_MAGE_PICK] = cd.NUM_MAGES
    pending = {
        "ACT_KIND": lay.DO_PASS,
        "ACT_PLAYER": n,
        "ACT_COMP": nc,
        "ACT_POWER": cd.NUM_POWERS,
        "ACT_STAGE": lay.ST_FINISH,
        "ACT_TARGET": nc,
        "ACT_XTYPE": cd.NUM_ESSENCES,
        "ACT_COUNT": lay.LOOK_DEPTH,
        "PAY_PLAYER": n,
        "PAY_MASK": cd.ALL,
        "PAY_MIN": cd.NUM_ESSENCES - 1,
        "GAIN_PLAYER": n,
        "GAIN_MASK": cd.ALL,
        "GAIN_MIN": cd.NUM_ESSENCES - 1,
        "GAIN_DEST": nc,
        "GAIN_MODE": lay.GAIN_OR_GOLD,
        "TGT_KIND": lay.NUM_TARGET_KINDS - 1,
        "TGT_PLAYER": n,
        "TGT_CURSOR": nc,
        "CHECK_ACTIVE": lay.CHECK_MID_ROUND,
        "STATUE_USER": n,
        "LOOK_DECK": lay.LOOK_MONUMENTS,
        "LOOK_COUNT": lay.LOOK_DEPTH,
        "COL_K": n,
        "COL_STAGE": lay.COL_NEXT,
    }
    for i, field in enumerate(lay.PENDING_FIELDS):
        high[lay.OBS_PENDING + i] = pending.get(field, cap)
    seat = [
        1,
        cap,
        cap,
        cap,
        cap,
        cap,
        cap,
        cd.NUM_ARTIFACTS,
        lay.DECK_CAP,
        cd.NUM_ARTIFACTS,
        lay.LOOK_DEPTH,
        lay.LOOK_DEPTH,
        1,
        1,
    ]
    for s in range(n):
        base = lay.OBS_SEATS + s * lay.SEAT_FIELDS
        high[base : base + lay.SEAT_FIELDS] = seat
    planes = [lay.Z_BOX, n, 1] + [cap] * cd.NUM_ESSENCES
    for p, value in enumerate(planes):
        start = lay.OBS_COMPONENTS + p * nc
        high[start : start + nc] = value
    return high


def play(state: np.ndarray, *actions: int) -> np.ndarray:
    """Apply ``actions`` in order through the kernels; returns the summed rewards.

    An illegal action raises ``ValueError`` naming the decision and the legal actions with
    their labels; the state then holds every action before it, none of it.
    """
    return apply_actions(ResArcanaGame(), state, actions, _decision)


def _decision(state: np.ndarray) -> str:
    return f"at node {node_name(state)} (seat {current_seat(state)})"
