"""Validation of a Présages state from outside: every slot of the layout in ``kernel.py``.

The kernels index arrays with the cards, seats and counters they read from the state, so a
state is accepted only if the rules could have left it (``reset`` or ``setup_position``, then
legal play; a search world of ``sample_world`` too), as far as the state itself can tell,
and the rules keep every accepted state accepted after any legal action (each bound below
is one the kernel maintains, not only one it starts from). The first bad slot is reported
by its layout name. Checked, in this order:

- options: flags 0/1; the round reward, a wide field of ROUND_REWARD_SLOTS byte slots (see
  :mod:`presages_env.core.header`), each slot a byte and the value 0..1000 thousandths;
- teams: NUM_TEAMS and the TEAM sizes of the player count; laurels (ROUNDS_WON) 0/1, a 2 only
  for the WINNING_TEAM of a finished game; START_ABSOLU none, or one distinct Absolu per seat
  that formed the teams;
- cards: LOC names a place at this table (entry 0 as reset or setup_position leave it), FRONT
  and HAND_COUNT agree with LOC, enough cards are out of the box for the next deal;
- counters: NODE (GAME_OVER iff terminal); ROUND from 1 to setup_position's last plus one
  per laurel still to win; BOUT, BOUT_STARTER, LAST_BOUT_WINNER, NEXT_STARTER, PRIDE_LEFT,
  LAST_ROUND_WINNER in range and agreeing on whether a bout ended;
- discards: DISCARD_COUNT/LIST hold exactly the discarded cards; DISC_ORDER/BOUT/SEAT/KIND
  describe them (each finished bout of the round: its winning card first, Luck's discard
  last, after Luck itself) and are 0 for every other card;
- pair counts and private memories: ABS_PAIRS/SECRET_PAIRS only between two seats, at most
  PAIR_COUNT_MAX (where the kernel stops counting), and no more remembered cards (SEEN_FROM,
  SHOWN_TO, ABS_RECV, ABS_GAVE) than exchanges;
- knowledge: EXCLUDED rows only for the seats at the table and the public, for hidden cards
  only, bits of the table's places only, and never the place where a hidden card is; every
  seat's row knows what the public row knows (but its own hand's bit), so that a search
  world, which keeps the seat's row and gives the others the public one, is accepted too;
- per-card records: PLACER for cards in play only; LAST_HAND_SEAT/BOUT for cards still in that
  hand (or moved on by an Absolu exchange), bout 0 only for a face-up Absolu; while that seat
  has made no exchange, the public row knows the card is there;
- the pending node: every pending slot (EFFECT, LAW_DIR, GIVE_LAW_DIR, BLOCKED, VICTIM, TAKEN,
  DREAM_PLAYER, SECRET_*, ABS_*, LUCK_HOLDER) holds what the kernel leaves at NODE, HDR_CURRENT
  is the seat it asks there, and the cards the node names are where it needs them (Luck's
  holder has a card other than Fear to discard), known there as the kernel told everyone
  (the card Wrath returned or Betrayal took is publicly in that hand; a one-card Luck holder
  publicly holds no Fear);
- hands: during a bout every hand holds a card and every seat still to place two (each bout
  starts with at least two per hand), so no decision can run out of legal actions;
- logs: LOG_LEN/PREV_LOG_LEN within LOG_CAP, events in range, zeros after them; replaying a
  bout's log from an empty table gives FRONT and PLACER, the hands the bout started with, the
  decision just asked, the bout end (winning card, winner, next starter, discards, Luck), and
  the pair counts: the logged Secrets and Absolus, plus at most LOG_CAP per unlogged bout;
- the last bout and round: LAST_TABLE is a full table negated where the rules discard, as the
  pile, PRIDE_LEFT and the starters say; END_LOC, REVEAL and LAST_DISCARD_* are the end of the
  last round (END_LOC may be cleared, as ``sample_world`` does);
- DECK: card values out of the box, none twice, 0 past the number of cards in use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from presages_env.core.decisions import seat_relation
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.core.validation import SlotReader
from presages_env.games.presages import kernel as k
from presages_env.games.presages.cards import (
    BETRAYAL,
    DREAM,
    FEAR,
    FIRST_ABSOLUTE,
    JEALOUSY,
    LAST_ABSOLUTE,
    LAW,
    LUCK,
    MIRROR,
    NUM_CARDS,
    PRIDE,
    SADNESS,
    SECRET,
    WRATH,
)

MAX_SETUP_ROUND = 100  # the highest round ``setup_position`` starts
MAX_ROUND = MAX_SETUP_ROUND + k.MAX_TEAMS  # each later round gives a team its one laurel
MAX_BOUT = NUM_CARDS + 1  # every finished bout discards its winning card
MAX_ROUND_REWARD_MILLI = 1000  # round_reward 1.0, in thousandths
TEAM_SIZES = {4: [2, 2], 5: [2, 3], 6: [2, 2, 2]}
CARDS = range(1, NUM_CARDS + 1)
SEATS = range(k.MAX_SEATS)
ABSOLUS = tuple(range(FIRST_ABSOLUTE, LAST_ABSOLUTE + 1))
Event = tuple[int, int, int, int]  # kind, a, b, card

_FLAGS = (
    ("OPT_PRIDE_CARRIES", k.OPT_PRIDE_CARRIES),
    ("OPT_WINNER_IS_PLACER", k.OPT_WINNER_IS_PLACER),
    ("OPT_DREAM_BY_TARGET", k.OPT_DREAM_BY_TARGET),
    ("OPT_BETRAYAL_LAW_FIRST", k.OPT_BETRAYAL_LAW_FIRST),
    ("OPT_REVEAL_ALL", k.OPT_REVEAL_ALL),
)
# pending slots: name, offset, value when nothing is pending (also the lowest), highest
# (None: a seat of this table)
_PENDING = (
    ("EFFECT", k.EFFECT, 0, NUM_CARDS),
    ("GIVE_LAW_DIR", k.GIVE_LAW_DIR, k.DIR_NONE, k.DIR_ABOVE),
    ("BLOCKED", k.BLOCKED, 0, NUM_CARDS),
    ("VICTIM", k.VICTIM, -1, None),
    ("TAKEN", k.TAKEN, 0, NUM_CARDS),
    ("DREAM_PLAYER", k.DREAM_PLAYER, -1, None),
    ("SECRET_HOLDER", k.SECRET_HOLDER, -1, None),
    ("SECRET_MODE", k.SECRET_MODE, 0, k.MODE_ASK),
    ("SECRET_PARTNER", k.SECRET_PARTNER, -1, None),
    ("ABS_ACTOR", k.ABS_ACTOR, -1, None),
    ("ABS_TARGET", k.ABS_TARGET, -1, None),
    ("ABS_GIVEN", k.ABS_GIVEN, 0, NUM_CARDS),
    ("LUCK_HOLDER", k.LUCK_HOLDER, -1, None),
)
_SECRET = ("EFFECT", "SECRET_HOLDER")
_ABSOLU = ("EFFECT", "ABS_ACTOR")
# the pending slots each node reads; every other one is cleared ...
_USES = {
    k.NODE_PLACE: (),
    k.NODE_DREAM_DEST: ("EFFECT",),
    k.NODE_DREAM_REPLY: ("DREAM_PLAYER",),
    k.NODE_LAW_DIR: ("EFFECT",),
    k.NODE_WRATH_PICK: ("EFFECT",),
    k.NODE_WRATH_REPLACE: ("BLOCKED", "VICTIM"),
    k.NODE_BETRAYAL_TAKE: ("EFFECT",),
    k.NODE_BETRAYAL_GIVE: ("TAKEN", "VICTIM", "GIVE_LAW_DIR"),
    k.NODE_JEALOUSY_PICK: ("EFFECT",),
    k.NODE_SECRET_MODE: _SECRET,
    k.NODE_SECRET_TARGET: (*_SECRET, "SECRET_MODE"),
    k.NODE_SECRET_CARD: (*_SECRET, "SECRET_MODE", "SECRET_PARTNER"),
    k.NODE_ABSOLUTE_TARGET: _ABSOLU,
    k.NODE_ABSOLUTE_GIVE: (*_ABSOLU, "ABS_TARGET"),
    k.NODE_ABSOLUTE_RETURN: (*_ABSOLU, "ABS_TARGET", "ABS_GIVEN"),
    k.NODE_LUCK_DISCARD: ("LUCK_HOLDER",),
    k.NODE_GAME_OVER: (),
}
# ... but these two, which a ⚡ chain (Wrath, Betrayal) leaves until the next PLACE
_CHAIN_LEFTOVERS = ("VICTIM", "GIVE_LAW_DIR")
_SETTLED_NODES = (k.NODE_PLACE, k.NODE_LUCK_DISCARD, k.NODE_GAME_OVER)
_ENDED_NODES = (k.NODE_LUCK_DISCARD, k.NODE_GAME_OVER)  # the bout has just ended
# the ⚡ card whose choice each node is
_EFFECT_OF = {
    k.NODE_DREAM_DEST: (DREAM,),
    k.NODE_LAW_DIR: (LAW,),
    k.NODE_WRATH_PICK: (WRATH,),
    k.NODE_BETRAYAL_TAKE: (BETRAYAL,),
    k.NODE_JEALOUSY_PICK: (JEALOUSY,),
    k.NODE_SECRET_MODE: (SECRET,),
    k.NODE_SECRET_TARGET: (SECRET,),
    k.NODE_SECRET_CARD: (SECRET,),
    k.NODE_ABSOLUTE_TARGET: ABSOLUS,
    k.NODE_ABSOLUTE_GIVE: ABSOLUS,
    k.NODE_ABSOLUTE_RETURN: ABSOLUS,
}
_PICK_NODES = (k.NODE_WRATH_PICK, k.NODE_BETRAYAL_TAKE, k.NODE_JEALOUSY_PICK)
_SECRET_NODES = (k.NODE_SECRET_MODE, k.NODE_SECRET_TARGET, k.NODE_SECRET_CARD)
_NODE_NAMES = {v: name[5:] for name, v in vars(k).items() if name.startswith("NODE_")}
_PICKER = {k.EV_WRATH: WRATH, k.EV_BETRAYAL: BETRAYAL, k.EV_JEALOUSY: JEALOUSY}
# flat indices a * MAX_SEATS + b of the pair counts between two seats at an n-seat table
_PAIRS = {n: {a * k.MAX_SEATS + b for a in range(n) for b in range(n) if a != b} for n in (4, 5, 6)}


def validate_state(state: np.ndarray) -> None:
    """Raise :class:`~presages_env.core.validation.InvalidStateError` for the first bad slot.

    The header is already known to be sound (see :mod:`presages_env.core.validation`).
    """
    _Check(state).run()


@dataclass
class _BoutLog:
    """One bout's log (LOG or PREV_LOG), replayed from the empty table a bout starts with."""

    name: str
    events: list[Event]
    complete: bool  # under LOG_CAP: no event can have been dropped
    table: list[int] = field(default_factory=list)  # after the last event
    end_table: list[int] = field(default_factory=list)  # at EV_BOUT_END
    bout_end: int = -1  # index of EV_BOUT_END
    luck: int = -1  # index of EV_LUCK
    placer: dict[int, int] = field(default_factory=dict)  # card -> seat + 1 that placed it
    placed_by: list[int] = field(default_factory=lambda: [0] * k.MAX_SEATS)  # from own hand
    lifted_into: list[int] = field(default_factory=lambda: [0] * k.MAX_SEATS)  # back to hand
    exchanges: dict[tuple[int, int, int], int] = field(default_factory=dict)  # (kind, a, b)


