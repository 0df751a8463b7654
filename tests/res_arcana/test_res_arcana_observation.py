"""What a seat observes (deliverable 4): its own cards, everything public, nothing hidden."""

import numpy as np
from res_arcana_helpers import GAME, position

from presages_env.core.header import HDR_TERMINAL
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.game import (
    LOOK_MONUMENTS,
    LOOK_OWN_DECK,
    PASS,
    component,
    order_action,
    play,
    power,
)


def observe(state, seat):
    obs = np.zeros(GAME.obs_size(GAME.num_players_of(state)), dtype=np.int8)
    GAME.observe(state, seat, obs)
    return obs


def zone(obs, name):
    return int(obs[lay.OBS_COMPONENTS + lay.PLANE_ZONE * cd.NUM_COMPONENTS + cd.cid_of(name)])


def seat_field(obs, seat, field):
    return int(obs[lay.OBS_SEATS + seat * lay.SEAT_FIELDS + field])


def test_own_hand_and_deck_are_seen_rivals_only_as_counts():
    state = position(
        hands=[["Hawk"], ["Vault", "Prism"]],
        decks=[["Athanor"], ["Crypt"]],
        discards=[[], ["Mermaid"]],
    )
    mine, theirs = observe(state, 0), observe(state, 1)
    assert zone(mine, "Hawk") == lay.Z_MY_HAND and zone(mine, "Athanor") == lay.Z_MY_DECK
    assert zone(mine, "Vault") == lay.Z_UNKNOWN and zone(mine, "Crypt") == lay.Z_UNKNOWN
    assert zone(mine, "Mermaid") == lay.Z_DISCARD  # discard piles are public
    assert zone(theirs, "Hawk") == lay.Z_UNKNOWN and zone(theirs, "Vault") == lay.Z_MY_HAND
    assert seat_field(mine, 1, lay.SEAT_HAND) == 2 and seat_field(mine, 1, lay.SEAT_DECK) == 1
    assert seat_field(mine, 1, lay.SEAT_DISCARD) == 1


def test_hidden_cards_can_move_without_the_observation_changing():
    """A rival's hand card swapped with a card out of the game: same observation."""
    state = position(hands=[["Hawk"], ["Vault"]])
    before = observe(state, 0)
    swapped = state.copy()
    vault, prism = cd.cid_of("Vault"), cd.cid_of("Prism")
    swapped[lay.LOC + prism], swapped[lay.OWNER + prism] = lay.LOC_HAND, 1
    swapped[lay.LOC + vault], swapped[lay.OWNER + vault] = lay.LOC_BOX, -1
    swapped[lay.SEEN + prism], swapped[lay.SEEN + vault] = 1, 0
    GAME.validate_state(swapped)
    np.testing.assert_array_equal(observe(swapped, 0), before)
    assert not np.array_equal(observe(swapped, 1), observe(state, 1))


def test_the_deck_order_is_seen_only_after_looking_and_only_by_the_looker():
    state = position(mages=("Seer", "Scholar"), decks=[["Hawk", "Vault", "Prism", "Crypt"], []])
    top = lay.OBS_MY_TOP
    assert (observe(state, 0)[top : top + 3] == 0).all()
    play(state, power("Seer"), LOOK_OWN_DECK, order_action(0))
    expected = [cd.cid_of(x) + 1 for x in ("Hawk", "Vault", "Prism")]
    assert observe(state, 0)[top : top + 3].tolist() == expected
    assert (observe(state, 1)[top : top + 3] == 0).all()
    assert seat_field(observe(state, 1), 0, lay.SEAT_KNOWN_TOP) == 3  # that it looked: public
    play(state, PASS, component("Divination"))  # seat 1 passes
    play(state, PASS, component("Protection"))  # seat 0 passes and draws the Hawk
    assert observe(state, 0)[top : top + 3].tolist()[:2] == expected[1:]


def test_the_monument_deck_order_is_seen_only_after_looking():
    state = position(
        mages=("Seer", "Scholar"),
        display=["Temple", "Library"],
        monument_deck=[
            "Oracle",
            "Colossus",
            "Obelisk",
            "Golden Statue",
            "Great Pyramid",
            "Hanging Gardens",
            "Mausoleum",
            "Solomon's Mine",
        ],
    )
    mon = lay.OBS_MON_TOP
    assert zone(observe(state, 1), "Oracle") == lay.Z_MON_DECK  # the set is public
    play(state, power("Seer"), LOOK_MONUMENTS, order_action(0))
    expected = [cd.cid_of(x) - cd.FIRST_MONUMENT + 1 for x in ("Oracle", "Colossus", "Obelisk")]
    assert observe(state, 0)[mon : mon + 3].tolist() == expected
    assert (observe(state, 1)[mon : mon + 3] == 0).all()


def test_the_board_pools_and_pending_payment_are_public():
    state = position(
        in_play=[["Athanor"], ["Catacombs of the Dead"]],
        stored={"Catacombs of the Dead": "2D"},
        turned=["Athanor"],
        pools=["2E 1L 1C 1G", "3G"],
        hands=[["Tree of Life"], []],
    )
    play(state, lay.A_PLACE + cd.cid_of("Tree of Life"))  # a payment with a choice
    obs = observe(state, 1)
    catacombs = cd.cid_of("Catacombs of the Dead")
    stored_death = lay.OBS_COMPONENTS + (lay.PLANE_STORED + cd.D) * cd.NUM_COMPONENTS + catacombs
    assert obs[stored_death] == 2
    assert obs[lay.OBS_COMPONENTS + lay.PLANE_TURNED * cd.NUM_COMPONENTS + cd.cid_of("Athanor")]
    assert seat_field(obs, 1, lay.SEAT_POOL + cd.G) == 3
    assert zone(obs, "Tree of Life") == lay.Z_PLACING
    assert obs[lay.OBS_NODE] == lay.NODE_PAY
    assert obs[lay.OBS_PENDING + lay.PENDING_FIELDS.index("PAY_PLAYER")] == 1
    assert seat_field(obs, 1, lay.SEAT_VP) == 2  # 2 Death on the Catacombs


def test_observations_fit_their_bounds_over_whole_games():
    rng = np.random.default_rng(1)
    for n in (2, 4):
        state = GAME.new_state(n, seed=n)
        mask = np.zeros(GAME.num_actions(n), dtype=np.int8)
        rewards = np.zeros(n, dtype=np.float32)
        while not state[HDR_TERMINAL]:
            for seat in range(n):
                obs = observe(state, seat)
                assert (obs >= 0).all()
            GAME.kernel.legal_mask(state, mask)
            GAME.kernel.step(state, np.int64(rng.choice(np.flatnonzero(mask))), rewards)
