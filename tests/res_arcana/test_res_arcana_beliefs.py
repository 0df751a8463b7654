"""Res Arcana ``sample_world`` against rejection sampling (``presages_env.core.beliefs``).

Each position is built by ``setup_position``; a candidate start is the same position with the
cards the tested seat cannot see relabelled by a uniform permutation (the artifacts of the
rivals' hands and decks and of the box; the monument deck below the top the seat knows) and a
fresh RNG (the shuffles to come). Rejection keeps the candidates under which the seat saw what
it saw in the real game after every action; ``sample_world`` must give the same distribution
of the key (a chi-square test of homogeneity, failure threshold ``Z_FAIL`` fixed beforehand).

Every replayed action is seen by the tested seat (seat 0) except a rival's choice of order
for the cards it looked at, which nobody else sees: the replay draws that one (``HIDDEN``)
uniformly among the orders, one draw per candidate; there are always six orders, so every
consistent final state is reached by one (deal, order) pair per order and stays uniform.

Each test has a power check: ``sample_world`` asked on the same state with part of the seat's
knowledge wiped (the behaviour before it was kept) must fail the same test.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from res_arcana_helpers import GAME

from presages_env.core.beliefs import Z_FAIL, final_state, homogeneity, seen_by, world_keys
from presages_env.core.rng import rng_seed
from presages_env.core.validation import InvalidStateError
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.cards import NAMES as NAME_OF
from presages_env.games.res_arcana.game import (
    LOOK_MONUMENTS,
    LOOK_OWN_DECK,
    PASS,
    claim_monument,
    component,
    essence,
    power,
    setup_position,
)

SEAT = 0
SAMPLES = 2000
WRONG_SAMPLES = 800
HIDDEN = -1  # a rival's order of the looked-at cards: drawn uniformly in each replay


def hidden_artifacts(state: np.ndarray, seat: int) -> list[int]:
    """Artifacts ``seat`` cannot see in a position from ``setup_position`` (nothing public)."""
    hidden = []
    for c in range(cd.NUM_ARTIFACTS):
        loc, owner = state[lay.LOC + c], state[lay.OWNER + c]
        if loc == lay.LOC_BOX or (loc in (lay.LOC_HAND, lay.LOC_DECK) and owner != seat):
            hidden.append(c)
    return hidden


def relabel(state: np.ndarray, cards: list[int], image: np.ndarray) -> np.ndarray:
    """``state`` with artifact ``cards[i]`` replaced by ``image[i]`` wherever it lies (hidden
    artifacts lie in a hand, a deck or the box: no essences, never turned)."""
    out = state.copy()
    for c, d in zip(cards, image, strict=True):
        for plane in (lay.LOC, lay.OWNER, lay.SEEN):
            out[plane + d] = state[plane + c]
    for s in range(GAME.num_players_of(state)):
        base = lay.DECK + s * lay.DECK_CAP
        for i in range(state[lay.DECK_SIZE + s]):
            c = state[base + i]
            if c in cards:
                out[base + i] = image[cards.index(c)]
    return out


def candidates(real: np.ndarray, seed: int, monuments: bool = False) -> Iterator[np.ndarray]:
    """The real start with its hidden artifacts (and, if asked, the monument deck below the
    top the seat knows) permuted uniformly, and a fresh RNG."""
    rng = np.random.default_rng(seed)
    cards = hidden_artifacts(real, SEAT)
    below = real[lay.MON_DECK_SIZE] - real[lay.MON_KNOWN + SEAT]
    while True:
        start = relabel(real, cards, rng.permutation(cards))
        if monuments:
            start[lay.MON_DECK : lay.MON_DECK + below] = rng.permutation(
                real[lay.MON_DECK : lay.MON_DECK + below]
            )
        rng_seed(start, np.int64(rng.integers(1 << 62)))
        yield start


def resolved(start, actions, rng) -> tuple[list[int], np.ndarray]:
    """``actions`` with each ``HIDDEN`` order drawn uniformly among the legal ones, and the
    final state, replaying from ``start`` with the kernels (``seen_by`` checks legality)."""
    out: list[int] = []
    state = start.copy()
    mask = np.zeros(lay.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(GAME.num_players_of(state), dtype=np.float32)
    for action in actions:
        if action == HIDDEN:
            GAME.kernel.legal_mask(state, mask)
            orders = np.flatnonzero(mask[lay.A_ORDER :]) + lay.A_ORDER
            action = int(orders[rng.integers(orders.size)])
        out.append(action)
        GAME.kernel.step(state, np.int64(action), rewards)
    return out, state


def rejection(real, actions, key, monuments=False, seed=0) -> Counter:
    """``beliefs.rejection_keys`` with the hidden orders drawn per candidate (see above)."""
    rng = np.random.default_rng(seed + 1)
    truth = seen_by(GAME, real, resolved(real, actions, rng)[0], SEAT)
    keys: Counter = Counter()
    for start in candidates(real, seed, monuments):
        played, final = resolved(start, actions, rng)
        if seen_by(GAME, start, played, SEAT) == truth:
            keys[key(final)] += 1
            if sum(keys.values()) == SAMPLES:
                return keys
    raise AssertionError("unreachable")


def check(real, actions, key: Callable, wiped: Callable, monuments=False):
    """Rejection against ``sample_world`` (must pass) and against ``sample_world`` on the
    state with knowledge wiped by ``wiped`` (must fail)."""
    truth = rejection(real, actions, key, monuments)
    state = final_state(GAME, real, resolved(real, actions, np.random.default_rng(1))[0])
    worlds = world_keys(GAME, state, SEAT, key, SAMPLES, seed=11)
    statistic, dof, z = homogeneity(truth, worlds)
    print(f"chi2 {statistic:.1f} dof {dof} z {z:.2f} ({len(truth)} categories)")
    assert dof >= 5 and z < Z_FAIL
    wrong = world_keys(GAME, wiped(state), SEAT, key, WRONG_SAMPLES, seed=12)
    statistic, dof, z = homogeneity(truth, wrong)
    print(f"wrong sampler: chi2 {statistic:.1f} dof {dof} z {z:.2f}")
    assert z >= Z_FAIL
    return state


def names(cards) -> tuple[str, ...]:
    return tuple(NAME_OF[int(c)] for c in cards)


def deck_of(state: np.ndarray, seat: int) -> list[int]:
    """Top first."""
    base = lay.DECK + seat * lay.DECK_CAP
    return [int(c) for c in state[base : base + state[lay.DECK_SIZE + seat]][::-1]]


def hand_of(state: np.ndarray, seat: int) -> list[int]:
    return [
        c
        for c in range(cd.NUM_ARTIFACTS)
        if state[lay.LOC + c] == lay.LOC_HAND and state[lay.OWNER + c] == seat
    ]


PILE = ("Vault", "Hawk", "Nightingale")  # seat 1's face-up discard pile


def rival_view(state: np.ndarray) -> tuple:
    """Seat 1's hand and deck (top first), the cards of its former discard pile by name, the
    others as '?'."""
    shown = [NAME_OF[c] if NAME_OF[c] in PILE else "?" for c in deck_of(state, 1)]
    held = sorted(NAME_OF[c] for c in hand_of(state, 1) if NAME_OF[c] in PILE)
    return tuple(held), tuple(shown)


def forget_pile(state: np.ndarray) -> np.ndarray:
    """The seat forgets where the reshuffled pile went (sample_world before it was kept)."""
    wiped = state.copy()
    seen = wiped[lay.SEEN : lay.SEEN + cd.NUM_ARTIFACTS]
    seen[seen == lay.SEEN_BY_ALL] = lay.SEEN_BY_OWNER
    return wiped


def reshuffle_position(hand: list[str], deck: list[str]) -> np.ndarray:
    return setup_position(
        2,
        mages=["Scholar", "Seer"],
        items=["Research", "Alchemy"],
        hands=[["Athanor"], hand],
        decks=[["Crypt", "Prism"], deck],
        discards=[[], list(PILE)],
        first_player=1,
        to_act=1,
    )


def test_a_rival_draws_from_its_reshuffled_discard_pile():
    """Seat 1 passes with an empty deck: its face-up discard pile is shuffled into its deck and
    it draws one. Seat 0 knows the drawn card is one of the three and the other two are the
    deck, in an order it does not know."""
    real = reshuffle_position(["Bone Dragon"], [])
    actions = [PASS, component("Protection")]  # pass, swapping Alchemy for Protection
    final = check(real, actions, rival_view, forget_pile)
    assert len(hand_of(final, 1)) == 2 and len(deck_of(final, 1)) == 2


def test_a_rival_reorders_its_deck_over_its_reshuffled_discard_pile():
    """Seat 1 has one unknown card left and looks at its top 3 with Seer: its discard pile is
    shuffled under that card first, and it puts the three back in an order seat 0 does not
    see. Seat 0 knows the bottom card is from the pile, not where the unknown card went."""
    real = reshuffle_position([], ["Bone Dragon"])
    actions = [power("Seer"), LOOK_OWN_DECK, HIDDEN]

    def keep_order(state: np.ndarray) -> np.ndarray:
        """The seat takes the looked-at positions for unmoved (no shuffle of their kinds)."""
        wiped = state.copy()
        wiped[lay.KNOWN_TOP + 1] = 0
        return wiped

    check(real, actions, rival_view, keep_order)


def test_a_rival_reorders_monuments_the_seat_had_seen():
    """Seat 0 knows the top 3 monuments (it looked earlier), claims a face-up one (the top
    refills the display), then seat 1 looks at the top 3 with Seer and puts them back in an
    order seat 0 does not see: seat 0 knows two of the three, not their order, and the third
    is one of the five others."""
    real = setup_position(
        2,
        mages=["Scholar", "Seer"],
        items=["Research", "Alchemy"],
        pools=["4G", ""],
        display=["Great Pyramid", "Library"],
        monument_deck=[
            "Temple",
            "Oracle",
            "Colossus",
            "Golden Statue",
            "Hanging Gardens",
            "Mausoleum",
            "Obelisk",
            "Solomon's Mine",
        ],
        monuments_known=[3, 0],
    )
    actions = [claim_monument("Great Pyramid"), power("Seer"), LOOK_MONUMENTS, HIDDEN]

    def top_three(state: np.ndarray) -> tuple[str, ...]:
        size = state[lay.MON_DECK_SIZE]
        return names(state[lay.MON_DECK + size - 3 : lay.MON_DECK + size][::-1])

    def forget_group(state: np.ndarray) -> np.ndarray:
        """The seat forgets which monuments are in the reordered top (the old behaviour)."""
        wiped = state.copy()
        wiped[lay.MON_GROUP + SEAT] = wiped[lay.MON_GROUP_MASK + SEAT] = 0
        return wiped

    final = check(real, actions, top_three, forget_group, monuments=True)
    assert final[lay.MON_GROUP + SEAT] == 3
    assert final[lay.MON_KNOWN + SEAT] == 0 and final[lay.MON_KNOWN + 1] == 3


# ---- what the worlds keep, checked directly ------------------------------------------------
def test_starter_set_hands_are_known_to_every_seat():
    """Starter sets (§2.7): each mage in play names its set, so its 3 artifacts are known to
    be in that seat's hand; only the 5 unseen cards of each deck are re-dealt."""
    state = GAME.new_state(3, 4, starter_sets=True)
    starting = {s: sorted(hand_of(state, s)) for s in range(3)}
    for seed in range(10):
        world = GAME.sample_world(state, 0, seed)
        assert {s: sorted(hand_of(world, s)) for s in range(3)} == starting


