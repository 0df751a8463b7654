"""The arena and the scoreboard (one engine, evaluation/arena.py) and the agent specs of your
own code (python:, text:): tiny runs of Kuhn poker, one of Aciliande's team variant."""

from __future__ import annotations

import json
import shlex
import sys
import textwrap

import numpy as np
import pytest
from commands import command
from extras import require

require("openspiel")  # α-Rank is OpenSpiel's

from presages_env.__main__ import main  # noqa: E402
from presages_env.agents import HeuristicAgent  # noqa: E402
from presages_env.agents.specs import make_agent, parse_pairing  # noqa: E402
from presages_env.evaluation import arena, scoreboard  # noqa: E402
from presages_env.evaluation.tournament import MatchResult, rate  # noqa: E402
from presages_env.text import TextAgent  # noqa: E402

KUHN = ["--game", "kuhn_poker", "--games-per-pairing", "8"]
MODULE = """
from presages_env.agents import HeuristicAgent

IMPORTED = True


def make(game, num_players, seed):
    return HeuristicAgent(game)


def not_an_agent(game, num_players, seed):
    return "heuristic"


def first_move(prompt):
    return "1"
"""


@pytest.fixture
def own_module(tmp_path, monkeypatch):
    """A module of the user's: an agent factory and a ``prompt -> answer`` function."""
    (tmp_path / "my_agents.py").write_text(textwrap.dedent(MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "my_agents", raising=False)
    return "my_agents"


SPEC_KINDS = ["random:5", "heuristic", "search:2", "python:my_agents:make"]
SPEC_KINDS += ["text:my_agents:first_move@moves"]


# ---- specs ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "spec",
    [
        "python:",
        "python:my_agents",
        "python:my_agents:",
        "python:1st:make",
        "python:../my_agents:make",
        "python:my_agents:make@moves",  # a tier is for text agents
        "python:my_agents:make:extra",
        "text:my_agents:first_move@",
        "text:my_agents:first_move@chess",
        "text:my_agents:first_mové",
    ],
)
def test_a_malformed_spec_is_refused_by_name_before_anything_is_imported(spec, own_module):
    with pytest.raises(ValueError, match=f"agent {spec!r}"):
        make_agent(spec, "kuhn_poker")
    assert own_module not in sys.modules


def test_the_commands_refuse_a_bad_spec_by_name_before_playing(tmp_path, capsys):
    bad, out = "python:../x:y", ["--out", str(tmp_path / "out")]
    for argv in (["arena", "--agents", "random", bad], ["scoreboard", bad, "--br", "none"]):
        with pytest.raises(SystemExit) as stopped:
            main([*argv, *KUHN, *out])
        assert stopped.value.code == 2 and f"agent {bad!r}" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_spec_of_your_own_code_builds_the_agent_it_names(own_module):
    label, agent = make_agent("python:my_agents:make", "kuhn_poker")
    assert label == "python:my_agents:make" and isinstance(agent, HeuristicAgent)
    label, agent = make_agent("text:my_agents:first_move@observation", "kuhn_poker", seed=3)
    assert isinstance(agent, TextAgent) and agent.tier == "observation" and agent.name == label
    assert make_agent("text:my_agents:first_move", "kuhn_poker")[1].tier == "moves"
    with pytest.raises(TypeError, match="'python:my_agents:not_an_agent' returned str"):
        make_agent("python:my_agents:not_an_agent", "kuhn_poker")
    with pytest.raises(ValueError, match="no callable named 'IMPORTED'"):
        make_agent("python:my_agents:IMPORTED", "kuhn_poker")
    with pytest.raises(ModuleNotFoundError):
        make_agent("python:no_such_module_here:make", "kuhn_poker")
    assert parse_pairing("text:my_agents:first_move@moves:random:3") == (
        "text:my_agents:first_move@moves",
        "random:3",
    )


# ---- ratings --------------------------------------------------------------------------------
def series(focus: str, others: str, focus_rewards: list[float]) -> MatchResult:
    """Two-player games, the focus in seat 0, with these rewards (zero-sum)."""
    rewards = np.array([[r, -r] for r in focus_rewards])
    sides = np.tile([0, 1], (len(rewards), 1))
    return MatchResult(focus, others, "test", 2, rewards, sides, np.zeros(len(rewards), int))


