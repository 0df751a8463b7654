"""Everything about a game is declared on its ``Game`` and found through the registry: a
game's declarations are checked when its class is defined, a game ships as a package through
an entry point, and nothing outside ``presages_env/games/`` names a game."""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

import presages_env
from presages_env import games
from presages_env.core.game import DECLARED, Game, RewardBounds
from presages_env.core.layout import SlotLayout
from presages_env.core.option_space import either, integers, one_of, per_seat

PACKAGE = Path(presages_env.__file__).parent


def complete_body(**changes) -> dict:
    """A whole game definition (Président's parts under another name), with ``changes``."""
    president = presages_env.get_game("president")
    parts = ("kernel", "validator", "viewer", "event_texts", "card_texts", "action_features")
    body = {name: getattr(president, name) for name in parts}
    body |= {name: getattr(president, name) for name in DECLARED}
    body |= {"state_dtype": np.int8, "layout_version": 2, "title": "Test game"}
    body["max_visible_events"] = lambda self, n, options: 1
    body["reward_bounds"] = lambda self, n, options: RewardBounds(-1.0, 1.0, zero_sum=True)
    return body | changes


def test_a_complete_game_is_accepted():
    type("Complete", (Game,), complete_body())


@pytest.mark.parametrize("name", ["ships_checkpoint", "benchmarked"])
def test_a_game_that_leaves_out_a_declaration_is_refused_at_definition(name):
    body = complete_body()
    del body[name]
    with pytest.raises(TypeError, match=name):
        type("Incomplete", (Game,), body)


def test_a_game_that_leaves_out_its_heuristic_and_sampler_gets_them_by_convention():
    """core/conventions.py: a kernel's ``sample_world`` is the game's; without a
    ``heuristic_actions`` anywhere it looks, the game has no heuristic."""
    body = complete_body()
    del body["heuristic"], body["world_sampler"]
    game = type("Found", (Game,), body)
    president = presages_env.get_game("president")
    assert game.heuristic is None and game.world_sampler is president.kernel.sample_world


def test_a_game_may_declare_it_has_no_heuristic_world_sampler_or_checkpoint():
    body = complete_body(heuristic=None, world_sampler=None, ships_checkpoint=False)
    game = type("Bare", (Game,), body)()
    state = presages_env.get_game("president").new_state(4, 0)
    with pytest.raises(ValueError, match="world_sampler"):
        game.sample_world(state, 0, 0)


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"heuristic": np}, "heuristic_actions"),
        ({"world_sampler": 3}, "world_sampler"),
        ({"ships_checkpoint": 1}, "ships_checkpoint"),
        ({"benchmarked": "yes"}, "benchmarked"),
        ({"heuristic": None, "search_rollouts": "heuristic"}, "search_rollouts"),
        ({"search_rollouts": "greedy"}, "search_rollouts"),
        ({"state_layout": SlotLayout(start=24)}, "state_layout must end at its STATE_SIZE"),
    ],
)
def test_a_wrong_declaration_is_refused_at_definition(changes, match):
    with pytest.raises(TypeError, match=match):
        type("Wrong", (Game,), complete_body(**changes))


def test_a_game_without_reward_bounds_is_refused_at_definition():
    body = complete_body()
    del body["reward_bounds"]
    with pytest.raises(TypeError, match="reward_bounds"):
        type("Unbounded", (Game,), body)


@pytest.mark.parametrize("name", presages_env.list_games())
def test_every_registered_game_declares_its_contract(name):
    game = presages_env.get_game(name)
    assert game.name == name
    n = game.default_players
    options = game.make_options(n)
    low, high, zero_sum = game.reward_bounds(n, options)
    assert low <= 0 <= high and isinstance(zero_sum, bool)
    assert game.max_game_length(n, options) >= 1
    game.make_options(n, **game.short_options(np.random.default_rng(0)))
    for count in game.position_counts():
        assert count.low <= count.high
        assert game.checked_state(count.build(count.low)) is not None


