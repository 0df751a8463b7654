"""Declared once (issue 51): a game's options, observation and parts are each written in one
place, and everything else follows (core/options.py, core/layout.py, core/conventions.py)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import presages_env
from presages_env.core.events import Event
from presages_env.core.layout import SlotLayout
from presages_env.core.option_space import either, integers, one_of, option, per_seat
from presages_env.core.options import (
    add_option_slots,
    check_option_values,
    options_class,
    read_option_slots,
    write_option_slots,
)

SPACE = {
    "bet": option(integers(1, 4), "Bet", "chips a bet adds", default=1),
    "scheme": option(one_of("places", "match"), "Scheme", "how rewards are paid", default="match"),
    "teams": option(one_of(False, True), "Teams", "the team variant", default=False),
    "lives": option(
        either(integers(1, 9), per_seat(integers(1, 9))), "Lives", "each seat's", default=3
    ),
}


def test_the_dataclass_follows_from_the_space():
    options = options_class("ToyOptions", SPACE)
    fields = {f.name: (f.type, f.default) for f in dataclasses.fields(options)}
    assert fields == {
        "bet": ("int", 1),
        "scheme": ("Literal['places', 'match']", "match"),
        "teams": ("bool", False),
        "lives": ("int | tuple[int, ...]", 3),
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        options().bet = 2


def test_an_option_without_a_default_cannot_make_a_dataclass():
    with pytest.raises(TypeError, match="need a default"):
        options_class("Bad", {"bet": option(integers(1, 4), "Bet", "chips")})


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"bet": 0}, "bet must be an int from 1 to 4, got 0"),
        ({"bet": "2"}, "bet must be an int from 1 to 4"),
        ({"bet": True}, "bet must be an int"),  # a bool is no int here
        ({"scheme": "elo"}, "scheme must be one of \\['places', 'match'\\]"),
        ({"teams": 1}, "teams must be True or False"),  # 1 is not True
        ({"lives": (3, 3, 3)}, "lives must be 1 to 9 or one per player"),  # 2 players
    ],
)
def test_each_value_is_checked_against_its_range_naming_it(value, message):
    options = options_class("ToyOptions", SPACE)(**value)
    for error in (ValueError, TypeError):  # a wrong kind and a wrong value alike
        with pytest.raises(error, match=message):
            check_option_values(SPACE, 2, options)


def test_legal_values_pass_numpy_ints_and_bools_included():
    options = options_class("ToyOptions", SPACE)(np.int64(4), "places", np.bool_(True), (9, 1))
    check_option_values(SPACE, 2, options)


def test_option_slots_are_added_written_and_read_back():
    slots = SlotLayout(start=5)
    offsets = add_option_slots(slots, SPACE)
    assert offsets == (5, 6, 7, 8)
    assert [s.name for s in slots.slots] == ["OPT_BET", "OPT_SCHEME", "OPT_TEAMS", "OPT_LIVES"]
    options = options_class("ToyOptions", SPACE)(bet=3, scheme="places", teams=True, lives=7)
    state = np.zeros(slots.size, dtype=np.int8)
    write_option_slots(state, offsets, SPACE, options)
    assert state[5:].tolist() == [3, 0, 1, 7]
    assert read_option_slots(state, offsets, SPACE, type(options)) == options
    state[6] = 2  # no third scheme
    with pytest.raises(ValueError, match="not one of 2 values"):
        read_option_slots(state, offsets, SPACE, type(options))


def test_an_observation_piece_is_a_view_of_its_shape_and_bounds_follow():
    obs = SlotLayout()
    obs.add("CARD", 4, "the card", high=1)
    obs.add("MOVES", (5, 2), "each move", high=1)
    obs.add("POT", 1, "chips")
    batch = np.arange(2 * obs.size).reshape(2, obs.size)
    assert obs.view(batch, "MOVES").shape == (2, 5, 2)
    assert obs.view(batch[1], "MOVES")[0].tolist() == [obs.size + 4, obs.size + 5]
    assert obs.highs(127).tolist() == [1] * 14 + [127]
    with pytest.raises(KeyError, match="no slot 'HAND'"):
        obs.view(batch, "HAND")


def test_the_exemplars_parts_are_found_by_name_in_their_packages():
    kuhn = presages_env.get_game("kuhn_poker")
    assert kuhn.kernel.__name__ == "presages_env.games.kuhn_poker.kernel"
    assert kuhn.validator.__name__ == "presages_env.games.kuhn_poker.game"
    assert kuhn.heuristic is kuhn.kernel  # heuristic_actions lies in kernel.py
    assert kuhn.world_sampler is kuhn.kernel.sample_world
    assert kuhn.obs_high(2).tolist() == [1] * kuhn.obs_size(2)  # every piece a flag
    assert kuhn.option_slots() == (kuhn.state_layout["OPT_BET"].offset,)
    dice = presages_env.get_game("liars_dice")
    assert dice.card_texts.CARD_NAMES == () and dice.card_help("Q") is None  # no cards
    assert dice.layout_version == 1  # a new game's first layout


def test_what_a_game_leaves_out_has_a_generic_default():
    dice = presages_env.get_game("liars_dice")
    names = dice.action_features.FEATURE_NAMES
    assert names[0] == "kind:bid 1x1" and names[-1] == "kind:liar"
    obs = np.zeros((2, dice.obs_size(2)), dtype=np.int8)
    out = np.full((2, dice.num_actions(2), len(names)), np.nan, dtype=np.float32)
    dice.action_features.action_features(obs, out)
    assert (out == np.eye(len(names))[None]).all()
    event = Event("bid", 0, "all", {"count": 2, "face": 5})
    assert dice.event_texts.describe(event) == "P1 bids 2x5: at least 2 dice show 5"
    state = dice.new_state(2, 4)
    assert dice.render(state).startswith("Liar's dice\n[every hand")