class _Check:
    """One state's slots, checked concern by concern; each step relies on the earlier ones."""

    def __init__(self, state: np.ndarray) -> None:
        self.r = SlotReader(state)
        self.v = self.r.values
        self.n = self.v[HDR_NUM_PLAYERS]
        self.terminal = self.v[HDR_TERMINAL] == 1
        self.current = self.v[HDR_CURRENT]
        self.places = (1 << self.n) - 1 | k.ASIDE_BIT  # EXCLUDED's bits at this table

    def run(self) -> None:
        self.options()
        self.teams()
        self.cards()
        self.counters()
        self.discards()
        self.pairs_and_memories()
        self.knowledge()
        self.card_records()
        self.pending_node()
        self.hands()
        self.logs()
        self.last_table()
        self.last_round()
        self.deck()

    # ---- reading slots (names and messages are only built for an error) -------------------
    def fail(self, name: str, value: object, reason: str) -> None:
        self.r.fail(name, value, reason)

    def entry(self, name: str, i: int, offset: int, low: int, high: int) -> int:
        """``name[i]``, at ``offset + i``, in ``[low, high]``."""
        value = self.v[offset + i]
        if not low <= value <= high:
            self.r.one(f"{name}[{i}]", offset + i, low, high)
        return value

    def span(self, name: str, offset: int, count: int, low: int, high: int) -> list[int]:
        """``name[0..count)``, each in ``[low, high]``."""
        values = self.v[offset : offset + count]
        if values and (min(values) < low or max(values) > high):
            self.r.many(name, offset, count, low, high)
        return values

    def zeros(self, name: str, offset: int, start: int, stop: int) -> None:
        """Entries ``start..stop`` that are unused at this table (sized for the largest)."""
        if any(self.v[offset + start : offset + stop]):
            for i in range(start, stop):
                self.entry(name, i, offset, 0, 0)

    def seat(self, name: str, offset: int, none: bool = False) -> int:
        """A seat of this table (or -1, "none", if ``none``)."""
        return self.r.one(name, offset, -1 if none else 0, self.n - 1)

    def in_play(self, card: int) -> bool:
        return self.playing[card]

    def holder(self, card: int) -> int:
        return self.loc[card] - k.LOC_FRONT

    def hidden(self, card: int) -> bool:
        """In a hand or set aside: where only EXCLUDED says what a seat knows of it."""
        return self.loc[card] < self.n or self.loc[card] == k.LOC_ASIDE

    # ---- options, teams, cards --------------------------------------------------------------
    def options(self) -> None:
        for name, offset in _FLAGS:
            self.r.one(name, offset, 0, 1)
        # a wide field: every byte slot, then the value they hold together
        self.r.wide(
            "OPT_ROUND_REWARD_MILLI",
            k.OPT_ROUND_REWARD_MILLI,
            k.ROUND_REWARD_SLOTS,
            0,
            MAX_ROUND_REWARD_MILLI,
        )

    def teams(self) -> None:
        r, n = self.r, self.n
        self.num_teams = teams = 3 if n == 6 else 2
        r.one_of("NUM_TEAMS", k.NUM_TEAMS, (teams,))
        self.team = self.span("TEAM", k.TEAM, n, 0, teams - 1)
        self.zeros("TEAM", k.TEAM, n, k.MAX_SEATS)
        sizes = sorted(self.team.count(t) for t in range(teams))
        r.require(sizes == TEAM_SIZES[n], "TEAM", self.team, f"sizes must be {TEAM_SIZES[n]}")
        winner = -1
        if self.terminal:
            winner = r.one("WINNING_TEAM", k.WINNING_TEAM, 0, teams - 1)
        r.one("WINNING_TEAM", k.WINNING_TEAM, winner, winner)
        self.winning_team = winner
        self.laurels = [
            self.entry("ROUNDS_WON", t, k.ROUNDS_WON, 2 * (t == winner), 1 + (t == winner))
            for t in range(teams)
        ]
        self.zeros("ROUNDS_WON", k.ROUNDS_WON, teams, k.MAX_TEAMS)
        self.start_absolus()

    def start_absolus(self) -> None:
        """None (teams given by hand), or one distinct Absolu per seat, which formed the teams."""
        r, n = self.r, self.n
        self.zeros("START_ABSOLU", k.START_ABSOLU, n, k.MAX_SEATS)
        dealt = self.v[k.START_ABSOLU : k.START_ABSOLU + n]
        if not any(dealt):
            return
        self.span("START_ABSOLU", k.START_ABSOLU, n, FIRST_ABSOLUTE, LAST_ABSOLUTE)
        r.require(len(set(dealt)) == n, "START_ABSOLU", dealt, "an Absolu dealt twice")
        if n == 6:
            formed = [min(a - FIRST_ABSOLUTE, LAST_ABSOLUTE - a) for a in dealt]
        else:
            pair = (dealt.index(max(dealt)), dealt.index(min(dealt)))
            formed = [0 if s in pair else 1 for s in range(n)]
        r.require(formed == self.team, "TEAM", self.team, f"START_ABSOLU {dealt} form {formed}")

    def cards(self) -> None:
        r, n = self.r, self.n
        r.one_of("LOC[0]", k.LOC, (0, k.LOC_BOX))
        places = {*range(n), *range(k.LOC_FRONT, k.LOC_FRONT + n)}
        places |= {k.LOC_DISCARD, k.LOC_ASIDE, k.LOC_BOX}
        self.loc = loc = self.v[k.LOC : k.LOC + k.CARD_SLOTS]
        self.playing = [k.LOC_FRONT <= place < k.LOC_FRONT + n for place in loc]
        self.playing[0] = False
        for c in CARDS:
            if loc[c] not in places:
                self.fail(f"LOC[{c}]", loc[c], f"must be one of {sorted(places)}")
        self.front = front = self.span("FRONT", k.FRONT, n, 0, NUM_CARDS)
        self.zeros("FRONT", k.FRONT, n, k.MAX_SEATS)
        for s, card in enumerate(front):
            if card and loc[card] != k.LOC_FRONT + s:
                self.fail(f"FRONT[{s}]", card, f"LOC[{card}] = {loc[card]}")
        for c in CARDS:
            if self.playing[c] and front[self.holder(c)] != c:
                self.fail(f"LOC[{c}]", loc[c], f"FRONT[{self.holder(c)}] is not {c}")
        held = _count_hands(loc, n)
        self.hand_count = [
            self.entry("HAND_COUNT", s, k.HAND_COUNT, held[s], held[s]) for s in range(n)
        ]
        self.zeros("HAND_COUNT", k.HAND_COUNT, n, k.MAX_SEATS)
        self.in_use = in_use = sum(1 for c in CARDS if loc[c] != k.LOC_BOX)
        deal = sum(int(k.hand_size_for(n, self.team.count(t))) for t in self.team)
        r.require(in_use >= deal, "LOC", in_use, f"cards out of the box, a deal needs {deal}")

    # ---- round and bout counters --------------------------------------------------------------
    def counters(self) -> None:
        r = self.r
        self.node = node = r.one("NODE", k.NODE, k.NODE_PLACE, k.NODE_GAME_OVER)
        over = node == k.NODE_GAME_OVER
        r.require(over == self.terminal, "NODE", node, "GAME_OVER iff HDR_TERMINAL")
        self.ended = node in _ENDED_NODES
        # each round but the last gives its one laurel to a team without one
        r.one("ROUND", k.ROUND, 1, MAX_SETUP_ROUND + self.num_teams - self.laurels.count(0))
        self.bout = r.one("BOUT", k.BOUT, 1, MAX_BOUT)
        self.completed = self.bout if self.ended else self.bout - 1  # bouts over this round
        self.starter = self.seat("BOUT_STARTER", k.BOUT_STARTER)
        self.bout_winner = self.seat("LAST_BOUT_WINNER", k.LAST_BOUT_WINNER, none=True)
        self.next_starter = self.seat("NEXT_STARTER", k.NEXT_STARTER, none=True)
        self.pride_left = self.seat("PRIDE_LEFT", k.PRIDE_LEFT, none=True)
        self.round_winner = self.seat("LAST_ROUND_WINNER", k.LAST_ROUND_WINNER, none=True)
        self.bout_counters()
        if self.terminal:
            r.require(self.round_winner >= 0, "LAST_ROUND_WINNER", -1, "the last round ended")
        if self.round_winner >= 0:
            team = self.team[self.round_winner]
            won = team == self.winning_team if self.terminal else self.laurels[team] >= 1
            r.require(won, "LAST_ROUND_WINNER", self.round_winner, "its team has no such laurel")

    def bout_counters(self) -> None:
        r = self.r
        if self.completed == 0:
            for name, value in (
                ("LAST_BOUT_WINNER", self.bout_winner),
                ("NEXT_STARTER", self.next_starter),
                ("PRIDE_LEFT", self.pride_left),
            ):
                r.require(value == -1, name, value, "no bout has ended this round: must be -1")
            return
        r.require(self.bout_winner >= 0, "LAST_BOUT_WINNER", -1, "a bout has ended this round")
        expected = self.pride_left if self.pride_left >= 0 else self.bout_winner
        r.require(
            self.next_starter == expected, "NEXT_STARTER", self.next_starter, "Pride or winner"
        )
        if not self.ended:
            r.require(self.starter == expected, "BOUT_STARTER", self.starter, "NEXT_STARTER starts")

    # ---- discard pile -----------------------------------------------------------------------
    def discards(self) -> None:
        count = self.r.one("DISCARD_COUNT", k.DISCARD_COUNT, 0, NUM_CARDS)
        pile = self.span("DISCARD_LIST", k.DISCARD_LIST, count, 1, NUM_CARDS)
        self.zeros("DISCARD_LIST", k.DISCARD_LIST, count, NUM_CARDS)
        rank = {}
        for i, card in enumerate(pile):
            if card in rank or self.loc[card] != k.LOC_DISCARD:
                self.fail(f"DISCARD_LIST[{i}]", card, "on the pile twice, or not discarded")
            rank[card] = i + 1
        for c in CARDS:
            if self.loc[c] == k.LOC_DISCARD and c not in rank:
                self.fail(f"LOC[{c}]", self.loc[c], "discarded but not on DISCARD_LIST")
        self.disc_records(rank)
        self.bout_groups(pile)

    def disc_records(self, rank: dict[int, int]) -> None:
        """DISC_ORDER/BOUT/SEAT/KIND: set for the cards on the pile, 0 for the others."""
        v, bout, n = self.v, self.bout, self.n
        order = v[k.DISC_ORDER : k.DISC_ORDER + k.CARD_SLOTS]
        self.disc_bout = v[k.DISC_BOUT : k.DISC_BOUT + k.CARD_SLOTS]
        self.disc_seat = v[k.DISC_SEAT : k.DISC_SEAT + k.CARD_SLOTS]
        self.disc_kind = v[k.DISC_KIND : k.DISC_KIND + k.CARD_SLOTS]
        records = (self.disc_bout, self.disc_seat, self.disc_kind)
        zero_elsewhere = all(
            min(values) >= 0 and sum(values) == sum(values[c] for c in rank) for values in records
        )
        in_range = all(
            bout >= self.disc_bout[c] >= 1
            and n >= self.disc_seat[c] >= 1
            and k.KIND_LUCK >= self.disc_kind[c] >= 1
            for c in rank
        )
        if order == [rank.get(c, 0) for c in range(k.CARD_SLOTS)] and zero_elsewhere and in_range:
            return
        for c in range(k.CARD_SLOTS):
            on = 1 if c in rank else 0
            self.entry("DISC_ORDER", c, k.DISC_ORDER, rank.get(c, 0), rank.get(c, 0))
            self.entry("DISC_BOUT", c, k.DISC_BOUT, on, on * bout)
            self.entry("DISC_SEAT", c, k.DISC_SEAT, on, on * n)
            self.entry("DISC_KIND", c, k.DISC_KIND, on, on * k.KIND_LUCK)

    def bout_groups(self, pile: list[int]) -> None:
        """Bout by bout, each finished bout: its winning card, the marked cards, Luck's."""
        self.groups: dict[int, list[int]] = {}
        last_kind = 0
        for card in pile:
            bout, kind = self.disc_bout[card], self.disc_kind[card]
            if bout not in self.groups:
                if bout != len(self.groups) + 1:
                    self.fail(f"DISC_BOUT[{card}]", bout, "a bout is missing on the pile")
                if kind != k.KIND_WINNER:
                    self.fail(f"DISC_KIND[{card}]", kind, "a bout's first discard is its winner")
                self.groups[bout] = []
            elif kind == k.KIND_WINNER or last_kind == k.KIND_LUCK:
                self.fail(f"DISC_KIND[{card}]", kind, "one winner per bout, Luck's discard last")
            if kind == k.KIND_LUCK:
                self.luck_discard(card)
            self.groups[bout].append(card)
            last_kind = kind
        if len(self.groups) != self.completed:
            self.fail("DISCARD_LIST", pile, f"{self.completed} bouts ended, each discards a winner")

    def luck_discard(self, card: int) -> None:
        luck_discarded = self.loc[LUCK] == k.LOC_DISCARD and self.disc_kind[LUCK] != k.KIND_LUCK
        same_bout = self.disc_bout[LUCK] == self.disc_bout[card]
        same_seat = self.disc_seat[LUCK] == self.disc_seat[card]
        if card == FEAR or not (luck_discarded and same_bout and same_seat):
            self.fail(f"DISC_KIND[{card}]", k.KIND_LUCK, "not Fear, by Luck's holder, after Luck")

    # ---- public pair counts and private memories ----------------------------------------------
    def pairs_and_memories(self) -> None:
        self.abs_pairs = absolu = self.pair_counts("ABS_PAIRS", k.ABS_PAIRS)
        self.secret_pairs = secret = self.pair_counts("SECRET_PAIRS", k.SECRET_PAIRS)
        self.memory("SEEN_FROM", k.SEEN_FROM, lambda p, x: secret[x][p])
        self.memory("SHOWN_TO", k.SHOWN_TO, lambda p, x: secret[p][x])
        self.memory("ABS_RECV", k.ABS_RECV, lambda p, x: absolu[p][x] + absolu[x][p])
        self.memory("ABS_GAVE", k.ABS_GAVE, lambda p, x: absolu[p][x] + absolu[x][p])

    def pair_counts(self, name: str, offset: int) -> list[list[int]]:
        """``[a][b]``: events this round between seats a != b (a bout logs at most LOG_CAP),
        counted up to ``PAIR_COUNT_MAX``, where the kernel stops."""
        most = min(k.LOG_CAP * self.bout, k.PAIR_COUNT_MAX)
        block = self.v[offset : offset + k.MAX_SEATS * k.MAX_SEATS]
        pairs = _PAIRS[self.n]
        if min(block) < 0 or max(block) > most or sum(block) != sum(block[i] for i in pairs):
            for i, x in enumerate(block):
                high = most if i in pairs else 0
                if not 0 <= x <= high:
                    a, b = divmod(i, k.MAX_SEATS)
                    self.fail(f"{name}[{a}][{b}]", x, f"must be in [0, {high}]")
        return [block[a * k.MAX_SEATS : (a + 1) * k.MAX_SEATS] for a in SEATS]

    def memory(self, name: str, offset: int, exchanges: Callable[[int, int], int]) -> None:
        """``name[p][c]``: another seat + 1 (0 for nothing), one card at most per exchange."""
        n = self.n
        block = self.v[offset : offset + k.MAX_SEATS * k.CARD_SLOTS]
        if not any(block):
            return
        for p in SEATS:
            row = block[p * k.CARD_SLOTS : (p + 1) * k.CARD_SLOTS]
            if not any(row):
                continue
            per_seat = [0] * k.MAX_SEATS
            for c, x in enumerate(row):
                if not x:
                    continue
                if p >= n or c == 0 or not 1 <= x <= n or x == p + 1:
                    self.fail(f"{name}[{p}][{c}]", x, f"another seat + 1 of {n}, or 0 if unused")
                if self.loc[c] == k.LOC_BOX:
                    self.fail(f"{name}[{p}][{c}]", x, "a card of the box was never in a hand")
                per_seat[x - 1] += 1
            for other, cards in enumerate(per_seat):
                if cards and cards > exchanges(p, other):
                    self.fail(f"{name}[{p}]", cards, f"cards from {exchanges(p, other)} exchanges")

    def knowledge(self) -> None:
        """EXCLUDED[p][c]: places (bit s a hand, ASIDE_BIT set aside) of this table only, 0 for
        card 0, for seats not at the table and for a card not hidden (face up, in the box);
        knowledge is never wrong: no row excludes the place where a hidden card is."""
        n, places = self.n, self.places
        block = self.v[k.EXCLUDED : k.EXCLUDED + k.KNOWERS * k.CARD_SLOTS]
        self.excluded = [block[p * k.CARD_SLOTS : (p + 1) * k.CARD_SLOTS] for p in range(k.KNOWERS)]
        for p, row in enumerate(self.excluded):
            knower = p < n or p == k.PUBLIC_KNOWER
            for c, x in enumerate(row):
                if x == 0:
                    continue
                loc = self.loc[c]
                bit = 1 << loc if loc < n else k.ASIDE_BIT if loc == k.LOC_ASIDE else 0
                if not knower or not bit or x < 0 or x & ~places:
                    high = places if knower and bit else 0
                    self.fail(f"EXCLUDED[{p}][{c}]", x, f"bits of {high} only")
                if x & bit:
                    self.fail(f"EXCLUDED[{p}][{c}]", x, f"excludes where the card is (LOC {loc})")
        self.seats_know_the_public()

    def seats_know_the_public(self) -> None:
        """Every seat knows what the public knows: the kernel writes each public fact into
        every row (a seat's own row may lack only its own hand's bit: it sees its hand). A
        search world keeps the seat's row and gives the others the public one, so a row that
        knew less would let ``sample_world`` deal a card where the public row excludes it."""
        public = self.excluded[k.PUBLIC_KNOWER]
        for p in range(self.n):
            row = self.excluded[p]
            for c in CARDS:
                if public[c] & ~row[c] & ~(1 << p):
                    self.fail(
                        f"EXCLUDED[{p}][{c}]",
                        row[c],
                        f"knows less than the public (EXCLUDED[{k.PUBLIC_KNOWER}][{c}] = "
                        f"{public[c]})",
                    )

    def publicly_in_hand(self, card: int, seat: int, why: str) -> None:
        """``card`` went into ``seat``'s hand in view of all (``why``) and no exchange can have
        moved it since: the public row knows it is there, so no search world moves it."""
        known = self.places & ~(1 << seat)
        found = self.excluded[k.PUBLIC_KNOWER][card]
        if found != known:
            self.fail(f"EXCLUDED[{k.PUBLIC_KNOWER}][{card}]", found, f"must be {known}: {why}")

    def exchanged(self, seat: int) -> bool:
        return any(self.abs_pairs[seat][o] or self.abs_pairs[o][seat] for o in SEATS)

    # ---- per-card records ---------------------------------------------------------------------
    def card_records(self) -> None:
        v, n = self.v, self.n
        placers = v[k.PLACER : k.PLACER + k.CARD_SLOTS]
        seats = v[k.LAST_HAND_SEAT : k.LAST_HAND_SEAT + k.CARD_SLOTS]
        bouts = v[k.LAST_HAND_BOUT : k.LAST_HAND_BOUT + k.CARD_SLOTS]
        for c in range(k.CARD_SLOTS):
            placed = c > 0 and self.in_play(c)
            if not (1 <= placers[c] <= n if placed else placers[c] == 0):
                self.entry("PLACER", c, k.PLACER, placed, n * placed)
            if seats[c] or bouts[c]:
                self.last_hand(c, seats[c], bouts[c])

    def last_hand(self, card: int, seat_plus_1: int, bout: int) -> None:
        """A card publicly sent into a hand stays there, known to all, until placed or its
        seat exchanges."""
        self.entry("LAST_HAND_BOUT", card, k.LAST_HAND_BOUT, 0, self.bout if seat_plus_1 else 0)
        self.entry("LAST_HAND_SEAT", card, k.LAST_HAND_SEAT, card > 0, self.n * (card > 0))
        seat, loc = seat_plus_1 - 1, self.loc[card]
        exchanged = self.exchanged(seat)
        if loc != seat and not (self.hidden(card) and exchanged):  # a world may deal it
            self.fail(f"LAST_HAND_SEAT[{card}]", seat_plus_1, f"the card is at LOC {loc}")
        if not exchanged:
            self.publicly_in_hand(card, seat, f"LAST_HAND_SEAT[{card}] = {seat_plus_1}")
        face_up = self.v[k.ROUND] == 1 and self.v[k.START_ABSOLU + seat] == card
        if bout == 0 and not face_up:
            self.fail(f"LAST_HAND_BOUT[{card}]", 0, "bout 0 is for a face-up Absolu")

    # ---- the pending decision ---------------------------------------------------------------
    def pending_node(self) -> None:
        r, node = self.r, self.node
        self.pending = p = {}
        for name, offset, cleared, high in _PENDING:
            p[name] = r.one(name, offset, cleared, self.n - 1 if high is None else high)
        for name, _, cleared, _ in _PENDING:
            kept = name in _CHAIN_LEFTOVERS and node not in _SETTLED_NODES
            if name not in _USES[node] and not kept and p[name] != cleared:
                self.fail(name, p[name], f"must be {cleared} at {_NODE_NAMES[node]}")
        self.law_dir = r.one("LAW_DIR", k.LAW_DIR, k.DIR_NONE, k.DIR_ABOVE)
        r.require(not self.law_dir or self.in_play(LAW), "LAW_DIR", self.law_dir, "Law not in play")
        if self.ended:
            r.require(
                not any(self.front), "FRONT", self.front, "the bout ended: the table is clear"
            )
        if node in _EFFECT_OF:
            self.effect_node()
        elif node == k.NODE_PLACE:
            self.place_node()
        elif node == k.NODE_DREAM_REPLY:
            self.dream_reply_node()
        elif node == k.NODE_WRATH_REPLACE:
            self.wrath_replace_node()
        elif node == k.NODE_BETRAYAL_GIVE:
            self.betrayal_give_node()
        elif node == k.NODE_LUCK_DISCARD:
            self.luck_node()

    def require_current(self, seat: int, who: str) -> None:
        if self.current != seat:
            self.fail("HDR_CURRENT", self.current, f"{who} ({seat}) decides")

    def place_node(self) -> None:
        order = [(self.starter + i) % self.n for i in range(self.n)]
        empty = [s for s in order if self.front[s] == 0]
        self.r.require(bool(empty), "FRONT", self.front, "a full table: the bout is over")
        self.require_current(empty[0], "the first empty seat from BOUT_STARTER")

    def effect_node(self) -> None:
        """A ⚡ choice: its card is in play and the node's own slots agree with the seat."""
        r, node, cur = self.r, self.node, self.current
        effect = self.pending["EFFECT"]
        r.require(effect in _EFFECT_OF[node], "EFFECT", effect, f"not {_NODE_NAMES[node]}'s card")
        r.require(self.in_play(effect), "EFFECT", effect, "the ⚡ card is not in play")
        self.resolver = cur
        if node in (k.NODE_DREAM_DEST, k.NODE_LAW_DIR):
            r.require(0 in self.front, "EFFECT", effect, "no empty seat to choose for")
        if node == k.NODE_DREAM_DEST:
            here = self.holder(DREAM) == cur
            r.require(here, f"LOC[{DREAM}]", self.loc[DREAM], "Dream lies before its placer")
        elif node == k.NODE_LAW_DIR:
            r.require(
                not self.law_dir, "LAW_DIR", self.law_dir, "Law's direction is not chosen yet"
            )
        elif node in _PICK_NODES:
            picks = [c for s, c in enumerate(self.front) if s != cur and c not in (0, effect)]
            r.require(bool(picks), "EFFECT", effect, "no card before another seat to pick")
        elif node in _SECRET_NODES:
            self.secret_node()
        else:
            self.absolu_node()

    def secret_node(self) -> None:
        r, p = self.r, self.pending
        holder, mode, partner = p["SECRET_HOLDER"], p["SECRET_MODE"], p["SECRET_PARTNER"]
        r.require(holder >= 0, "SECRET_HOLDER", holder, "Secret has a holder")
        self.resolver = holder
        if self.node != k.NODE_SECRET_MODE:
            r.require(mode > 0, "SECRET_MODE", mode, "chosen at SECRET_MODE: must be 1 or 2")
        if self.node != k.NODE_SECRET_CARD:
            self.require_current(holder, "SECRET_HOLDER")
            return
        r.require(partner not in (-1, holder), "SECRET_PARTNER", partner, "another seat")
        self.require_current(holder if mode == k.MODE_SHOW else partner, "the seat that shows")
        shower = self.current
        r.require(self.hand_count[shower] > 0, f"HAND_COUNT[{shower}]", 0, "the shower has a card")

    def absolu_node(self) -> None:
        r, p = self.r, self.pending
        actor, target, given = p["ABS_ACTOR"], p["ABS_TARGET"], p["ABS_GIVEN"]
        r.require(actor >= 0, "ABS_ACTOR", actor, "Absolu has an actor")
        self.resolver = actor
        if self.node == k.NODE_ABSOLUTE_TARGET:
            self.require_current(actor, "ABS_ACTOR")
            return
        r.require(target not in (-1, actor), "ABS_TARGET", target, "another seat")
        for name, seat in (("ABS_ACTOR", actor), ("ABS_TARGET", target)):
            r.require(self.hand_count[seat] > 0, name, seat, "an empty hand cannot exchange")
        if self.node == k.NODE_ABSOLUTE_GIVE:
            self.require_current(actor, "ABS_ACTOR")
            return
        self.require_current(target, "ABS_TARGET")
        in_hand = given > 0 and self.loc[given] == actor
        r.require(in_hand, "ABS_GIVEN", given, "must be a card of ABS_ACTOR's hand")

    def dream_reply_node(self) -> None:
        r, cur = self.r, self.current
        dreamer = self.pending["DREAM_PLAYER"]
        r.require(dreamer not in (-1, cur), "DREAM_PLAYER", dreamer, "another seat is replied to")
        r.require(self.front[dreamer] == 0, "DREAM_PLAYER", dreamer, "its seat awaits the reply")
        r.require(
            self.holder(DREAM) == cur, f"LOC[{DREAM}]", self.loc[DREAM], "not before HDR_CURRENT"
        )
        placer = self.v[k.PLACER + DREAM]
        r.require(placer == dreamer + 1, f"PLACER[{DREAM}]", placer, "DREAM_PLAYER placed Dream")

    def wrath_replace_node(self) -> None:
        r, cur, p = self.r, self.current, self.pending
        r.require(p["VICTIM"] == cur, "VICTIM", p["VICTIM"], "Wrath's victim replaces its card")
        blocked = p["BLOCKED"]
        back = blocked > 0 and self.loc[blocked] == cur
        r.require(back, "BLOCKED", blocked, "must be back in the victim's hand")
        self.publicly_in_hand(blocked, cur, "Wrath returned it (BLOCKED)")
        r.require(self.front[cur] == 0, f"FRONT[{cur}]", self.front[cur], "Wrath emptied it")
        r.require(self.in_play(WRATH), f"LOC[{WRATH}]", self.loc[WRATH], "Wrath is in play")

    def betrayal_give_node(self) -> None:
        r, cur, p = self.r, self.current, self.pending
        victim, taken = p["VICTIM"], p["TAKEN"]
        r.require(victim not in (-1, cur), "VICTIM", victim, "Betrayal takes from another seat")
        r.require(self.front[victim] == 0, "VICTIM", victim, "its seat awaits the gift")
        taken_ok = taken > 0 and self.loc[taken] == cur
        r.require(taken_ok, "TAKEN", taken, "must be in the taker's hand")
        self.publicly_in_hand(taken, cur, "Betrayal took it (TAKEN)")
        r.require(self.in_play(BETRAYAL), f"LOC[{BETRAYAL}]", self.loc[BETRAYAL], "not in play")

    def luck_node(self) -> None:
        cur = self.current
        self.require_current(self.pending["LUCK_HOLDER"], "LUCK_HOLDER")
        this_bout = self.groups[self.bout]
        if LUCK not in this_bout:
            self.fail("LUCK_HOLDER", cur, "Luck was not discarded in this bout")
        if self.disc_seat[LUCK] != cur + 1:
            self.fail(f"DISC_SEAT[{LUCK}]", self.disc_seat[LUCK], "Luck lay before LUCK_HOLDER")
        if any(self.disc_kind[c] == k.KIND_LUCK for c in this_bout):
            self.fail("LUCK_HOLDER", cur, "Luck's discard is already made")
        if not any(self.loc[c] == cur for c in range(1, k.CARD_SLOTS) if c != FEAR):
            self.fail("LUCK_HOLDER", cur, "holds no card but Fear: nothing to discard")
        if self.hand_count[cur] == 1:
            self.publicly_not_fear(cur)

    def publicly_not_fear(self, holder: int) -> None:
        """Luck's holder was asked with one card, so all know it is not Fear: else a search
        world could give the holder only Fear, with nothing to discard."""
        public = self.excluded[k.PUBLIC_KNOWER][FEAR]
        if self.hidden(FEAR) and not public >> holder & 1:
            self.fail(
                f"EXCLUDED[{k.PUBLIC_KNOWER}][{FEAR}]",
                public,
                f"Luck's holder {holder} has no Fear",
            )

    # ---- hands never run dry during a bout ----------------------------------------------------
    def hands(self) -> None:
        """Each bout starts with >= 2 cards per hand and each seat places once from its own hand
        (after Wrath or Betrayal gave it a card back), so every seat keeps a card and a seat
        still to place keeps two."""
        if self.terminal:
            return
        exempt = -1  # a seat emptied by Dream or Betrayal gets its card from another
        if self.node == k.NODE_DREAM_REPLY:
            exempt = self.pending["DREAM_PLAYER"]
        elif self.node == k.NODE_BETRAYAL_GIVE:
            exempt = self.pending["VICTIM"]
        for s, count in enumerate(self.hand_count):
            to_place = self.front[s] == 0 and s != exempt and not self.ended
            if count < 1 + to_place:
                self.fail(f"HAND_COUNT[{s}]", count, f"must be >= {1 + to_place} in a bout")

    # ---- bout logs ----------------------------------------------------------------------------
    def logs(self) -> None:
        log = self.replay(self.read_log("LOG", k.LOG_LEN, k.LOG))
        prev = self.replay(self.read_log("PREV_LOG", k.PREV_LOG_LEN, k.PREV_LOG))
        r = self.r
        if self.bout == 1:
            r.require(not prev.events, "PREV_LOG_LEN", len(prev.events), "bout 1: must be 0")
        elif prev.complete:
            r.require(prev.bout_end >= 0, "PREV_LOG", prev.events, "the last bout did not end")
        if log.complete:
            ended = log.bout_end >= 0
            r.require(ended == self.ended, "LOG", log.events, "EV_BOUT_END iff the bout ended")
            self.current_bout(log)
        for bout_log, bout in ((log, self.bout), (prev, self.bout - 1)):
            if bout_log.complete and bout_log.bout_end >= 0:
                self.bout_end(bout_log, bout)
        self.logged_exchanges(log, prev)

    def read_log(self, name: str, length_slot: int, offset: int) -> _BoutLog:
        length = self.r.one(f"{name}_LEN", length_slot, 0, k.LOG_CAP)
        block = self.v[offset : offset + k.LOG_CAP * k.LOG_FIELDS]
        used = length * k.LOG_FIELDS
        if any(block[used:]):
            first = used + next(i for i, x in enumerate(block[used:]) if x)
            i = first // k.LOG_FIELDS
            event = tuple(block[i * k.LOG_FIELDS : (i + 1) * k.LOG_FIELDS])
            self.fail(f"{name}[{i}]", event, f"after {name}_LEN: must be 0")
        events = [tuple(block[i : i + k.LOG_FIELDS]) for i in range(0, used, k.LOG_FIELDS)]
        for i, event in enumerate(events):
            problem = _event_problem(event, self.n)
            if problem:
                self.fail(f"{name}[{i}]", event, problem)
        return _BoutLog(name, events, complete=length < k.LOG_CAP)

    def replay(self, log: _BoutLog) -> _BoutLog:
        """Play the log's events on an empty table; refuse one the table cannot take."""
        table = [0] * self.n
        for i, (kind, a, b, card) in enumerate(log.events):
            if log.bout_end >= 0:
                if kind != k.EV_LUCK or log.luck >= 0:
                    self.fail(f"{log.name}[{i}]", log.events[i], "only Luck's discard follows")
                log.luck = i
                continue
            problem = _table_problem(table, kind, a - 1, b - 1, card)
            if problem:
                self.fail(f"{log.name}[{i}]", log.events[i], problem)
            if kind == k.EV_PLACE:
                table[b - 1] = card
                log.placer[card] = a
                log.placed_by[a - 1] += 1
            elif kind == k.EV_DREAM:
                table[a - 1], table[b - 1] = 0, DREAM
            elif kind in (k.EV_WRATH, k.EV_BETRAYAL):
                table[b - 1] = 0
                log.lifted_into[b - 1 if kind == k.EV_WRATH else a - 1] += 1
            elif kind == k.EV_JEALOUSY:
                table[table.index(JEALOUSY)], table[b - 1] = card, JEALOUSY
            elif kind in (k.EV_SECRET, k.EV_ABSOLU):
                key = (kind, a - 1, b - 1)
                log.exchanges[key] = log.exchanges.get(key, 0) + 1
            elif kind == k.EV_BOUT_END:
                log.end_table, log.bout_end = table, i
                table = [0] * self.n
        log.table = table
        return log

    def current_bout(self, log: _BoutLog) -> None:
        """This bout's complete log gives the table, its placers, the hands it started with
        and the decision asked last."""
        r = self.r
        r.require(log.table == self.front, "FRONT", self.front, f"the log leaves {log.table}")
        for card in self.front:
            if card and self.v[k.PLACER + card] != log.placer[card]:
                self.fail(f"PLACER[{card}]", self.v[k.PLACER + card], "the log says otherwise")
        if not self.ended:
            for s, count in enumerate(self.hand_count):
                start = count + log.placed_by[s] - log.lifted_into[s]
                if start < 2:
                    self.fail(f"HAND_COUNT[{s}]", count, f"the bout started with {start} < 2")
        self.last_event(log)
        victim = self.pending["VICTIM"]
        if victim >= 0:
            took = [e for e in log.events if e[0] in (k.EV_WRATH, k.EV_BETRAYAL)]
            ok = bool(took) and took[-1][2] == victim + 1
            r.require(ok, "VICTIM", victim, "not the seat Wrath or Betrayal took from last")
        if self.law_dir:
            laws = [e for e in log.events if e[0] == k.EV_LAW]
            ok = bool(laws) and laws[-1][2] == self.law_dir
            r.require(ok, "LAW_DIR", self.law_dir, "not the direction chosen for Law")

    def last_event(self, log: _BoutLog) -> None:
        """The event logged by the step that asked the pending decision."""
        node, p, cur = self.node, self.pending, self.current
        last = log.events[-1] if log.events else (0, 0, 0, 0)
        if node in _EFFECT_OF:
            ok = last[0] == k.EV_PLACE and last[3] == p["EFFECT"]
            dream_reply = len(log.events) > 1 and log.events[-2][0] == k.EV_DREAM
            by_placer = dream_reply and self.v[k.OPT_DREAM_BY_TARGET]
            resolver = last[1] - 1 if by_placer else last[2] - 1
            if ok and self.resolver != resolver:
                self.fail("HDR_CURRENT", cur, f"seat {resolver} resolves the ⚡ card")
        elif node == k.NODE_WRATH_REPLACE:
            ok = last[0] == k.EV_WRATH and last[2:] == (cur + 1, p["BLOCKED"])
        elif node == k.NODE_BETRAYAL_GIVE:
            ok = last[0] == k.EV_BETRAYAL and last[1:] == (cur + 1, p["VICTIM"] + 1, p["TAKEN"])
        elif node == k.NODE_DREAM_REPLY:
            ok = last == (k.EV_DREAM, p["DREAM_PLAYER"] + 1, cur + 1, DREAM)
        elif node == k.NODE_LUCK_DISCARD:
            ok = last[0] == k.EV_BOUT_END
        else:
            return
        if not ok:
            name = f"LOG[{len(log.events) - 1}]"
            self.fail(name, last, f"not the event that asks {_NODE_NAMES[node]}")

    def bout_end(self, log: _BoutLog, bout: int) -> None:
        """A logged bout end: winning card, winner, next starter, discards, Luck's discard."""
        r, table = self.r, log.end_table
        slot = f"{log.name}[{log.bout_end}]"
        _, a, b, card = log.events[log.bout_end]
        winner, marks = _bout_outcome(table)
        self.bout_discards_match(table, bout, winner, marks)
        r.require(card == winner, slot, log.events[log.bout_end], f"{winner} won the bout")
        by_placer = self.v[k.OPT_WINNER_IS_PLACER]
        winner_seat = log.placer[winner] - 1 if by_placer else table.index(winner)
        starter = (table.index(PRIDE) + 1) % self.n if PRIDE in table else winner_seat
        ok = (a, b) == (winner_seat + 1, starter + 1)
        r.require(ok, slot, log.events[log.bout_end], "winner and next starter + 1")
        luck = [c for c in self.groups[bout] if self.disc_kind[c] == k.KIND_LUCK]
        logged = log.events[log.luck] if log.luck >= 0 else None
        expected = (k.EV_LUCK, self.disc_seat[luck[0]], 0, luck[0]) if luck else None
        r.require(logged == expected, log.name, logged, f"Luck's discard was {expected}")
        if bout == self.completed:
            last_table = [abs(c) for c in self.v[k.LAST_TABLE : k.LAST_TABLE + self.n]]
            r.require(table == last_table, "LAST_TABLE", last_table, f"the bout ended on {table}")
            winner_ok = a == self.bout_winner + 1
            r.require(winner_ok, "LAST_BOUT_WINNER", self.bout_winner, f"{a - 1} won the bout")

    def bout_discards_match(self, table: list[int], bout: int, winner: int, marks: int) -> None:
        """The pile's cards of ``bout`` (but Luck's) are the table's marked cards, each from the
        seat it lay before, the winning card first."""
        group = self.groups[bout]
        if group[0] != winner:
            self.fail(f"DISC_KIND[{group[0]}]", k.KIND_WINNER, f"bout {bout} was won by {winner}")
        marked = {c: s for s, c in enumerate(table) if marks >> c & 1}
        discarded = [c for c in group if self.disc_kind[c] != k.KIND_LUCK]
        if sorted(discarded) != sorted(marked):
            self.fail("DISCARD_LIST", discarded, f"bout {bout} discarded {sorted(marked)}")
        for c in discarded:
            if self.disc_seat[c] != marked[c] + 1:
                self.fail(f"DISC_SEAT[{c}]", self.disc_seat[c], f"it lay before seat {marked[c]}")

    def logged_exchanges(self, log: _BoutLog, prev: _BoutLog) -> None:
        """The round's pair counts hold the logs' Secrets and Absolus, and at most LOG_CAP
        events more for each bout (or full log) the logs no longer hold."""
        unlogged = max(0, self.bout - 2) + (not log.complete) + (not prev.complete)
        logged = dict(prev.exchanges)
        for key, events in log.exchanges.items():
            logged[key] = logged.get(key, 0) + events
        for kind, name, counts in (
            (k.EV_SECRET, "SECRET_PAIRS", self.secret_pairs),
            (k.EV_ABSOLU, "ABS_PAIRS", self.abs_pairs),
        ):
            for a in range(self.n):
                for b in range(self.n):
                    events, count = logged.get((kind, a, b), 0), counts[a][b]
                    if not events <= count <= events + k.LOG_CAP * unlogged:
                        self.fail(f"{name}[{a}][{b}]", count, f"the logs hold {events}")

    # ---- the last bout and the last round ---------------------------------------------------
    def last_table(self) -> None:
        r, n = self.r, self.n
        self.zeros("LAST_TABLE", k.LAST_TABLE, n, k.MAX_SEATS)
        signed = self.span("LAST_TABLE", k.LAST_TABLE, n, -NUM_CARDS, NUM_CARDS)
        any_ended = self.bout_winner >= 0 or self.round_winner >= 0
        r.require(any(signed) == any_ended, "LAST_TABLE", signed, "the last bout's table, if any")
        if not any_ended:
            return
        table = [abs(c) for c in signed]
        r.require(0 not in table and len(set(table)) == n, "LAST_TABLE", signed, "a full table")
        winner, marks = _bout_outcome(table)
        for s, card in enumerate(table):
            if (signed[s] < 0) != bool(marks >> card & 1):
                self.fail(f"LAST_TABLE[{s}]", signed[s], "negated iff the rules discard it")
        pride = (table.index(PRIDE) + 1) % n if PRIDE in table else -1
        if self.bout_winner < 0:  # the first bout of a round after another
            carried = self.v[k.OPT_PRIDE_CARRIES] and pride >= 0
            seat = pride if carried else self.round_winner
            r.require(
                self.starter == seat, "BOUT_STARTER", self.starter, f"{seat} starts the round"
            )
            return
        self.bout_discards_match(table, self.completed, winner, marks)
        r.require(self.pride_left == pride, "PRIDE_LEFT", self.pride_left, f"must be {pride}")
        if not self.v[k.OPT_WINNER_IS_PLACER]:
            seat = table.index(winner)
            r.require(self.bout_winner == seat, "LAST_BOUT_WINNER", self.bout_winner, f"{seat} won")

    def last_round(self) -> None:
        """END_LOC, REVEAL, LAST_DISCARD_*: the last round's end (END_LOC may be cleared)."""
        r, n, v = self.r, self.n, self.v
        self.entry("END_LOC", 0, k.END_LOC, 0, 0)
        self.span("REVEAL", k.REVEAL, k.CARD_SLOTS, 0, n)
        self.entry("REVEAL", 0, k.REVEAL, 0, 0)
        count = r.one("LAST_DISCARD_COUNT", k.LAST_DISCARD_COUNT, 0, NUM_CARDS)
        pile = self.span("LAST_DISCARD_LIST", k.LAST_DISCARD_LIST, count, 1, NUM_CARDS)
        self.zeros("LAST_DISCARD_LIST", k.LAST_DISCARD_LIST, count, NUM_CARDS)
        r.require(len(set(pile)) == count, "LAST_DISCARD_LIST", pile, "a card listed twice")
        end_loc = v[k.END_LOC : k.END_LOC + k.CARD_SLOTS]
        reveal = v[k.REVEAL : k.REVEAL + k.CARD_SLOTS]
        cleared = end_loc[1:] == [k.LOC_ASIDE] * NUM_CARDS  # by sample_world
        if self.round_winner >= 0:
            if not cleared:
                self.round_end(end_loc, reveal, pile)
            return
        r.require(cleared or not any(end_loc), "END_LOC", end_loc, "no round has ended: 0")
        r.require(not any(reveal), "REVEAL", reveal, "no round has ended: must be 0")
        r.require(count == 0, "LAST_DISCARD_COUNT", count, "no round has ended: must be 0")

    def round_end(self, end_loc: list[int], reveal: list[int], pile: list[int]) -> None:
        r, n = self.r, self.n
        places = {*range(n), k.LOC_DISCARD, k.LOC_ASIDE, k.LOC_BOX}
        for c in CARDS:
            if end_loc[c] not in places:
                self.fail(f"END_LOC[{c}]", end_loc[c], f"must be one of {sorted(places)}")
            if (end_loc[c] == k.LOC_BOX) != (self.loc[c] == k.LOC_BOX):
                self.fail(f"END_LOC[{c}]", end_loc[c], "the box is the same all game")
            if self.terminal and end_loc[c] != self.loc[c]:
                self.fail(f"END_LOC[{c}]", end_loc[c], f"the game ended with LOC {self.loc[c]}")
        held = _count_hands(end_loc, n)
        reveal_all = self.v[k.OPT_REVEAL_ALL]
        for c in CARDS:
            seat = end_loc[c]
            shown = seat + 1 if seat < n and (reveal_all or held[seat] <= 1) else 0
            if reveal[c] != shown:
                self.fail(f"REVEAL[{c}]", reveal[c], f"must be {shown}")
        winner = _round_winner(end_loc, held, n)
        ok = winner == self.round_winner
        r.require(ok, "LAST_ROUND_WINNER", self.round_winner, f"the final hands say {winner}")
        discarded = sorted(c for c in CARDS if end_loc[c] == k.LOC_DISCARD)
        r.require(sorted(pile) == discarded, "LAST_DISCARD_LIST", pile, f"END_LOC: {discarded}")
        if self.terminal:
            now = self.v[k.DISCARD_LIST : k.DISCARD_LIST + len(pile)]
            r.require(pile == now, "LAST_DISCARD_LIST", pile, "the game ended on DISCARD_LIST")

    def deck(self) -> None:
        """The shuffle scratch: each deal rewrites its first ``in_use`` entries with the cards
        out of the box, so the rest stays 0 and no card is there twice."""
        deck = self.span("DECK", k.DECK, NUM_CARDS, 0, NUM_CARDS)
        cards = [c for c in deck if c]
        self.r.require(len(set(cards)) == len(cards), "DECK", deck, "a card shuffled twice")
        for i, card in enumerate(deck):
            if card and (i >= self.in_use or self.loc[card] == k.LOC_BOX):
                self.fail(f"DECK[{i}]", card, f"past the {self.in_use} cards in use, or boxed")


