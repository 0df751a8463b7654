"""Validation of a Président state from outside: every slot of the layout in ``kernel.py``.

The kernels index arrays with slot values (the seat to act, ``TOP_RANK``, ``TOP_PLAYER``,
places, seats, the exchange parties) and loop until they find a holder, so a state is
accepted only if it is one the rules can reach (or a search world ``sample_world`` writes
from one). The shared header is already checked (see :mod:`presages_env.core.validation`);
here, the first bad slot is reported by its layout name:

- ranges: options; card counts 0..4; seating, places, scores, manche, exchange and dealer
  slots; unused entries of the ``MAX_PLAYERS``-sized arrays hold what ``reset`` writes
  (``HAND``/``PASSED``/``PLACE``/``SCORE`` 0, ``LAST_PLACE`` -1, the seating the identity);
- cards: hands plus ``GONE`` hold exactly 4 of each rank; the play record ``PLAYED_BY``
  (``DECK`` after the deal) names a player or -1 for each card gone, -1 beyond;
- seating: ``PLAYER_AT_SEAT`` is a permutation and ``SEAT_OF`` its inverse; the identity in
  the first manche; afterwards the previous manche's finishing order (``LAST_PLACE``), the
  last player dealt (``DEALER``) and the exchange parties are the last player and the
  Président; hands never exceed what the Président-first deal gave their seat (exactly
  that at the give-back, unless a set-up set cards aside);
- places: the players out hold places ``0..NUM_OUT-1`` once each and no card, the others
  hold cards (a finished match: every place given, only the last player holds cards);
  ``LAST_PLACE``, ``SCORE`` (3 points a manche, ``MANCHE`` manches played) agree with them;
- phase: the give-back is a freshly dealt manche (nothing played, exact hand sizes unless
  a set-up set cards aside) with the Président to act; the exchange slots match the phase,
  and undoing the plays (the play record) and the exchange leaves dealt hands with no
  negative count, the last player's with nothing above the card given and at least that
  card, which ``sample_world`` relies on; ``EXCH_RECEIVED = -1`` in a later manche (a world
  from the earlier sampler, which forgot the exchange for a player outside it) is accepted;
- trick: ``TOP_RANK``/``TOP_COUNT`` empty together; a play to beat has been played by
  ``TOP_PLAYER``, who is a holder or the last player out; ``PASSED`` marks exactly the
  ``PASSES`` holders after ``TOP_PLAYER`` in turn order, and the seat to act is the next
  one (or, on an empty table, the leader the kernel picks), so every loop ends and every
  index stays in range.
"""

from __future__ import annotations

import numpy as np

from presages_env.core.decisions import NOBODY, seat_relation
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.core.validation import SlotReader
from presages_env.games.president import kernel as k
from presages_env.games.president.cards import NUM_CARDS, NUM_RANKS, SUITS

POINTS_PER_MANCHE = 3  # 2 for the Président, 1 for the Vice-président
NO_ONE = -1
_EXCHANGE_SLOTS = (
    ("EXCH_FROM", k.EXCH_FROM),
    ("EXCH_TO", k.EXCH_TO),
    ("EXCH_RECEIVED", k.EXCH_RECEIVED),
    ("EXCH_GIVEN", k.EXCH_GIVEN),
)


def validate_state(state: np.ndarray) -> None:
    """Raise :class:`~presages_env.core.validation.InvalidStateError` for the first bad slot."""
    check = _PresidentCheck(state)
    check.ranges()
    check.cards()
    check.seating()
    check.places()
    check.exchange()
    check.history()
    check.trick()


def deal_size(num_players: int, seat: int) -> int:
    """Cards the deal gives ``seat`` when dealing starts at seat 0 (the Président)."""
    return NUM_CARDS // num_players + (1 if seat < NUM_CARDS % num_players else 0)