def test_alpha_rank_and_openskill_put_a_dominating_agent_first():
    # "strong" beats both others, "middle" beats "weak": listed in the opposite order
    beats = {("strong", "weak"), ("strong", "middle"), ("middle", "weak")}
    names = ["weak", "middle", "strong"]
    matches = [
        series(a, b, [1.0, 1.0, 1.0, -1.0] if (a, b) in beats else [-1.0, -1.0, -1.0, 1.0])
        for a in names
        for b in names
        if a != b
    ]
    mass = arena.alpha_rank(matches, names)
    assert max(mass, key=mass.get) == "strong" and mass["strong"] > 0.9
    assert sum(mass.values()) == pytest.approx(1.0)
    assert arena.payoff_matrix(matches, names)[2, 0] == pytest.approx(1.0)  # margin 2 × 0.5
    ratings = rate(matches)
    assert sorted(ratings, key=lambda n: ratings[n].ordinal, reverse=True) == names[::-1]
    with pytest.raises(ValueError, match="every ordered pair"):
        arena.alpha_rank(matches[1:], names)


def test_games_per_pairing_are_whole_duplicate_deals_and_the_table_is_checked():
    assert arena.table("kuhn_poker", 3, 10, 0, {}).games == 9  # 3 deals, once per side
    assert arena.table("kuhn_poker", None, 1_000, 0, {}).games == 1_000
    with pytest.raises(ValueError, match="players"):
        arena.table("kuhn_poker", 7, 10, 0, {})
    with pytest.raises(TypeError, match="unknown option"):
        arena.table("kuhn_poker", 2, 10, 0, {"teams": True})


# ---- the commands ---------------------------------------------------------------------------
def test_the_arena_writes_its_seeds_and_every_game_and_its_rerun_is_identical(
    own_module, tmp_path, capsys
):
    out, specs = tmp_path / "first", SPEC_KINDS[2:]  # random and heuristic: every test
    main(["arena", "--agents", *specs, *KUHN, "--seed", "11", "--out", str(out)])
    data = json.loads((out / "arena.json").read_text())
    assert data["seed"] == 11 and data["games_per_series"] == 8 and data["deal_group"] == 2
    assert len(data["head_to_head"]) == 3 * 2 and data["records"] == 3 * 2 * 8
    assert {series["deal_group"] for series in data["head_to_head"]} == {2}  # duplicate deals
    assert len(list((out / "records").glob("*.json"))) == data["records"]
    assert set(data["openskill"]) == set(data["alpha_rank"]["mass"]) == set(specs)
    assert (out / "arena.png").stat().st_size > 0 and "## Round robin" in capsys.readouterr().out
    # the command it prints reruns it: the same games, so the same results
    again = tmp_path / "again"
    main([*shlex.split(data["command"])[3:], "--out", str(again)])
    rerun = json.loads((again / "arena.json").read_text())
    assert rerun["head_to_head"] == data["head_to_head"]


def test_the_arena_pairs_every_agent_beside_every_partner_in_a_team_game(tmp_path):
    argv = ["arena", "--agents", "random", "heuristic", "--game", "aciliande", "--players", "4"]
    argv += ["--option", "teams=true", "--games-per-pairing", "4", "--out", str(tmp_path)]
    main(argv)
    data = json.loads((tmp_path / "arena.json").read_text())
    pairs = [series["agent"] for series in data["partners"]["series"]]
    assert pairs == ["random + random", "random + heuristic", "heuristic + random"] + [
        "heuristic + heuristic"
    ]
    assert data["partners"]["opponent"] == "heuristic" and data["options"] == {"teams": True}
    assert data["records"] == (2 + 4) * 4
    page = (tmp_path / "arena.md").read_text()
    assert "| one seat \\ partner(s) | random | heuristic |" in page


def test_the_scoreboard_plays_beside_each_reference_in_a_team_game(tmp_path, capsys):
    argv = ["scoreboard", "random:3", "--game", "aciliande", "--players", "4", "--option"]
    argv += ["teams=true", "--games-per-pairing", "4", "--references", "random", "heuristic"]
    main([*argv, "--br", "none", "--out", str(tmp_path)])
    data = json.loads((tmp_path / "scoreboard.json").read_text())
    (robin,) = data["round_robins"]
    pairs = [series["agent"] for series in robin["partners"]["series"]]
    assert pairs == ["random:3 + random", "random:3 + heuristic", "random + random"] + [
        "heuristic + heuristic"
    ]
    assert "--references random heuristic" in data["command"]
    assert "| 4 | heuristic | heuristic | 4 | " in capsys.readouterr().out  # as a partner


