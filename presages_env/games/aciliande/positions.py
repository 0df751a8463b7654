"""Aciliande positions set up by hand: ``setup_position`` checks the lives, the dealer, the
duel, the manche, the hands and the bids, starts the manche from them, and validates the state
like any other from outside."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS
from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.cards import NUM_CARDS
from presages_env.games.aciliande.options import MAX_LIVES


def is_int(value: Any) -> bool:
    """An int (NumPy's too), not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def setup_position(
    num_players: int,
    hands: Sequence[Iterable[int]] | None = None,
    dealer: int = 0,
    lives: Sequence[int] | None = None,
    bids: Sequence[int | None] | None = None,
    duel_face_up: int = 0,
    seed: int = 0,
    manche: int | None = None,
    lives_lost_last: Sequence[int] | None = None,
    **options: Any,
) -> np.ndarray:
    """A state at the start of any manche of a game, for tests, scenario studies and
    replaying external logs (the match so far is carried by ``lives``, ``duel_face_up``,
    ``manche`` and ``lives_lost_last``; the pot is the options' players x stake).

    num_players, options: as for a new game (see :class:`AciliandeOptions`).
    hands: each seat's cards (ints 0..21); seats with no lives hold none, the others the
        same number. ``None``: the manche starts as the game would start it — the dealer
        chooses the hand size, or (fixed size, duel) the cards are dealt from ``seed``.
    dealer: dealer of this manche (a seat still in the game).
    lives: life cards each seat has now (0 = eliminated; at least two seats above 0).
        Default: the starting lives of the options.
    bids: ``None`` to start at the bidding (left of the dealer), or one bid per seat
        (``None`` for eliminated seats; the dealer rule must hold) to start at the first
        lead (left of the dealer).
    duel_face_up: 0 for an ordinary manche; 1..3 for a duel manche with that many Goddesses
        face up (exactly two players in, hands of that size, no Goddess in them).
    seed: seeds the state's RNG (later deals and the leftover-coin draw).
    manche: the number of this manche in the game (``manche_number``, ``infos["manche"]``),
        1 to players x most starting lives + 1. Default: the smallest the position allows,
        1, or ``5 - duel_face_up`` in a duel (one ordinary manche, then the duel's 3, 2, 1).
    lives_lost_last: life cards each seat lost when the previous manche was scored
        (``infos["lives_lost_last_manche"]`` until this one is scored); default none. All 0
        in manche 1.

    The first trick is led by the player left of the dealer (a rule), so ``dealer`` also
    fixes the starter.

    Raises ``ValueError`` with what was wrong and what is allowed; the state built is
    validated last (:func:`~presages_env.core.validation.checked_state`), so a position the
    rules cannot reach is refused with the first bad slot's name.
    """
    # game.py imports this module
    from presages_env.games.aciliande.game import AciliandeGame, goddess_cards

    game = AciliandeGame()
    state = game.new_state(num_players, seed, **options)
    n = int(state[HDR_NUM_PLAYERS])
    for name, values in (("hands", hands), ("lives", lives), ("bids", bids)):
        _check_seat_list(name, values, n)
    life_counts = (
        lives if lives is not None else [int(x) for x in state[k.OPT_LIVES : k.OPT_LIVES + n]]
    )
    alive = _checked_table(state, life_counts, dealer, duel_face_up)
    if bids is not None and hands is None:
        raise ValueError("bids need hands: give the hands of the manche too")
    manche = _checked_manche(state, manche, duel_face_up)
    lost = _checked_lives_lost(lives_lost_last, manche, n)
    if hands is not None:
        size_rule = _hand_size_rule(state, duel_face_up, sum(alive))
        hands = _validate_hands(hands, alive, size_rule, duel_face_up > 0, goddess_cards(state))
    if bids is not None:
        bids = _validate_bids(bids, alive, len(hands[dealer]), dealer)

    state[k.LIVES : k.LIVES + n] = life_counts
    state[k.ALIVE : k.ALIVE + n] = alive
    state[k.DEALER] = dealer
    state[k.DUEL] = int(duel_face_up > 0)
    state[k.FACE_UP] = duel_face_up
    state[k.MANCHE] = manche - 1  # start_manche counts this one
    state[k.LOST_LAST : k.LOST_LAST + n] = lost
    k.start_manche(state)  # deals from the RNG or waits for the dealer when no hands given
    if hands is not None:
        _deal(state, hands, dealer)
    if bids is not None:
        state[k.BIDS : k.BIDS + n] = bids
        state[k.NODE] = k.NODE_PLAY
        state[HDR_CURRENT] = state[k.LEADER]
    return game.checked_state(state)  # a combination the checks above missed names its slot


# ---- the arguments, checked ------------------------------------------------------------
def _checked_table(
    state: np.ndarray, life_counts: Sequence[int], dealer: int, duel_face_up: int
) -> list[bool]:
    """Which seats are still in (two at least), checked with the dealer and the duel."""
    n = int(state[HDR_NUM_PLAYERS])
    if not all(is_int(x) and 0 <= x <= MAX_LIVES for x in life_counts):
        raise ValueError(f"lives are ints from 0 to {MAX_LIVES}, got {life_counts!r}")
    alive = [x > 0 for x in life_counts]
    if sum(alive) < 2:
        raise ValueError(f"a manche needs at least two players with lives, got {life_counts!r}")
    if not is_int(dealer) or not 0 <= dealer < n or not alive[dealer]:
        raise ValueError(f"dealer must be a seat 0..{n - 1} still in the game, got {dealer!r}")
    if not is_int(duel_face_up) or not 0 <= duel_face_up <= k.DUEL_MANCHES:
        raise ValueError(f"duel_face_up must be 0 (no duel) or 1..3, got {duel_face_up!r}")
    if duel_face_up and sum(alive) != 2:
        raise ValueError(f"a duel is played by exactly two players, got lives {life_counts!r}")
    if state[k.OPT_TEAMS] and len({s % 2 for s in range(n) if alive[s]}) < 2:
        raise ValueError(f"in the team variant both teams need a player in, got {life_counts!r}")
    return alive