# ---- the rules, read back ---------------------------------------------------------------------
def _bout_outcome(table: list[int]) -> tuple[int, int]:
    """Winning card and discard bit set of a full table, by the kernel's own rules."""
    scratch = np.zeros(k.STATE_SIZE, dtype=k.STATE_DTYPE)
    scratch[HDR_NUM_PLAYERS] = len(table)
    scratch[k.FRONT : k.FRONT + len(table)] = table
    winner = int(k.winning_card(scratch, MIRROR in table, SADNESS in table))
    return winner, int(k.discard_set(scratch, np.int64(winner)))


def _count_hands(loc: list[int], n: int) -> list[int]:
    """Cards in each seat's hand (seats 0..MAX_SEATS) for a LOC-like list."""
    held = [0] * k.MAX_SEATS
    for place in loc[1:]:
        if place < n:
            held[place] += 1
    return held


def _round_winner(end_loc: list[int], held: list[int], n: int) -> int:
    """§4.3 on the final hands: a 0-card seat (lowest), else the highest single card."""
    for s in range(n):
        if held[s] == 0:
            return s
    singles = [(c, end_loc[c]) for c in CARDS if end_loc[c] < n and held[end_loc[c]] == 1]
    return max(singles)[1] if singles else -1


def _event_problem(event: Event, n: int) -> str | None:
    """Why a logged event's fields are out of range for its kind, or None."""
    kind, a, b, card = event
    seats = range(1, n + 1)
    if kind == k.EV_LAW:
        ok = a in seats and b in (k.DIR_BELOW, k.DIR_ABOVE) and card == LAW
    elif kind == k.EV_LUCK:
        ok = a in seats and b == 0 and card in CARDS and card != FEAR
    elif kind in (k.EV_SECRET, k.EV_ABSOLU):
        ok = a in seats and b in seats and a != b and card == 0
    elif kind == k.EV_DREAM:
        ok = a in seats and b in seats and a != b and card == DREAM
    elif k.EV_PLACE <= kind <= k.EV_BOUT_END:
        ok = a in seats and b in seats and card in CARDS
    else:
        return f"unknown event kind (1..{k.EV_LUCK})"
    return None if ok else "fields out of range for this kind of event"