def test_a_seat_cannot_know_top_cards_of_its_deck_it_never_saw():
    """Issue 39: KNOWN_TOP shows the seat its deck's top cards, while ``sample_world``
    re-deals every unseen card of that deck; knowing an unseen top card is refused."""
    state = GAME.new_state(2, 0, starter_sets=True)
    GAME.checked_state(state)
    assert state[lay.SEEN + deck_of(state, SEAT)[0]] == lay.UNSEEN  # the 5 unseen starter cards
    state[lay.KNOWN_TOP + SEAT] = 1
    with pytest.raises(InvalidStateError, match=rf"KNOWN_TOP\[{SEAT}\] = 1: .* never saw"):
        GAME.checked_state(state)


def test_the_order_is_known_until_the_rival_chooses_it():
    """While seat 1 is still choosing the order of the monuments it looked at, seat 0 knows
    the top as it saw it; once the order is chosen, only which monuments are there."""
    state = setup_position(
        2,
        mages=["Scholar", "Seer"],
        items=["Research", "Alchemy"],
        first_player=1,
        monuments_known=[3, 0],
    )
    mon = lambda s: list(s[lay.MON_DECK : lay.MON_DECK + s[lay.MON_DECK_SIZE]][::-1])  # noqa: E731
    play = lambda s, a: GAME.step(s, a, np.zeros(2, dtype=np.float32))  # noqa: E731
    for action in (power("Seer"), LOOK_MONUMENTS):
        play(state, action)
    for seed in range(5):
        assert mon(GAME.sample_world(state, SEAT, seed))[:3] == mon(state)[:3]
    play(state, lay.A_ORDER + 5)
    tops = {tuple(mon(GAME.sample_world(state, SEAT, seed))[:3]) for seed in range(40)}
    assert len(tops) == 6 and {frozenset(t) for t in tops} == {frozenset(mon(state)[:3])}