def test_the_scoreboard_plays_every_reference_at_every_count(tmp_path, capsys):
    main(["scoreboard", "search:2", *KUHN, "--br", "none", "--out", str(tmp_path)])
    data = json.loads((tmp_path / "scoreboard.json").read_text())
    assert data["seeds"]["deals"] == 0 and "--seed 0" in data["command"]
    counts = [robin["num_players"] for robin in data["round_robins"]]
    assert counts == scoreboard.player_counts("kuhn_poker") == [2, 3]
    for robin in data["round_robins"]:
        own = [s["opponents"] for s in robin["head_to_head"] if s["agent"] == "search:2"]
        refs = scoreboard.reference_specs("kuhn_poker", robin["num_players"])
        assert own == list(refs) and robin["games_per_series"] == 8 - 8 % robin["deal_group"]
    page = capsys.readouterr().out
    assert "Not trained (`--br none`)" in page and "## Round robin at 3 players" in page
    assert (tmp_path / "scoreboard.png").stat().st_size > 0


@pytest.mark.parametrize("spec", SPEC_KINDS[3:])
def test_the_scoreboard_scores_your_own_agents(spec, own_module, tmp_path):
    main(["scoreboard", spec, *KUHN, "--players", "2", "--br", "none", "--out", str(tmp_path)])
    (robin,) = json.loads((tmp_path / "scoreboard.json").read_text())["round_robins"]
    own = [s["opponents"] for s in robin["head_to_head"] if s["agent"] == spec]
    assert own == ["random", "heuristic", "search"]


def test_the_best_response_bound_is_measured_on_duplicate_deals_of_its_own_seed():
    trained = []

    def trainer(agent, setting):  # stands in for training: a "best response" that exists
        trained.append((agent.name, setting.num_players))
        return "random:9", 77, {"mode": "test", "decisions": 1, "seed": 0}

    board = scoreboard.score_agent("heuristic", "kuhn_poker", [2], 8, 5, {}, best_response=trainer)
    (bound,) = board.bounds
    assert trained == [("heuristic", 2)] and bound.seed == 77
    assert (bound.result.focus, bound.result.others) == ("best response", "heuristic")
    assert bound.result.group_size == 2 and bound.result.num_games == 8


@pytest.mark.parametrize("spec", SPEC_KINDS)
def test_the_baseline_commands_take_every_kind_of_spec(spec, own_module, tmp_path, capsys):
    argv = ["--game", "kuhn_poker", "--games", "4"]
    command("evaluate").main([*argv, "--out", str(tmp_path), "--pairings", f"{spec}:random:3"])
    assert "playing 4 games: 1 pairing x 4\n" in capsys.readouterr().out
    command("agent_results").main([*argv, "--search-games", "4", "--pairings", f"{spec}:random"])
    assert "| random | 4 |" in capsys.readouterr().out


def test_a_checkpoint_spec_plays_the_arena_and_the_scoreboard(tmp_path):
    torch = require("train")
    from presages_env.agents.action_scorer import ActionScorer

    torch.manual_seed(0)
    path = tmp_path / "scorer.pt"
    ActionScorer.for_game("kuhn_poker", {"state": [8], "action": [8], "head": [8]}).save(path)
    main(["arena", "--agents", f"dmc:{path}", "random", *KUHN, "--out", str(tmp_path / "a")])
    assert json.loads((tmp_path / "a" / "arena.json").read_text())["records"] == 2 * 8
    main(
        ["scoreboard", f"dmc:{path}", *KUHN, "--players", "3", "--br", "none"]
        + ["--references", "heuristic", "--out", str(tmp_path / "s")]
    )
    (robin,) = json.loads((tmp_path / "s" / "scoreboard.json").read_text())["round_robins"]
    assert [s["agent"] for s in robin["head_to_head"]] == ["dmc:scorer", "heuristic"]
