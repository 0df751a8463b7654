"""Présages: options, sizes, rendering, position set-up and queries around the rules kernel.

Actions (45, the same at every decision node; the mask selects):
``0..34`` card of value ``a + 1``; ``35..40`` seat ``a - 35``; ``41``/``42`` Law BELOW/ABOVE;
``43``/``44`` Secret SHOW (the holder shows one of their cards) / ASK (the target shows one).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from presages_env.core.card_face import card_face, face_name
from presages_env.core.events import seat_name
from presages_env.core.game import Game, PositionCount, RewardBounds
from presages_env.core.header import (
    HDR_CURRENT,
    HDR_NUM_PLAYERS,
    HDR_TERMINAL,
    seed_of,
    wide_slots,
    wide_value,
)
from presages_env.core.results import SeatResult, counted, places_by
from presages_env.core.state_io import apply_actions
from presages_env.core.validation import SEED_MAX, check_int
from presages_env.games.presages import card_text as card_words
from presages_env.games.presages import kernel as k
from presages_env.games.presages import validate as v
from presages_env.games.presages import view
from presages_env.games.presages.cards import LAST_ABSOLUTE, NUM_CARDS
from presages_env.games.presages.event_text import DIRECTION_NAMES, card_text, logged_text
from presages_env.games.presages.options import PresagesOptions
from presages_env.games.presages.positions import setup_position

CARD_ACTION_BASE = k.CARD_ACTION_BASE
SEAT_ACTION_BASE = k.SEAT_ACTION_BASE
LAW_BELOW = k.LAW_BELOW
LAW_ABOVE = k.LAW_ABOVE
SECRET_SHOW = k.SECRET_SHOW
SECRET_ASK = k.SECRET_ASK
NUM_ACTIONS = k.NUM_ACTIONS

NODE_NAMES = (
    "PLACE",
    "DREAM_DEST",
    "DREAM_REPLY",
    "LAW_DIR",
    "WRATH_PICK",
    "WRATH_REPLACE",
    "BETRAYAL_TAKE",
    "BETRAYAL_GIVE",
    "JEALOUSY_PICK",
    "SECRET_MODE",
    "SECRET_TARGET",
    "SECRET_CARD",
    "ABSOLUTE_TARGET",
    "ABSOLUTE_GIVE",
    "ABSOLUTE_RETURN",
    "LUCK_DISCARD",
    "GAME_OVER",
)


def card_action(value: int) -> int:
    """The action naming card ``value`` (1..35)."""
    return CARD_ACTION_BASE + check_int(value, "a card", 1, NUM_CARDS) - 1


def seat_action(seat: int) -> int:
    """The action naming ``seat`` (0..5)."""
    return SEAT_ACTION_BASE + check_int(seat, "a seat", 0, k.MAX_SEATS - 1)


_FLAG_SLOTS = {
    "pride_carries_into_next_round": k.OPT_PRIDE_CARRIES,
    "bout_winner_is_placer": k.OPT_WINNER_IS_PLACER,
    "dream_reply_resolved_by_target": k.OPT_DREAM_BY_TARGET,
    "betrayal_law_judged_before_take": k.OPT_BETRAYAL_LAW_FIRST,
    "reveal_all_hands_at_round_end": k.OPT_REVEAL_ALL,
}


_CARD_VERBS = {
    "PLACE": "place",
    "WRATH_REPLACE": "place",
    "DREAM_REPLY": "place in front of the Dream player",
    "BETRAYAL_GIVE": "give",
    "WRATH_PICK": "send back",
    "BETRAYAL_TAKE": "take",
    "JEALOUSY_PICK": "swap with",
    "SECRET_CARD": "show",
    "ABSOLUTE_GIVE": "give",
    "ABSOLUTE_RETURN": "give",
    "LUCK_DISCARD": "discard",
}
_SEAT_VERBS = {
    "DREAM_DEST": "Dream in front of",
    "SECRET_TARGET": "Secret with",
    "ABSOLUTE_TARGET": "exchange with",
}
# The decisions whose card only some seats see, as the others read them.
_HIDDEN_CHOICES = {
    "SECRET_CARD": "show a card",
    "ABSOLUTE_GIVE": "give a card",
    "ABSOLUTE_RETURN": "give a card",
}
_OTHER_LABELS = {
    LAW_BELOW: "Law: BELOW 15",
    LAW_ABOVE: "Law: ABOVE 15",
    SECRET_SHOW: "Secret: show one of my cards",
    SECRET_ASK: "Secret: ask to see one of theirs",
}


# Decision kinds (baselines/decision_attribution.py): the card placed in a bout, then each
# effect's choices, by the node the seat sees (the game-over node asks for nothing).
_KIND_OF_NODE = {
    "place a card": (k.NODE_PLACE,),
    "Dream (destination, reply)": (k.NODE_DREAM_DEST, k.NODE_DREAM_REPLY),
    "Law (direction)": (k.NODE_LAW_DIR,),
    "Wrath (pick, replace)": (k.NODE_WRATH_PICK, k.NODE_WRATH_REPLACE),
    "Betrayal (take, give)": (k.NODE_BETRAYAL_TAKE, k.NODE_BETRAYAL_GIVE),
    "Jealousy (pick)": (k.NODE_JEALOUSY_PICK,),
    "Secret (mode, target, card)": (k.NODE_SECRET_MODE, k.NODE_SECRET_TARGET, k.NODE_SECRET_CARD),
    "Absolu (target)": (k.NODE_ABSOLUTE_TARGET,),
    "Absolu (give, return)": (k.NODE_ABSOLUTE_GIVE, k.NODE_ABSOLUTE_RETURN),
    "Luck (discard)": (k.NODE_LUCK_DISCARD,),
}
_NODE_KINDS = np.zeros(k.NODE_GAME_OVER + 1, dtype=np.int64)
for _kind, _nodes in enumerate(_KIND_OF_NODE.values()):
    _NODE_KINDS[list(_nodes)] = _kind


# Rounds a game lasts at most: the teams + 1 (three teams at six players).
MAX_ROUNDS = k.MAX_TEAMS + 1


class PresagesGame(Game):
    name = "presages"
    title = "Présages"
    game_id = 2
    min_players = 4
    max_players = 6
    default_players = 4
    obs_dtype = np.int8
    state_dtype = k.STATE_DTYPE
    layout_version = 3
    compile_seconds = 230  # a first run's compile (docs/speed.md)
    ships_checkpoint = True
    benchmarked = True
    decision_kinds = tuple(_KIND_OF_NODE)

    def reward_bounds(self, num_players: int, options: PresagesOptions) -> RewardBounds:
        """±1 at the end and ±``round_reward`` per round, over at most ``MAX_ROUNDS``
        rounds. Zero-sum only with two equal teams (4 players): at 5 the teams differ in
        size, at 6 there are three."""
        bound = 1.0 + MAX_ROUNDS * float(options.round_reward)
        return RewardBounds(-bound, bound, zero_sum=num_players == 4)

    def position_counts(self) -> tuple[PositionCount, ...]:
        """A bout's seed and its starter."""
        hands = [[30, 1, 2], [31, 3, 4], [32, 5, 6], [33, 7, 8]]
        return (
            PositionCount(
                "setup_position(seed=...)",
                lambda v: setup_position(4, hands, starter=0, seed=v),
                0,
                SEED_MAX,
            ),
            PositionCount("setup_position(starter)", lambda v: setup_position(4, hands, v), 0, 3),
        )

    def decision_kind(self, obs: np.ndarray) -> np.ndarray:
        return _NODE_KINDS[np.clip(obs[:, k.OBS_NODE], 0, k.NODE_GAME_OVER)]

    def write_options(self, state: np.ndarray, options: PresagesOptions) -> None:
        for name, slot in _FLAG_SLOTS.items():
            state[slot] = int(bool(getattr(options, name)))
        milli = round(options.round_reward * 1000)
        end = k.OPT_ROUND_REWARD_MILLI + k.ROUND_REWARD_SLOTS
        state[k.OPT_ROUND_REWARD_MILLI : end] = wide_slots(milli, k.ROUND_REWARD_SLOTS)

    def read_options(self, state: np.ndarray) -> PresagesOptions:
        flags = {name: bool(state[slot]) for name, slot in _FLAG_SLOTS.items()}
        milli = wide_value(state, k.OPT_ROUND_REWARD_MILLI, k.ROUND_REWARD_SLOTS)
        return PresagesOptions(**flags, round_reward=milli / 1000)

    def max_visible_events(self, num_players: int, options: PresagesOptions) -> int:
        """An upper bound on the events one seat sees in a game, from ``reset`` or from any
        position ``setup_position`` builds (the options change no count).

        Rounds: at most one per team plus one (each team but the winner holds at most one
        laurel). Bouts of a round: every bout discards at least its winning card from the
        cards held, and a bout starts only while every hand holds 2, so a round dealing
        ``T`` cards has at most ``T - 2n + 1`` bouts (``T`` = 20, 23, 24 at 4, 5, 6 players;
        35 for the round a set-up position starts in).

        Placements from hand in one bout: at most ``n + 3``. Each fills a seat's empty place;
        besides the ``n`` empty at the start, places empty mid-bout only by Wrath's pick
        (refilled by the victim), Betrayal's take (refilled by its gift) and Dream's move
        (refilled by the reply, Dream itself moved, not placed). Wrath is placed at most
        once: it leaves play only when Betrayal takes it, into the hand of Betrayal's
        resolver, who has a card in front. A seat with a card in front never places, and a
        hand card reaches another hand only through an Absolu exchange, to or from its
        actor, who has a card in front too; Wrath's holder would have to become an actor,
        i.e. see its card lifted and an Absolu given in its place by a further Betrayal
        take, which needs Betrayal back in a hand, which only Wrath's pick does, and Wrath
        is in hand. Betrayal returns to a hand only through Wrath's one pick, so it is
        placed at most twice. Hence at most 1 pick + 2 takes.

        Events a seat sees per bout: bout_start; per placement the place and at most 5 for
        its ⚡ (an Absolu: target, commit, the committed card, the swap and its cards; a
        Secret 4, other ⚡ 1); bout_won, one discarded/returned per seat; a Luck discard:
        ``1 + 6(n + 3) + 1 + n + 1``. Per round besides bouts: round_start, at most 5 cards
        dealt to the seat, at most ``T`` cards revealed, round_won. Once: n face-up Absolus
        and game_won.
        """
        n = num_players
        teams = len(v.TEAM_SIZES[n])
        dealt = sum(int(k.hand_size_for(n, size)) * size for size in v.TEAM_SIZES[n])
        per_bout = 1 + 6 * (n + 3) + 1 + n + 1
        first = 1 + 5 + (NUM_CARDS - 2 * n + 1) * per_bout + NUM_CARDS + 1
        later = 1 + 5 + (dealt - 2 * n + 1) * per_bout + dealt + 1
        return n + first + teams * later + 1

    def obs_high(self, num_players: int) -> np.ndarray:
        """Highest value of each entry over every state ``validate_state`` accepts (all that
        play or ``setup_position`` reach): what agents accept, since the heuristic reads
        entries as indices. Seat+1 entries stop at the player count; unused seats, teams and
        pairs are 0."""
        n = num_players
        teams = len(v.TEAM_SIZES[n])
        high = np.zeros(k.OBS_SIZE, dtype=np.int64)
        high[k.OBS_ME : k.OBS_EFFECT + 1] = n  # seat+1 (or the count) unless set below
        high[k.OBS_ROUND] = v.MAX_ROUND
        high[k.OBS_BOUT] = v.MAX_BOUT
        high[k.OBS_NODE] = k.NODE_GAME_OVER
        high[k.OBS_LAW_DIR] = k.DIR_ABOVE
        high[[k.OBS_BLOCKED, k.OBS_TAKEN, k.OBS_ABS_MY_GIVEN, k.OBS_EFFECT]] = NUM_CARDS
        high[k.OBS_SECRET_MODE] = k.MODE_ASK
        high[k.OBS_WINNING_TEAM] = teams
        high[k.OBS_HAND_COUNTS : k.OBS_HAND_COUNTS + n] = NUM_CARDS
        high[k.OBS_TEAMS : k.OBS_TEAMS + n] = teams
        high[k.OBS_START_ABSOLU : k.OBS_START_ABSOLU + n] = LAST_ABSOLUTE
        high[k.OBS_FRONT : k.OBS_FRONT + n] = NUM_CARDS
        high[k.OBS_ROUNDS_WON : k.OBS_ROUNDS_WON + teams] = 2  # 2 ends the game
        # events between two seats this round: up to LOG_CAP a bout, observed clipped to int8
        most_pairs = min(k.LOG_CAP * v.MAX_BOUT, np.iinfo(self.obs_dtype).max)
        pairs = [a * k.MAX_SEATS + b for a in range(n) for b in range(n) if a != b]
        high[np.add.outer([k.OBS_ABS_PAIRS, k.OBS_SECRET_PAIRS], pairs)] = most_pairs
        plane_high = np.full(k.NUM_PLANES, n)  # seat+1 but where set below
        plane_high[k.PLANE_MY_HAND] = 1
        plane_high[k.PLANE_ZONE] = k.ZONE_BOX
        plane_high[k.PLANE_DISC_ORDER] = NUM_CARDS
        plane_high[[k.PLANE_DISC_BOUT, k.PLANE_LAST_HAND_BOUT]] = v.MAX_BOUT
        plane_high[k.PLANE_DISC_KIND] = k.KIND_LUCK
        high[k.OBS_PLANES : k.OBS_LOG] = np.repeat(plane_high, NUM_CARDS)
        # events (kind, a, b, card): a and b are seat+1 (b is Law's direction, at most 2)
        high[k.OBS_LOG :] = np.tile([k.EV_LUCK, n, n, NUM_CARDS], 2 * k.LOG_CAP)
        return high

    def obs_low(self, num_players: int) -> np.ndarray:
        """Lowest value of each entry (see :meth:`obs_high`): 0 but for the player count, the
        round and bout numbers, the bout starter + 1 and the seated players' teams + 1."""
        low = np.zeros(k.OBS_SIZE, dtype=np.int64)
        low[k.OBS_NUM_PLAYERS] = num_players
        low[[k.OBS_ROUND, k.OBS_BOUT, k.OBS_BOUT_STARTER]] = 1
        low[k.OBS_TEAMS : k.OBS_TEAMS + num_players] = 1
        return low

    # ---- reading a state ---------------------------------------------------------------
    def teams(self, state: np.ndarray) -> np.ndarray:
        """Team of each seat, as dealt (teams come from the face-up Absolus of round 1)."""
        return np.asarray(teams(state), dtype=np.int64)

    def info_key(self, state: np.ndarray) -> tuple[int, int, int]:
        return int(state[k.ROUND]), int(state[k.BOUT]), int(state[HDR_TERMINAL])

    def infos(self, state: np.ndarray) -> list[dict]:
        """Public facts, the same for every seat, plus the seat's own team."""
        n = int(state[HDR_NUM_PLAYERS])
        public = {
            "round": round_number(state),
            "bout": int(state[k.BOUT]),
            "teams": teams(state),
            "rounds_won": rounds_won(state),
            "last_round_winner": last_round_winner(state),
            "winning_team": winning_team(state),
        }
        return [dict(public, team=public["teams"][p]) for p in range(n)]

    def result_summary(self, state: np.ndarray, totals: Sequence[float]) -> list[SeatResult]:
        """The winning team's seats first, then the others by their team's rounds won; the
        score is the team's rounds won (its laurels)."""
        team, won = teams(state), rounds_won(state)
        winner = winning_team(state)
        places = places_by([(team[s] == winner, won[team[s]]) for s in range(len(team))])
        return [
            SeatResult(s, places[s], f"team {team[s]}, {counted(won[team[s]], 'round')} won")
            for s in range(len(team))
        ]

    def action_label(self, state: np.ndarray, action: int) -> str:
        node = node_name(state)
        if 0 <= action < SEAT_ACTION_BASE:
            return f"{_CARD_VERBS.get(node, 'card')} {card_text(action + 1, colour=False)}"
        if SEAT_ACTION_BASE <= action < LAW_BELOW:
            return f"{_SEAT_VERBS.get(node, 'seat')} {seat_name(action - SEAT_ACTION_BASE)}"
        return _OTHER_LABELS.get(int(action), str(action))

    def action_label_for(self, state: np.ndarray, action: int, seat: int) -> str:
        """A card shown by Le Secret or exchanged by L'Absolu is named only to the seats that
        see it (:func:`seats_seeing_choice`); the others read that a card was chosen."""
        seers = seats_seeing_choice(state)
        if seers is None or seat in seers:
            return self.action_label(state, action)
        return _HIDDEN_CHOICES[node_name(state)]

    def card_face(self, label: str) -> dict[str, Any]:
        """The generic face, coloured from the cards table."""
        return card_face(self, label, colour=card_words.card_colour(face_name(label)))

    def render(self, state: np.ndarray) -> str:
        return render_text(state, colour=True)


