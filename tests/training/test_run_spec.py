"""A run's game is resolved once (core/run_spec.py): the trainers, their learners, rollouts,
actors, logs and loaders read the RunSpec their check made and never look the name up
again."""

from __future__ import annotations

import sys

import pytest
from extras import require

require("train")

import presages_env.games  # noqa: E402
from presages_env.games.run_spec import RunSpec, resolve_run  # noqa: E402
from presages_env.training import batched_ppo, dmc  # noqa: E402


def count_look_ups(monkeypatch) -> list[str]:
    """The names every ``get_game`` of the package is called with from now on (wherever a
    module bound it)."""
    real, names = presages_env.games.get_game, []

    def counted(name):
        names.append(name)
        return real(name)

    for module in list(sys.modules.values()):
        ours = getattr(module, "__name__", "").startswith("presages_env")
        if ours and getattr(module, "get_game", None) is real:
            monkeypatch.setattr(module, "get_game", counted)
    return names


def test_a_deep_monte_carlo_run_looks_its_game_up_once(tmp_path, monkeypatch):
    """The config's name was looked up again by the check, the learner, the actors, the log
    and the loaders (seven times in a short run)."""
    names = count_look_ups(monkeypatch)
    config = dmc.dmc_config(
        game="kuhn_poker",
        total_timesteps=64,
        num_envs=8,
        rollout_steps=4,
        minibatch_size=32,
        buffer_size=256,
        net_arch=(8,),
        eval_games=2,
        device="cpu",
        out_dir=str(tmp_path),
    )
    dmc.train_dmc(config)
    assert names == ["kuhn_poker"]


def test_the_batched_trainers_check_looks_its_game_up_once_and_makes_the_run(monkeypatch):
    names = count_look_ups(monkeypatch)
    run = batched_ppo.checked_run(batched_ppo.game_config("kuhn_poker", num_players=2))
    assert names == ["kuhn_poker"]
    assert isinstance(run.spec, RunSpec) and run.spec.game.name == "kuhn_poker"
    assert (run.spec.num_players, dict(run.spec.options)) == (2, {})
    assert run.config.game == "kuhn_poker"


def test_a_run_spec_holds_the_games_own_checks():
    spec = resolve_run("president")
    assert spec.num_players == spec.game.default_players
    assert spec.num_actions == spec.game.num_actions(spec.num_players)
    with pytest.raises(TypeError, match="game_options: unknown option"):
        resolve_run("president", None, {"no_such_option": 1})
    with pytest.raises(ValueError, match="num_players"):
        resolve_run("president", 1)
    with pytest.raises(ValueError, match="kuhn_poker"):  # the known games are named
        resolve_run("no_such_game")