def _table_problem(table: list[int], kind: int, a: int, b: int, card: int) -> str | None:
    """Why an event cannot happen on ``table`` (seats ``a``, ``b`` from 0), or None."""
    if kind == k.EV_PLACE and (table[b] or card in table):
        return "placed on a taken seat, or a card already in play"
    if kind == k.EV_DREAM and (table[a] != DREAM or table[b]):
        return "Dream moves from its player's seat to an empty one"
    if kind in _PICKER:
        effect = _PICKER[kind]
        if effect not in table or card == effect or a == b or table[b] != card:
            return "picks a card before another seat while the ⚡ card is in play"
    needs = {k.EV_LAW: (LAW,), k.EV_SECRET: (SECRET,), k.EV_ABSOLU: ABSOLUS}.get(kind, ())
    if needs and not any(c in table for c in needs):
        return "its ⚡ card is not in play"
    if kind == k.EV_BOUT_END and (0 in table or card not in table):
        return "a bout ends on a full table with its winning card"
    if kind == k.EV_LUCK:
        return "Luck's discard follows the bout end"
    return None


# ---- the pending decision (core/decisions.py: the kernel's own combinations) ---------------
# Each pending slot the node reads (_USES): a card by where it lies and whose it is (the ⚡
# card by value too, every Absolu as the first: they ask alike), a seat by how it relates to
# the decider, a direction or mode as is.
UNREAD = -9  # a slot the pending node does not read