# ---- the registry ----------------------------------------------------------------------------
def entry_point(name: str, value: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(name, value, games.ENTRY_POINT_GROUP)


def fake_entry_points(found: list[importlib.metadata.EntryPoint]):
    real = importlib.metadata.entry_points

    def entry_points(**selection):
        if selection != {"group": games.ENTRY_POINT_GROUP}:  # numba's, on its first compile
            return real(**selection)
        return importlib.metadata.EntryPoints(found)

    return entry_points


def test_a_game_shipped_as_a_package_registers_through_an_entry_point(monkeypatch):
    """A third party's game: its package declares an entry point in ``presages_env.games``
    naming its Game class; the registry lists it and loads it by that name."""
    target = "plugin_game:PluginGame"
    found = [entry_point("plugin_president", target)]
    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points(found))
    assert games.entry_point_games() == ({"plugin_president": target}, {})
    monkeypatch.setitem(games.GAME_CLASSES, "plugin_president", target)
    assert "plugin_president" in presages_env.list_games()
    game = presages_env.get_game("plugin_president")
    assert game.title == "Président, as a plug-in"
    env = presages_env.make("plugin_president")
    env.reset(seed=0)
    assert env.agents


def test_the_benchmarks_leave_out_a_game_declared_not_benchmarked(monkeypatch):
    """The exemplar game is registered like the others but kept out of the benchmarks and
    the results tables by its declaration, not by its name."""
    import plugin_game

    monkeypatch.setitem(games.GAME_CLASSES, "plugin_president", "plugin_game:PluginGame")
    assert {"president", "plugin_president"} <= set(games.benchmarked_games())
    monkeypatch.setattr(plugin_game.PluginGame, "benchmarked", False)
    assert "plugin_president" not in games.benchmarked_games()
    assert "president" in games.benchmarked_games()


@pytest.mark.parametrize(
    ("name", "value", "match"),
    [
        ("president", "plugin_game:PluginGame", "snake case and not one of"),
        ("Bad Name", "plugin_game:PluginGame", "snake case"),
        ("fine", "plugin_game", "module:Class"),
    ],
)
def test_a_bad_entry_point_is_refused(monkeypatch, name, value, match):
    found = [entry_point(name, value)]
    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points(found))
    assert match in games.entry_point_games()[1][name]


def test_a_bad_entry_point_is_skipped_and_refused_only_when_asked_for(monkeypatch):
    """One bad third-party package must not break the registry for every game: it is
    skipped with a warning, and asking for it by name says why."""
    good = "plugin_game:PluginGame"
    found = [entry_point("broken", "not a target"), entry_point("plugin_president", good)]
    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points(found))
    registry = games._Registry(games.BUILT_IN_GAMES)
    monkeypatch.setattr(games, "GAME_CLASSES", registry)
    monkeypatch.setattr(presages_env, "GAME_CLASSES", registry)
    with pytest.warns(UserWarning, match="'broken'.*skipped"):
        listed = presages_env.list_games()
    assert "plugin_president" in listed and "broken" not in listed
    assert presages_env.get_game("president").name == "president"
    with pytest.raises(ValueError, match="'broken' must name a module:Class"):
        presages_env.get_game("broken")


def test_a_game_registered_under_another_name_than_its_own_is_refused(monkeypatch):
    monkeypatch.setitem(games.GAME_CLASSES, "impostor", "plugin_game:PluginGame")
    with pytest.raises(ValueError, match="calls itself"):
        presages_env.get_game("impostor")


def test_the_test_groups_are_the_registered_games():
    # by path: ``import conftest`` may find tests/lab/conftest.py, imported under that name too
    path = Path(__file__).resolve().parents[1] / "conftest.py"
    spec = importlib.util.spec_from_file_location("suite_conftest", path)
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)
    assert set(suite.GROUPS_COSTLIEST_FIRST) == set(games.GAME_CLASSES)


# ---- option ranges as numbers ------------------------------------------------------------------
def test_an_option_space_says_which_options_are_ints_of_a_range():
    assert integers(1, 60).int_range(4) == (1, 60)
    assert integers(1, lambda n: 22 // n, high_text="22 // players").int_range(4) == (1, 5)
    maybe = either(one_of(None), integers(1, 9))
    assert maybe.int_range(3) == (1, 9) and maybe.none_ok
    assert either(integers(1, 9), per_seat(integers(1, 9))).int_range(3) is None
    assert one_of("a", "b").int_range(3) is None and not one_of("a").none_ok


# ---- nothing outside games/ names a game ---------------------------------------------------
def docstrings(tree: ast.AST) -> set[int]:
    """``id`` of every docstring node of a module, its classes and its functions."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            found.add(id(body[0].value))
    return found


def literals_naming_a_game(source: str, names: list[str]) -> list[tuple[int, str]]:
    """``(line, text)`` of each string literal of ``source`` that names one of ``names`` as a
    word (``"president"``, ``"e.g. {'game': 'president'}"``), docstrings aside: those are
    prose and examples for people, like comments."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    tree = ast.parse(source)
    prose = docstrings(tree)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in prose
        and pattern.search(node.value)
    ]


