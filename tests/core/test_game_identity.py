"""A game's ``game_id`` names it in every saved state, so the registry keeps each id to one
game and hands the id → game map down to the core (issue 51: a plug-in with Kuhn poker's id
had its states read as Kuhn poker's, refused with a misleading message)."""

from __future__ import annotations

import importlib.metadata

import numpy as np
import pytest

import presages_env
from presages_env import games
from presages_env.core import state_io
from presages_env.games import game_by_id, get_game

KUHN_ID = "plugin_game:KuhnIdGame"


def test_a_game_claiming_a_registered_id_is_refused_naming_both(monkeypatch):
    monkeypatch.setitem(games.GAME_CLASSES, "kuhn_id_game", KUHN_ID)
    with pytest.raises(ValueError, match=r"'kuhn_id_game'.*game_id 5.*'kuhn_poker'") as refused:
        get_game("kuhn_id_game")
    assert "kuhn_poker.game:KuhnPokerGame" in str(refused.value) and KUHN_ID in str(refused.value)
    assert presages_env.unavailable_games()["kuhn_id_game"] == str(refused.value)
    assert "kuhn_id_game" not in games.available_games()
    assert get_game("kuhn_poker").game_id == 5 and game_by_id(5).name == "kuhn_poker"
    with pytest.raises(ValueError, match="kuhn_id_game"):
        presages_env.make("kuhn_id_game")


def test_a_plugin_entry_point_with_a_taken_id_is_unavailable_and_breaks_nothing(monkeypatch):
    found = [importlib.metadata.EntryPoint("kuhn_id_game", KUHN_ID, games.ENTRY_POINT_GROUP)]
    real = importlib.metadata.entry_points
    monkeypatch.setattr(
        importlib.metadata,
        "entry_points",
        lambda **selection: (
            importlib.metadata.EntryPoints(found)
            if selection == {"group": games.ENTRY_POINT_GROUP}
            else real(**selection)
        ),
    )
    registry = games._Registry(games.BUILT_IN_GAMES)
    monkeypatch.setattr(games, "GAME_CLASSES", registry)
    monkeypatch.setattr(presages_env, "GAME_CLASSES", registry)
    assert "kuhn_id_game" in presages_env.list_games()
    assert "already the id of game 'kuhn_poker'" in presages_env.unavailable_games()["kuhn_id_game"]
    assert set(games.available_games()) == set(games.BUILT_IN_GAMES)


@pytest.mark.parametrize("game_id", ["5", -1, 2**16, None, True])
def test_a_game_id_that_a_save_cannot_hold_is_refused(monkeypatch, game_id):
    import plugin_game

    monkeypatch.setattr(plugin_game.PluginGame, "game_id", game_id)
    monkeypatch.setitem(games.GAME_CLASSES, "plugin_president", "plugin_game:PluginGame")
    with pytest.raises(ValueError, match="'plugin_president'.*a game's id is an int"):
        get_game("plugin_president")


def test_the_registry_maps_every_id_to_its_game():
    for name in games.available_games():
        assert game_by_id(get_game(name).game_id).name == name
    for unknown in (0, 999, "1", 1.0, None):
        with pytest.raises(ValueError, match="unknown game id"):
            game_by_id(unknown)


def test_a_state_of_a_game_refused_for_its_id_is_not_read_as_another_game(monkeypatch):
    """The reported case: the clashing game's saved state was read as Kuhn poker's. Now
    the clashing game is refused by name, and Kuhn poker's states still load."""
    import plugin_game

    monkeypatch.setitem(games.GAME_CLASSES, "kuhn_id_game", KUHN_ID)
    clash = plugin_game.KuhnIdGame()
    kuhn = get_game("kuhn_poker")
    kuhn_state = kuhn.new_state(2, 0)
    np.testing.assert_array_equal(
        state_io.deserialize(state_io.serialize(kuhn_state, kuhn), game_by_id), kuhn_state
    )
    with pytest.raises(ValueError, match="kuhn_id_game.*kuhn_poker"):
        get_game(clash.name)


def test_state_io_takes_a_game_or_a_resolver_and_refuses_anything_else():
    kuhn = get_game("kuhn_poker")
    state = kuhn.new_state(2, 0)
    data = state_io.serialize(state, game_by_id)
    assert state_io.serialize(state, kuhn) == data
    np.testing.assert_array_equal(state_io.deserialize(data, kuhn), state)
    with pytest.raises(TypeError, match="resolver"):
        state_io.deserialize(data, "kuhn_poker")
    with pytest.raises(ValueError, match="the resolver gave"):
        state_io.deserialize(data, lambda game_id: get_game("president"))
