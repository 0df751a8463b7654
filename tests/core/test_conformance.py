"""What every registered game must pass; a new game runs all of it by being registered.

The checks are the library's (:mod:`presages_env.core.conformance`: PettingZoo's api_test
and seed_test, random games through valid states only, the AEC env, the vector env and
replay agreeing step by step, bad input refused with nothing changed, no leak, the decision
tables, the state fuzz under numba's bounds checks), each run here as one test per game,
check and player count, with the tools from above the core that the documented call
(:func:`presages_env.fuzzing.conformance.check_game`) hands in. The release checks (a shipped
checkpoint, the registered PettingZoo env) follow. Per-game folders keep the rules.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pettingzoo
import pytest

import presages_env
from presages_env.core import conformance
from presages_env.core.game import RewardBounds
from presages_env.fuzzing.conformance import TOOLS
from presages_env.games.president.game import PresidentGame

GAMES = presages_env.list_games()
CASES = [
    pytest.param(name, check, n, id=f"{name}-{check}-{n}")
    for name in GAMES
    for check, n in conformance.cases(presages_env.get_game(name))
]


@pytest.mark.parametrize(("name", "check", "n"), CASES)
def test_conformance(name, check, n):
    skipped = conformance.run_check(presages_env.get_game(name), check, n, TOOLS)
    if skipped:
        pytest.skip(skipped)


# ---- the library check ------------------------------------------------------------------------
def test_check_game_names_the_failing_check(monkeypatch):
    """A game that breaks its contract fails with the check, the game and the count named."""
    game = presages_env.get_game("president")

    def no_heuristic_kernel(game, n, tools):
        raise AssertionError("its heuristic has no kernel")

    monkeypatch.setitem(
        conformance.CHECKS,
        "ships_every_part",
        conformance.Check("ships_every_part", no_heuristic_kernel, per_seating=False),
    )
    with pytest.raises(conformance.ConformanceError, match="president at 4 players, check "):
        conformance.check_game(game, checks=["ships_every_part"])


class TooTightPresident(PresidentGame):
    """Président claiming returns it does not keep to."""

    name = "too_tight_president"

    def reward_bounds(self, num_players, options):
        return RewardBounds(0.0, 0.0, zero_sum=True)


class LeakyPresident(PresidentGame):
    """Président whose observation also shows a digest of the whole state, hidden cards too."""

    name = "leaky_president"

    def __init__(self) -> None:
        super().__init__()
        kernel = PresidentGame.kernel

        def observe(state, player, out):
            kernel.observe(state, player, out)
            out[-1] = (state.astype(np.int64) * np.arange(1, state.size + 1)).sum() % 97

        self.kernel = SimpleNamespace(**{**vars(kernel), "observe": observe})


@pytest.mark.parametrize(
    ("game", "check"),
    [
        (TooTightPresident(), "returns_and_lengths_within_the_declared_bounds"),
        (LeakyPresident(), "a_seat_sees_the_same_in_every_world_it_cannot_tell_apart"),
    ],
    ids=["reward_bounds_too_tight", "observe_leaks"],
)
def test_check_game_fails_a_broken_president(game, check):
    """The checks catch what they are for: a game broken in one way fails that check."""
    with pytest.raises(conformance.ConformanceError) as failure:
        conformance.check_game(game, checks=[check])
    assert failure.value.check == check
    assert str(failure.value).startswith(f"{game.name} at ")


def test_check_game_without_the_tools_refuses_before_running_anything(monkeypatch):
    """Issue 51: ``check_game(game)`` as the guide showed it skipped the checks needing a
    tool, the fuzz among them (and the search's part of another one), and passed. Now the
    core's call names every check it cannot run and the tools missing, and runs none."""
    ran = []
    monkeypatch.setattr(conformance, "run_check", lambda *args: ran.append(args))
    game = presages_env.get_game("kuhn_poker")
    with pytest.raises(conformance.MissingTools) as refused:
        conformance.check_game(game)
    needing = {name for name, each in conformance.CHECKS.items() if each.needs}
    assert needing == {
        "bad_input_to_the_aec_env_changes_nothing",
        "every_entry_point_refuses_a_corrupted_state",
        "aec_and_vector_global_states_agree_with_the_kernel",
        "corrupted_states_are_refused_or_play_out_under_bounds_checks",
        "the_heuristic_reads_any_observation_within_bounds",
    }
    assert all(name in str(refused.value) for name in needing)
    assert "Tools.fuzz" in str(refused.value) and "Tools.search" in str(refused.value)
    assert ran == []
    monkeypatch.undo()  # the real run_check refuses too
    with pytest.raises(conformance.MissingTools, match="Tools.refused_state"):
        conformance.run_check(game, "bad_input_to_the_aec_env_changes_nothing", 2)
    with pytest.raises(ValueError, match="unknown check"):
        conformance.check_game(game, checks=["nothing_of_the_kind"])


def test_the_documented_call_runs_every_check_with_every_tool(monkeypatch):
    """``presages_env.fuzzing.conformance.check_game(game)`` hands every tool in, so every
    check runs: only what the game declares it lacks comes back skipped."""
    from presages_env.fuzzing import conformance as documented

    ran = []

    def run_check(game, name, n, tools):
        assert all(getattr(tools, need) is not None for need in conformance.CHECKS[name].needs)
        ran.append((name, n))

    monkeypatch.setattr(conformance, "run_check", run_check)
    game = presages_env.get_game("kuhn_poker")
    assert documented.check_game(game) == {}
    assert ran == list(conformance.cases(game))


def test_the_fuzz_tool_refuses_a_game_it_cannot_reach_by_name():
    """The fuzz runs in a child process that finds the game by name: an unregistered game
    is a loud failure, not a fuzz of the registered game of that name."""
    from presages_env.fuzzing import conformance as documented

    with pytest.raises(AssertionError, match="register TooTightPresident"):
        documented.bounds_checked_fuzz(TooTightPresident(), "states")


def test_a_kernel_without_global_state_is_given_the_generic_one_at_definition():
    """A game need not write ``global_state``: the core binds one over every seat's
    observation and the whole state (core/global_state.py), sized for ``max_players``."""
    import types

    president = presages_env.get_game("president")
    kernel = types.SimpleNamespace(**vars(president.kernel))
    del kernel.global_state
    parts = ("validator", "viewer", "event_texts", "card_texts", "action_features")
    body = {part: getattr(president, part) for part in parts}
    body |= {"heuristic": None, "ships_checkpoint": False, "benchmarked": False}
    type("NoGlobalState", (type(president),), {**body, "kernel": kernel, "title": "No global"})
    assert callable(kernel.global_state)
    assert kernel.GLOBAL_SEATS == 6


# ---- release checks ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_every_registered_game_is_a_registered_pettingzoo_env(name):
    presages_env.register_envs()
    env = pettingzoo.make("aec", f"presages_env/{name}-v0")
    env.reset(seed=0)
    assert env.agents


@pytest.mark.parametrize("name", GAMES)
def test_every_game_that_ships_a_checkpoint_has_it(name):
    """A release check: a game declaring ``ships_checkpoint`` has its trained policy."""
    if not presages_env.get_game(name).ships_checkpoint:
        pytest.skip(f"{name} declares no shipped checkpoint")
    checkpoint = Path(presages_env.__file__).parent / "checkpoints" / f"{name}.pt"
    assert checkpoint.is_file(), f"no shipped checkpoint for {name}"