def test_the_literal_scan_finds_a_game_named_in_code_and_not_in_prose():
    source = '"""A docstring may say president."""\nA = "president"\nB = "games.president.x"\n'
    assert [line for line, _ in literals_naming_a_game(source, ["president"])] == [2, 3]
    other_words = 'X = "presages_env.core"\nY = "presages_x"\n# presages\n'
    assert literals_naming_a_game(other_words, ["presages"]) == []


def test_nothing_outside_games_names_a_registered_game():
    """A game is everything its folder declares: code elsewhere that names one (an if-chain,
    a table keyed by game, a default) is a place a new game would have to edit. Docstrings
    and comments may name games in prose and examples; the one default lives in
    ``presages_env.games.DEFAULT_GAME``."""
    names = sorted(games.GAME_CLASSES)
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "games":
            continue
        for line, text in literals_naming_a_game(path.read_text(encoding="utf-8"), names):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {text[:80]!r}")
    assert not found, "\n".join(found)


BROKEN = "broken_game_no_such_module:Game"


def test_a_plugin_that_does_not_load_is_listed_unavailable_with_its_reason(monkeypatch):
    """An entry point naming a missing module hides no other game: it is listed unavailable
    with the reason, and asking for it (its rules or its options) raises a ``ValueError``
    naming the game and the missing module, not a ``TypeError`` about a relative import."""
    found = [entry_point("broken_game", BROKEN), entry_point("Bad Name", BROKEN)]
    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points(found))
    registry = games._Registry(games.BUILT_IN_GAMES)
    monkeypatch.setattr(games, "GAME_CLASSES", registry)
    monkeypatch.setattr(presages_env, "GAME_CLASSES", registry)
    with pytest.warns(UserWarning, match="'Bad Name'"):
        unavailable = presages_env.unavailable_games()
    assert set(unavailable) == {"broken_game", "Bad Name"}
    reason = unavailable["broken_game"]
    assert "'broken_game' is unavailable" in reason and "broken_game_no_such_module" in reason
    assert "broken_game" not in games.available_games()
    assert set(games.available_games()) == set(games.BUILT_IN_GAMES)
    assert "broken_game" not in games.benchmarked_games()
    for ask in (presages_env.get_game, presages_env.options, presages_env.make):
        with pytest.raises(ValueError) as refused:
            ask("broken_game")
        assert str(refused.value) == reason
    assert presages_env.options("president") and presages_env.get_game("president")


def test_a_plugin_module_outside_any_package_lists_its_options(monkeypatch):
    """``plugin_game`` is a module of its own, with no ``options.py`` beside it: its
    options are read from its ``Game`` class."""
    monkeypatch.setitem(games.GAME_CLASSES, "plugin_president", "plugin_game:PluginGame")
    assert presages_env.options("plugin_president") == presages_env.options("president")


def test_a_plugin_failing_as_it_is_imported_is_unavailable(monkeypatch, tmp_path):
    (tmp_path / "failing_plugin.py").write_text("raise RuntimeError('needs a GPU')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(games.GAME_CLASSES, "failing_game", "failing_plugin:Game")
    with pytest.raises(ValueError, match="'failing_game' is unavailable.*needs a GPU"):
        presages_env.get_game("failing_game")
    assert "needs a GPU" in presages_env.unavailable_games()["failing_game"]


def test_a_saved_state_loads_beside_a_plugin_that_does_not_load(monkeypatch):
    from presages_env.core import state_io

    env = presages_env.make("kuhn_poker")
    env.reset(seed=0)
    data = state_io.serialize(env.get_state(), env.game)
    registry = games._Registry({"broken_game": BROKEN, **games.BUILT_IN_GAMES})
    monkeypatch.setattr(games, "GAME_CLASSES", registry)  # looked at first
    assert (state_io.deserialize(data, games.game_by_id) == env.get_state()).all()
