"""OpenSpiel's algorithms on our games, and their results against our agents.

- :func:`train_nfsp`: NFSP (OpenSpiel's PyTorch agents), one learner per seat, on the seats'
  observation tensors (the kernel's ``observe``: what PPO learns from too).
- :func:`train_psro`: PSRO v2 with reinforcement-learning best-response oracles (OpenSpiel's
  PyTorch policy-gradient agents, wrapped as policies by :func:`rl_policy_class`: OpenSpiel's
  own wrapper imports JAX) and projected replicator dynamics as the meta-solver (it handles
  any number of players).
- :func:`train_mccfr`: outcome-sampling MCCFR (tabular, keyed by information-state strings).
- :func:`train_mccfr_compiled`: OpenSpiel's C++ outcome-sampling MCCFR on a compiled game
  (``presages_env_<game>_native``); its policy answers the Python game's states too.
- :func:`play_against`: games through pyspiel where one side plays an OpenSpiel policy and
  every other seat one of our :class:`~presages_env.agents.base.Agent` (the heuristic, PPO),
  the side rotating with the game number as in our tournaments; the result is a
  :class:`~presages_env.evaluation.tournament.MatchResult`, so win rates and mean rewards get
  the same intervals as every other evaluation (``win_rate(result.outcomes())``).

Needs torch (the ``train`` extra) and the ``openspiel`` extra.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel
import torch
from open_spiel.python import policy as os_policy
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import outcome_sampling_mccfr
from open_spiel.python.algorithms.psro_v2 import psro_v2, rl_oracle, strategy_selectors
from open_spiel.python.pytorch import nfsp, policy_gradient

from presages_env.agents.base import Agent
from presages_env.core.validation import MAX_NUM_GAMES, check_int, check_seed
from presages_env.evaluation.tournament import MatchResult
from presages_env.integrations.openspiel_game import BYTE_OUTCOMES, CardGame

OBSERVATION = rl_environment.ObservationType.OBSERVATION
# What a focus policy is for one game: pyspiel's ``Policy.action_probabilities`` signature.
ActionProbabilities = Callable[[pyspiel.State, int], dict[int, float]]


def observation_environment(game: CardGame, seed: int = 0) -> rl_environment.Environment:
    """OpenSpiel's RL environment over ``game``, giving each seat its observation tensor."""
    return rl_environment.Environment(game, observation_type=OBSERVATION, seed=seed)


def _seed_everything(seed: int) -> None:
    """OpenSpiel's learners draw from NumPy's global generator and torch's."""
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


# ---- NFSP -----------------------------------------------------------------------------------
def train_nfsp(
    game: CardGame,
    episodes: int,
    hidden_layers: Sequence[int] = (128,),
    seed: int = 0,
    **nfsp_options: Any,
) -> list[nfsp.NFSP]:
    """One NFSP learner per seat, trained together for ``episodes`` games of self-play."""
    episodes = check_int(episodes, "episodes", 1, MAX_NUM_GAMES)
    _seed_everything(check_seed(seed))
    env = observation_environment(game, seed)
    size = env.observation_spec()["info_state"][0]
    options = {
        "replay_buffer_capacity": 20_000,
        "reservoir_buffer_capacity": 20_000,
        "anticipatory_param": 0.1,
        "min_buffer_size_to_learn": 256,
        "epsilon_decay_duration": episodes * 50,
        "seed": seed,
        **nfsp_options,
    }
    reservoir = options.pop("reservoir_buffer_capacity")
    anticipatory = options.pop("anticipatory_param")
    agents = [
        nfsp.NFSP(
            seat,
            size,
            game.num_distinct_actions(),
            list(hidden_layers),
            reservoir,
            anticipatory,
            **options,
        )
        for seat in range(game.num_players())
    ]
    for _ in range(episodes):
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.observations["current_player"]
            time_step = env.step([agents[seat].step(time_step).action])
        for agent in agents:
            agent.step(time_step)
    return agents


class NFSPAveragePolicy(os_policy.Policy):
    """The NFSP learners' average policies (what NFSP converges with), seat by seat."""

    def __init__(self, game: CardGame, agents: Sequence[nfsp.NFSP]) -> None:
        super().__init__(game, list(range(game.num_players())))
        self._policy = _AgentsPolicy(game, dict(enumerate(agents)))

    def action_probabilities(self, state: pyspiel.State, player_id: int | None = None) -> dict:
        seat = state.current_player() if player_id is None else player_id
        with self._policy.agents[seat].temp_mode_as(nfsp.MODE.AVERAGE_POLICY):
            return self._policy.action_probabilities(state, seat)