def test_setup_position_carries_what_the_seats_know():
    """The docs' example (docs/res_arcana.md, positions at any round)."""
    state = setup_position(
        2,
        mages=["Seer", "Witch"],
        items=["Research", "Protection"],
        in_play=[["Hawk"], ["Fire Dragon"]],
        hands=[["Prism"], ["Crypt"]],
        decks=[["Athanor", "Mermaid", "Treant", "Elvish Bow"], ["Vault", "Horn of Plenty"]],
        pools=["3E 2G", "1C 4D"],
        display=["Temple", "Library"],
        first_player=1,
        to_act=1,
        round_number=3,
        known_tops=[3, 0],
        monuments_known=[0, 0],
        public=[[], ["Vault"]],
    )
    for action in (power("Fire Dragon"), essence("E")):  # the rest of the payment is forced
        GAME.step(state, action, np.zeros(2, dtype=np.float32))
    assert state[lay.NODE] == lay.NODE_ACTION
    assert state[lay.POOL : lay.POOL + 5].sum() == 1  # seat 0 paid 4 of its 5
    for seed in range(10):
        world = GAME.sample_world(state, 0, seed)
        assert deck_of(world, 0)[:3] == deck_of(state, 0)[:3]
        assert cd.CID["Vault"] in hand_of(world, 1) + deck_of(world, 1)
