"""The line a first run prints before numba compiles a game's kernels (core/compiling.py):
printed on an empty cache, found without compiling anything, silent once compiled."""

import os
import subprocess
import sys

import presages_env
from presages_env.core.compiling import compiling_notice, kernels_cached

FIND_OUT = """
from presages_env.core.compiling import compiling_notice
from presages_env.games import get_game
games = [get_game("kuhn_poker"), get_game("president")]
print(compiling_notice(games[:1]))
print(compiling_notice(games))
print(all(not game.kernel.reset_logged.signatures for game in games))
"""


def test_an_empty_numba_cache_is_announced_with_the_games_estimate_and_nothing_compiled(
    tmp_path,
):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", FIND_OUT], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    kuhn, president = (presages_env.get_game(n) for n in ("kuhn_poker", "president"))
    assert out[0] == (
        f"compiling the game's kernels, first run only (about {kuhn.compile_seconds} s)"
    )
    total = kuhn.compile_seconds + president.compile_seconds
    assert out[1] == (
        f"compiling the kernels of Kuhn poker, Président, first run only (about {total} s)"
    )
    assert out[2] == "True"  # found out from the cache's files alone


def test_a_game_compiled_in_this_process_is_not_announced():
    env = presages_env.make("kuhn_poker")
    env.reset(seed=0)  # compiled, or loaded from the cache
    game = presages_env.get_game("kuhn_poker")
    assert kernels_cached(game) and compiling_notice([game]) is None
