"""A simple Aciliande player that reads only its observation.

Hand size (dealer): the largest allowed. Bid: one trick per Goddess (declared take, the
first Goddess of a trick wins it) plus, per ordinary card, the chance that no stronger
unseen card lands in its trick; the legal bid nearest that sum less a margin. Play: a
third Goddess in a trick wins the game, so it goes at once. While its contract (its team's
in the variant) needs tricks: the weakest card with a fair chance to hold the trick, else
a Goddess declared take, else the weakest card. Once the contract is made: the strongest
card that cannot win (any card once a Goddess takes), else a Goddess declared leave, else
the weakest card.
"""

import numba as nb

from presages_env.games.aciliande import kernel as k
from presages_env.games.aciliande.cards import NUM_CARDS

# Bid this far below the expected number of tricks: losing a trick is easier to steer (low
# cards, a Goddess declared leave) than winning one, so missing by too many hurts less.
BID_MARGIN = 0.3
# Chasing a trick, a card is worth playing when its chance to hold the trick reaches this.
FAIR_CHANCE = 0.15


# ---- what the observation tells --------------------------------------------------------------
@nb.njit(cache=True)
def _holds(obs, card):
    return obs[k.OBS_HAND + card] == 1


@nb.njit(cache=True)
def _is_goddess(obs, card):
    return obs[k.OBS_GODDESS + card] == 1


@nb.njit(cache=True)
def _players_in(obs):
    count = 0
    for slot in range(k.MAX_PLAYERS):
        count += obs[k.OBS_LIVES + slot] > 0
    return count


@nb.njit(cache=True)
def _tricks_needed(obs):
    """Bid minus tricks won, summed over the partners in the team variant."""
    step = 2 if obs[k.OBS_TEAMS] else k.MAX_PLAYERS
    needed = 0
    for slot in range(0, k.MAX_PLAYERS, step):
        if obs[k.OBS_BIDS + slot] > 0:
            needed += obs[k.OBS_BIDS + slot] - 1 - obs[k.OBS_TRICKS + slot]
    return needed


@nb.njit(cache=True)
def _unseen(obs, card):
    """Neither held nor played; in the duel the Goddesses lie face up, out of every hand."""
    if _holds(obs, card) or obs[k.OBS_PLAYED_BY + card] > 0:
        return False
    return not (obs[k.OBS_DUEL] and _is_goddess(obs, card))


@nb.njit(cache=True)
def _threats_above(obs, card):
    """Unseen cards that could beat ``card``: stronger ordinary cards and any Goddess."""
    count = 0
    for other in range(NUM_CARDS):
        if _unseen(obs, other) and (other > card or _is_goddess(obs, other)):
            count += 1
    return count


@nb.njit(cache=True)
def _unseen_goddesses(obs):
    count = 0
    for card in range(NUM_CARDS):
        count += _unseen(obs, card) and _is_goddess(obs, card)
    return count


@nb.njit(cache=True)
def _met_in_a_trick(obs, players):
    """Chance that a given unseen card is played into our card's trick, each of ``players``
    other seats being taken to play one of the unseen cards (held or not) at random."""
    unseen = 0
    for card in range(NUM_CARDS):
        unseen += _unseen(obs, card)
    return players / max(unseen, 1)  # no unseen card left: no threat either


@nb.njit(cache=True)
def _win_chance(obs, card, players):
    """Chance that none of ``players`` other seats beats ``card`` in its trick."""
    return (1.0 - _met_in_a_trick(obs, players)) ** _threats_above(obs, card)


# ---- the current trick -----------------------------------------------------------------------
@nb.njit(cache=True)
def _trick_summary(obs):
    """(cards played, Goddesses among them, strongest ordinary card or -1)."""
    played = 0
    goddesses = 0
    best = -1
    for i in range(k.MAX_PLAYERS):
        card = obs[k.OBS_TRICK_CARDS + i] - 1
        if card < 0:
            break
        played += 1
        if _is_goddess(obs, card):
            goddesses += 1
        elif card > best:
            best = card
    return played, goddesses, best


@nb.njit(cache=True)
def _goddess_takes(obs, goddesses):
    """Whether a Goddess already holds the trick: declared take, or second after a leave."""
    return obs[k.OBS_TRICK_DECL] == k.DECL_TAKE or goddesses == 2