class _AgentsPolicy:
    """Seat-indexed OpenSpiel RL agents asked for action probabilities, on observations."""

    def __init__(self, game: CardGame, agents: Mapping[int, Any]) -> None:
        self.agents = dict(agents)
        n = game.num_players()
        self._obs: dict[str, Any] = {"info_state": [None] * n, "legal_actions": [None] * n}

    def action_probabilities(self, state: pyspiel.State, seat: int) -> dict[int, float]:
        legal = state.legal_actions(seat)
        self._obs["current_player"] = seat
        self._obs["info_state"][seat] = state.observation_tensor(seat)
        self._obs["legal_actions"][seat] = legal
        step = rl_environment.TimeStep(self._obs, None, None, None)
        probs = self.agents[seat].step(step, is_evaluation=True).probs
        return {action: float(probs[action]) for action in legal}


# ---- PSRO -----------------------------------------------------------------------------------
def rl_policy_class(agent_class: type) -> type:
    """An OpenSpiel RL agent class as a PSRO policy (``freeze``, ``copy_with_noise``...), on
    observation tensors; OpenSpiel's ``psro_v2.rl_policy`` does the same for JAX agents."""

    class RLPolicy(os_policy.Policy):
        def __init__(self, env: rl_environment.Environment, player_id: int, **kwargs: Any):
            super().__init__(env.game, [player_id])
            self._env, self._kwargs = env, kwargs
            self._agent = agent_class(player_id=player_id, **kwargs)
            self._asker = _AgentsPolicy(env.game, {player_id: self._agent})
            self._frozen = False

        def action_probabilities(self, state: pyspiel.State, player_id: int | None = None):
            seat = state.current_player() if player_id is None else player_id
            return self._asker.action_probabilities(state, seat)

        def step(self, time_step: rl_environment.TimeStep, is_evaluation: bool = False):
            return self._agent.step(time_step, is_evaluation or self._frozen)

        def freeze(self) -> None:
            self._frozen = True

        def unfreeze(self) -> None:
            self._frozen = False

        def is_frozen(self) -> bool:
            return self._frozen

        def copy_with_noise(self, sigma: float = 0.0) -> RLPolicy:
            """A fresh learner for the same seat (the policy-gradient agent has no noisy
            copy), unfrozen: PSRO trains it into the next best response."""
            return RLPolicy(self._env, self.player_ids[0], **self._kwargs)

    RLPolicy.__name__ = RLPolicy.__qualname__ = f"RLPolicy[{agent_class.__name__}]"
    return RLPolicy


PolicyGradientPolicy = rl_policy_class(policy_gradient.PolicyGradient)


def train_psro(
    game: CardGame,
    iterations: int,
    episodes_per_oracle: int,
    sims_per_entry: int,
    hidden_layers: Sequence[int] = (128,),
    seed: int = 0,
) -> psro_v2.PSROSolver:
    """PSRO v2: per seat, a population that grows by one policy-gradient (A2C) best response
    a iteration, trained for ``episodes_per_oracle`` games against the others' meta-strategy
    (projected replicator dynamics over the empirical game, ``sims_per_entry`` games per
    entry). Every seat's population starts from the uniform random policy."""
    iterations = check_int(iterations, "iterations", 1, 100)
    _seed_everything(check_seed(seed))
    env = observation_environment(game, seed)
    agent_options = {
        "info_state_size": env.observation_spec()["info_state"][0],
        "num_actions": game.num_distinct_actions(),
        "loss_str": "a2c",
        "hidden_layers_sizes": list(hidden_layers),
        "batch_size": 32,
        "entropy_cost": 0.001,
        "critic_learning_rate": 0.01,
        "pi_learning_rate": 0.01,
        "num_critic_before_pi": 4,
        "optimizer_str": "adam",
    }
    oracle = rl_oracle.RLOracle(
        env,
        PolicyGradientPolicy,
        agent_options,
        number_training_episodes=check_int(episodes_per_oracle, "episodes_per_oracle", 1),
        self_play_proportion=0.0,
        sigma=0.0,
    )
    initial = [
        PolicyGradientPolicy(env, seat, **agent_options) for seat in range(game.num_players())
    ]
    for policy in initial:
        policy.freeze()
    solver = psro_v2.PSROSolver(
        game,
        oracle,
        initial_policies=initial,
        sims_per_entry=check_int(sims_per_entry, "sims_per_entry", 1),
        meta_strategy_method="prd",
        sample_from_marginals=True,  # as OpenSpiel's example does for every solver but alpharank
        training_strategy_selector=strategy_selectors.probabilistic,
        prd_iterations=5_000,
        prd_gamma=1e-10,
    )
    for _ in range(iterations):
        solver.iteration()
    return solver


