"""Every game plays exactly as it did when these trajectories were recorded.

``data/golden/`` holds one text file per case, written as OpenSpiel's playthroughs are, so
that a diff shows what changed and where:

- ``aec-*``: random legal play through the AEC env, every turn with its seat, its reward,
  the legal actions with their labels, the chosen action, a summary of the observation (a
  digest of its values, its non-zero count) and the infos when they change; each game's
  final table as the ansi rendering draws it;
- ``vector-*``, ``parallel-*`` (the multi-threaded path), ``truncated-*`` and
  ``heuristic-*``: batched play, one line per finished game (the step, the row, done or
  truncated, its decisions, its rewards, and a digest of every value an agent saw in it:
  actions, observations, masks, rewards, seat to act, flags), then a line per unfinished
  game;
- ``search-*``: the search's moves from positions of random play.

Digests hash values as ``int64``/``float32`` whatever the arrays' dtypes, so a change of
storage that keeps every value passes, and any change of behaviour fails. Re-record only
for an intended change of the rules, then read the diff::

    python tests/core/test_golden_trajectories.py --record
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import presages_env
from presages_env.agents.heuristic import HeuristicAgent
from presages_env.agents.search import ISMCTSAgent
from presages_env.core.view import REFEREE_HEADING

DATA = Path(__file__).parent / "data" / "golden"

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
    """A short sha256 over values, independent of the arrays' dtypes."""

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

    def hexdigest(self) -> str:
        return self._h.hexdigest()[:16]


def numbers(values) -> str:
    return " ".join(f"{float(v):g}" for v in np.asarray(values).ravel())


def file_name(section: str, game: str, players: int, seed: int | None = None) -> str:
    """``section-game-4p[-seedN].txt``: one file per case (its options are in its header)."""
    return f"{section}-{game}-{players}p" + ("" if seed is None else f"-seed{seed}") + ".txt"


Chooser = Callable[[object], np.ndarray]


def batched_lines(vec, choose: Chooser, steps: int) -> Iterator[str]:
    """One line per game ``vec`` finishes in ``steps`` steps of ``choose``'s actions, then
    one per game still going; each with a digest of every value its row showed."""
    rows = range(vec.num_envs)
    digests = [Digest() for _ in rows]
    decisions = [0] * vec.num_envs
    for i in rows:
        digests[i].ints(vec.obs[i])
        digests[i].ints(vec.masks[i])
        digests[i].ints(vec.current[i])
    for step in range(steps):
        actions = choose(vec)
        out = vec.step(actions)
        for i in rows:
            d = digests[i]
            for values in (actions[i], out.obs[i], out.masks[i], out.current[i]):
                d.ints(values)
            d.floats(out.rewards[i])
            d.ints([out.done[i], out.truncated[i]])
            decisions[i] += 1
            if out.done[i] or out.truncated[i]:
                how = "truncated" if out.truncated[i] else "done"
                yield (
                    f"step {step} game {i} {how} after {decisions[i]} decisions: "
                    f"rewards {numbers(out.rewards[i])}; digest {d.hexdigest()}"
                )
                digests[i], decisions[i] = Digest(), 0
    for i in rows:
        yield f"unfinished game {i}: {decisions[i]} decisions; digest {digests[i].hexdigest()}"


def random_chooser(envs: int, seed: int) -> Chooser:
    rng_states = np.arange(envs, dtype=np.int64) * 1_000_003 + seed
    return lambda vec: vec.random_actions(rng_states)


def vector_text(game, players, options, seed, envs, steps, max_steps=0) -> str:
    vec = presages_env.make_vec(
        game, envs, num_players=players, seed=seed, max_steps=max_steps, **options
    )
    header = f"# {game}, {players} players, options {json.dumps(options, sort_keys=True)}"
    header += f", seed {seed}, {envs} games at once, {steps} random steps"
    if max_steps:
        header += f", truncated at {max_steps} decisions"
    return "\n".join([header, *batched_lines(vec, random_chooser(envs, seed), steps)]) + "\n"


def heuristic_text(game, players, seed=0) -> str:
    """Every seat plays the game's heuristic through the vector env."""
    vec = presages_env.make_vec(game, 8, num_players=players, seed=seed)
    agent = HeuristicAgent(game)
    header = f"# {game}, {players} players, seed {seed}, 8 games, {HEURISTIC_STEPS} heuristic steps"
    lines = batched_lines(vec, lambda v: agent.act_batch(v.obs, v.masks), HEURISTIC_STEPS)
    return "\n".join([header, *lines]) + "\n"


