"""Validation of an Aciliande state from outside: every slot of the layout in ``kernel.py``.

The kernels index arrays with seats, cards, trick numbers and hand sizes read from the
state, so a state is accepted only if the rules can reach it (or ``setup_position`` can
build it). The header is already checked (:mod:`presages_env.core.validation`); the first
bad slot is reported by its layout name. Checked, in order:

* **options** — three different Goddesses 0..21; starting lives 1..99 for each seat in
  play and 0 beyond; stake 1..1000; fixed hand size 0 or 1..22 // players; teams 0 or 1
  (1 only with 4 or 6 players); tiebreak 0 or 1.
* **ranges** of every slot, and what ``reset`` leaves in the seats beyond the player count
  (0, or -1 for ``BIDS`` and ``DRAW``); pot = players x stake; ``MANCHE`` from 1; the
  ``GAME_OVER`` node and an end reason exactly when the game is over.
* **seats** — ``ALIVE`` iff lives are left; ``IN_MANCHE`` equals ``ALIVE`` during a manche
  and contains it once the manche is scored; at least two players per manche; both teams
  still in while a team game goes on; the dealer dealt in.
* **duel and hand size** — a duel has two players, 3..1 face-up Goddesses and that many
  cards each; otherwise no face-up count, and the hand size is the fixed one or
  1..min(22 // players, 11); 0 exactly while the dealer chooses it.
* **trick counters** — per node: no trick before the play, the trick index below the hand
  size during it and equal to it once the manche is scored; the trick never complete at
  ``PLAY``.
* **cards** — an undealt card is unplayed; its owner was dealt in; no Goddess dealt in a
  duel; each player was dealt the hand size and played exactly one card in every
  completed trick; no card played after the current trick.
* **tricks** — each completed trick's winner, recomputed from its cards, its leader and
  its declaration, is ``PAST_WINNER`` and leads the next trick; ``TRICKS`` counts the
  wins; the current trick follows clockwise from ``LEADER`` and holds exactly the cards
  marked as played in it; its Goddess count and declaration agree with its cards.
* **bids** — 0..hand size for the players in, -1 for the others; placed clockwise from
  left of the dealer, all placed once the play starts and then never summing to the hand
  size (so every manche costs a life and every game ends).
* **seat to act** — the dealer (hand size), the next bidder, the next player of the trick,
  or the player of the trick's first Goddess (declaration).
* **scores and the end** — no coin and no draw before the end; no life lost before the
  first manche is scored; once over: the end reason the rules give, the lives lost in the
  scored manche, the pot shared among the right receivers, and the leftover draw.
"""

from __future__ import annotations

from collections.abc import Container

import numpy as np

from presages_env.core.decisions import seat_relation
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.core.validation import SlotReader
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.cards import NUM_CARDS
from presages_env.games.aciliande.options import MAX_LIVES, MAX_STAKE

NODE_NAMES = ("HAND_SIZE", "BID", "PLAY", "DECLARE", "GAME_OVER")


def validate_state(state: np.ndarray) -> None:
    """Raise :class:`~presages_env.core.validation.InvalidStateError` for the first bad slot."""
    _AciliandeCheck(state).run()


def _next_seat(flags: list[int], seat: int) -> int:
    """The first seat clockwise after ``seat`` whose flag is set (-1 if none)."""
    n = len(flags)
    for offset in range(1, n + 1):
        candidate = (seat + offset) % n
        if flags[candidate]:
            return candidate
    return -1


def _clockwise(flags: list[int], first: int) -> list[int]:
    """The flagged seats in play order, from ``first`` on."""
    n = len(flags)
    seats = [(first + offset) % n for offset in range(n)]
    return [seat for seat in seats if flags[seat]]