# =========================================================================================
# rendering
# =========================================================================================
def _log_lines(state: np.ndarray, base: int, length: int, colour: bool) -> list[str]:
    lines = []
    for i in range(int(state[length])):
        kind, a, b, card = (int(x) for x in state[base + 4 * i : base + 4 * i + 4])
        lines.append("    " + logged_text(kind, a, b, card, colour))
    return lines


def _last_table_text(state: np.ndarray, colour: bool) -> str:
    """Where each card of the last finished bout went: the pile or back to its holder."""
    parts = []
    for s in range(_n(state)):
        card = int(state[k.LAST_TABLE + s])
        where = "discarded" if card < 0 else f"back to {seat_name(s)}"
        parts.append(f"{card_text(abs(card), colour)} {where}")
    return "last bout ended: " + ", ".join(parts)


def render_text(state: np.ndarray, colour: bool = True) -> str:
    """A picture of the whole state for people (it shows every hand)."""
    n = int(state[HDR_NUM_PLAYERS])
    team_of = teams(state)
    laurels = rounds_won(state)
    team_names = [
        f"team {t} ({', '.join(seat_name(s) for s in range(n) if team_of[s] == t)})"
        + " ★" * laurels[t]
        for t in range(int(state[k.NUM_TEAMS]))
    ]
    lines = [
        f"Présages — {n} players, seed {seed_of(state)}, round {round_number(state)}, "
        f"bout {int(state[k.BOUT])}",
        "  " + " | ".join(team_names),
    ]
    direction = law_direction(state)
    if direction:
        lines.append(f"  La Loi in play: {DIRECTION_NAMES[direction]}")
    front = in_front(state)
    current = current_seat(state)
    for s in range(n):
        marker = ">" if s == current else " "
        starter = " (starter)" if s == bout_starter(state) and not state[HDR_TERMINAL] else ""
        table = card_text(front[s], colour) if front[s] else "-"
        cards = " ".join(card_text(c, colour) for c in hand(state, s))
        lines.append(
            f"{marker} {seat_name(s)} team {team_of[s]}{starter}: in front: {table}\n"
            f"      hand ({len(hand(state, s))}): {cards}"
        )
    if state[k.PREV_LOG_LEN]:
        lines.append("  previous bout:")
        lines += _log_lines(state, k.PREV_LOG, k.PREV_LOG_LEN, colour)
    if state[k.LAST_TABLE : k.LAST_TABLE + n].any():
        lines.append("  " + _last_table_text(state, colour))
    if state[k.LOG_LEN]:
        lines.append("  this bout:")
        lines += _log_lines(state, k.LOG, k.LOG_LEN, colour)
    pile = discard_pile(state)
    lines.append(f"  discard pile ({len(pile)}): " + " ".join(card_text(c, colour) for c in pile))
    if last_round_winner(state) >= 0:
        shown = ", ".join(
            f"{seat_name(int(state[k.REVEAL + c]) - 1)} {card_text(c, colour)}"
            for c in range(1, NUM_CARDS + 1)
            if state[k.REVEAL + c]
        )
        lines.append(
            f"  last round won by {seat_name(last_round_winner(state))} for their team; "
            f"hands shown at its end: {shown or 'none (0 cards)'}"
        )
    if state[HDR_TERMINAL]:
        lines.append(f"  game over: team {winning_team(state)} wins")
    else:
        lines.append("  " + view.state_view(state).status[-1])  # "now: P1 to choose ..."
    return "\n".join(lines)


