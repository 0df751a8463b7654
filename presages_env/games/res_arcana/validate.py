"""Validation of a Res Arcana state from outside: every slot of ``layout.py``.

The kernels index card tables, decks and essence vectors with slot values and run stage
machines from the pending-decision slots, so a state is accepted only if it is one the rules
can reach (or a world ``sample_world`` writes from one). The shared header is already checked;
here the first bad slot is reported by its layout name:

- ranges of every slot (options, phase, node, seats, counters, essences, locations, owners,
  turned flags, stored essences, deck and monument piles, engines, the action under way);
- cards: each component in a location its kind allows, with an owner exactly where the
  location has one; each deck lists exactly its owner's deck cards, once, and nothing beyond
  its size, and the top cards its owner knows (KNOWN_TOP) are cards it has seen; the
  monument deck and display list exactly the unclaimed monuments; one face per Place of
  Power tile; mages, magic items and setup picks as the phase requires;
- essences: every seat's holdings (pool plus essences on its components in play) equal
  ``GAINED - SPENT``; essences lie only on components in play;
- the pending decision: ``NODE`` agrees with the open engine (at most one), the action and
  stage under way, the victory check or the collect step, and with the seat to act; every
  index the kernel will read from the pending slots is in range.
"""

from __future__ import annotations

import numpy as np

from presages_env.core.decisions import NOBODY, seat_relation
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL, TRUNCATED
from presages_env.core.validation import SlotReader
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import layout as lay

# A game still going holds at most ESSENCE_CEILING of each essence (more truncates it);
# a game that ended in the step that passed it may hold up to what int16 holds.
HIGHEST_SLOT = int(np.iinfo(lay.STATE_DTYPE).max)
MAX_ROUNDS = lay.MAX_STEP_CAP
NO_ONE = -1

ALLOWED_LOCS = {
    cd.ARTIFACT: (
        lay.LOC_BOX,
        lay.LOC_HAND,
        lay.LOC_DECK,
        lay.LOC_DISCARD,
        lay.LOC_PLAY,
        lay.LOC_PLACING,
    ),
    cd.MAGE: (lay.LOC_BOX, lay.LOC_MAGE_OPTION, lay.LOC_PLAY),
    cd.ITEM: (lay.LOC_SUPPLY, lay.LOC_PLAY),
    cd.MONUMENT: (lay.LOC_MON_DECK, lay.LOC_DISPLAY, lay.LOC_PLAY),
    cd.PLACE: (lay.LOC_BOX, lay.LOC_CENTER, lay.LOC_PLAY),
}
OWNED_LOCS = (
    lay.LOC_HAND,
    lay.LOC_DECK,
    lay.LOC_DISCARD,
    lay.LOC_PLAY,
    lay.LOC_PLACING,
    lay.LOC_MAGE_OPTION,
)
# target kinds -> the phase and action they belong to (None: a power's)
TARGET_CONTEXT = {
    lay.TK_MAGE: (lay.PHASE_SETUP_MAGES, lay.DO_NONE),
    lay.TK_ITEM: (lay.PHASE_SETUP_ITEMS, lay.DO_NONE),
    lay.TK_TAKE: (lay.PHASE_COLLECT, lay.DO_NONE),
    lay.TK_ITEM_SWAP: (lay.PHASE_ACTIONS, lay.DO_PASS),
}


def validate_state(state: np.ndarray) -> None:
    """Raise :class:`~presages_env.core.validation.InvalidStateError` for the first bad slot."""
    check = _Check(state)
    check.ranges()
    check.components()
    check.decks()
    check.monuments_and_places()
    check.phase_components()
    check.essences()
    check.engines()
    check.action()
    check.pending()