def _decision_fields() -> tuple[str, ...]:
    fields = ["NODE"]
    for name, _, _, high in _PENDING:
        if high == NUM_CARDS:
            fields += [name] * (name == "EFFECT") + [f"{name}'s place", f"{name}'s holder"]
        else:
            fields.append(name)
    return tuple(fields)


DECISION_FIELDS = _decision_fields()
_PLACES = {k.LOC_DISCARD: 2, k.LOC_ASIDE: 3, k.LOC_BOX: 4}  # 0 a hand, 1 in front of a seat


def decision_signature(state: np.ndarray) -> tuple[int, ...]:
    """The pending decision as ``DECISION_FIELDS`` (seats relative to the decider, by team:
    the decider, a partner or a rival; ``UNREAD`` for slots the node does not read)."""
    s = state.tolist()
    current = s[HDR_CURRENT]
    teams = s[k.TEAM : k.TEAM + s[HDR_NUM_PLAYERS]]
    node = s[k.NODE]
    signature = [node]
    for name, offset, _, high in _PENDING:
        value = s[offset]
        read = name in _USES[node]
        if high == NUM_CARDS:
            place, holder = UNREAD, UNREAD
            if read:
                place, holder = _card_place(s, value, current, teams)
            card = FIRST_ABSOLUTE if FIRST_ABSOLUTE <= value <= LAST_ABSOLUTE else value
            signature += [card if read else UNREAD] * (name == "EFFECT") + [place, holder]
        elif high is None:
            signature.append(seat_relation(value, current, teams) if read else UNREAD)
        else:
            signature.append(value if read else UNREAD)
    return tuple(signature)


def _card_place(s: list[int], card: int, current: int, teams: list[int]) -> tuple[int, int]:
    if not card:
        return -1, -1
    loc = s[k.LOC + card]
    if loc < k.LOC_FRONT:
        return 0, seat_relation(loc, current, teams)
    if loc < k.LOC_DISCARD:
        return 1, seat_relation(loc - k.LOC_FRONT, current, teams)
    return _PLACES[loc], -1