@nb.njit(cache=True)
def _lowest_goddess(obs):
    for card in range(NUM_CARDS):
        if _holds(obs, card) and _is_goddess(obs, card):
            return card
    return -1


@nb.njit(cache=True)
def _weakest(obs):
    """The weakest ordinary card held, or a Goddess when only Goddesses are left."""
    for card in range(NUM_CARDS):
        if _holds(obs, card) and not _is_goddess(obs, card):
            return card
    return _lowest_goddess(obs)


@nb.njit(cache=True)
def _strongest_below(obs, limit):
    """The strongest ordinary card held below ``limit``, or -1."""
    for card in range(limit - 1, -1, -1):
        if _holds(obs, card) and not _is_goddess(obs, card):
            return card
    return -1


# ---- decisions -------------------------------------------------------------------------------
@nb.njit(cache=True)
def _hand_size(mask):
    """The largest hand allowed: the more cards, the more skill counts."""
    size = k.MAX_TRICKS
    while not mask[k.ACT_HAND_SIZE + size - 1]:
        size -= 1
    return k.ACT_HAND_SIZE + size - 1


@nb.njit(cache=True)
def _bid(obs, mask):
    others = _players_in(obs) - 1
    expected = 0.0
    for card in range(NUM_CARDS):
        if _holds(obs, card):
            if _is_goddess(obs, card):
                expected += 1.0  # declared take, the first Goddess of a trick wins it
            else:
                expected += _win_chance(obs, card, others)
    target = expected - BID_MARGIN
    best = -1
    for bid in range(k.MAX_TRICKS + 1):
        if mask[k.ACT_BID + bid] and (best < 0 or abs(bid - target) < abs(best - target)):
            best = bid
    return k.ACT_BID + best


@nb.njit(cache=True)
def _card_to_win(obs, best, goddesses, players_after):
    """The weakest card with a fair chance to hold the trick, else a Goddess that takes,
    else the weakest card (saving the others for a better trick)."""
    if not _goddess_takes(obs, goddesses):
        for card in range(best + 1, NUM_CARDS):
            if (
                _holds(obs, card)
                and not _is_goddess(obs, card)
                and _win_chance(obs, card, players_after) >= FAIR_CHANCE
            ):
                return card
        goddess = _lowest_goddess(obs)
        # a second Goddess takes after a leave, but lets a later third one win the game
        safe = goddesses == 0 or players_after == 0 or _unseen_goddesses(obs) == 0
        if goddess >= 0 and safe:
            return goddess
    return _weakest(obs)


@nb.njit(cache=True)
def _card_to_lose(obs, best, goddesses):
    """The strongest card that cannot win, else a Goddess that leaves, else the weakest."""
    if _goddess_takes(obs, goddesses):
        strongest = _strongest_below(obs, NUM_CARDS)  # nothing can win: shed a danger
        return strongest if strongest >= 0 else _weakest(obs)
    below = _strongest_below(obs, best)
    if below >= 0:
        return below
    goddess = _lowest_goddess(obs)
    if goddesses == 0 and goddess >= 0:
        return goddess  # a second Goddess would take, so only the first one can leave
    return _weakest(obs)


@nb.njit(cache=True)
def _play(obs):
    played, goddesses, best = _trick_summary(obs)
    goddess = _lowest_goddess(obs)
    if goddesses == 2 and goddess >= 0:
        return k.ACT_CARD + goddess  # the third Goddess of a trick wins the whole game
    players_after = _players_in(obs) - played - 1
    if _tricks_needed(obs) > 0:
        return k.ACT_CARD + _card_to_win(obs, best, goddesses, players_after)
    return k.ACT_CARD + _card_to_lose(obs, best, goddesses)


@nb.njit(cache=True)
def _choose(obs, mask):
    if obs[k.OBS_NODE + k.NODE_HAND_SIZE]:
        return _hand_size(mask)
    if obs[k.OBS_NODE + k.NODE_BID]:
        return _bid(obs, mask)
    if obs[k.OBS_NODE + k.NODE_DECLARE]:
        return k.ACT_TAKE if _tricks_needed(obs) > 0 else k.ACT_LEAVE
    return _play(obs)


@nb.njit(cache=True)
def heuristic_actions(obs, masks, actions):
    for i in range(masks.shape[0]):
        actions[i] = _choose(obs[i], masks[i])
