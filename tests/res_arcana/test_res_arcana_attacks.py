"""Life loss and reactions (§3 "Life loss", decision 1): Life first, 2 other essences per Life
not paid, passed players immune, reactions decided by the attacked player out of turn."""

import pytest
from res_arcana_helpers import GAME, D, E, G, legal, position

from presages_env.core.validation import InvalidStateError, checked_state
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.game import (
    DONE,
    DRAGON_IGNORE,
    component,
    current_seat,
    discard_pile,
    essences_on,
    hand,
    in_play,
    is_turned,
    node_name,
    play,
    pool,
    power,
)

DRAGONS_AND_IGNORES = [
    ("Bone Dragon", "1D"),
    ("Earth Dragon", "1G"),
    ("Fire Dragon", "1C"),
    ("Water Dragon", "1E"),
]
LIFE_REACTIONS_BY_TURNING = [
    "Healer",
    "Protection",
    "Chalice of Life",
    "Guard Dog",
    "Temple",
    "Coral Castle",
    "Alchemist's Tower",
]


def essences(**counts):
    return {x: counts.get(x, 0) for x in "ELCDG"}


def victim_owning(name):
    """Seat 1 owns ``name`` (mage, item or in play)."""
    kind = cd.KIND[cd.cid_of(name)]
    if kind == cd.MAGE:
        return {"mages": ("Scholar", name), "in_play": [["Bone Dragon"], []]}
    if kind == cd.ITEM:
        return {"items": ("Research", name), "in_play": [["Bone Dragon"], []]}
    return {"in_play": [["Bone Dragon"], [name]]}


@pytest.mark.parametrize(
    "dragon",
    ["Bone Dragon", "Earth Dragon", "Fire Dragon", "Water Dragon", "Sea Serpent", "Wind Dragon"],
)
def test_every_dragon_makes_each_rival_lose_2_life(dragon):
    state = position(in_play=[[dragon], []], pools=["", "3L"])
    play(state, power(dragon))
    assert pool(state, 1) == essences(L=1) and is_turned(state, dragon)
    assert current_seat(state) == 1 and node_name(state) == "ACTION"


def test_elvish_bow_makes_each_rival_lose_1_life_with_no_ignore_option():
    state = position(in_play=[["Elvish Bow"], []], pools=["", "1L 1D"])
    play(state, power("Elvish Bow", 0))
    assert pool(state, 1) == essences(D=1)


def test_life_is_paid_first_then_2_other_essences_per_life_not_paid():
    state = position(in_play=[["Fire Dragon"], []], pools=["", "1L 2E 1D 1G"])
    play(state, power("Fire Dragon"))  # 1 Life, then 2 of E, E, D, G chosen by the victim
    assert node_name(state) == "PAY" and current_seat(state) == 1
    assert legal(state) == {E, D}  # Gold allowed, but E, L, C, D, G order: E or D first
    play(state, D)  # then the Gold
    assert pool(state, 1) == essences(E=2)


def test_a_rival_who_cannot_pay_everything_pays_what_they_have():
    state = position(in_play=[["Bone Dragon"], []], pools=["", "1E 1G"])
    play(state, power("Bone Dragon"))  # owes 4 other essences, holds 2: no choice
    assert pool(state, 1) == essences() and node_name(state) == "ACTION"


def test_passed_players_are_immune_and_the_attacker_never_loses():
    state = position(
        mages=("Scholar", "Transmuter", "Witch"),
        items=("Research", "Alchemy", "Reanimate"),
        in_play=[["Water Dragon"], [], []],
        pools=["2L", "2L", "2L"],
        first_player=1,  # seat 1 passed first: it took the token
        passed=[False, True, False],
        to_act=0,
    )
    play(state, power("Water Dragon"))
    assert [pool(state, s)["L"] for s in range(3)] == [2, 2, 0]


def test_rivals_answer_in_turn_order_from_the_attackers_left():
    state = position(
        mages=("Scholar", "Transmuter", "Witch"),
        items=("Research", "Protection", "Alchemy"),
        in_play=[[], [], ["Fire Dragon", "Temple"]],
        pools=["1L", "1L", ""],
        to_act=2,
    )
    play(state, power("Fire Dragon"))
    assert node_name(state) == "REACT" and current_seat(state) == 1  # only seat 1 can react
    play(state, component("Protection"))
    assert pool(state, 0) == essences() and pool(state, 1) == essences(L=1)
    assert is_turned(state, "Protection") and current_seat(state) == 0


@pytest.mark.parametrize("name", LIFE_REACTIONS_BY_TURNING)
def test_every_turning_reaction_ignores_a_life_loss(name):
    state = position(pools=["", "2L"], **victim_owning(name))
    play(state, power("Bone Dragon"))
    assert node_name(state) == "REACT" and current_seat(state) == 1
    assert legal(state) == {component(name), DONE}
    play(state, component(name))
    assert pool(state, 1) == essences(L=2) and is_turned(state, name)


@pytest.mark.parametrize("name", LIFE_REACTIONS_BY_TURNING)
def test_a_turning_reaction_cannot_be_used_while_turned(name):
    state = position(pools=["", "2L"], turned=[name], **victim_owning(name))
    play(state, power("Bone Dragon"))
    assert pool(state, 1) == essences() and node_name(state) == "ACTION"


