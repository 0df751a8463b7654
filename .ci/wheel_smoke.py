"""Smoke test of the built wheel, run from a clean venv holding only the wheel and its
declared dependencies: a package-data file left out of the wheel, or a dependency used but
not declared (torch, Ray, SB3 must stay optional), fails here rather than for a user."""

import importlib.util
import sys
from pathlib import Path

import numpy as np

import presages_env
from presages_env import records
from presages_env.ui.replay_page import replay_page

OPTIONAL = ("torch", "ray", "stable_baselines3", "sb3_contrib")
SHARED_PATHS_GAME = "president"


def first_legal_game(name: str, n: int, seed: int) -> list[int]:
    """The actions of a game where every seat plays its first legal action."""
    game = presages_env.get_game(name)
    state = game.new_state(n, seed)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    actions = []
    while not game.is_over(state):
        game.kernel.legal_mask(state, mask)
        actions.append(int(np.argmax(mask)))
        game.kernel.step(state, np.int64(actions[-1]), rewards)
    return actions


def main() -> None:
    source = Path(presages_env.__file__).resolve()
    assert "site-packages" in source.parts, f"not the installed wheel: {source}"
    for name in OPTIONAL:
        assert importlib.util.find_spec(name) is None, f"{name} should not be installed here"
    for game in presages_env.list_games():
        env = presages_env.make(game, render_mode="ansi")
        env.reset(seed=0)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            env.step(None if terminated or truncated else int(np.argmax(obs["action_mask"])))
        assert env.render()
        if not presages_env.get_game(game).ships_checkpoint:  # the exemplar game ships none
            print(f"{game}: AEC game played")
            continue
        checkpoint = source.parent / "checkpoints" / f"{game}.pt"
        assert checkpoint.stat().st_size > 100_000, f"{checkpoint} missing from the wheel"
        print(f"{game}: AEC game played, checkpoint shipped")
    # The record, replay page and vector env are the same code for every game: one game
    # proves them installed (each game compiles them afresh, minutes on a CI core).
    page = replay_page(
        records.record(SHARED_PATHS_GAME, 3, 3, first_legal_game(SHARED_PATHS_GAME, 3, 3))
    )
    assert "__REPLAY_DATA__" not in page, "the replay page's template is missing"
    assert "__CARD_STYLE__" not in page and "drawCard" in page, "the card parts are missing"
    vec = presages_env.make_vec(SHARED_PATHS_GAME, 64, seed=0)
    rng = np.arange(64, dtype=np.int64)
    for _ in range(50):
        out = vec.step(vec.random_actions(rng))
    assert out.masks.any(axis=1).all()
    print(f"{SHARED_PATHS_GAME}: replay page written, vector env stepped")
    import gymnasium

    importlib.import_module("presages_env.training")  # registers the Gymnasium views
    env = gymnasium.make("presages_env/president-v0", opponents="heuristic")
    env.reset(seed=0)
    leaked = [name for name in OPTIONAL if name in sys.modules]
    assert not leaked, f"importing presages_env pulled in {leaked}"
    print("wheel_smoke: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