def _checked_manche(state: np.ndarray, manche: int | None, duel_face_up: int) -> int:
    """The manche's number: default the smallest the position allows."""
    n = int(state[HDR_NUM_PLAYERS])
    first = k.DUEL_MANCHES + 2 - duel_face_up if duel_face_up else 1
    manche = first if manche is None else manche
    last = n * int(state[k.OPT_LIVES : k.OPT_LIVES + n].max()) + 1  # each manche costs a life
    if not is_int(manche) or not first <= manche <= last:
        raise ValueError(
            f"manche must be an int from {first} to {last} for this position "
            f"(a duel manche with {duel_face_up} Goddess(es) face up comes after "
            f"{first - 1} manche(s)), got {manche!r}"
            if duel_face_up
            else f"manche must be an int from 1 to {last}, got {manche!r}"
        )
    return manche


def _checked_lives_lost(lives_lost_last: Sequence[int] | None, manche: int, n: int) -> list[int]:
    _check_seat_list("lives_lost_last", lives_lost_last, n)
    lost = [0] * n if lives_lost_last is None else list(lives_lost_last)
    if not all(is_int(x) and 0 <= x <= MAX_LIVES for x in lost):
        raise ValueError(f"lives_lost_last are ints from 0 to {MAX_LIVES}, got {lost!r}")
    if manche == 1 and any(lost):
        raise ValueError(f"no manche was scored before manche 1, got lives_lost_last {lost!r}")
    return lost


def _hand_size_rule(state: np.ndarray, duel_face_up: int, players_in: int) -> tuple[int, int]:
    """The hand sizes allowed: the duel's, the fixed option's, or what the deck allows."""
    fixed = int(state[k.OPT_FIXED_HAND])
    if duel_face_up:
        return duel_face_up, duel_face_up
    if fixed:
        return fixed, fixed
    return 1, min(NUM_CARDS // players_in, k.MAX_TRICKS)


def _check_seat_list(name: str, values: Sequence[Any] | None, n: int) -> None:
    if values is not None and (not isinstance(values, (list, tuple)) or len(values) != n):
        raise ValueError(f"{name} must list {n} entries, one per seat, got {values!r}")


def _validate_hands(
    hands: Sequence[Iterable[int]],
    alive: list[bool],
    size_rule: tuple[int, int],
    duel: bool,
    goddesses: list[int],
) -> list[list[int]]:
    """Hands as lists, checked: distinct cards, equal sizes in range, none for the out."""
    n = len(alive)
    hands = [list(h) for h in hands]
    cards = [c for h in hands for c in h]
    if not all(is_int(c) and 0 <= c < NUM_CARDS for c in cards):
        raise ValueError(f"cards are ints 0..{NUM_CARDS - 1}, got hands {hands!r}")
    if len(set(cards)) != len(cards):
        raise ValueError(f"a card appears in two places: {hands!r}")
    for seat in range(n):
        if not alive[seat] and hands[seat]:
            raise ValueError(f"seat {seat} has no lives left, so its hand must be empty")
    sizes = {len(hands[s]) for s in range(n) if alive[s]}
    low, high = size_rule
    if len(sizes) != 1 or not low <= sizes.pop() <= high:
        raise ValueError(
            f"every player still in must hold the same number of cards, from {low} to {high}; "
            f"got hand sizes {[len(h) for h in hands]}"
        )
    if duel and set(cards) & set(goddesses):
        raise ValueError("in the duel the Goddesses are face up on the table, not in hands")
    return hands


def _validate_bids(
    bid_list: Sequence[int | None], alive: list[bool], size: int, dealer_seat: int
) -> list[int]:
    bid_values = []
    for seat, bid in enumerate(bid_list):
        if not alive[seat]:
            if bid is not None:
                raise ValueError(f"seat {seat} is out of the game: its bid must be None")
            bid_values.append(-1)
        elif not is_int(bid) or not 0 <= bid <= size:
            raise ValueError(f"seat {seat}'s bid must be an int from 0 to {size}, got {bid!r}")
        else:
            bid_values.append(int(bid))
    if sum(b for b in bid_values if b >= 0) == size:
        raise ValueError(
            f"the bids {list(bid_list)} add up to the hand size {size}: the dealer "
            f"(seat {dealer_seat}) may not allow that"
        )
    return bid_values


# ---- the state, built ------------------------------------------------------------------
def _deal(state: np.ndarray, hands: list[list[int]], dealer: int) -> None:
    """The hands given, dealt: the bidding starts left of the dealer."""
    state[k.CARD_OWNER : k.CARD_OWNER + NUM_CARDS] = -1
    for seat, cards in enumerate(hands):
        for card in cards:
            state[k.CARD_OWNER + card] = seat
    state[k.HAND_SIZE] = len(hands[dealer])
    state[k.NODE] = k.NODE_BID
    state[HDR_CURRENT] = k.next_alive(state, dealer)