class _PresidentCheck:
    """One state's slots, read and range-checked once, then checked against each other."""

    def __init__(self, state: np.ndarray) -> None:
        self.r = SlotReader(state)
        self.n = self.r[HDR_NUM_PLAYERS]
        self.terminal = self.r[HDR_TERMINAL] == 1
        self.current = self.r[HDR_CURRENT]

    # ---- ranges, slot by slot ------------------------------------------------------------
    def ranges(self) -> None:
        """Each slot alone, so that no later check indexes with an unchecked value."""
        r, n = self.r, self.n
        self.num_manches = r[k.OPT_NUM_MANCHES]  # the options are checked before (core)
        self.hands = [
            r.many(f"HAND[{p}]", k.HAND + p * NUM_RANKS, NUM_RANKS, 0, SUITS) for p in range(n)
        ]
        for p in range(n, k.MAX_PLAYERS):
            r.zeros(f"HAND[{p}]", k.HAND + p * NUM_RANKS, NUM_RANKS)
        self.sizes = [sum(hand) for hand in self.hands]
        self.gone = r.many("GONE", k.GONE, NUM_RANKS, 0, SUITS)
        self.at_seat = self._per_player("PLAYER_AT_SEAT", k.PLAYER_AT_SEAT, 0, n - 1, None)
        self.seat_of = self._per_player("SEAT_OF", k.SEAT_OF, 0, n - 1, None)
        self.phase = r.one_of("PHASE", k.PHASE, [k.PHASE_PLAY, k.PHASE_GIVE_BACK])
        self.top_rank = r.one("TOP_RANK", k.TOP_RANK, -1, NUM_RANKS - 1)
        self.top_count = r.one("TOP_COUNT", k.TOP_COUNT, 0, k.MAX_SET)
        self.top_player = r.one("TOP_PLAYER", k.TOP_PLAYER, NO_ONE, n - 1)
        self.passes = r.one("PASSES", k.PASSES, 0, n - 1)
        self.passed = self._per_player("PASSED", k.PASSED, 0, 1, 0)
        self.place = self._per_player("PLACE", k.PLACE, -1, n - 1, 0)
        if self.terminal:
            self._equal("NUM_OUT", k.NUM_OUT, n, "once over, every player has a place")
            self.num_out = n
        else:
            self.num_out = r.one("NUM_OUT", k.NUM_OUT, 0, n - 2)
        self.last_place = self._per_player("LAST_PLACE", k.LAST_PLACE, -1, n - 1, -1)
        if self.terminal:
            manches = self.num_manches
            self._equal("MANCHE", k.MANCHE, manches, "once over, OPT_NUM_MANCHES were played")
            self.manche = manches
        else:
            self.manche = r.one("MANCHE", k.MANCHE, 0, self.num_manches - 1)
        self.score = self._per_player("SCORE", k.SCORE, 0, 2 * self.manche, 0)
        self.exch_from = r.one("EXCH_FROM", k.EXCH_FROM, NO_ONE, n - 1)
        self.exch_to = r.one("EXCH_TO", k.EXCH_TO, NO_ONE, n - 1)
        self.received = r.one("EXCH_RECEIVED", k.EXCH_RECEIVED, -1, NUM_RANKS - 1)
        self.given = r.one("EXCH_GIVEN", k.EXCH_GIVEN, -1, NUM_RANKS - 1)
        self.dealer = r.one("DEALER", k.DEALER, 0, n - 1)
        self.played_by = r.many("PLAYED_BY", k.PLAYED_BY, NUM_CARDS, -1, n - 1)

    def _per_player(
        self, name: str, offset: int, low: int, high: int, unused: int | None
    ) -> list[int]:
        """The first ``n`` entries in ``[low, high]``; the rest equal ``unused`` (``None``:
        their own index, as ``reset`` writes into the seating arrays)."""
        values = self.r.many(name, offset, self.n, low, high)
        for i in range(self.n, k.MAX_PLAYERS):
            expected = i if unused is None else unused
            self.r.require(
                self.r[offset + i] == expected,
                f"{name}[{i}]",
                self.r[offset + i],
                f"unused entry (beyond {self.n} players) must be {expected}",
            )
        return values

    # ---- cards --------------------------------------------------------------------------
    def cards(self) -> None:
        """Every rank's 4 cards are in a hand or gone; the shuffle scratch is a deck."""
        for rank in range(NUM_RANKS):
            held = sum(hand[rank] for hand in self.hands)
            self.r.require(
                held + self.gone[rank] == SUITS,
                f"GONE[{rank}]",
                self.gone[rank],
                f"the hands hold {held} cards of this rank: hands and GONE must hold {SUITS}",
            )
        self.played = [[0] * NUM_RANKS for _ in range(self.n)]
        for rank in range(NUM_RANKS):
            for j in range(SUITS):
                who = self.played_by[rank * SUITS + j]
                if j >= self.gone[rank]:
                    self.r.require(
                        who == -1,
                        f"PLAYED_BY[{rank * SUITS + j}]",
                        who,
                        f"GONE[{rank}] = {self.gone[rank]}: a card not gone has no player",
                    )
                elif who >= 0:
                    self.played[who][rank] += 1
        self.anything_played = any(any(row) for row in self.played)

    # ---- seating ------------------------------------------------------------------------
    def seating(self) -> None:
        """A permutation and its inverse; the identity until the first manche has ended."""
        for seat, player in enumerate(self.at_seat):
            self.r.require(
                self.seat_of[player] == seat,
                f"SEAT_OF[{player}]",
                self.seat_of[player],
                f"PLAYER_AT_SEAT[{seat}] = {player}: SEAT_OF must be its inverse",
            )
        if not self._later_manche():
            for seat, player in enumerate(self.at_seat):
                self.r.require(
                    player == seat,
                    f"PLAYER_AT_SEAT[{seat}]",
                    player,
                    "the first manche is played in player order",
                )

    def _later_manche(self) -> bool:
        """The manche in play (or the last one played, once over) is not the first."""
        return self.manche - (1 if self.terminal else 0) > 0

    # ---- places and hands ---------------------------------------------------------------
    def places(self) -> None:
        """Places ``0..NUM_OUT-1`` once each, given exactly to the players without cards."""
        owner = {}
        for p, place in enumerate(self.place):
            if place < 0:
                continue
            self.r.require(
                place < self.num_out and place not in owner,
                f"PLACE[{p}]",
                place,
                f"NUM_OUT = {self.num_out}: places 0..NUM_OUT-1 go to one player each",
            )
            owner[place] = p
        self.r.require(
            len(owner) == self.num_out,
            "NUM_OUT",
            self.num_out,
            f"{len(owner)} players have a place",
        )
        for p in range(self.n):
            if self.terminal:
                holds = self.place[p] == self.n - 1
                why = "once over, only the last player (place n-1) holds cards"
            else:
                holds = self.place[p] < 0
                why = "a player holds cards exactly while without a place"
            self.r.require((self.sizes[p] > 0) == holds, f"HAND[{p}]", self.sizes[p], why)

    # ---- earlier manches: last places, scores, dealer -----------------------------------
    def history(self) -> None:
        """What the manches already played left: last places, scores, the dealer, the deal."""
        if self.manche == 0:
            for p in range(self.n):
                self._equal(f"LAST_PLACE[{p}]", k.LAST_PLACE + p, -1, "no manche has ended")
        else:
            self._check_last_places()
        total = sum(self.score)
        self.r.require(
            total == POINTS_PER_MANCHE * self.manche,
            "SCORE",
            self.score,
            f"{self.manche} manches played give {POINTS_PER_MANCHE * self.manche} points in all",
        )
        if self._later_manche():
            self._check_later_deal()

    def _check_last_places(self) -> None:
        """A permutation: the seating now, or this manche's places once the match is over."""
        expected = self.place if self.terminal else self.seat_of
        source = "PLACE" if self.terminal else "SEAT_OF"
        for p, last in enumerate(self.last_place):
            self.r.require(
                last == expected[p],
                f"LAST_PLACE[{p}]",
                last,
                f"must equal {source}[{p}] = {expected[p]}",
            )
        for p, last in enumerate(self.last_place):
            least = 2 if last == 0 else (1 if last == 1 else 0)
            self.r.require(
                self.score[p] >= least,
                f"SCORE[{p}]",
                self.score[p],
                f"place {last} in the last manche gave at least {least} points",
            )

    def _check_later_deal(self) -> None:
        """After a manche the last player deals to the Président first; no hand grows."""
        last = self.at_seat[self.n - 1]
        self.r.require(
            self.dealer == last, "DEALER", self.dealer, f"the last player ({last}) deals"
        )
        for seat, player in enumerate(self.at_seat):
            dealt = deal_size(self.n, seat)
            if self.phase == k.PHASE_GIVE_BACK:
                dealt += 1 if seat == 0 else (-1 if seat == self.n - 1 else 0)
                set_aside = sum(self.gone) > 0
                ok = self.sizes[player] <= dealt if set_aside else self.sizes[player] == dealt
                why = f"at the give-back, seat {seat} holds {dealt} cards (fewer if set aside)"
            else:
                ok = self.sizes[player] <= dealt
                why = f"seat {seat} was dealt {dealt} cards and got none since"
            self.r.require(ok, f"HAND[{player}]", self.sizes[player], why)

    # ---- the exchange -------------------------------------------------------------------
    def exchange(self) -> None:
        """From the second manche on, the last player gave the Président their strongest
        card, and the Président gives one back before play.

        ``EXCH_RECEIVED = -1`` then marks a world from the earlier ``sample_world``, which
        forgot the exchange for a player outside it; its give-back may have been played
        since, so ``EXCH_GIVEN`` is free there.
        """
        if not self._later_manche():
            for name, offset in _EXCHANGE_SLOTS:
                self._equal(name, offset, -1, "no exchange in the first manche")
            self.r.require(
                self.phase == k.PHASE_PLAY, "PHASE", self.phase, "no give-back in the first manche"
            )
            return
        president, last = self.at_seat[0], self.at_seat[self.n - 1]
        self._equal("EXCH_TO", k.EXCH_TO, president, "the Président (seat 0) receives")
        self._equal("EXCH_FROM", k.EXCH_FROM, last, "the last player (last seat) gives")
        if self.phase == k.PHASE_GIVE_BACK:
            self._check_give_back()
        elif self.received >= 0:
            self.r.require(
                self.given >= 0,
                "EXCH_GIVEN",
                self.given,
                "the Président gave a card back before play (PHASE = play)",
            )
        if self.received >= 0:
            self._check_exchanged_hands()

    def _check_give_back(self) -> None:
        """The Président is to give a card back; nothing is played (the exact hand sizes
        checked with the deal leave no card in ``GONE``)."""
        self.r.require(not self.terminal, "PHASE", self.phase, "a finished match has no give-back")
        self.r.require(
            self.given == -1,
            "PHASE",
            self.phase,
            f"the give-back is done (EXCH_GIVEN = {self.given}): the phase is play",
        )
        self._equal("HDR_CURRENT", HDR_CURRENT, self.exch_to, "the Président gives back")
        self._equal("TOP_PLAYER", k.TOP_PLAYER, NO_ONE, "nothing is played before the give-back")

    def _check_exchanged_hands(self) -> None:
        """Undoing the plays and the exchange leaves dealt hands without a negative count,
        the last player's with nothing above the card given (``sample_world`` deals within
        these bounds and needs them to hold)."""
        received, given = self.received, self.given
        for party in (self.exch_from, self.exch_to):
            sign = 1 if party == self.exch_from else -1
            for rank in range(NUM_RANKS):
                dealt = self.hands[party][rank] + self.played[party][rank]
                dealt += sign * ((1 if rank == received else 0) - (1 if rank == given else 0))
                if party == self.exch_from and rank > received:
                    ok, why = dealt == 0, f"the last player gave their strongest card ({received})"
                else:
                    ok, why = dealt >= 0, "undoing the plays and the exchange leaves a card count"
                if party == self.exch_from and rank == received:
                    ok, why = dealt >= 1, f"the last player was dealt the card given ({received})"
                self.r.require(
                    ok,
                    f"HAND[{party}][{rank}]",
                    self.hands[party][rank],
                    f"{why} (given back: {given}, played: {self.played[party][rank]})",
                )

    # ---- the trick and the seat to act ---------------------------------------------------
    def trick(self) -> None:
        """The play to beat, who made it, who passed since, and whose turn it is."""
        self.r.require(
            (self.top_rank < 0) == (self.top_count == 0),
            "TOP_COUNT",
            self.top_count,
            f"TOP_RANK = {self.top_rank}: no count without a play to beat, 1..4 with one",
        )
        if self.terminal:
            self._check_final_play()
            self._check_play_is_gone()
        elif self.top_player == NO_ONE:
            self._check_nothing_played()
            self._check_lead()
        else:
            self._check_play_is_gone()
            self._check_top_player_place()
            if self.top_rank < 0:
                self._check_lead()
            else:
                self._check_following()

    def _check_final_play(self) -> None:
        """The match ended on the play that took the second-to-last player out."""
        self.r.one("TOP_RANK", k.TOP_RANK, 0, NUM_RANKS - 1)
        self.r.require(
            self.top_player >= 0 and self.place[self.top_player] == self.n - 2,
            "TOP_PLAYER",
            self.top_player,
            "the last play of the match took out the second-to-last player (place n-2)",
        )
        self._equal("PASSES", k.PASSES, 0, "the match ended on a play")
        self.r.zeros("PASSED", k.PASSED, self.n)

    def _check_play_is_gone(self) -> None:
        """``TOP_PLAYER`` played this manche, so cards are gone, the play to beat among them."""
        self.r.require(
            sum(self.gone) > 0,
            "TOP_PLAYER",
            self.top_player,
            "a play was made this manche but GONE holds no card",
        )
        if self.top_rank >= 0:
            self.r.require(
                self.gone[self.top_rank] >= self.top_count,
                "TOP_RANK",
                self.top_rank,
                f"the play to beat ({self.top_count} of this rank) is not among the "
                f"{self.gone[self.top_rank]} gone",
            )

    def _check_top_player_place(self) -> None:
        """A player out made the last play only if it took them out, last so far."""
        place = self.place[self.top_player]
        self.r.require(
            place < 0 or place == self.num_out - 1,
            "TOP_PLAYER",
            self.top_player,
            f"out with place {place}, so not the last to play (the last out has place "
            f"NUM_OUT - 1 = {self.num_out - 1})",
        )

    def _check_nothing_played(self) -> None:
        """No play yet this manche: an empty table, no one out; after the first manche the
        full deal is untouched and the Président leads."""
        self._equal("TOP_RANK", k.TOP_RANK, -1, "nothing is played yet (TOP_PLAYER = -1)")
        self._equal("NUM_OUT", k.NUM_OUT, 0, "nothing is played yet (TOP_PLAYER = -1)")
        if self._later_manche():
            self.r.require(
                not self.anything_played,
                "PLAYED_BY",
                self.played_by,
                "nothing is played yet (TOP_PLAYER = -1): only set-aside cards are gone",
            )
            self._equal("HDR_CURRENT", HDR_CURRENT, self.at_seat[0], "the Président leads")

    def _check_lead(self) -> None:
        """An empty table: no passes; a holder leads, the one the kernel picks after a trick."""
        self._equal("PASSES", k.PASSES, 0, "no pass on an empty table")
        self.r.zeros("PASSED", k.PASSED, self.n)
        self.r.require(
            self.place[self.current] < 0, "HDR_CURRENT", self.current, "the leader holds cards"
        )
        if self.top_player == NO_ONE:
            return
        if self.place[self.top_player] < 0:
            leader = self.top_player
        else:
            leader = self._holders_after(self.top_player)[0]
        self._equal(
            "HDR_CURRENT", HDR_CURRENT, leader, "who won the trick leads, or the next holder"
        )

    def _check_following(self) -> None:
        """The holders after ``TOP_PLAYER`` passed in turn, ``PASSES`` of them so far; the
        next one acts, and at least one holder has not passed yet."""
        chain = self._holders_after(self.top_player)
        self.r.one("PASSES", k.PASSES, 0, len(chain) - 1)
        for p in range(self.n):
            expected = 1 if p in chain[: self.passes] else 0
            self.r.require(
                self.passed[p] == expected,
                f"PASSED[{p}]",
                self.passed[p],
                f"PASSES = {self.passes}: the first PASSES holders after TOP_PLAYER in turn "
                "order passed, no one else",
            )
        self._equal(
            "HDR_CURRENT", HDR_CURRENT, chain[self.passes], "the next holder after the passes acts"
        )

    def _equal(self, name: str, offset: int, expected: int, why: str) -> None:
        value = self.r[offset]
        self.r.require(value == expected, name, value, f"must be {expected}: {why}")

    def _holders_after(self, player: int) -> list[int]:
        """The other players still holding cards, in turn order after ``player``."""
        seat = self.seat_of[player]
        others = (self.at_seat[(seat + step) % self.n] for step in range(1, self.n))
        return [p for p in others if self.place[p] < 0]


# ---- the pending decision (core/decisions.py: the kernel's own combinations) ---------------
DECISION_FIELDS = (
    "PHASE",
    "TOP_COUNT",
    "TOP_PLAYER",
    "EXCH_FROM",
    "EXCH_TO",
    "the decider has passed",
    "first manche",
)


def decision_signature(state: np.ndarray) -> tuple[int, ...]:
    """The pending decision as ``DECISION_FIELDS`` (seats relative to the seat to act)."""
    s = state.tolist()
    current = s[HDR_CURRENT]
    passed = 0 <= current < k.MAX_PLAYERS and s[k.PASSED + current]
    return (
        s[k.PHASE],
        s[k.TOP_COUNT],
        seat_relation(s[k.TOP_PLAYER], current) if s[k.TOP_COUNT] else NOBODY,
        seat_relation(s[k.EXCH_FROM], current),
        seat_relation(s[k.EXCH_TO], current),
        int(passed),
        int(s[k.MANCHE] == 0),
    )