# =========================================================================================
# read-only queries
# =========================================================================================
def _n(state: np.ndarray) -> int:
    return int(state[HDR_NUM_PLAYERS])


def hand(state: np.ndarray, seat: int) -> list[int]:
    """Cards in ``seat``'s hand, ascending."""
    return [c for c in range(1, NUM_CARDS + 1) if state[k.LOC + c] == seat]


def hand_sizes(state: np.ndarray) -> list[int]:
    return [int(x) for x in state[k.HAND_COUNT : k.HAND_COUNT + _n(state)]]


def in_front(state: np.ndarray) -> list[int]:
    """Card lying in front of each seat (0 if none)."""
    return [int(x) for x in state[k.FRONT : k.FRONT + _n(state)]]


def discard_pile(state: np.ndarray) -> list[int]:
    """Cards discarded this round, in order (a bout's winning card first)."""
    return [int(x) for x in state[k.DISCARD_LIST : k.DISCARD_LIST + int(state[k.DISCARD_COUNT])]]


def set_aside_cards(state: np.ndarray) -> list[int]:
    return [c for c in range(1, NUM_CARDS + 1) if state[k.LOC + c] == k.LOC_ASIDE]


def box_cards(state: np.ndarray) -> list[int]:
    """Cards out of the whole game (the Absolus not dealt at 4-5 players)."""
    return [c for c in range(1, NUM_CARDS + 1) if state[k.LOC + c] == k.LOC_BOX]