class MetaStrategySample(os_policy.Policy):
    """One joint policy drawn from PSRO's meta-strategies: each seat plays a policy of its
    population drawn with its meta-probability (one draw a game, as PSRO's payoffs assume)."""

    def __init__(self, solver: psro_v2.PSROSolver, rng: np.random.Generator) -> None:
        game = solver._game  # noqa: SLF001  (PSROSolver exposes no getter)
        super().__init__(game, list(range(game.num_players())))
        policies, meta = solver.get_policies(), solver.get_meta_strategies()
        self._chosen = [
            seat_policies[rng.choice(len(seat_policies), p=_normalised(probs))]
            for seat_policies, probs in zip(policies, meta, strict=True)
        ]

    def action_probabilities(self, state: pyspiel.State, player_id: int | None = None) -> dict:
        seat = state.current_player() if player_id is None else player_id
        return self._chosen[seat].action_probabilities(state, seat)


def _normalised(probs: Any) -> np.ndarray:
    probs = np.maximum(np.asarray(probs, dtype=np.float64), 0.0)
    return probs / probs.sum()


# ---- outcome-sampling MCCFR -----------------------------------------------------------------
def train_mccfr(
    game: CardGame, iterations: int, seed: int = 0
) -> outcome_sampling_mccfr.OutcomeSamplingSolver:
    """Outcome-sampling MCCFR for ``iterations`` sampled games (tabular: meaningful only
    where information states recur, e.g. Aciliande with one-card hands and one life)."""
    iterations = check_int(iterations, "iterations", 1, 10**9)
    _seed_everything(check_seed(seed))
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(iterations):
        solver.iteration()
    return solver


class CompiledPolicy:
    """A pyspiel C++ policy (it answers the player to move, through the state's
    information-state string) in :func:`play_against`'s form. ``owner`` is what the policy
    reads from (a solver's tables): kept alive with it, since pyspiel does not."""

    def __init__(self, policy: pyspiel.Policy, owner: Any = None) -> None:
        self.policy = policy
        self.owner = owner

    def action_probabilities(self, state: pyspiel.State, seat: int) -> dict[int, float]:
        if seat != state.current_player():
            raise ValueError(f"seat {seat} is not to move")
        return self.policy.action_probabilities(state)


def train_mccfr_compiled(game: pyspiel.Game, iterations: int, seed: int = 0) -> CompiledPolicy:
    """OpenSpiel's C++ outcome-sampling MCCFR for ``iterations`` sampled games on a compiled
    game: every move stays in C++, only information-state strings are asked of Python. The
    average policy is keyed by those strings, which the Python game shares (tested), so it
    plays either game."""
    iterations = check_int(iterations, "iterations", 1, 10**9)
    solver = pyspiel.OutcomeSamplingMCCFRSolver(game, seed=check_seed(seed) % 2**31)
    for _ in range(iterations):
        solver.run_iteration()
    return CompiledPolicy(solver.average_policy(), owner=solver)


# ---- evaluation against our agents ----------------------------------------------------------
def play_against(
    game: CardGame,
    focus: Callable[[int], os_policy.Policy],
    opponent: Agent,
    num_games: int,
    seed: int = 0,
    focus_name: str = "openspiel",
) -> MatchResult:
    """``num_games`` games where side ``k mod sides`` of game k (its team, or its seat) plays
    ``focus(k)`` and every other seat ``opponent`` (on its observation and legal mask). Each
    game's deal is drawn from ``seed``; the focus's actions are drawn from its probabilities."""
    num_games = check_int(num_games, "num_games", 1, MAX_NUM_GAMES)
    rng = np.random.default_rng(check_seed(seed))
    n = game.num_players()
    rewards = np.zeros((num_games, n))
    sides = np.zeros((num_games, n), dtype=np.int64)
    focus_side = np.zeros(num_games, dtype=np.int64)
    for k in range(num_games):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(int(rng.integers(BYTE_OUTCOMES)))
        sides[k] = _sides(state)
        focus_side[k] = k % (int(sides[k].max()) + 1)
        policy = focus(k)
        while not state.is_terminal():
            seat = state.current_player()
            if sides[k, seat] == focus_side[k]:
                action = _draw(policy.action_probabilities(state, seat), rng)
            else:
                action = _agent_action(opponent, state, seat)
            state.apply_action(action)
        rewards[k] = state.returns()
    return MatchResult(
        focus_name, opponent.name, game.setup.game.name, n, rewards, sides, focus_side
    )


def _sides(state: pyspiel.State) -> np.ndarray:
    """Each seat's side: its team (0, 1, ...) as the deal decided it."""
    play = state.play
    _, sides = np.unique(play.setup.game.teams(play.state), return_inverse=True)
    return sides


def _draw(probabilities: dict[int, float], rng: np.random.Generator) -> int:
    actions = list(probabilities)
    return int(actions[rng.choice(len(actions), p=_normalised(list(probabilities.values())))])


def _agent_action(agent: Agent, state: pyspiel.State, seat: int) -> int:
    play = state.play
    return agent.act(play.observation(seat), play.legal_mask().copy())
