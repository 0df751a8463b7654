"""A game's options can be found without reading the code (issue 42): ``presages_env.options``,
``help(presages_env.make)`` and ``python -m presages_env info <game>`` show each option's
type, default, range and meaning, from the one declaration in ``games/<game>/options.py``."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

import presages_env
from presages_env.__main__ import main

GAMES = presages_env.list_games()


def test_options_print_as_a_table():
    table = presages_env.options("aciliande")
    assert [o.name for o in table][:2] == ["goddesses", "lives"]
    lines = repr(table).splitlines()
    assert lines[0].split() == ["option", "type", "default", "range"]
    assert any(line.startswith("stake") and line.endswith("1 to 1000") for line in lines)
    assert str(table) == repr(table)


@pytest.mark.parametrize("name", [3, "chess", None])
def test_an_unknown_game_is_refused_naming_the_known_ones(name):
    with pytest.raises(ValueError, match="known games"):
        presages_env.options(name)


def test_help_of_make_lists_every_option_of_every_game():
    doc = presages_env.make.__doc__
    for name in GAMES:
        assert f"\n{name}:\n" in doc
        for option in presages_env.options(name):
            assert f"    {option.name}  " in doc
            assert option.range in doc


def test_importing_the_package_or_listing_options_loads_no_rules():
    """Options and help() come from modules without kernels: no numba at import."""
    code = (
        "import sys, presages_env\n"
        "for name in presages_env.list_games():\n"
        "    presages_env.options(name)\n"
        "print(sorted(m for m in ('numba', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("name", GAMES)
def test_info_shows_players_sizes_and_options(name, capsys):
    assert main(["info", name]) == 0
    out = capsys.readouterr().out
    game = presages_env.get_game(name)
    assert f"{game.min_players} to {game.max_players} players" in out
    n = game.default_players
    assert f"Observation: {game.obs_size(n)} " in out
    assert f"actions: {game.num_actions(n)}" in out
    for field in dataclasses.fields(game.Options):
        assert f"\n{field.name} " in out


def test_info_refuses_an_unknown_game():
    with pytest.raises(SystemExit) as stop:
        main(["info", "chess"])
    assert stop.value.code == 2


def test_info_on_a_plugin_that_does_not_load_says_why_in_one_line(monkeypatch, capsys):
    from presages_env import games

    monkeypatch.setitem(games.GAME_CLASSES, "broken_game", "broken_game_no_such_module:Game")
    with pytest.raises(SystemExit) as stop:
        main(["info", "broken_game"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "'broken_game' is unavailable" in err and "broken_game_no_such_module" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
