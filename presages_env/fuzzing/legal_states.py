"""Legal states through every checked entry point: refusing a state play reached is a failure.

The other kinds feed malformed input and expect clean refusals; this one feeds only states
the kernels reach, and every refusal is a bug (issue 39: Aciliande states of the team
variant with unequal lives were refused by ``env.set_state``, ``Game.view``,
``state_io.serialize`` and the search agent, so a game in progress died). Games are played
at every player count in turn, each with options drawn from the game's whole option space
(:mod:`presages_env.core.option_space`), by each policy in turn: ``random`` (uniform
legal actions), ``heuristic`` (the game's heuristic for every seat) or ``mixed`` (each
decision by one or the other). Every state reached, the first and the last included, goes
through:

- ``env.set_state`` of an env of the game's player count and options, which must then hold it;
- ``state_io.serialize`` then ``deserialize``, which must give it back unchanged;
- ``Game.view`` for a random seat, and the view of every other seat and of the referee
  (the check does not depend on the seat: it runs once);
- where the game samples worlds: ``Game.sample_world`` for that seat, and
  ``Game.checked_state`` of the world drawn (search plays from it); and one state in
  ``SEARCH_EVERY`` (the game not over) through an ``ISMCTSAgent``'s ``act_states``.

``cases`` counts states; a game is left at its first failure, reported with what replays it.
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any

import numpy as np

from presages_env.agents.heuristic import HeuristicAgent
from presages_env.agents.search import ISMCTSAgent
from presages_env.core.aec import CardGameEnv
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL
from presages_env.core.option_space import random_options
from presages_env.core.state_io import deserialize, serialize
from presages_env.fuzzing import FuzzReport
from presages_env.games import get_game

POLICIES = ("random", "heuristic", "mixed")
# One state in this many is searched: a search costs as much as thousands of other checks.
SEARCH_EVERY = 2000
SEARCH_SIMULATIONS = 8
MAX_FAILURES = 20


@dataclasses.dataclass
class _Table:
    """One game being played: what replays it, and what plays and checks its states."""

    game: Game
    num_players: int
    options: dict[str, Any]
    seed: int
    policy: str
    env: CardGameEnv
    heuristic: HeuristicAgent
    rng: np.random.Generator

    def describe(self, step: int) -> str:
        return (
            f"{self.policy} play, {self.num_players} players, options {self.options}, "
            f"seed {self.seed}, after {step} actions"
        )

    def action(self, state: np.ndarray, mask: np.ndarray) -> int:
        """The policy's action: uniform among the legal ones, or the heuristic's."""
        use_heuristic = self.policy == "heuristic" or (
            self.policy == "mixed" and self.rng.random() < 0.5
        )
        if not use_heuristic:
            return int(self.rng.choice(np.flatnonzero(mask)))
        obs = np.zeros((1, self.game.obs_size(self.num_players)), dtype=self.game.obs_dtype)
        self.game.kernel.observe(state, np.int64(state[HDR_CURRENT]), obs[0])
        return int(self.heuristic.act_batch(obs, mask[None])[0])


def check_entry_points(table: _Table, state: np.ndarray) -> None:
    """Every checked entry point must take ``state``; raises at the first that does not."""
    game, n = table.game, table.num_players
    table.env.set_state(state)
    if not np.array_equal(table.env.get_state(), state):
        raise AssertionError("env.set_state did not keep the state")
    if not np.array_equal(deserialize(serialize(state, game), game), state):
        raise AssertionError("deserialize(serialize(state)) differs from the state")
    seat = int(table.rng.integers(n))
    game.view(state, seat)
    for other in [*range(n), None]:  # view's check does not depend on the seat: once is enough
        if other != seat:
            game.unchecked_view(state, other)
    if samples_worlds(game):
        world = game.sample_world(state, seat, int(table.rng.integers(2**62)))
        game.checked_state(world)


def samples_worlds(game: Game) -> bool:
    """Whether the game's kernel deals the worlds a seat cannot tell apart (search needs it)."""
    return game.world_sampler is not None


def play_table(
    table: _Table, states: int, deadline: float, searcher: ISMCTSAgent, report: FuzzReport
) -> int:
    """Play one game to its end (or until ``states`` were checked, or ``deadline`` on the
    ``perf_counter`` clock), checking every state; returns the states checked. The first
    failure is reported and ends the game."""
    game, n = table.game, table.num_players
    state = game.new_state(n, table.seed, **table.options)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    checked = 0
    while checked < states and time.perf_counter() < deadline:
        entry = "the checked entry points"
        try:
            check_entry_points(table, state)
            due = (report.cases + checked) % SEARCH_EVERY == 0 and samples_worlds(game)
            if due and not state[HDR_TERMINAL]:
                entry = "the search agent"
                searcher.act_states(state[None])
                report.outcomes["searched"] += 1
        except Exception as error:  # every failure is collected with what replays it
            report.outcomes["failed"] += 1
            report.failures.append(
                f"{table.describe(checked)}: {entry}: {type(error).__name__}: {error}"
            )
            return checked + 1
        checked += 1
        report.outcomes["accepted"] += 1
        if state[HDR_TERMINAL]:
            break
        game.kernel.legal_mask(state, mask)
        game.kernel.step(state, np.int64(table.action(state, mask)), rewards)
    return checked


def fuzz_legal_states(
    game_name: str, cases: int, seed: int = 0, seconds: float | None = None
) -> FuzzReport:
    """``cases`` states of random, heuristic and mixed play, over random options and every
    player count, through every checked entry point (see the module docstring); fewer if
    ``seconds`` pass first."""
    deadline = time.perf_counter() + (math.inf if seconds is None else seconds)
    game = get_game(game_name)
    report = FuzzReport(game.name)
    rng = np.random.default_rng(seed)
    heuristic = HeuristicAgent(game.name)
    searcher = ISMCTSAgent(game.name, simulations=SEARCH_SIMULATIONS, seed=seed)
    counts = range(game.min_players, game.max_players + 1)
    played = 0
    while (
        report.cases < cases
        and len(report.failures) < MAX_FAILURES
        and time.perf_counter() < deadline
    ):
        turn = seed + played  # the seed shifts the rotation: short runs differ in their counts
        n = counts[turn % len(counts)]
        options = random_options(game, n, rng)
        table_seed = int(rng.integers(2**62))  # deals the game and draws its actions
        table = _Table(
            game=game,
            num_players=n,
            options=options,
            seed=table_seed,
            policy=POLICIES[turn // len(counts) % len(POLICIES)],
            env=CardGameEnv(game, n, **options),
            heuristic=heuristic,
            rng=np.random.default_rng(table_seed),
        )
        report.cases += play_table(table, cases - report.cases, deadline, searcher, report)
        played += 1
    return report
