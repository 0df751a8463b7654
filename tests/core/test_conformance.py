"""What every registered game must pass; a new game runs all of it by being registered.

The checks are the library's (:mod:`presages_env.core.conformance`: PettingZoo's api_test
and seed_test, random games through valid states only, the AEC env, the vector env and
replay agreeing step by step, bad input refused with nothing changed, no leak, the decision
tables, the state fuzz under numba's bounds checks), each run here as one test per game,
check and player count, with the tools from above the core. The release checks (a shipped
checkpoint, the registered PettingZoo env) follow. Per-game folders keep the rules.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pettingzoo
import pytest

import presages_env
from presages_env.agents.search import ISMCTSAgent
from presages_env.core import conformance
from presages_env.core.game import Game, RewardBounds
from presages_env.core.validation import checked_state
from presages_env.fuzzing import run_in_child
from presages_env.fuzzing import states as fuzz
from presages_env.games.president.game import PresidentGame

GAMES = presages_env.list_games()
# Cases of the bounds-checked fuzz here; ``python -m presages_env.fuzzing`` runs the full budget.
FUZZ_CASES = {"states": 300, "heuristics": 400}


def a_refused_state(game: Game, n: int) -> np.ndarray:
    """A corrupted mid-game ``n``-player state that validation refuses."""
    trajectory = conformance.random_trajectory(game, n, seed=n)
    original = trajectory[len(trajectory) // 2]
    rng = np.random.default_rng(n)
    for case in range(1000):
        _description, state = fuzz.corrupt(original, fuzz.KINDS[case % len(fuzz.KINDS)], rng)
        if state[0] == n:  # still claims n players: the env's own check will not catch it
            try:
                checked_state(game, state)
            except ValueError:
                return state
    raise AssertionError(f"no corruption of a {game.name} state was refused")


def search(game: Game, states: np.ndarray) -> np.ndarray:
    return ISMCTSAgent(game.name, simulations=2).act_states(states)


def bounds_checked_fuzz(game: Game, kind: str) -> str | None:
    result = run_in_child([kind], [game.name], cases=FUZZ_CASES[kind], seed=7)
    if result.returncode != 0 or "0 failures" not in result.stdout:
        return result.stdout + result.stderr
    return None


TOOLS = conformance.Tools(refused_state=a_refused_state, search=search, fuzz=bounds_checked_fuzz)
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


def test_check_game_skips_what_needs_a_missing_tool_and_refuses_unknown_checks():
    game = presages_env.get_game("president")
    skipped = conformance.check_game(game, checks=["bad_input_to_the_aec_env_changes_nothing"])
    assert set(skipped) == {
        ("bad_input_to_the_aec_env_changes_nothing", n) for n in conformance.seatings(game)
    }
    assert all("Tools.refused_state" in reason for reason in skipped.values())
    with pytest.raises(ValueError, match="unknown check"):
        conformance.check_game(game, checks=["nothing_of_the_kind"])


def test_a_game_whose_kernel_has_no_global_state_is_refused_at_definition():
    import types

    kernel = types.SimpleNamespace(**vars(presages_env.get_game("president").kernel))
    del kernel.global_state
    with pytest.raises(TypeError, match="global_state"):
        type(
            "NoGlobalState",
            (Game,),
            {
                "kernel": kernel,
                "validator": presages_env.get_game("president").validator,
                "state_dtype": np.int8,
                "layout_version": 2,
                "title": "No global state",
            },
        )


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