@pytest.mark.parametrize(
    ("name", "cost"), [("Elemental Spring", "C"), ("Tree of Life", "L"), ("Dancing Sword", "E")]
)
def test_paying_reactions_work_even_while_turned(name, cost):
    state = position(in_play=[["Earth Dragon"], [name]], turned=[name], pools=["", f"1{cost} 2L"])
    play(state, power("Earth Dragon"), component(name))  # the reaction's own cost only
    assert pool(state, 1) == essences(L=2)


def test_dancing_sword_puts_a_death_on_itself_when_it_ignores_a_loss():
    state = position(in_play=[["Fire Dragon"], ["Dancing Sword"]], pools=["", "1E"])
    play(state, power("Fire Dragon"), component("Dancing Sword"))
    assert essences_on(state, "Dancing Sword") == essences(D=1) and pool(state, 1) == essences()


def test_the_attacked_player_may_accept_the_loss_instead():
    state = position(
        in_play=[["Fire Dragon"], []], items=("Research", "Protection"), pools=["", "3L"]
    )
    play(state, power("Fire Dragon"), DONE)
    assert pool(state, 1) == essences(L=1) and not is_turned(state, "Protection")


def test_dragon_bridle_ignores_dragons_only():
    state = position(in_play=[["Fire Dragon", "Elvish Bow"], ["Dragon Bridle"]], pools=["", "3L"])
    play(state, power("Fire Dragon"))
    assert legal(state) == {component("Dragon Bridle"), DONE}
    play(state, component("Dragon Bridle"))
    assert pool(state, 1) == essences(L=3)
    state = position(in_play=[["Elvish Bow"], ["Dragon Bridle"]], pools=["", "3L"])
    play(state, power("Elvish Bow", 0))  # not a dragon: no reaction, the Life is paid
    assert pool(state, 1) == essences(L=2)


@pytest.mark.parametrize(("dragon", "ignore"), DRAGONS_AND_IGNORES)
def test_each_dragons_own_ignore_cost(dragon, ignore):
    letter = ignore[-1]
    state = position(in_play=[[dragon], []], pools=["", f"{ignore} 2L"])
    play(state, power(dragon))
    assert legal(state) == {DRAGON_IGNORE, DONE}
    play(state, DRAGON_IGNORE)
    assert pool(state, 1) == essences(L=2)
    other = "E" if letter != "E" else "C"
    state = position(in_play=[[dragon], []], pools=["", f"1{other} 2L"])
    play(state, power(dragon))  # cannot pay the ignore cost: loses the Life
    assert pool(state, 1) == essences(**{other: 1})


def test_sea_serpent_is_ignored_by_destroying_one_of_your_artifacts():
    state = position(
        in_play=[["Sea Serpent"], ["Hawk", "Vault"]], pools=["", "2L"], stored={"Vault": "1G"}
    )
    play(state, power("Sea Serpent"), DRAGON_IGNORE)
    assert node_name(state) == "TARGET" and current_seat(state) == 1
    assert legal(state) == {component("Hawk"), component("Vault")}
    play(state, component("Vault"))
    assert discard_pile(state, 1) == ["Vault"] and "Vault" not in in_play(state, 1)
    assert pool(state, 1) == essences(L=2) and essences_on(state, "Vault") == essences()


def test_wind_dragon_is_ignored_by_discarding_a_card():
    state = position(in_play=[["Wind Dragon"], []], hands=[[], ["Hawk"]], pools=["", "2L"])
    play(state, power("Wind Dragon"), DRAGON_IGNORE)  # a single card: discarded
    assert hand(state, 1) == [] and discard_pile(state, 1) == ["Hawk"]
    assert pool(state, 1) == essences(L=2)


def test_with_nothing_to_react_with_the_loss_is_applied_without_asking():
    state = position(in_play=[["Bone Dragon"], []], pools=["", "2L 1D"], turned=[])
    play(state, power("Bone Dragon"))  # can pay the Death to ignore: asked
    assert node_name(state) == "REACT"
    state = position(in_play=[["Bone Dragon"], []], pools=["", "2L"])
    play(state, power("Bone Dragon"))
    assert node_name(state) == "ACTION" and pool(state, 1) == essences()


def test_a_reaction_is_not_an_action_and_play_goes_on_in_turn_order():
    state = position(in_play=[["Fire Dragon"], ["Guard Dog"]], pools=["", "2C 1E"])
    play(state, power("Fire Dragon"), component("Guard Dog"))
    assert current_seat(state) == 1 and node_name(state) == "ACTION"
    assert power("Guard Dog") in legal(state)  # its own turn: straighten the dog for 1 Elan
    assert G not in legal(state)


def test_an_attack_by_a_dragon_another_seat_owns_is_refused():
    """Issue 39 (states fuzz, seed 39, case 8790): a state whose attacking Water Dragon was
    rewritten as seat 0's while seat 0 is the one attacked was accepted, and the state one
    step on was refused. A seat uses only its own components' powers."""
    state = position(in_play=[["Water Dragon"], ["Guard Dog"]], pools=["", "3L"])
    play(state, power("Water Dragon"))
    assert current_seat(state) == 1 and node_name(state) == "REACT"
    checked_state(GAME, state)
    state[lay.OWNER + cd.cid_of("Water Dragon")] = 1
    with pytest.raises(InvalidStateError, match=r"OWNER = \(1, 4\): the acting component"):
        checked_state(GAME, state)