def node_name(state: np.ndarray) -> str:
    return NODE_NAMES[int(state[k.NODE])]


def seats_seeing_choice(state: np.ndarray) -> tuple[int, ...] | None:
    """The seats that see which card the pending decision chooses, or None when everyone
    does: Le Secret's card goes to its other seat only, L'Absolu's first card is committed
    face down, and the exchange it completes is shown to its two seats (the kernel's events
    say the same)."""
    node, actor = node_name(state), current_seat(state)
    if node == "SECRET_CARD":
        holder = int(state[k.SECRET_HOLDER])
        return actor, int(state[k.SECRET_PARTNER]) if actor == holder else holder
    if node == "ABSOLUTE_GIVE":
        return (actor,)
    if node == "ABSOLUTE_RETURN":
        return actor, int(state[k.ABS_ACTOR])
    return None


def current_seat(state: np.ndarray) -> int:
    return int(state[HDR_CURRENT])


def teams(state: np.ndarray) -> list[int]:
    return [int(x) for x in state[k.TEAM : k.TEAM + _n(state)]]


def rounds_won(state: np.ndarray) -> list[int]:
    """Laurels of each team."""
    return [int(x) for x in state[k.ROUNDS_WON : k.ROUNDS_WON + int(state[k.NUM_TEAMS])]]


