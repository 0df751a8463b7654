"""Each game's option space (core/option_space.py): every option drawn over its whole range.

Issue 39: the pending-decision tables were explored over four hand-picked option sets and
never met Aciliande's team variant with unequal lives. Exploration now draws from each
game's ``option_space``, which must name exactly the game's options.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import presages_env
from presages_env.core.option_space import (
    describe_options,
    distinct,
    either,
    integers,
    mapped,
    one_of,
    per_seat,
    random_options,
)

GAMES = presages_env.list_games()


@pytest.mark.parametrize("name", GAMES)
def test_every_draw_is_options_the_game_accepts_at_every_player_count(name):
    game = presages_env.get_game(name)
    rng = np.random.default_rng(0)
    for n in range(game.min_players, game.max_players + 1):
        for _ in range(50):
            options = random_options(game, n, rng)
            assert set(options) == {f.name for f in dataclasses.fields(game.Options)}
            game.make_options(n, **options)


def test_aciliande_draws_the_team_variant_with_unequal_lives():
    """The combination the hand-picked option sets never held."""
    game = presages_env.get_game("aciliande")
    rng = np.random.default_rng(1)
    draws = [random_options(game, 4, rng) for _ in range(200)]
    assert any(
        o["teams"] and isinstance(o["lives"], tuple) and len(set(o["lives"])) > 1 for o in draws
    )


def test_integers_reach_both_ends_of_the_range_and_stay_in_it():
    rng = np.random.default_rng(2)
    values = [integers(1, 99)(rng, 4) for _ in range(2000)]
    assert min(values) == 1 and max(values) == 99
    assert sum(v <= 3 for v in values) > 400  # the small values where the corners are
    sizes = {integers(1, lambda n: 22 // n, high_text="22 // n")(rng, 7) for _ in range(500)}
    assert sizes == {1, 2, 3}


def test_per_seat_and_distinct_draws():
    rng = np.random.default_rng(3)
    assert len(per_seat(integers(1, 5))(rng, 6)) == 6
    cards = distinct(3, 0, 21)(rng, 4)
    assert len(set(cards)) == 3 and all(0 <= c <= 21 for c in cards)


def test_a_game_must_describe_every_option():
    """A new option without a range would never be explored: refused at class definition."""
    president = presages_env.get_game("president")

    @dataclasses.dataclass(frozen=True)
    class MoreOptions(president.Options):
        jokers: bool = False

    with pytest.raises(TypeError, match="option_space.*jokers"):
        attributes = {"kernel": president.kernel, "validator": president.validator}
        type("Forgetful", (type(president),), {**attributes, "Options": MoreOptions})


def test_each_draw_says_its_range_in_words():
    assert integers(1, 99).text == "1 to 99"
    assert one_of(False, True).text == "False or True"
    assert one_of("sun", "moon", "random").text == "'sun', 'moon' or 'random'"
    assert one_of(None).text == "None"
    sizes = integers(1, lambda n: 22 // n, high_text="22 // players")
    assert either(one_of(None), sizes).text == "None or 1 to 22 // players"
    assert per_seat(integers(1, 5)).text == "one per player, each 1 to 5"
    assert distinct(3, 0, 21).text == "3 different ints from 0 to 21"
    assert mapped(integers(0, 10), lambda x: x / 10, "0 to 1 by tenths").text == "0 to 1 by tenths"


def test_a_range_set_by_the_player_count_must_say_how():
    with pytest.raises(TypeError, match="high_text"):
        integers(1, lambda n: 22 // n)


@pytest.mark.parametrize("name", GAMES)
def test_every_option_is_described_with_its_default_range_and_meaning(name):
    game = presages_env.get_game(name)
    table = describe_options(game.Options, game.option_space)
    fields = dataclasses.fields(game.Options)
    assert [o.name for o in table] == [f.name for f in fields]
    assert [o.default for o in table] == [f.default for f in fields]
    assert all(o.type and o.range and o.description for o in table)
    assert table == presages_env.options(name)  # the same, read without the rules


def test_an_option_without_a_label_and_description_is_refused_at_class_definition():
    """Declared once means all of it: an option nobody explained would reach help(), the
    docs and the lobby blank."""
    president = presages_env.get_game("president")
    space = dict(president.option_space)
    space["reward_scheme"] = one_of("places", "match")  # a range, no words

    attributes = {"kernel": president.kernel, "validator": president.validator}
    with pytest.raises(TypeError, match="reward_scheme.*label and a description"):
        type("Unexplained", (type(president),), {**attributes, "option_space": space})


@pytest.mark.parametrize("name", GAMES)
def test_only_options_that_change_rewards_alone_are_training_only(name):
    """The lobby hides training-only options: a reward's shaping, Président's reward scheme
    and Res Arcana's decision cap; every option that changes play stays offered."""
    hidden = {o.name for o in presages_env.options(name) if o.training_only}
    assert hidden == {
        "presages": {"round_reward"},
        "president": {"reward_scheme"},
        "res_arcana": {"step_cap"},
    }.get(name, set())
    assert all(o.label and o.label[0].isupper() for o in presages_env.options(name))