def aec_text(game, players, options, seed) -> str:
    """The playthrough of ``AEC_GAMES`` random games through the AEC env."""
    env = presages_env.make(game, num_players=players, render_mode="ansi", **options)
    rng = np.random.default_rng(seed)
    lines = [f"# {game}, {players} players, options {json.dumps(options, sort_keys=True)}"]
    for g in range(AEC_GAMES):
        env.reset(seed=seed * 100 + g)
        lines.append(f"\n## game {g}, seed {seed * 100 + g}")
        last_info = None
        for turn, agent in enumerate(env.agent_iter()):
            obs, reward, terminated, truncated, info = env.last()
            observation = Digest()
            observation.ints(obs["observation"])
            flags = " terminated" * bool(terminated) + " truncated" * bool(truncated)
            lines.append(f"turn {turn}: {agent}, reward {float(reward):g}{flags}")
            lines.append(
                f"  observation {observation.hexdigest()}"
                f" ({int(np.count_nonzero(obs['observation']))} non-zero)"
            )
            shown = json.dumps(info, sort_keys=True, default=str)
            if shown != last_info:
                lines.append(f"  info {shown}")
                last_info = shown
            if terminated or truncated:
                env.step(None)
                continue
            state = env.get_state()
            legal = np.flatnonzero(obs["action_mask"])
            labels = [f"{a} {env.game.action_label(state, int(a))}" for a in legal]
            lines.append(f"  legal: {'; '.join(labels)}")
            action = int(legal[rng.integers(len(legal))])
            lines.append(f"  action: {action} {env.game.action_label(state, action)}")
            env.step(action)
        # the game's picture as recorded; the env heads it as the referee's view since
        lines.append("final table:")
        lines.append(env.render().removeprefix(REFEREE_HEADING + "\n").rstrip("\n"))
    return "\n".join(lines) + "\n"


def search_text(game, players, seed=0) -> str:
    """The search's moves from a few positions of random play (20 simulations each, random
    rollouts: the recorded ones, whatever a game's default)."""
    vec = presages_env.make_vec(game, 4, num_players=players, seed=seed)
    rng_states = np.arange(4, dtype=np.int64) + 11
    agent = ISMCTSAgent(game, simulations=20, seed=seed, rollouts="random")
    lines = [f"# {game}, {players} players, seed {seed}: ISMCTS, 20 random-rollout simulations"]
    for move in range(12):
        if move % 4 == 3:
            lines.append(f"after {move} random steps: {numbers(agent.act_states(vec.states))}")
        vec.step(vec.random_actions(rng_states))
    return "\n".join(lines) + "\n"


def cases() -> dict[str, Callable[[], str]]:
    """Every golden file's name and what writes its text."""
    out: dict[str, Callable[[], str]] = {}

    def add(name: str, write: Callable[[], str]) -> None:
        assert name not in out, f"two cases write {name}"
        out[name] = write

    partial = functools.partial
    for game, players, options, seeds in VECTOR_CASES:
        for seed in seeds:
            args = (game, players, options, seed, VECTOR_ENVS, VECTOR_STEPS)
            add(file_name("vector", game, players, seed), partial(vector_text, *args))
    for game, players, options in PARALLEL_CASES:
        args = (game, players, options, 7, PARALLEL_ENVS, PARALLEL_STEPS)
        add(file_name("parallel", game, players, 7), partial(vector_text, *args))
    for game, players, max_steps in TRUNCATION_CASES:
        args = (game, players, {}, 9, VECTOR_ENVS, 200, max_steps)
        add(file_name("truncated", game, players, 9), partial(vector_text, *args))
    for game, players, options in AEC_CASES:
        add(file_name("aec", game, players), partial(aec_text, game, players, options, 5))
    for game, players in HEURISTIC_CASES:
        add(file_name("heuristic", game, players), partial(heuristic_text, game, players))
    for game, players in SEARCH_CASES:
        add(file_name("search", game, players), partial(search_text, game, players))
    return out


CASES = cases()


def record() -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    for stale in DATA.glob("*.txt"):
        stale.unlink()
    for name, write in CASES.items():
        (DATA / name).write_text(write(), encoding="utf-8")


@pytest.mark.parametrize("name", CASES)
def test_the_game_plays_as_recorded(name):
    assert CASES[name]().splitlines() == (DATA / name).read_text(encoding="utf-8").splitlines()


def test_every_file_is_a_case():
    assert sorted(path.name for path in DATA.glob("*.txt")) == sorted(CASES)


@pytest.mark.parametrize("section", ["vector", "parallel", "truncated"])
def test_every_batched_case_finishes_games(section):
    """The recorded runs are long enough to cover whole games and auto-resets."""
    for name in CASES:
        if name.startswith(section + "-"):
            assert " decisions: rewards " in (DATA / name).read_text(encoding="utf-8"), name


if __name__ == "__main__":
    if "--record" not in sys.argv:
        sys.exit("usage: python tests/core/test_golden_trajectories.py --record")
    record()
    print(f"wrote {len(CASES)} files into {DATA}")
