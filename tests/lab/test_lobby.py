"""What the lobby offers (issue 50, item 6): each option with its label, description, range,
default and an input that fits it, the training-only ones hidden; agents per game and player
count from what ships; Présages first. A table opened with the lobby's values is accepted."""

from __future__ import annotations

import extras
import pytest

extras.require("lab")

import presages_env  # noqa: E402
from presages_env.lab.agents_pool import ALLOWED_AGENTS  # noqa: E402
from presages_env.lab.lobby import games_offered, table_request  # noqa: E402


@pytest.fixture(scope="module")
def offered() -> dict[str, dict]:
    return {game["name"]: game for game in games_offered()}


def test_the_flagship_game_is_offered_first(offered):
    assert [name for name, game in offered.items() if game["default"]] == ["presages"]


def test_each_option_has_words_and_an_input_of_its_kind(offered):
    inputs = {}
    for game in offered.values():
        for option in game["options"]:
            assert option["label"] and option["description"] and option["range"], option
            assert "_" not in option["label"]
            inputs[(game["name"], option["name"])] = option
    assert inputs[("presages", "bout_winner_is_placer")]["input"] == "checkbox"
    assert inputs[("president", "num_manches")]["input"] == "number"
    assert inputs[("res_arcana", "places_of_power")]["choices"] == ["sun", "moon", "random"]
    hand = inputs[("aciliande", "fixed_hand_size")]
    assert hand["input"] == "number" and hand["optional"] and hand["default"] is None
    assert hand["bounds"]["2"] == [1, 11] and hand["bounds"]["7"] == [1, 3]
    assert inputs[("aciliande", "goddesses")]["input"] == "list"


def test_training_only_options_are_not_offered(offered):
    names = {o["name"] for game in offered.values() for o in game["options"]}
    assert not names & {"round_reward", "reward_scheme", "step_cap"}


def test_agents_are_offered_per_game_and_count_from_what_ships(offered):
    assert "dmc" in offered["presages"]["agents"]["4"]
    assert all("dmc" not in kinds for kinds in offered["president"]["agents"].values())
    assert "ppo" not in offered["kuhn_poker"]["agents"]["2"]
    assert "ppo" in offered["president"]["agents"]["3"]
    for game in offered.values():
        counts = range(game["min_players"], game["max_players"] + 1)
        assert list(game["agents"]) == [str(n) for n in counts]
        assert all("heuristic" in kinds for kinds in game["agents"].values())


def test_an_agent_is_accepted_only_where_it_is_offered(offered):
    """An allow-listed agent the lobby does not offer at a game and count (``dmc`` but at
    Présages, ``ppo`` at Kuhn poker) is refused as not offered there, naming those that are,
    not loaded and then refused with a loader's advice (``dmc:PATH``)."""
    refused = 0
    for name, game in offered.items():
        for count, kinds in game["agents"].items():
            n = int(count)
            for kind in sorted(set(ALLOWED_AGENTS) - set(kinds)):
                request = {
                    "game": name,
                    "players": n,
                    "seats": ["human", kind] + ["random"] * (n - 2),
                }
                with pytest.raises(
                    ValueError, match=f"'{kind}' is not offered at {name} with {n}"
                ) as error:
                    table_request(request, 120)
                assert str(kinds) in str(error.value) and "PATH" not in str(error.value)
                refused += 1
    assert refused  # dmc at Président, at least


@pytest.mark.parametrize("name", presages_env.list_games())
def test_a_table_with_every_offered_agent_and_the_shown_defaults_is_accepted(offered, name):
    game = offered[name]
    n = game["default_players"]
    kinds = ["human", *game["agents"][str(n)]][:n]
    kinds += ["heuristic"] * (n - len(kinds))
    options = {o["name"]: o["default"] for o in game["options"]}
    request = {"game": name, "players": n, "options": options, "seats": kinds}
    assert table_request(request, 120).num_players == n


def test_a_shipped_scorer_that_does_not_load_is_not_offered(tmp_path, monkeypatch):
    """dmc is offered where the game's shipped scorers pass the loader's checks at that
    count, never by the game's name: a damaged file takes it off the list."""
    from presages_env.agents import action_scorer, specs

    (tmp_path / "presages").mkdir()
    (tmp_path / "presages" / "seed0.pt").write_bytes(b"not a checkpoint")
    monkeypatch.setattr(action_scorer, "SHIPPED_SCORERS", tmp_path)
    specs._shipped_agents.cache_clear()
    try:
        assert "dmc" not in specs.shipped_agents("presages", 4)
        assert "heuristic" in specs.shipped_agents("presages", 4)
    finally:
        specs._shipped_agents.cache_clear()