class _Check:
    def __init__(self, state: np.ndarray) -> None:
        self.r = SlotReader(state)
        self.n = self.r[HDR_NUM_PLAYERS]
        self.terminal = self.r[HDR_TERMINAL]
        self.current = self.r[HDR_CURRENT]

    # ---- helpers ---------------------------------------------------------------------------
    def seats(self, name: str, offset: int, low: int, high: int, unused: int = 0) -> list[int]:
        """The first n entries in ``[low, high]``; the others equal ``unused``."""
        values = self.r.many(name, offset, self.n, low, high)
        for s in range(self.n, lay.MAX_PLAYERS):
            self.r.require(
                self.r[offset + s] == unused,
                f"{name}[{s}]",
                self.r[offset + s],
                f"unused entry (beyond {self.n} players) must be {unused}",
            )
        return values

    def fail_unless(self, ok: bool, slot: str, value, reason: str) -> None:
        self.r.require(ok, slot, value, reason)

    def owns_in_play(self, comp: int, seat: int) -> bool:
        return self.loc[comp] == lay.LOC_PLAY and self.owner[comp] == seat

    # ---- ranges ----------------------------------------------------------------------------
    def ranges(self) -> None:
        r, n = self.r, self.n
        self.starter = r[lay.OPT_STARTER_SETS]  # the options are checked before (core)
        self.phase = r.one("PHASE", lay.PHASE, 0, lay.PHASE_OVER)
        self.node = r.one("NODE", lay.NODE, 0, lay.NUM_NODES - 1)
        r.one("ROUND", lay.ROUND, 1, MAX_ROUNDS)
        self.first = r.one("FIRST_PLAYER", lay.FIRST_PLAYER, 0, n - 1)
        self.token_taken = r.one("TOKEN_TAKEN", lay.TOKEN_TAKEN, 0, 1)
        self.turn = r.one("TURN_PLAYER", lay.TURN_PLAYER, 0, n - 1)
        self.setup_k = r.one("SETUP_K", lay.SETUP_K, 0, n)
        self.passed = self.seats("PASSED", lay.PASSED, 0, 1)
        self.winner = self.seats("WINNER", lay.WINNER, 0, 1)
        most = lay.ESSENCE_CEILING if self.terminal == 0 else HIGHEST_SLOT
        self.pool = [
            r.many(f"POOL[{s}]", lay.POOL + 5 * s, 5, 0, most if s < n else 0)
            for s in range(lay.MAX_PLAYERS)
        ]
        self.gained = [
            r.many(f"GAINED[{s}]", lay.GAINED + 5 * s, 5, 0, most if s < n else 0)
            for s in range(lay.MAX_PLAYERS)
        ]
        self.spent = [
            r.many(f"SPENT[{s}]", lay.SPENT + 5 * s, 5, 0, most if s < n else 0)
            for s in range(lay.MAX_PLAYERS)
        ]
        nc = cd.NUM_COMPONENTS
        self.loc = r.many("LOC", lay.LOC, nc, 0, lay.NUM_LOCS - 1)
        self.owner = r.many("OWNER", lay.OWNER, nc, NO_ONE, n - 1)
        self.turned = r.many("TURNED", lay.TURNED, nc, 0, 1)
        self.stored = [r.many(f"STORED[{c}]", lay.STORED + 5 * c, 5, 0, most) for c in range(nc)]
        self.seen = r.many("SEEN", lay.SEEN, cd.NUM_ARTIFACTS, 0, lay.SEEN_BY_ALL)
        self.deck_size = self.seats("DECK_SIZE", lay.DECK_SIZE, 0, lay.DECK_CAP)
        self.known_top = self.seats("KNOWN_TOP", lay.KNOWN_TOP, 0, lay.LOOK_DEPTH)
        self.mon_size = r.one("MON_DECK_SIZE", lay.MON_DECK_SIZE, 0, cd.NUM_MONUMENTS)
        self.mon_known = self.seats("MON_KNOWN", lay.MON_KNOWN, 0, lay.LOOK_DEPTH)
        self.display = r.many("DISPLAY", lay.DISPLAY, 2, NO_ONE, nc - 1)
        self.mage_pick = self.seats("MAGE_PICK", lay.MAGE_PICK, NO_ONE, nc - 1, NO_ONE)
        self.col_k = r.one("COL_K", lay.COL_K, 0, n)
        self.col_stage = r.one("COL_STAGE", lay.COL_STAGE, 0, lay.COL_NEXT)
        self.col_cursor = r.one("COL_CURSOR", lay.COL_CURSOR, 0, nc)
        self.check_active = r.one("CHECK_ACTIVE", lay.CHECK_ACTIVE, 0, lay.CHECK_MID_ROUND)
        self.check_asked = r.one("CHECK_ASKED", lay.CHECK_ASKED, 0, 1)
        self.statue_user = r.one("STATUE_USER", lay.STATUE_USER, 0, n)
        self.look_deck = r.one("LOOK_DECK", lay.LOOK_DECK, 0, lay.LOOK_MONUMENTS)
        self.look_count = r.one("LOOK_COUNT", lay.LOOK_COUNT, 0, lay.LOOK_DEPTH)
        self.mon_group = self.seats("MON_GROUP", lay.MON_GROUP, 0, lay.LOOK_DEPTH)
        all_monuments = (1 << cd.NUM_MONUMENTS) - 1
        self.mon_mask = self.seats("MON_GROUP_MASK", lay.MON_GROUP_MASK, 0, all_monuments)

    # ---- components --------------------------------------------------------------------------
    def components(self) -> None:
        for c in range(cd.NUM_COMPONENTS):
            loc, owner = self.loc[c], self.owner[c]
            kind = int(cd.KIND[c])
            self.fail_unless(
                loc in ALLOWED_LOCS[kind],
                f"LOC[{c}]",
                loc,
                f"{cd.NAMES[c]} ({cd.KIND_NAMES[kind]}) cannot be at location {loc}",
            )
            self.fail_unless(
                (owner >= 0) == (loc in OWNED_LOCS),
                f"OWNER[{c}]",
                owner,
                f"{cd.NAMES[c]} at location {loc} must {'' if loc in OWNED_LOCS else 'not '}"
                "have an owner",
            )
            if loc != lay.LOC_PLAY:
                self.fail_unless(
                    self.turned[c] == 0, f"TURNED[{c}]", 1, "only components in play turn"
                )
                self.fail_unless(
                    not any(self.stored[c]),
                    f"STORED[{c}]",
                    self.stored[c],
                    "essences lie only on components in play",
                )
        for c in range(cd.NUM_ARTIFACTS):
            loc = self.loc[c]
            if loc == lay.LOC_BOX:
                expected = (0,)
            elif loc == lay.LOC_DECK and self.starter:
                expected = (0, 1, 2)
            else:
                expected = (1, 2)
            self.fail_unless(
                self.seen[c] in expected,
                f"SEEN[{c}]",
                self.seen[c],
                f"must be one of {list(expected)} for an artifact at location {loc}",
            )
        placing = [c for c in range(cd.NUM_ARTIFACTS) if self.loc[c] == lay.LOC_PLACING]
        self.fail_unless(len(placing) <= 1, "LOC", placing, "one artifact is placed at a time")
        self.placing = placing[0] if placing else NO_ONE

    def decks(self) -> None:
        for s in range(lay.MAX_PLAYERS):
            base = lay.DECK + s * lay.DECK_CAP
            size = self.deck_size[s] if s < self.n else 0
            listed = [self.r[base + i] for i in range(size)]
            expected = sorted(
                c
                for c in range(cd.NUM_ARTIFACTS)
                if self.loc[c] == lay.LOC_DECK and self.owner[c] == s
            )
            self.fail_unless(
                sorted(listed) == expected,
                f"DECK[{s}]",
                listed,
                f"must list exactly seat {s}'s deck cards {expected}, once each",
            )
            self.r.zeros(f"DECK[{s}] beyond its size", base + size, lay.DECK_CAP - size)
            if s < self.n:
                self.fail_unless(
                    self.known_top[s] <= size,
                    f"KNOWN_TOP[{s}]",
                    self.known_top[s],
                    f"cannot exceed the deck size {size}",
                )
                self.known_cards_seen(s, listed[size - self.known_top[s] :])

    def known_cards_seen(self, seat: int, top: list[int]) -> None:
        """The top cards ``seat`` knows of its deck are cards it has seen: a look marks them
        seen (only a starter set's deck holds unseen cards). The seat's observation shows
        them, while ``sample_world`` re-deals every unseen card of its deck."""
        unseen = [c for c in top if self.seen[c] == lay.UNSEEN]
        self.fail_unless(
            not unseen,
            f"KNOWN_TOP[{seat}]",
            self.known_top[seat],
            f"seat {seat} never saw its deck's top cards {unseen} (SEEN = {lay.UNSEEN})",
        )

    def monuments_and_places(self) -> None:
        first, count = cd.FIRST_MONUMENT, cd.NUM_MONUMENTS
        listed = [self.r[lay.MON_DECK + i] for i in range(self.mon_size)]
        expected = sorted(c for c in range(first, first + count) if self.loc[c] == lay.LOC_MON_DECK)
        self.fail_unless(
            sorted(listed) == expected,
            "MON_DECK",
            listed,
            f"must list exactly the monuments in the deck {expected}, once each",
        )
        self.r.zeros(
            "MON_DECK beyond its size", lay.MON_DECK + self.mon_size, count - self.mon_size
        )
        in_deck = sum(1 << (c - first) for c in expected)
        for s in range(self.n):
            self.fail_unless(
                self.mon_known[s] <= self.mon_size,
                f"MON_KNOWN[{s}]",
                self.mon_known[s],
                f"cannot exceed the monument deck size {self.mon_size}",
            )
            # (which top positions hold the group's monuments is not checked: in a world
            # sample_world wrote for another seat, this seat's group may have moved)
            group, mask = self.mon_group[s], self.mon_mask[s]
            self.fail_unless(
                group <= self.mon_size
                and (group == 0) == (mask == 0)
                and (group == 0 or self.mon_known[s] == 0)
                and bin(mask).count("1") <= group
                and mask & ~in_deck == 0,
                f"MON_GROUP[{s}]",
                (group, mask),
                "a top group (none while the seat knows the top in order) holding at most "
                "its depth of known monuments, all in the deck",
            )
        shown = sorted(c for c in self.display if c >= 0)
        on_display = sorted(
            c for c in range(first, first + count) if self.loc[c] == lay.LOC_DISPLAY
        )
        self.fail_unless(
            shown == on_display and len(set(shown)) == len(shown),
            "DISPLAY",
            self.display,
            f"must hold exactly the face-up monuments {on_display}",
        )
        for t in range(cd.NUM_TILES):
            faces = [self.loc[cd.FIRST_PLACE + 2 * t + f] for f in range(2)]
            self.fail_unless(
                sorted(faces)[0] == lay.LOC_BOX and sorted(faces)[1] != lay.LOC_BOX,
                f"LOC[{cd.FIRST_PLACE + 2 * t}]",
                faces,
                f"tile {t}: one face in the centre or in play, the other out of the game",
            )

    def _count(self, seat: int, kind: int, loc: int) -> int:
        return sum(
            1
            for c in range(cd.NUM_COMPONENTS)
            if cd.KIND[c] == kind and self.loc[c] == loc and self.owner[c] == seat
        )

    def phase_components(self) -> None:
        """Mages, magic items and setup picks as the phase requires."""
        n, phase = self.n, self.phase
        mage_setup = phase == lay.PHASE_SETUP_MAGES
        for s in range(n):
            options = self._count(s, cd.MAGE, lay.LOC_MAGE_OPTION)
            mages = self._count(s, cd.MAGE, lay.LOC_PLAY)
            items = self._count(s, cd.ITEM, lay.LOC_PLAY)
            want_options, want_mages = (2, 0) if mage_setup else (0, 1)
            self.fail_unless(
                (options, mages) == (want_options, want_mages),
                f"LOC (mages of seat {s})",
                (options, mages),
                f"in phase {phase} a seat has {want_options} mage options and {want_mages} "
                "mage in play",
            )
            if phase == lay.PHASE_SETUP_MAGES:
                want_items = 0
            elif phase == lay.PHASE_SETUP_ITEMS:
                order = [(self.first + 2 * n - 1 - k) % n for k in range(n)]
                want_items = int(s in order[: self.setup_k])
            else:
                want_items = 1
            self.fail_unless(
                items == want_items,
                f"LOC (magic items of seat {s})",
                items,
                f"seat {s} holds {want_items} magic item(s) now",
            )
            pick = self.mage_pick[s]
            if mage_setup and s in [(self.first + k) % n for k in range(self.setup_k)]:
                ok = (
                    pick >= 0
                    and self.loc[pick] == lay.LOC_MAGE_OPTION
                    and self.owner[pick] == s
                    and cd.KIND[pick] == cd.MAGE
                )
                self.fail_unless(ok, f"MAGE_PICK[{s}]", pick, "one of the seat's two mages")
            else:
                self.fail_unless(pick == NO_ONE, f"MAGE_PICK[{s}]", pick, "no pick pending")
        if phase not in (lay.PHASE_SETUP_MAGES, lay.PHASE_SETUP_ITEMS):
            self.fail_unless(self.setup_k == 0, "SETUP_K", self.setup_k, "setup is over")
        if phase not in (lay.PHASE_ACTIONS, lay.PHASE_OVER):
            self.fail_unless(
                not any(self.passed) and not self.token_taken,
                "PASSED",
                self.passed,
                "players pass only in the actions phase",
            )
        if phase == lay.PHASE_ACTIONS:
            self.fail_unless(
                self.token_taken == any(self.passed),
                "TOKEN_TAKEN",
                self.token_taken,
                "the first seat to pass takes the first-player token",
            )
            self.fail_unless(
                not self.token_taken or self.passed[self.first],
                "FIRST_PLAYER",
                self.first,
                "once someone passed, the token is with a seat that passed (the first to pass)",
            )

    # ---- essences ------------------------------------------------------------------------------
    def essences(self) -> None:
        for s in range(self.n):
            for e in range(5):
                held = self.pool[s][e] + sum(
                    self.stored[c][e] for c in range(cd.NUM_COMPONENTS) if self.owns_in_play(c, s)
                )
                self.fail_unless(
                    held == self.gained[s][e] - self.spent[s][e],
                    f"POOL[{s}][{e}]",
                    self.pool[s][e],
                    f"seat {s} holds {held} {cd.ESSENCE_NAMES[e]} (pool and components) but "
                    f"gained {self.gained[s][e]} and spent {self.spent[s][e]}",
                )

    # ---- engines ------------------------------------------------------------------------------
    def engines(self) -> None:
        r, n = self.r, self.n
        self.pay = r.one("PAY_ACTIVE", lay.PAY_ACTIVE, 0, 1)
        self.gain = r.one("GAIN_ACTIVE", lay.GAIN_ACTIVE, 0, 1)
        self.tgt = r.one("TGT_ACTIVE", lay.TGT_ACTIVE, 0, 1)
        self.fail_unless(
            self.pay + self.gain + self.tgt <= 1,
            "PAY_ACTIVE",
            (self.pay, self.gain, self.tgt),
            "at most one of payment, gain and choice is open",
        )
        if self.pay:
            self.pay_player = r.one("PAY_PLAYER", lay.PAY_PLAYER, 0, n - 1)
            r.many("PAY_NEED", lay.PAY_NEED, 5, 0, 10 * lay.DECK_CAP)
            r.one("PAY_LEFT", lay.PAY_LEFT, 1, 10 * lay.DECK_CAP)
            r.one("PAY_MASK", lay.PAY_MASK, 1, cd.ALL)
            applied = r.one("PAY_APPLIED", lay.PAY_APPLIED, 0, 10 * lay.DECK_CAP)
            r.one("PAY_GOLD_DISCOUNT", lay.PAY_GOLD_DISCOUNT, 0, applied)
            r.one("PAY_MIN", lay.PAY_MIN, 0, 4)
            r.many("PAY_PAID", lay.PAY_PAID, 5, 0, 10 * lay.DECK_CAP)
        else:
            r.one("PAY_PLAYER", lay.PAY_PLAYER, NO_ONE, NO_ONE)
            r.zeros("PAY_*", lay.PAY_NEED, lay.GAIN_ACTIVE - lay.PAY_NEED)
        if self.gain:
            self.gain_player = r.one("GAIN_PLAYER", lay.GAIN_PLAYER, 0, n - 1)
            r.one("GAIN_LEFT", lay.GAIN_LEFT, 1, lay.ESSENCE_CEILING)
            r.one("GAIN_MASK", lay.GAIN_MASK, 1, cd.ALL)
            r.one("GAIN_MIN", lay.GAIN_MIN, 0, 4)
            dest = r.one("GAIN_DEST", lay.GAIN_DEST, lay.DEST_POOL, cd.NUM_COMPONENTS - 1)
            self.fail_unless(
                dest == lay.DEST_POOL or self.owns_in_play(dest, self.gain_player),
                "GAIN_DEST",
                dest,
                "essences go to the pool or onto one of the gainer's components in play",
            )
            r.one("GAIN_MODE", lay.GAIN_MODE, lay.GAIN_MIXED, lay.GAIN_OR_GOLD)
        else:
            r.one("GAIN_PLAYER", lay.GAIN_PLAYER, NO_ONE, NO_ONE)
            r.zeros("GAIN_LEFT..GAIN_MIN", lay.GAIN_LEFT, 3)
            r.one("GAIN_DEST", lay.GAIN_DEST, lay.DEST_POOL, lay.DEST_POOL)
            r.one("GAIN_MODE", lay.GAIN_MODE, lay.GAIN_MIXED, lay.GAIN_MIXED)
        if self.tgt:
            self.tgt_kind = r.one("TGT_KIND", lay.TGT_KIND, 1, lay.NUM_TARGET_KINDS - 1)
            self.tgt_player = r.one("TGT_PLAYER", lay.TGT_PLAYER, 0, n - 1)
            r.one("TGT_CURSOR", lay.TGT_CURSOR, 0, cd.NUM_COMPONENTS)
        else:
            self.tgt_kind = lay.TK_NONE
            r.one("TGT_KIND", lay.TGT_KIND, lay.TK_NONE, lay.TK_NONE)
            r.one("TGT_PLAYER", lay.TGT_PLAYER, NO_ONE, NO_ONE)
            r.one("TGT_CURSOR", lay.TGT_CURSOR, 0, 0)

    # ---- the action under way ------------------------------------------------------------------
    def action(self) -> None:
        r = self.r
        self.kind = r.one("ACT_KIND", lay.ACT_KIND, lay.DO_NONE, lay.DO_PASS)
        if self.kind == lay.DO_NONE:
            defaults = (NO_ONE, NO_ONE, NO_ONE, 0, NO_ONE, 0, NO_ONE, 0)
            for i, value in enumerate(defaults):
                r.one(f"ACT_* slot {i + 1}", lay.ACT_PLAYER + i, value, value)
            self.fail_unless(
                self.look_deck == 0 and self.look_count == 0,
                "LOOK_DECK",
                self.look_deck,
                "nothing looked at outside a power",
            )
            self.fail_unless(self.placing == NO_ONE, "LOC", self.placing, "nothing is being placed")
            return
        self.fail_unless(
            self.phase == lay.PHASE_ACTIONS, "ACT_KIND", self.kind, "actions happen in that phase"
        )
        player = r.one("ACT_PLAYER", lay.ACT_PLAYER, self.turn, self.turn)
        self.act_player = player
        self.stage = r.one("ACT_STAGE", lay.ACT_STAGE, 0, lay.ST_FINISH)
        self.target = r.one("ACT_TARGET", lay.ACT_TARGET, NO_ONE, cd.NUM_COMPONENTS - 1)
        self.x = r.one("ACT_X", lay.ACT_X, 0, lay.ESSENCE_CEILING)
        self.xtype = r.one("ACT_XTYPE", lay.ACT_XTYPE, NO_ONE, 4)
        self.count = r.one("ACT_COUNT", lay.ACT_COUNT, 0, lay.LOOK_DEPTH)
        if self.kind != lay.DO_POWER:
            r.one("ACT_COMP", lay.ACT_COMP, NO_ONE, NO_ONE)
            r.one("ACT_POWER", lay.ACT_POWER, NO_ONE, NO_ONE)
            self.fail_unless(
                self.look_deck == 0 and self.look_count == 0, "LOOK_DECK", self.look_deck, "-"
            )
            self._plain_action()
            return
        self.power = r.one("ACT_POWER", lay.ACT_POWER, 0, cd.NUM_POWERS - 1)
        comp = r.one(
            "ACT_COMP", lay.ACT_COMP, int(cd.PW_COMP[self.power]), int(cd.PW_COMP[self.power])
        )
        # a seat uses only its own components' powers: in play, or in its discard pile once
        # the power's cost destroyed the component
        self.fail_unless(
            self.owner[comp] == player and self.loc[comp] in (lay.LOC_PLAY, lay.LOC_DISCARD),
            "OWNER",
            (int(self.owner[comp]), int(self.loc[comp])),
            "the acting component is the acting seat's, in play or discarded by its cost",
        )
        self._power_action()

    def _plain_action(self) -> None:
        """Place, claim, discard and pass wait only on their engine."""
        kind = self.kind
        expected = {
            lay.DO_PLACE: self.pay,
            lay.DO_CLAIM_MONUMENT: self.gain,
            lay.DO_DISCARD: self.gain,
            lay.DO_PASS: self.tgt and self.tgt_kind == lay.TK_ITEM_SWAP,
            lay.DO_CLAIM_PLACE: False,
        }[kind]
        self.fail_unless(bool(expected), "ACT_KIND", kind, "no decision of this action is open")
        if kind == lay.DO_PLACE:
            self.fail_unless(
                self.target == self.placing and self.placing >= 0,
                "ACT_TARGET",
                self.target,
                "the artifact being placed",
            )
        else:
            self.fail_unless(self.placing == NO_ONE, "LOC", self.placing, "nothing is placed")
        if kind == lay.DO_CLAIM_MONUMENT:
            slot = self.count - 1
            self.fail_unless(
                self.count <= 2 and (slot < 0 or self.display[slot] == NO_ONE),
                "ACT_COUNT",
                self.count,
                "0 or the emptied display slot + 1",
            )
        elif kind == lay.DO_PASS:
            self.fail_unless(
                self.passed[self.act_player] == 1, "PASSED", self.passed, "the passing seat"
            )

    def _power_action(self) -> None:
        w, stage = self.power, self.stage
        effect = int(cd.PW_EFFECT[w])
        self.effect = effect
        if cd.PW_X[w] == 0:
            self.fail_unless(
                self.x == 0 and (self.xtype == NO_ONE or effect == cd.EF_PUT_PAID),
                "ACT_X",
                (self.x, self.xtype),
                "only an X= cost sets X",
            )
        elif self.x > 0:
            self.fail_unless(self.xtype >= 0, "ACT_XTYPE", self.xtype, "the essence paid for X")
        if effect == cd.EF_PUT_PAID and stage >= lay.ST_COST_X and not self.pay:
            self.fail_unless(self.xtype >= 0, "ACT_XTYPE", self.xtype, "the essence paid")
        if effect == cd.EF_COST_GAIN and stage >= lay.ST_EFFECT and not self.tgt:
            self.fail_unless(
                0 <= self.target < cd.NUM_ARTIFACTS,
                "ACT_TARGET",
                self.target,
                "the artifact given up as cost",
            )
        placing_ok = effect == cd.EF_PLACE and stage == lay.ST_EFFECT_2 and self.pay
        if placing_ok:
            self.fail_unless(
                self.target == self.placing and self.placing >= 0,
                "ACT_TARGET",
                self.target,
                "the artifact being placed",
            )
        else:
            self.fail_unless(self.placing == NO_ONE, "LOC", self.placing, "nothing is placed")
            if effect == cd.EF_PLACE and stage >= lay.ST_EFFECT_2:
                self.fail_unless(self.target == NO_ONE, "ACT_TARGET", self.target, "none")
        if effect == cd.EF_ATTACK and stage == lay.ST_EFFECT_2:
            self.fail_unless(
                self.count < self.n, "ACT_COUNT", self.count, "rivals asked so far (< n)"
            )
        if effect == cd.EF_LOOK and stage >= lay.ST_EFFECT_2:
            size = (
                self.deck_size[self.act_player] if self.look_deck == lay.LOOK_OWN else self.mon_size
            )
            self.fail_unless(
                self.look_deck > 0 and self.look_count <= size,
                "LOOK_COUNT",
                self.look_count,
                f"cards looked at, at most the deck's {size}",
            )
        else:
            self.fail_unless(
                self.look_deck == 0 and self.look_count == 0, "LOOK_DECK", self.look_deck, "-"
            )

    # ---- the pending decision ------------------------------------------------------------------
    def pending(self) -> None:
        n, node = self.n, self.node
        if self.terminal == 1:
            self.fail_unless(
                self.phase == lay.PHASE_OVER and node == lay.NODE_OVER and any(self.winner),
                "PHASE",
                self.phase,
                "a finished game is over, with a winner",
            )
            self.fail_unless(
                not (self.pay or self.gain or self.tgt or self.kind or self.check_active),
                "ACT_KIND",
                self.kind,
                "nothing is under way once the game is over",
            )
            return
        self.fail_unless(not any(self.winner), "WINNER", self.winner, "nobody has won yet")
        self.fail_unless(self.phase != lay.PHASE_OVER, "PHASE", self.phase, "the game goes on")
        self._collect_slots()
        self._check_slots()
        if self.terminal == TRUNCATED:
            self.fail_unless(node == lay.NODE_OVER, "NODE", node, "a truncated game is over")
            return
        if self.pay or self.gain or self.tgt:
            self._engine_context()
            return
        if node == lay.NODE_STATUE:
            self._expect(node, self.owner[cd.CID["Golden Statue"]])
            self.fail_unless(
                self.check_active and self.check_asked, "CHECK_ACTIVE", self.check_active, "asked"
            )
            return
        self.fail_unless(
            not self.check_active, "CHECK_ACTIVE", self.check_active, "checks end undecided"
        )
        if self.phase == lay.PHASE_COLLECT:
            seat = (self.first + self.col_k) % n
            self._expect(lay.NODE_FORGE, seat)
            self.fail_unless(
                self.col_stage == lay.COL_NEXT
                and self.owns_in_play(cd.CID["Cursed Forge"], seat)
                and self.pool[seat][cd.D] > 0,
                "COL_STAGE",
                self.col_stage,
                "Cursed Forge asks its owner with Death to pay",
            )
            return
        self.fail_unless(
            self.phase == lay.PHASE_ACTIONS, "PHASE", self.phase, "setup asks through choices"
        )
        if self.kind == lay.DO_NONE:
            self._expect(lay.NODE_ACTION, self.turn)
            self.fail_unless(
                not self.passed[self.turn], "PASSED", self.passed, "the seat to act has not passed"
            )
            return
        self.fail_unless(
            self.kind == lay.DO_POWER, "ACT_KIND", self.kind, "this action asks only engines"
        )
        self._power_node()

    def _engine_context(self) -> None:
        """The open engine is the decision, of the seat its phase and action say."""
        n = self.n
        if self.pay:
            node, seat = lay.NODE_PAY, self.pay_player
        elif self.gain:
            node, seat = lay.NODE_GAIN, self.gain_player
        else:
            node, seat = lay.NODE_TARGET, self.tgt_player
        self._expect(node, seat)
        phase, kind = self.phase, self.kind
        if self.tgt:
            want = TARGET_CONTEXT.get(self.tgt_kind, (lay.PHASE_ACTIONS, lay.DO_POWER))
            self.fail_unless(
                (phase, kind) == want,
                "TGT_KIND",
                self.tgt_kind,
                f"this choice belongs to phase {want[0]}, action {want[1]}",
            )
        if phase == lay.PHASE_SETUP_MAGES:
            expected = (self.first + self.setup_k) % n
        elif phase == lay.PHASE_SETUP_ITEMS:
            expected = (self.first + 2 * n - 1 - self.setup_k) % n
        elif phase == lay.PHASE_COLLECT:
            expected = (self.first + self.col_k) % n
            stage_ok = (self.gain and self.col_stage in (lay.COL_GAINS, lay.COL_FORGE)) or (
                self.tgt and self.col_stage == lay.COL_TAKE
            )
            self.fail_unless(stage_ok, "COL_STAGE", self.col_stage, "the collect step asking")
        else:
            self.fail_unless(kind != lay.DO_NONE, "ACT_KIND", kind, "an action asks")
            expected = seat  # attacked rivals pay and choose out of turn
            if not (kind == lay.DO_POWER and self.effect == cd.EF_ATTACK):
                expected = self.act_player
        self.fail_unless(
            seat == expected
            and phase
            in (lay.PHASE_SETUP_MAGES, lay.PHASE_SETUP_ITEMS, lay.PHASE_COLLECT, lay.PHASE_ACTIONS),
            "HDR_CURRENT",
            seat,
            f"seat {expected} makes this choice",
        )
        if phase in (lay.PHASE_SETUP_MAGES, lay.PHASE_SETUP_ITEMS):
            self.fail_unless(self.setup_k < n, "SETUP_K", self.setup_k, "a pick is pending")

    def _expect(self, node: int, seat: int) -> None:
        self.fail_unless(self.node == node, "NODE", self.node, f"the open decision is node {node}")
        self.fail_unless(
            self.current == seat, "HDR_CURRENT", self.current, f"seat {seat} decides it"
        )

    def _power_node(self) -> None:
        w, stage, effect = self.power, self.stage, self.effect
        player = self.act_player
        if stage == lay.ST_COST_X:
            self.fail_unless(bool(cd.PW_X[w]), "ACT_STAGE", stage, "only X= costs ask for X")
            self._expect(lay.NODE_PAY_X, player)
        elif effect == cd.EF_ATTACK and stage == lay.ST_EFFECT_2:
            victim = (player + 1 + self.count) % self.n
            self.fail_unless(
                self.count < self.n - 1 and not self.passed[victim],
                "ACT_COUNT",
                self.count,
                "the rival asked has not passed",
            )
            self._expect(lay.NODE_REACT, victim)
        elif effect == cd.EF_LOOK and stage == lay.ST_EFFECT:
            self._expect(lay.NODE_LOOK, player)
        elif effect == cd.EF_LOOK and stage == lay.ST_FINISH:
            self.fail_unless(self.look_count >= 2, "LOOK_COUNT", self.look_count, "2 or 3")
            self._expect(lay.NODE_REORDER, player)
        elif effect == cd.EF_RIVAL_COUNT and stage == lay.ST_EFFECT and self.n > 2:
            self._expect(lay.NODE_RIVAL, player)
        else:
            self.fail_unless(False, "ACT_STAGE", stage, "no decision is open at this stage")

    def _collect_slots(self) -> None:
        if self.phase != lay.PHASE_COLLECT:
            self.fail_unless(
                (self.col_k, self.col_stage, self.col_cursor) == (0, 0, 0),
                "COL_K",
                self.col_k,
                "collect slots are 0 outside the collect phase",
            )
        else:
            self.fail_unless(self.col_k < self.n, "COL_K", self.col_k, "a seat still collects")

    def _check_slots(self) -> None:
        statue = cd.CID["Golden Statue"]
        if not self.check_active:
            self.fail_unless(
                self.check_asked == 0 and self.statue_user == 0,
                "CHECK_ASKED",
                self.check_asked,
                "no victory check under way",
            )
        if self.statue_user:
            self.fail_unless(
                self.owns_in_play(statue, self.statue_user - 1) and self.turned[statue],
                "STATUE_USER",
                self.statue_user,
                "the Golden Statue's owner, who turned it",
            )
        if self.check_active == lay.CHECK_MID_ROUND:
            self.fail_unless(
                self.kind == lay.DO_POWER and cd.PW_EFFECT[self.power] == cd.EF_CHECK,
                "CHECK_ACTIVE",
                self.check_active,
                "a mid-round check comes from a power",
            )
        elif self.check_active == lay.CHECK_ROUND_END:
            self.fail_unless(
                all(self.passed) and self.kind == lay.DO_NONE,
                "CHECK_ACTIVE",
                self.check_active,
                "the round-end check comes once everyone has passed",
            )


