"""The whole contract of a game, as documented: ``check_game(game)`` runs every check of
:mod:`presages_env.core.conformance` with the tools from above the core that some need (a
corrupted state, the search, the bounds-checked fuzz), so none is left out::

    import presages_env
    from presages_env.fuzzing.conformance import check_game

    skipped = check_game(presages_env.get_game("my_game"))  # raises on the first failure

What it returns is only what the game declares it has none of (no world sampler, no
heuristic). The fuzz runs here at a small budget; ``python -m presages_env.fuzzing`` runs the
full one.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from presages_env.agents.search import ISMCTSAgent
from presages_env.core import conformance
from presages_env.core.game import Game
from presages_env.core.validation import checked_state
from presages_env.fuzzing import run_in_child
from presages_env.fuzzing import states as fuzz
from presages_env.games import GAME_CLASSES, get_game

# Cases of the bounds-checked fuzz per kind here; ``python -m presages_env.fuzzing`` runs more.
FUZZ_CASES = {"states": 300, "heuristics": 400}
FUZZ_SEED = 7
CORRUPTION_TRIES = 1000  # corruptions tried before a game is said to refuse none


def a_refused_state(game: Game, n: int) -> np.ndarray:
    """A corrupted mid-game ``n``-player state that validation refuses while its header
    still claims ``n`` players (the env's own player-count check does not catch it)."""
    trajectory = conformance.random_trajectory(game, n, seed=n)
    original = trajectory[len(trajectory) // 2]
    rng = np.random.default_rng(n)
    for case in range(CORRUPTION_TRIES):
        _description, state = fuzz.corrupt(original, fuzz.KINDS[case % len(fuzz.KINDS)], rng)
        if state[0] == n:
            try:
                checked_state(game, state)
            except ValueError:
                return state
    raise AssertionError(f"no corruption of a {game.name} state was refused")


def search(game: Game, states: np.ndarray) -> np.ndarray:
    """The search agent's moves for ``states`` (``[B, S]``)."""
    return ISMCTSAgent(game.name, simulations=2).act_states(states)


def bounds_checked_fuzz(game: Game, kind: str) -> str | None:
    """The fuzz of ``kind`` in a child process under numba's bounds checks: what failed, or
    None. The child finds the game by its name, so it must be the registered one."""
    registered = get_game(game.name) if game.name in GAME_CLASSES else None
    if type(registered) is not type(game):
        raise AssertionError(
            f"the {kind} fuzz runs the game registered as {game.name!r} in a child process: "
            f"register {type(game).__name__} under its name to fuzz it"
        )
    result = run_in_child([kind], [game.name], cases=FUZZ_CASES[kind], seed=FUZZ_SEED)
    if result.returncode != 0 or "0 failures" not in result.stdout:
        return result.stdout + result.stderr
    return None


TOOLS = conformance.Tools(refused_state=a_refused_state, search=search, fuzz=bounds_checked_fuzz)


def check_game(game: Game, checks: Iterable[str] | None = None) -> dict[tuple[str, int], str]:
    """Every check (or those named in ``checks``) on ``game`` at each seating, with every
    tool: raises :class:`~presages_env.core.conformance.ConformanceError` at the first
    failure and returns the checks the game declares do not apply to it, with why."""
    return conformance.check_game(game, TOOLS, checks)
