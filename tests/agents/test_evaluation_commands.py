"""Every evaluation command takes every kind of agent spec (agents/specs.py) and plays exactly
the games it announces: tiny runs of Président at 4 players, in this process."""

from __future__ import annotations

import pathlib

import pytest
from commands import command
from extras import require

torch = require("train")

from presages_env.agents import action_scorer as scorer_module  # noqa: E402
from presages_env.agents.action_scorer import ActionScorer  # noqa: E402
from presages_env.agents.ppo import shipped_checkpoint  # noqa: E402
from presages_env.agents.specs import parse_pairing  # noqa: E402
from presages_env.games import get_game  # noqa: E402

ARCH = {"state": [8], "action": [8], "head": [8]}


@pytest.fixture(scope="module")
def specs(tmp_path_factory) -> dict[str, str]:
    """One spec of each kind: dmc is a folder of two scorers, shipped as the game's."""
    folder = tmp_path_factory.mktemp("scorers")
    (folder / "president").mkdir()
    for seed in (0, 1):
        torch.manual_seed(seed)
        ActionScorer.for_game(get_game("president"), ARCH).save(
            folder / "president" / f"seed{seed}.pt"
        )
    return {
        "random": "random:5",
        "heuristic": "heuristic",
        "search": "search:2",
        "ppo": "ppo",
        "ppo:PATH": f"ppo:{shipped_checkpoint('president', 4)}",
        "dmc": "dmc",
        "dmc:PATH": f"dmc:{folder / 'president' / 'seed0.pt'}",
        "dmc:FOLDER": f"dmc:{folder / 'president'}",
        "shipped": str(folder),
    }


@pytest.fixture
def shipped(specs, monkeypatch):
    monkeypatch.setattr(scorer_module, "SHIPPED_SCORERS", pathlib.Path(specs["shipped"]))


def every_kind(specs) -> list[str]:
    """Pairings in which each kind of spec appears."""
    return [
        f"{specs['random']}:{specs['search']}",
        f"{specs['ppo']}:{specs['dmc']}",
        f"{specs['ppo:PATH']}:{specs['dmc:PATH']}",
        f"{specs['dmc:FOLDER']}:{specs['heuristic']}",
    ]


def test_pairings_split_where_both_sides_are_agents():
    assert parse_pairing("dmc:heuristic") == ("dmc", "heuristic")
    assert parse_pairing("ppo:runs/a.pt:random:3") == ("ppo:runs/a.pt", "random:3")
    for text in ("heuristic", "dmc:ppo:random", "chess:heuristic"):
        with pytest.raises(ValueError, match="AGENT:AGENT"):
            parse_pairing(text)


def test_evaluate_plays_the_named_pairings_with_every_kind_of_agent(
    specs, shipped, tmp_path, capsys
):
    argv = ["--game", "president", "--players", "4", "--games", "8", "--num-envs", "8"]
    argv += ["--duplicate", "--out", str(tmp_path), "--pairings", *every_kind(specs)]
    command("evaluate").main(argv)
    printed = capsys.readouterr().out
    assert "playing 32 games: 4 pairings x 8\n" in printed
    report = (tmp_path / "results.md").read_text()
    for row in ("random:5 | search:2 | 8 ", "ppo | dmc | 8 ", "dmc:president | heuristic | 8 "):
        assert f"| {row}" in report
    assert "| ppo:president_4p | dmc:seed0 | 8 |" in report
    assert "Cross-play" not in report  # opt-in


def test_evaluate_counts_every_ordered_pair_and_refuses_partial_deal_groups(tmp_path, capsys):
    argv = ["--game", "president", "--games", "4", "--num-envs", "4", "--out", str(tmp_path)]
    command("evaluate").main([*argv, "--agents", "random", "heuristic"])
    assert "playing 8 games: 2 pairings x 4\n" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="multiple of 4, at least 8: 8, not 4"):
        command("evaluate").main([*argv, "--agents", "random", "heuristic", "--duplicate"])
    with pytest.raises(SystemExit, match="AGENT:AGENT"):
        command("evaluate").main([*argv, "--pairings", "heuristic"])


def test_agent_results_takes_every_kind_of_agent(specs, shipped, capsys):
    argv = ["--game", "president", "--players", "4", "--games", "4", "--search-games", "4"]
    command("agent_results").main([*argv, "--pairings", *every_kind(specs)])
    table = capsys.readouterr().out
    assert "| search (2 sims, " in table and "| dmc:president | heuristic | 4 |" in table
    assert "| ppo:president_4p | dmc:seed0 | 4 |" in table
    with pytest.raises(SystemExit, match="--search-games 4 with --duplicate: .* 8, not 4"):
        command("agent_results").main([*argv, "--games", "8", "--duplicate"])


@pytest.mark.parametrize("kind", ["random", "search", "ppo", "ppo:PATH", "dmc", "dmc:FOLDER"])
def test_decision_attribution_takes_every_kind_of_agent(specs, shipped, kind, capsys):
    argv = ["--game", "president", "--players", "4", "--games", "2"]
    command("decision_attribution").main([*argv, "--learner", specs[kind]])
    assert "|" in capsys.readouterr().out


def test_the_duplicate_deals_benchmark_takes_every_kind_of_agent(specs, shipped, capsys):
    argv = ["--game", "president", "--players", "4", "--games", "8"]
    command("duplicate_deals").main([*argv, "--pairings", every_kind(specs)[2]])
    assert "| ppo:president_4p vs dmc:seed0 | 8 |" in capsys.readouterr().out
