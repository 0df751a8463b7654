"""Every game plays exactly as it did when these trajectories were recorded.

``data/golden_trajectories.json`` holds, for each game and several player counts, option sets
and seeds, a sha256 of everything an agent sees while random legal play runs through the
vector env (actions, observations, masks, rewards, seat to act, done and truncated flags at
every step, on the serial and the multi-threaded path), through the AEC env (``last()`` at
every turn, infos, the ansi rendering of each finished game), and of the heuristic's and the
search's choices. Values are hashed as ``int64``/``float32`` whatever the arrays' dtypes, so a
change of storage that keeps every value passes, and any change of behaviour fails.

Recorded from the code before the compact state layout; re-record only for an intended
change of the rules (``python tests/core/test_golden_trajectories.py --record``).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import presages_env
from presages_env.agents.heuristic import HeuristicAgent
from presages_env.agents.search import ISMCTSAgent
from presages_env.core.view import REFEREE_HEADING

DATA = Path(__file__).parent / "data" / "golden_trajectories.json"

# (game, players, options, seeds): several player counts and option sets per game
VECTOR_CASES = [
    ("president", 3, {}, (0, 1)),
    ("president", 4, {"num_manches": 3, "reward_scheme": "match"}, (2,)),
    ("president", 5, {}, (3,)),
    ("president", 6, {"num_manches": 2, "reward_scheme": "points"}, (4,)),
    ("presages", 4, {}, (0, 1)),
    (
        "presages",
        5,
        {
            "pride_carries_into_next_round": True,
            "bout_winner_is_placer": True,
            "dream_reply_resolved_by_target": True,
            "betrayal_law_judged_before_take": True,
            "reveal_all_hands_at_round_end": True,
            "round_reward": 0.25,
        },
        (2,),
    ),
    ("presages", 6, {"pride_carries_into_next_round": True, "round_reward": 1.0}, (3,)),
    ("presages", 4, {"bout_winner_is_placer": True, "betrayal_law_judged_before_take": True}, (4,)),
    ("aciliande", 2, {}, (0, 1)),
    ("aciliande", 3, {"stake": 7, "lives": 2}, (2,)),
    ("aciliande", 4, {"teams": True, "stake": 1000, "lives": 5}, (3,)),
    (
        "aciliande",
        7,
        {"lives": (1, 2, 3, 4, 5, 6, 7), "fixed_hand_size": 3, "duel_tiebreak": "share"},
        (4,),
    ),
    ("aciliande", 6, {"teams": True, "lives": 99, "stake": 999}, (5,)),
]
VECTOR_ENVS = 8
VECTOR_STEPS = 600
# the multi-threaded path (batches of 256 or more), one case per game
PARALLEL_CASES = [("president", 4, {}), ("presages", 4, {}), ("aciliande", 4, {})]
PARALLEL_ENVS = 300
PARALLEL_STEPS = 120
TRUNCATION_CASES = [("president", 4, 25), ("presages", 5, 40), ("aciliande", 3, 30)]
AEC_CASES = [
    ("president", 4, {"num_manches": 2}),
    ("presages", 4, {}),
    ("presages", 6, {"reveal_all_hands_at_round_end": True}),
    ("aciliande", 5, {"stake": 3}),
]
AEC_GAMES = 3
HEURISTIC_CASES = [("president", 4), ("presages", 4), ("presages", 6), ("aciliande", 4)]
HEURISTIC_STEPS = 150
SEARCH_CASES = [("president", 4), ("presages", 4), ("aciliande", 4)]


class Digest:
    """sha256 over values, independent of the arrays' dtypes."""

    def __init__(self) -> None:
        self._h = hashlib.sha256()

    def ints(self, array) -> None:
        a = np.asarray(array)
        self._h.update(str(a.shape).encode())
        self._h.update(a.astype(np.int64).tobytes())

    def floats(self, array) -> None:
        a = np.asarray(array)
        self._h.update(str(a.shape).encode())
        self._h.update(a.astype(np.float32).tobytes())

    def text(self, value: str) -> None:
        self._h.update(value.encode())

    def hexdigest(self) -> str:
        return self._h.hexdigest()


def case_name(*parts) -> str:
    return "/".join(json.dumps(p, sort_keys=True) if isinstance(p, dict) else str(p) for p in parts)


def vector_digest(game, players, options, seed, envs, steps, max_steps=0) -> tuple[str, int]:
    vec = presages_env.make_vec(
        game, envs, num_players=players, seed=seed, max_steps=max_steps, **options
    )
    d = Digest()
    rng_states = np.arange(envs, dtype=np.int64) * 1_000_003 + seed
    d.ints(vec.obs)
    d.ints(vec.masks)
    d.ints(vec.current)
    finished = 0
    for _ in range(steps):
        actions = vec.random_actions(rng_states)
        out = vec.step(actions)
        d.ints(actions)
        d.ints(out.obs)
        d.ints(out.masks)
        d.floats(out.rewards)
        d.ints(out.current)
        d.ints(out.done)
        d.ints(out.truncated)
        finished += int(out.done.sum())
    return d.hexdigest(), finished