def round_number(state: np.ndarray) -> int:
    return int(state[k.ROUND])


def bout_starter(state: np.ndarray) -> int:
    return int(state[k.BOUT_STARTER])


def last_bout_winner(state: np.ndarray) -> int:
    """Winner of the last finished bout of this round (-1 if none yet)."""
    return int(state[k.LAST_BOUT_WINNER])


def last_round_winner(state: np.ndarray) -> int:
    """Seat that won the last finished round for its team (-1 if none yet)."""
    return int(state[k.LAST_ROUND_WINNER])


def winning_team(state: np.ndarray) -> int:
    return int(state[k.WINNING_TEAM])


def law_direction(state: np.ndarray) -> int:
    """0 none, 1 BELOW, 2 ABOVE: the direction binding placements now."""
    return int(k.binding_direction(state))


def last_round_end_hands(state: np.ndarray) -> list[list[int]]:
    """Every seat's hand when the last round ended (empty lists if no round ended yet)."""
    if last_round_winner(state) < 0:
        return [[] for _ in range(_n(state))]
    return [
        [c for c in range(1, NUM_CARDS + 1) if state[k.END_LOC + c] == s] for s in range(_n(state))
    ]


def last_round_discard(state: np.ndarray) -> list[int]:
    """Discard pile of the last finished round, in order."""
    count = int(state[k.LAST_DISCARD_COUNT])
    return [int(x) for x in state[k.LAST_DISCARD_LIST : k.LAST_DISCARD_LIST + count]]


def legal_actions(state: np.ndarray) -> list[int]:
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    k.legal_mask(state, mask)
    return [int(a) for a in np.flatnonzero(mask)]


def play(state: np.ndarray, *actions: int) -> np.ndarray:
    """Apply ``actions`` in order through the kernels; returns the summed rewards.

    An illegal action raises ``ValueError`` (a non-int ``TypeError``) naming the decision
    node and the legal actions; the state then holds every action before it, none of it.
    """
    return apply_actions(PresagesGame(), state, actions, _decision)


def _decision(state: np.ndarray) -> str:
    return f"at node {node_name(state)} (seat {current_seat(state)})"