def _trick_winner(
    cards: list[int], seats: list[int], declaration: int, goddesses: Container[int]
) -> int:
    """The kernel's rule: the Goddess that takes, else the strongest ordinary card."""
    seen = 0
    best_seat, best_card = -1, -1
    for card, seat in zip(cards, seats, strict=True):
        if card in goddesses:
            seen += 1
            if (seen == 1 and declaration == k.DECL_TAKE) or (
                seen == 2 and declaration == k.DECL_LEAVE
            ):
                return seat
        elif card > best_card:
            best_seat, best_card = seat, card
    return best_seat


class _AciliandeCheck:
    """The checks of one state, in the order of the module docstring.

    Conditions are tested before any message is formatted: validation stays well under a
    millisecond, since every state from outside goes through it.
    """

    def __init__(self, state: np.ndarray) -> None:
        self.reader = SlotReader(state)
        self.values = self.reader.values
        self.n = self.values[HDR_NUM_PLAYERS]
        self.terminal = self.values[HDR_TERMINAL] == 1

    def run(self) -> None:
        self.check_options()
        self.check_seat_blocks()
        self.check_scalars()
        self.check_seats_in_play()
        self.check_duel_and_hand_size()
        self.check_trick_counters()
        self.check_cards()
        self.check_past_tricks()
        self.check_current_trick()
        self.check_bids()
        if self.terminal:
            self.check_end()
        else:
            self.check_seat_to_act()
            self.check_nothing_paid_yet()
        self.check_lives_lost()

    def fail(self, slot: str, offset: int, reason: str) -> None:
        """Refuse the state, blaming ``slot`` (at ``offset``) with its current value."""
        self.reader.fail(slot, self.values[offset], reason)

    def require(self, ok: bool, slot: str, offset: int, reason: str) -> None:
        if not ok:
            self.fail(slot, offset, reason)

    # ---- ranges ---------------------------------------------------------------------------
    def seat_block(self, name: str, offset: int, low: int, high: int, unused: int) -> list[int]:
        """Seats in play within ``[low, high]``; seats beyond the player count hold ``unused``."""
        values = self.reader.many(name, offset, self.n, low, high)
        for seat in range(self.n, k.MAX_PLAYERS):
            if self.values[offset + seat] != unused:
                self.fail(
                    f"{name}[{seat}]",
                    offset + seat,
                    f"seat {seat} is not in a {self.n}-player game: must be {unused}",
                )
        return values

    def check_options(self) -> None:
        reader, n = self.reader, self.n
        goddesses = reader.many("OPT_GODDESSES", k.OPT_GODDESSES, k.NUM_GODDESSES, 0, NUM_CARDS - 1)
        for i in range(1, k.NUM_GODDESSES):
            if goddesses[i] in goddesses[:i]:
                self.fail(f"OPT_GODDESSES[{i}]", k.OPT_GODDESSES + i, "the Goddesses are 3 cards")
        self.goddesses = frozenset(goddesses)
        self.seat_block("OPT_LIVES", k.OPT_LIVES, 1, MAX_LIVES, 0)
        self.stake = reader.one("OPT_STAKE", k.OPT_STAKE, 1, MAX_STAKE)
        self.fixed = reader.one("OPT_FIXED_HAND", k.OPT_FIXED_HAND, 0, NUM_CARDS // n)
        self.teams = reader.one("OPT_TEAMS", k.OPT_TEAMS, 0, 1)
        if self.teams and n not in (4, 6):
            self.fail("OPT_TEAMS", k.OPT_TEAMS, "the team variant needs 4 or 6 players")
        self.tiebreak = reader.one("OPT_TIEBREAK", k.OPT_TIEBREAK, 0, 1)

    def check_seat_blocks(self) -> None:
        pot = self.n * self.stake
        blocks = (  # name, offset, range, value of the seats beyond the player count
            ("LIVES", k.LIVES, 0, MAX_LIVES, 0),
            ("ALIVE", k.ALIVE, 0, 1, 0),
            ("IN_MANCHE", k.IN_MANCHE, 0, 1, 0),
            ("BIDS", k.BIDS, -1, k.MAX_TRICKS, -1),
            ("TRICKS", k.TRICKS, 0, k.MAX_TRICKS, 0),
            ("LOST_LAST", k.LOST_LAST, 0, MAX_LIVES, 0),
            ("COINS", k.COINS, 0, pot, 0),
            ("DRAW", k.DRAW, -1, NUM_CARDS - 1, -1),
        )
        self.seats = {block[0]: self.seat_block(*block) for block in blocks}

    def check_scalars(self) -> None:
        reader, n = self.reader, self.n
        if self.terminal:
            self.node = reader.one_of("NODE", k.NODE, [k.NODE_GAME_OVER])
            self.end = reader.one("END_REASON", k.END_REASON, 1, k.END_TEAM_SURVIVES)
        else:
            self.node = reader.one("NODE", k.NODE, 0, k.NODE_DECLARE)
            self.end = reader.one("END_REASON", k.END_REASON, 0, 0)
        self.dealer = reader.one("DEALER", k.DEALER, 0, n - 1)
        self.hand_size = reader.one("HAND_SIZE", k.HAND_SIZE, 0, k.MAX_TRICKS)
        self.leader = reader.one("LEADER", k.LEADER, 0, n - 1)
        self.trick_index = reader.one("TRICK_INDEX", k.TRICK_INDEX, 0, k.MAX_TRICKS)
        self.trick_len = reader.one("TRICK_LEN", k.TRICK_LEN, 0, n)
        self.declaration = reader.one("TRICK_DECL", k.TRICK_DECL, k.DECL_NONE, k.DECL_LEAVE)
        self.trick_goddesses = reader.one("TRICK_GODDESSES", k.TRICK_GODDESSES, 0, 3)
        self.duel = reader.one("DUEL", k.DUEL, 0, 1)
        self.face_up = reader.one("FACE_UP", k.FACE_UP, 0, k.DUEL_MANCHES)
        reader.one("MANCHE", k.MANCHE, 1, n * MAX_LIVES + 1)  # each manche costs a life
        reader.one("POT", k.POT, n * self.stake, n * self.stake)
        # scored: the game ended after the last trick of a manche (not on a third Goddess)
        self.scored = self.terminal and self.end != k.END_THIRD_GODDESS

    # ---- seats ----------------------------------------------------------------------------
    def check_seats_in_play(self) -> None:
        lives, alive, dealt = self.seats["LIVES"], self.seats["ALIVE"], self.seats["IN_MANCHE"]
        for seat in range(self.n):
            if alive[seat] != (lives[seat] > 0):
                self.fail(
                    f"ALIVE[{seat}]",
                    k.ALIVE + seat,
                    f"a seat is in the game exactly while it has lives (LIVES[{seat}] = "
                    f"{lives[seat]})",
                )
            if dealt[seat] < alive[seat] or (dealt[seat] > alive[seat] and not self.scored):
                self.fail(
                    f"IN_MANCHE[{seat}]",
                    k.IN_MANCHE + seat,
                    "the seats still in are those dealt in (until the manche is scored)",
                )
        self.players = sum(dealt)
        if self.players < 2:
            self.reader.fail("IN_MANCHE", dealt, "a manche is dealt to at least two players")
        if self.teams and not self.scored and len({s % 2 for s in range(self.n) if alive[s]}) < 2:
            self.reader.fail("ALIVE", alive, "the team game goes on only while both teams are in")
        self.require(dealt[self.dealer], "DEALER", k.DEALER, "the dealer is dealt into the manche")

    def check_duel_and_hand_size(self) -> None:
        size = self.hand_size
        if self.node == k.NODE_HAND_SIZE:
            self.require(
                not self.duel and not self.fixed,
                "NODE",
                k.NODE,
                "the dealer chooses the hand size only in an ordinary manche without a fixed size",
            )
            self.require(size == 0, "HAND_SIZE", k.HAND_SIZE, "the dealer has not chosen it yet")
        if self.duel:
            self.check_duel()
            return
        self.require(self.face_up == 0, "FACE_UP", k.FACE_UP, "Goddesses lie face up in duels only")
        if self.node == k.NODE_HAND_SIZE:
            return
        if self.fixed:
            expected = f"OPT_FIXED_HAND is {self.fixed}"
            self.require(size == self.fixed, "HAND_SIZE", k.HAND_SIZE, expected)
            return
        largest = min(NUM_CARDS // self.players, k.MAX_TRICKS)
        if not 1 <= size <= largest:
            self.fail(
                "HAND_SIZE", k.HAND_SIZE, f"must be in [1, {largest}] for {self.players} players"
            )

    def check_duel(self) -> None:
        """Two players, one card per face-up Goddess; the last Goddess is turned down only
        when the third duel manche (one card) ends with both players still in."""
        self.require(self.players == 2, "DUEL", k.DUEL, "the duel is played by two players")
        if not self.terminal:
            self.require(
                self.face_up >= 1, "FACE_UP", k.FACE_UP, "a duel goes on while a Goddess is up"
            )
        expected = self.face_up or 1
        if self.hand_size != expected:
            self.fail("HAND_SIZE", k.HAND_SIZE, f"this duel manche deals {expected} card(s)")

    def check_trick_counters(self) -> None:
        node, size, index, length = self.node, self.hand_size, self.trick_index, self.trick_len
        if node in (k.NODE_HAND_SIZE, k.NODE_BID):
            index_ok, length_ok = index == 0, length == 0
            rule = "no trick is played before the bidding ends"
        elif self.scored:
            index_ok, length_ok = index == size, length == 0
            rule = "the manche was scored after its last trick"
        else:
            index_ok = index < size
            if node == k.NODE_PLAY:
                length_ok = length < self.players
            else:  # DECLARE, or over on a third Goddess: a card was just played
                length_ok = 1 <= length <= self.players
            rule = f"at node {NODE_NAMES[node]}, a trick of {self.players} cards is under way"
        self.require(index_ok, "TRICK_INDEX", k.TRICK_INDEX, f"{rule} (hand size {size})")
        self.require(length_ok, "TRICK_LEN", k.TRICK_LEN, rule)

    # ---- cards ----------------------------------------------------------------------------
    def check_cards(self) -> None:
        """Each card in one place; sets ``self.played``: (trick, seat) -> card played."""
        reader, dealt, played = self.reader, self.seats["IN_MANCHE"], {}
        owners = reader.many("CARD_OWNER", k.CARD_OWNER, NUM_CARDS, -1, self.n - 1)
        tricks = reader.many("CARD_TRICK", k.CARD_TRICK, NUM_CARDS, -1, self.trick_index)
        counts = [0] * self.n
        for card in range(NUM_CARDS):
            owner, trick = owners[card], tricks[card]
            if owner < 0:
                if trick >= 0:
                    self.fail(
                        f"CARD_TRICK[{card}]", k.CARD_TRICK + card, "an undealt card is unplayed"
                    )
                continue
            if not dealt[owner]:
                self.fail(
                    f"CARD_OWNER[{card}]", k.CARD_OWNER + card, f"seat {owner} is not dealt in"
                )
            if self.duel and card in self.goddesses:
                self.fail(
                    f"CARD_OWNER[{card}]",
                    k.CARD_OWNER + card,
                    "in the duel the Goddesses lie face up",
                )
            counts[owner] += 1
            if trick >= 0:
                if (trick, owner) in played:
                    self.fail(
                        f"CARD_TRICK[{card}]",
                        k.CARD_TRICK + card,
                        f"seat {owner} already played {played[trick, owner]} in that trick",
                    )
                played[trick, owner] = card
        for seat in range(self.n):
            if dealt[seat] and counts[seat] != self.hand_size:
                reader.fail(
                    "CARD_OWNER",
                    owners,
                    f"seat {seat} got {counts[seat]} cards, hand size {self.hand_size}",
                )
        for trick in range(self.trick_index):
            for seat in range(self.n):
                if dealt[seat] and (trick, seat) not in played:
                    reader.fail(
                        "CARD_TRICK",
                        tricks,
                        f"seat {seat} played no card in completed trick {trick}",
                    )
        self.played = played

    # ---- tricks ---------------------------------------------------------------------------
    def check_past_tricks(self) -> None:
        """Replay the completed tricks: winners, declarations, wins, and who leads now."""
        dealt = self.seats["IN_MANCHE"]
        winners = self.reader.many("PAST_WINNER", k.PAST_WINNER, k.MAX_TRICKS, -1, self.n - 1)
        declared = self.reader.many("PAST_DECL", k.PAST_DECL, k.MAX_TRICKS, 0, k.DECL_LEAVE)
        leader = _next_seat(dealt, self.dealer)
        wins = [0] * self.n
        for trick in range(self.trick_index):
            winner = self.completed_trick_winner(trick, _clockwise(dealt, leader), declared[trick])
            if winners[trick] != winner:
                self.fail(f"PAST_WINNER[{trick}]", k.PAST_WINNER + trick, f"seat {winner} won it")
            wins[winner] += 1
            if trick < self.trick_index - 1 or not self.scored:
                leader = winner  # a scored manche keeps the leader of its last trick
        for trick in range(self.trick_index, k.MAX_TRICKS):
            if winners[trick] != -1:
                self.fail(f"PAST_WINNER[{trick}]", k.PAST_WINNER + trick, "trick not completed")
            if declared[trick] != k.DECL_NONE:
                self.fail(f"PAST_DECL[{trick}]", k.PAST_DECL + trick, "trick not completed")
        for seat in range(self.n):
            if self.seats["TRICKS"][seat] != wins[seat]:
                self.fail(
                    f"TRICKS[{seat}]", k.TRICKS + seat, f"seat {seat} won {wins[seat]} tricks"
                )
        self.require(self.leader == leader, "LEADER", k.LEADER, f"seat {leader} leads this trick")

    def completed_trick_winner(self, trick: int, seats: list[int], declared: int) -> int:
        cards = [self.played[trick, seat] for seat in seats]
        goddesses = sum(card in self.goddesses for card in cards)
        if goddesses > 2:
            self.reader.fail("CARD_TRICK", cards, f"a third Goddess in trick {trick} ends the game")
        if (declared != k.DECL_NONE) != (goddesses > 0):
            self.fail(
                f"PAST_DECL[{trick}]",
                k.PAST_DECL + trick,
                f"declared exactly when a Goddess is played (trick {trick} has {goddesses})",
            )
        return _trick_winner(cards, seats, declared, self.goddesses)

    def check_current_trick(self) -> None:
        length, index, values = self.trick_len, self.trick_index, self.values
        cards = self.reader.many("TRICK_CARDS", k.TRICK_CARDS, length, 0, NUM_CARDS - 1)
        self.reader.many("TRICK_SEATS", k.TRICK_SEATS, length, 0, self.n - 1)
        order = _clockwise(self.seats["IN_MANCHE"], self.leader)
        for i in range(length):
            seat = order[i]
            if values[k.TRICK_SEATS + i] != seat:
                self.fail(f"TRICK_SEATS[{i}]", k.TRICK_SEATS + i, f"clockwise from LEADER: {seat}")
            if self.played.get((index, seat)) != cards[i]:
                self.fail(
                    f"TRICK_CARDS[{i}]",
                    k.TRICK_CARDS + i,
                    f"CARD_TRICK marks {self.played.get((index, seat))} as seat {seat}'s card in "
                    f"trick {index}",
                )
        for i in range(length, k.MAX_PLAYERS):
            if values[k.TRICK_CARDS + i] != -1:
                self.fail(f"TRICK_CARDS[{i}]", k.TRICK_CARDS + i, "empty slot of the trick")
            if values[k.TRICK_SEATS + i] != -1:
                self.fail(f"TRICK_SEATS[{i}]", k.TRICK_SEATS + i, "empty slot of the trick")
        in_trick = sum(trick == index for trick, _ in self.played)
        if in_trick != length:
            self.fail(
                "TRICK_LEN",
                k.TRICK_LEN,
                f"{in_trick} card(s) are marked as played in trick {index}",
            )
        self.check_trick_goddesses(cards)

    def check_trick_goddesses(self, cards: list[int]) -> None:
        goddesses = sum(card in self.goddesses for card in cards)
        if goddesses != self.trick_goddesses:
            self.fail("TRICK_GODDESSES", k.TRICK_GODDESSES, f"the trick holds {goddesses}")
        last_is_goddess = bool(cards) and cards[-1] in self.goddesses
        if self.end == k.END_THIRD_GODDESS:
            ok = goddesses == 3 and last_is_goddess
            rule = "the game ended as a third Goddess was played in this trick"
        elif self.node == k.NODE_DECLARE:
            ok = goddesses == 1 and last_is_goddess
            rule = "a declaration follows the trick's first Goddess"
        else:
            ok, rule = goddesses <= 2, "a third Goddess ends the game at once"
        self.require(ok, "TRICK_GODDESSES", k.TRICK_GODDESSES, rule)
        must_declare = goddesses > 0 and self.node != k.NODE_DECLARE
        if (self.declaration != k.DECL_NONE) != must_declare:
            rule = "set once the trick's first Goddess declared" if must_declare else "not declared"
            self.fail("TRICK_DECL", k.TRICK_DECL, rule)

    # ---- bids -----------------------------------------------------------------------------
    def check_bids(self) -> None:
        """Bids placed clockwise from left of the dealer; sets ``self.next_bidder``."""
        bids, dealt, size = self.seats["BIDS"], self.seats["IN_MANCHE"], self.hand_size
        order = _clockwise(dealt, _next_seat(dealt, self.dealer))
        if self.node == k.NODE_HAND_SIZE:
            placed = 0
        elif self.node == k.NODE_BID:
            placed = sum(bids[seat] >= 0 for seat in order)
        else:
            placed = len(order)
        for seat in range(self.n):
            if not dealt[seat] and bids[seat] != -1:
                self.fail(f"BIDS[{seat}]", k.BIDS + seat, "a seat not dealt in does not bid")
        for i, seat in enumerate(order):
            if i < placed and not 0 <= bids[seat] <= size:
                self.fail(f"BIDS[{seat}]", k.BIDS + seat, f"must be in [0, {size}]")
            if i >= placed and bids[seat] != -1:
                self.fail(
                    f"BIDS[{seat}]", k.BIDS + seat, "bids go clockwise from left of the dealer"
                )
        if self.node == k.NODE_BID:
            self.require(placed < len(order), "NODE", k.NODE, "every player has bid: play begins")
            self.next_bidder = order[placed]
        elif self.node != k.NODE_HAND_SIZE and sum(bids[seat] for seat in order) == size:
            self.fail(
                f"BIDS[{self.dealer}]",
                k.BIDS + self.dealer,
                f"the dealer may not make the bids add up to the hand size {size}",
            )

    # ---- the seat to act ------------------------------------------------------------------
    def check_seat_to_act(self) -> None:
        node = self.node
        if node == k.NODE_HAND_SIZE:
            seat = self.dealer
        elif node == k.NODE_BID:
            seat = self.next_bidder
        else:  # the next player of the trick, or the one who played its first Goddess
            order = _clockwise(self.seats["IN_MANCHE"], self.leader)
            seat = order[self.trick_len] if node == k.NODE_PLAY else order[self.trick_len - 1]
        if self.values[HDR_CURRENT] != seat:
            self.fail("HDR_CURRENT", HDR_CURRENT, f"at node {NODE_NAMES[node]} seat {seat} decides")

    def check_nothing_paid_yet(self) -> None:
        for seat in range(self.n):
            if self.seats["COINS"][seat] != 0:
                self.fail(f"COINS[{seat}]", k.COINS + seat, "the pot is shared when the game ends")
            if self.seats["DRAW"][seat] != -1:
                self.fail(f"DRAW[{seat}]", k.DRAW + seat, "the leftover draw is at the end")

    # ---- lives and the end ----------------------------------------------------------------
    def check_lives_lost(self) -> None:
        """Nothing lost before the first scoring; exactly the misses in a scored last manche."""
        lost = self.seats["LOST_LAST"]
        if self.scored:
            misses = self.misses()
            for seat in range(self.n):
                if lost[seat] != min(misses[seat], self.seats["LIVES"][seat] + lost[seat]):
                    self.fail(
                        f"LOST_LAST[{seat}]",
                        k.LOST_LAST + seat,
                        f"seat {seat} missed its contract by {misses[seat]}",
                    )
        elif self.values[k.MANCHE] == 1:
            for seat in range(self.n):
                if lost[seat]:
                    self.fail(f"LOST_LAST[{seat}]", k.LOST_LAST + seat, "no manche was scored yet")

    def misses(self) -> list[int]:
        """Per seat, by how many tricks its contract (its team's in the variant) was missed."""
        dealt, bids, tricks = self.seats["IN_MANCHE"], self.seats["BIDS"], self.seats["TRICKS"]
        difference = [tricks[s] - bids[s] if dealt[s] else 0 for s in range(self.n)]
        if self.teams:
            team = [sum(difference[0::2]), sum(difference[1::2])]
            difference = [team[s % 2] for s in range(self.n)]
        return [abs(difference[s]) if dealt[s] else 0 for s in range(self.n)]

    def check_end(self) -> None:
        expected = self.expected_end()
        if self.end != expected:
            self.fail("END_REASON", k.END_REASON, f"the rules end this game with reason {expected}")
        self.check_coins(self.receivers())

    def expected_end(self) -> int:
        """The end reason the kernel gives this final position."""
        alive, lives = self.seats["ALIVE"], self.seats["LIVES"]
        if self.trick_goddesses == 3:  # IN_MANCHE == ALIVE: checked as unscored
            return k.END_THIRD_GODDESS
        left = [seat for seat in range(self.n) if alive[seat]]
        if self.teams and len(left) >= 2 and len({seat % 2 for seat in left}) == 1:
            return k.END_TEAM_SURVIVES
        if len(left) <= 1:
            if self.duel and not self.face_up:
                self.fail(
                    "FACE_UP", k.FACE_UP, "a Goddess is turned down when both duellists are in"
                )
            return k.END_LAST_SURVIVOR if left else k.END_ALL_ELIMINATED
        if not (self.duel and len(left) == 2 and self.face_up == 0):
            self.fail(
                "HDR_TERMINAL", HDR_TERMINAL, f"with {len(left)} players in, the game goes on"
            )
        more_lives_wins = self.tiebreak == k.TIEBREAK_LIVES and lives[left[0]] != lives[left[1]]
        return k.END_DUEL_MORE_LIVES if more_lives_wins else k.END_DUEL_SHARE

    def receivers(self) -> list[int]:
        """Flags of the seats the kernel pays, by end reason, then widened to their teams."""
        alive, lives, n = self.seats["ALIVE"], self.seats["LIVES"], self.n
        flags = [0] * n
        if self.end == k.END_THIRD_GODDESS:
            flags[self.values[k.TRICK_SEATS + self.trick_len - 1]] = 1
        elif self.end in (k.END_LAST_SURVIVOR, k.END_TEAM_SURVIVES):
            flags[alive.index(1)] = 1
        elif self.end == k.END_ALL_ELIMINATED:
            flags = list(self.seats["IN_MANCHE"])
        elif self.end == k.END_DUEL_MORE_LIVES:
            flags[max((s for s in range(n) if alive[s]), key=lambda s: lives[s])] = 1
        else:
            flags = list(alive)
        if self.teams:
            teams = {seat % 2 for seat in range(n) if flags[seat]}
            flags = [int(seat % 2 in teams) for seat in range(n)]
        return flags

    def check_coins(self, receivers: list[int]) -> None:
        """Equal shares of the pot; the leftover coins go to the highest leftover draws."""
        coins, draws, n = self.seats["COINS"], self.seats["DRAW"], self.n
        pot = n * self.stake
        share, leftover = divmod(pot, sum(receivers))
        drawn = sorted((draws[seat] for seat in range(n) if receivers[seat]), reverse=True)
        for seat in range(n):
            card = draws[seat]
            if not receivers[seat]:
                expected = 0
                if card != -1:
                    self.fail(f"DRAW[{seat}]", k.DRAW + seat, f"seat {seat} receives nothing")
            elif leftover:
                if card < 0 or card in self.goddesses or drawn.count(card) > 1:
                    reason = "each receiver draws a different non-Goddess card"
                    self.fail(f"DRAW[{seat}]", k.DRAW + seat, reason)
                expected = share + (card in drawn[:leftover])
            else:
                expected = share
                if card != -1:
                    self.fail(f"DRAW[{seat}]", k.DRAW + seat, "the pot divides exactly: no draw")
            if coins[seat] != expected:
                self.fail(
                    f"COINS[{seat}]", k.COINS + seat, f"seat {seat} receives {expected} of {pot}"
                )


# ---- the pending decision (core/decisions.py: the kernel's own combinations) ---------------
UNREAD = -9  # a field the pending node does not depend on
DECISION_FIELDS = (
    "NODE",
    "DUEL",
    "HAND_SIZE chosen",
    "DEALER",
    "the decider has bid",
    "TRICK_LEN",
    "TRICK_DECL",
    "LEADER",
    "the last card played is a Goddess",
    "the last card's player",
)
_READS = {
    k.NODE_HAND_SIZE: {"DUEL", "HAND_SIZE chosen", "DEALER"},
    k.NODE_BID: {"DUEL", "HAND_SIZE chosen", "DEALER", "the decider has bid", "TRICK_LEN"},
    k.NODE_PLAY: {
        "DUEL",
        "the decider has bid",
        "TRICK_LEN",
        "TRICK_DECL",
        "LEADER",
        "the last card played is a Goddess",
        "the last card's player",
    },
    k.NODE_DECLARE: {
        "TRICK_LEN",
        "TRICK_DECL",
        "the last card played is a Goddess",
        "the last card's player",
    },
    k.NODE_GAME_OVER: set(),
}


def decision_signature(state: np.ndarray) -> tuple[int, ...]:
    """The pending decision as ``DECISION_FIELDS`` (``UNREAD`` for fields the node does not
    depend on).

    Seats are the decider or another, never a partner: no decision of the kernel reads the
    teams (they only share the score), and whether the seat before the decider in a trick
    is a partner depends on who was eliminated, so a team relation made the table miss the
    team variant with unequal lives (issue 39). The layout checks above already derive the
    seat to act, the leader and the trick's seats from the rules."""
    s = state.tolist()
    current = s[HDR_CURRENT]
    length = s[k.TRICK_LEN]
    last_card = s[k.TRICK_CARDS + length - 1] if length else -1
    last_seat = s[k.TRICK_SEATS + length - 1] if length else -1
    goddesses = s[k.OPT_GODDESSES : k.OPT_GODDESSES + k.NUM_GODDESSES]
    has_bid = 0 <= current < k.MAX_PLAYERS and s[k.BIDS + current] >= 0
    values = (
        s[k.DUEL],
        int(s[k.HAND_SIZE] > 0),
        seat_relation(s[k.DEALER], current),
        int(has_bid),
        length,
        s[k.TRICK_DECL],
        seat_relation(s[k.LEADER], current),
        int(last_card in goddesses),
        seat_relation(last_seat, current),
    )
    reads = _READS[s[k.NODE]]
    return (s[k.NODE],) + tuple(
        value if name in reads else UNREAD
        for name, value in zip(DECISION_FIELDS[1:], values, strict=True)
    )