def aec_digest(game, players, options, seed) -> tuple[str, int]:
    env = presages_env.make(game, num_players=players, render_mode="ansi", **options)
    rng = np.random.default_rng(seed)
    d = Digest()
    decisions = 0
    for g in range(AEC_GAMES):
        env.reset(seed=seed * 100 + g)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            d.text(agent)
            d.ints(obs["observation"])
            d.ints(obs["action_mask"])
            d.floats([reward])
            d.ints([terminated, truncated])
            d.text(json.dumps(info, sort_keys=True, default=str))
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            decisions += 1
        # the game's picture as recorded; the env heads it as the referee's view since
        d.text(env.render().removeprefix(REFEREE_HEADING + "\n"))
    return d.hexdigest(), decisions


def heuristic_digest(game, players, seed=0) -> str:
    """Every seat plays the game's heuristic through the vector env."""
    vec = presages_env.make_vec(game, 8, num_players=players, seed=seed)
    agent = HeuristicAgent(game)
    d = Digest()
    for _ in range(HEURISTIC_STEPS):
        actions = agent.act_batch(vec.obs, vec.masks)
        out = vec.step(actions)
        d.ints(actions)
        d.ints(out.obs)
        d.floats(out.rewards)
    return d.hexdigest()


def search_digest(game, players, seed=0) -> str:
    """The search's moves from a few positions of random play (20 simulations each, random
    rollouts: the recorded ones, whatever a game's default)."""
    vec = presages_env.make_vec(game, 4, num_players=players, seed=seed)
    rng_states = np.arange(4, dtype=np.int64) + 11
    agent = ISMCTSAgent(game, simulations=20, seed=seed, rollouts="random")
    d = Digest()
    for move in range(12):
        if move % 4 == 3:
            d.ints(agent.act_states(vec.states))
        vec.step(vec.random_actions(rng_states))
    return d.hexdigest()


def record() -> dict:
    out: dict[str, dict] = {"vector": {}, "parallel": {}, "truncated": {}, "aec": {}}
    for game, players, options, seeds in VECTOR_CASES:
        for seed in seeds:
            digest, finished = vector_digest(
                game, players, options, seed, VECTOR_ENVS, VECTOR_STEPS
            )
            out["vector"][case_name(game, players, options, seed)] = [digest, finished]
    for game, players, options in PARALLEL_CASES:
        digest, finished = vector_digest(game, players, options, 7, PARALLEL_ENVS, PARALLEL_STEPS)
        out["parallel"][case_name(game, players, options, 7)] = [digest, finished]
    for game, players, max_steps in TRUNCATION_CASES:
        digest, finished = vector_digest(game, players, {}, 9, VECTOR_ENVS, 200, max_steps)
        out["truncated"][case_name(game, players, max_steps)] = [digest, finished]
    for game, players, options in AEC_CASES:
        out["aec"][case_name(game, players, options)] = list(aec_digest(game, players, options, 5))
    out["heuristic"] = {case_name(g, p): heuristic_digest(g, p) for g, p in HEURISTIC_CASES}
    out["search"] = {case_name(g, p): search_digest(g, p) for g, p in SEARCH_CASES}
    return out


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(DATA.read_text())


def _vector_params():
    for game, players, options, seeds in VECTOR_CASES:
        for seed in seeds:
            yield pytest.param(game, players, options, seed, id=f"{game}-{players}p-{seed}")


@pytest.mark.parametrize(("game", "players", "options", "seed"), list(_vector_params()))
def test_vector_trajectories(golden, game, players, options, seed):
    got = vector_digest(game, players, options, seed, VECTOR_ENVS, VECTOR_STEPS)
    assert list(got) == golden["vector"][case_name(game, players, options, seed)]


@pytest.mark.parametrize(("game", "players", "options"), PARALLEL_CASES)
def test_parallel_trajectories(golden, game, players, options):
    got = vector_digest(game, players, options, 7, PARALLEL_ENVS, PARALLEL_STEPS)
    assert list(got) == golden["parallel"][case_name(game, players, options, 7)]


@pytest.mark.parametrize(("game", "players", "max_steps"), TRUNCATION_CASES)
def test_truncated_trajectories(golden, game, players, max_steps):
    got = vector_digest(game, players, {}, 9, VECTOR_ENVS, 200, max_steps)
    assert list(got) == golden["truncated"][case_name(game, players, max_steps)]


@pytest.mark.parametrize(("game", "players", "options"), AEC_CASES)
def test_aec_trajectories(golden, game, players, options):
    got = aec_digest(game, players, options, 5)
    assert list(got) == golden["aec"][case_name(game, players, options)]


@pytest.mark.parametrize(("game", "players"), HEURISTIC_CASES)
def test_heuristic_trajectories(golden, game, players):
    assert heuristic_digest(game, players) == golden["heuristic"][case_name(game, players)]


@pytest.mark.parametrize(("game", "players"), SEARCH_CASES)
def test_search_moves(golden, game, players):
    assert search_digest(game, players) == golden["search"][case_name(game, players)]


def test_every_case_finishes_games(golden):
    """The recorded runs are long enough to cover whole games and auto-resets."""
    for section in ("vector", "parallel", "truncated"):
        for name, (_, finished) in golden[section].items():
            assert finished > 0, name


if __name__ == "__main__":
    if "--record" not in sys.argv:
        sys.exit("usage: python tests/core/test_golden_trajectories.py --record")
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {DATA}")
