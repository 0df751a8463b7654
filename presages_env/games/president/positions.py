"""Président positions set up by hand: ``setup_position`` (a manche from an explicit deal)
and ``setup_manche`` (a later manche, the match so far carried), each validated like any
state from outside."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS
from presages_env.core.validation import check_int
from presages_env.games.president import kernel as k
from presages_env.games.president.cards import NUM_CARDS, NUM_RANKS, RANK_NAMES, SUITS
from presages_env.games.president.options import MAX_MANCHES


def setup_position(
    num_players: int,
    hands: Sequence[Iterable[int | str]],
    leader: int,
    seed: int = 0,
    **options,
) -> np.ndarray:
    """A manche starting from an explicit deal, with ``leader`` to lead the first trick.

    ``hands[p]`` lists player p's cards by rank name (``["3", "3", "K", "2"]``) or index.
    Cards of the 52 that are in no hand count as already played this manche. Seating is
    player order; the match options are those of :class:`PresidentOptions`. The position is
    validated like any state from outside: a bad one raises ``ValueError`` naming the slot.
    """
    from presages_env.games.president.game import PresidentGame, rank_index  # game.py imports us

    game = PresidentGame()
    state = game.new_state(num_players, seed, **options)
    n = int(state[HDR_NUM_PLAYERS])
    if len(hands) != n:
        raise ValueError(f"hands must list {n} hands, one per player, got {len(hands)}")
    counts = np.zeros((n, NUM_RANKS), dtype=np.int64)
    for p, hand in enumerate(hands):
        for card in hand:
            counts[p, rank_index(card)] += 1
    over = [RANK_NAMES[r] for r in range(NUM_RANKS) if counts[:, r].sum() > SUITS]
    if over:
        raise ValueError(f"more than {SUITS} cards of rank(s) {over} across the hands")
    leader = check_int(leader, "leader", 0, n - 1)
    if not counts[leader].any():
        raise ValueError(f"leader must be a player who holds cards, got {leader}")
    if (counts.sum(axis=1) == 0).sum() > 0:
        raise ValueError("every player must hold at least one card at the start of a manche")
    state[k.HAND : k.HAND + n * NUM_RANKS] = counts.ravel()
    state[k.GONE : k.GONE + NUM_RANKS] = SUITS - counts.sum(axis=0)
    state[k.PLAYED_BY : k.PLAYED_BY + NUM_CARDS] = -1  # set aside: played by no one
    state[HDR_CURRENT] = leader
    return game.checked_state(state)


def setup_manche(
    num_players: int,
    hands: Sequence[Iterable[int | str]],
    last_places: Sequence[int],
    scores: Sequence[int] | None = None,
    manche: int = 1,
    seed: int = 0,
    **options,
) -> np.ndarray:
    """A later manche of a match, from an explicit deal, with the match history carried.

    ``hands[p]`` lists the cards *dealt* to player p (before the exchange), by rank name or
    index; cards of the 52 in no hand count as set aside (gone, played by no one).
    ``last_places[p]`` is p's finishing place in the previous manche (0 = Président): the
    players are seated in that order, the last player is the dealer, and the exchange takes
    place as in play: the last player's strongest card goes to the Président, who is then to
    give one back (the returned state is at the give-back, the Président to act, and play
    goes on with :func:`~presages_env.core.state_io.apply_actions` like any state).
    ``scores[p]`` are p's seed points after the ``manche`` manches already played (default:
    2 to the Président and 1 to the second, which is what one manche gives). ``num_manches``
    (an option) defaults to ``manche + 1``. A bad position raises ``ValueError``.
    """
    n = num_players
    hands = [list(hand) for hand in hands]
    manche = check_int(manche, "manche (manches already played)", 1, MAX_MANCHES - 1)
    options.setdefault("num_manches", manche + 1)
    if not all(hands):
        raise ValueError("every player must be dealt at least one card")
    state = setup_position(n, hands, leader=0, seed=seed, **options)
    if not manche < state[k.OPT_NUM_MANCHES]:
        raise ValueError(
            f"manche (manches already played) must be 1..num_manches-1, got {manche!r}"
        )
    if len(last_places) != n:
        raise ValueError(f"last_places must give each of the {n} players a place 0..{n - 1}")
    last_places = [check_int(x, f"last_places[{p}]", 0, n - 1) for p, x in enumerate(last_places)]
    if sorted(last_places) != list(range(n)):
        raise ValueError(f"last_places must give each of the {n} players a place 0..{n - 1}")
    if scores is None:
        scores = [2 if place == 0 else (1 if place == 1 else 0) for place in last_places]
    if len(scores) != n:
        raise ValueError(f"scores must list {n} scores, one per player, got {len(scores)}")
    most = 2 * manche  # the Président's 2 points in every manche played
    scores = [check_int(x, f"scores[{p}] (SCORE)", 0, most) for p, x in enumerate(scores)]
    for p, place in enumerate(last_places):
        state[k.PLAYER_AT_SEAT + place] = p
        state[k.SEAT_OF + p] = place
        state[k.LAST_PLACE + p] = place
        state[k.SCORE + p] = scores[p]
    state[k.MANCHE] = manche
    state[k.DEALER] = state[k.PLAYER_AT_SEAT + n - 1]
    gone = state[k.GONE : k.GONE + NUM_RANKS].copy()  # the set-aside cards
    k._start_manche(state, int(state[k.PLAYER_AT_SEAT]), None)
    state[k.GONE : k.GONE + NUM_RANKS] = gone
    k.start_exchange(state, None)
    from presages_env.games.president.game import PresidentGame  # game.py imports this module

    return PresidentGame().checked_state(state)