# ---- the pending decision (core/decisions.py: the kernel's own combinations) ---------------
DECISION_FIELDS = (
    "PHASE",
    "NODE",
    "ACT_KIND",
    "ACT_POWER",
    "ACT_STAGE",
    "TGT_KIND",
    "PAY_ACTIVE",
    "GAIN_ACTIVE",
    "GAIN_MODE",
    "GAIN_DEST (-1 pool, 1 the acting card, 2 another)",
    "CHECK_ACTIVE",
    "CHECK_ASKED",
    "COL_STAGE",
    "LOOK_DECK",
    "ACT_PLAYER",
    "PAY_PLAYER",
    "GAIN_PLAYER",
    "TGT_PLAYER",
    "TURN_PLAYER",
    "the decider passed",
    "ACT_COMP's location",
    "ACT_COMP's owner",
    "ACT_TARGET's location",
    "ACT_TARGET's owner",
)


def decision_signature(state: np.ndarray) -> tuple[int, ...]:
    """The pending decision as ``DECISION_FIELDS`` (seats relative to the seat to act)."""
    s = state.tolist()
    current = s[HDR_CURRENT]

    def seat(offset: int) -> int:
        return seat_relation(s[offset], current)

    def card(offset: int) -> tuple[int, int]:
        comp = s[offset]
        if comp < 0:
            return NO_ONE, NOBODY
        return s[lay.LOC + comp], seat_relation(s[lay.OWNER + comp], current)

    pay, gain, tgt = s[lay.PAY_ACTIVE], s[lay.GAIN_ACTIVE], s[lay.TGT_ACTIVE]
    dest = s[lay.GAIN_DEST] if gain else lay.DEST_POOL
    dest_kind = NO_ONE if dest == lay.DEST_POOL else 1 if dest == s[lay.ACT_COMP] else 2
    passed = 0 <= current < lay.MAX_PLAYERS and s[lay.PASSED + current]
    return (
        s[lay.PHASE],
        s[lay.NODE],
        s[lay.ACT_KIND],
        s[lay.ACT_POWER],
        s[lay.ACT_STAGE],
        s[lay.TGT_KIND] if tgt else lay.TK_NONE,
        pay,
        gain,
        s[lay.GAIN_MODE] if gain else NO_ONE,
        dest_kind,
        s[lay.CHECK_ACTIVE],
        s[lay.CHECK_ASKED],
        s[lay.COL_STAGE],
        s[lay.LOOK_DECK],
        seat(lay.ACT_PLAYER),
        seat(lay.PAY_PLAYER) if pay else NOBODY,
        seat(lay.GAIN_PLAYER) if gain else NOBODY,
        seat(lay.TGT_PLAYER) if tgt else NOBODY,
        seat(lay.TURN_PLAYER) if s[lay.PHASE] == lay.PHASE_ACTIONS else NOBODY,
        int(passed),
        *card(lay.ACT_COMP),
        *card(lay.ACT_TARGET),
    )
