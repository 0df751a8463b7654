"""Information-set Monte Carlo tree search on the rules kernels.

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, 2012): every simulation deals a
world the acting seat cannot tell from the real game (the game's ``sample_world``), walks
one shared tree whose edges are actions, adds one node, plays uniformly random moves to
the end of the game and credits each edge with the return of the seat that chose it.
Edges are chosen by UCB with availability counts: an edge's exploration term grows with
the number of visits in which it was legal, not with its parent's visits, since hidden
cards make an edge legal in some worlds only. The move played is the root's most visited.

The tree is a fixed-size node table (one node per simulation, plus the root): node 0 is
the root, ``children[v, a]`` the node reached by action ``a`` from ``v`` (-1: none yet), and
each node ``c`` holds its incoming edge's statistics: ``visits[c]``, ``available[c]`` (the
simulations in which the edge was legal), ``reward[c]`` (summed return of ``chooser[c]``,
the seat that took the edge).

The search loops call a game's kernels by global name (``legal_mask``, ``step``,
``sample_world``); :func:`specialise_search` copies the templates with those names bound
to one game's kernels, as :mod:`presages_env.core.batched` does, so numba caches the
compiled search on disk per game.
"""

from __future__ import annotations

from collections.abc import Callable

import numba as nb
import numpy as np

from presages_env.agents.base import Agent
from presages_env.core import header as core_header
from presages_env.core import rng as core_rng
from presages_env.core.batched import bind_kernels, source_digest
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT, HDR_NUM_PLAYERS, HDR_TERMINAL
from presages_env.core.rng import choose_legal, splitmix_next
from presages_env.core.validation import check_int, check_seed
from presages_env.games.run_spec import as_game

# Simulations of one search: its node table is (simulations + 1) x actions int32 children,
# about 120 MB at this bound for Res Arcana's 283 actions (the docs' searches use 50-1000).
MAX_SIMULATIONS = 100_000

# Kernels the templates call; bound per game by `specialise_search`.
legal_mask = step = sample_world = observe = heuristic_actions = None
OBS_SIZE = 1
OBS_DTYPE = np.int8


@nb.njit(cache=True)
def _ucb_action(children, visits, available, reward, node, mask, exploration):
    """The legal action of ``node`` whose child has the best availability-UCB score."""
    best = -1
    best_score = -np.inf
    for a in range(mask.shape[0]):
        child = children[node, a]
        if mask[a] == 0 or child < 0:
            continue
        mean = reward[child] / visits[child]
        score = mean + exploration * np.sqrt(np.log(available[child]) / visits[child])
        if score > best_score:
            best_score = score
            best = a
    return best


@nb.njit(cache=True)
def _count_available(children, available, node, mask):
    """Count one more availability for each expanded child legal in this world.

    Returns how many legal actions have no child yet.
    """
    untried = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            if children[node, a] >= 0:
                available[children[node, a]] += 1
            else:
                untried += 1
    return untried


@nb.njit(cache=True)
def _pick_untried(children, node, mask, untried, bits):
    """A legal action of ``node`` with no child yet, uniformly among the ``untried`` ones."""
    pick = np.int64((bits >> np.uint64(33)) % np.uint64(untried))
    for a in range(mask.shape[0]):
        if mask[a] and children[node, a] < 0:
            if pick == 0:
                return a
            pick -= 1
    return -1


@nb.njit(cache=True)
def _add_child(children, available, chooser, size, node, action, seat):
    """A new node for the edge ``action`` of ``node`` taken by ``seat``, legal once so far."""
    child = size[0]
    size[0] += 1
    children[node, action] = child
    chooser[child] = seat
    available[child] = 1
    return child


@nb.njit(cache=True)
def _add_rewards(returns, rewards):
    for p in range(returns.shape[0]):
        returns[p] += rewards[p]


@nb.njit(cache=True)
def _backpropagate(path, length, chooser, visits, reward, returns):
    """Credit every edge of the path with the return of the seat that took it."""
    for i in range(1, length):
        node = path[i]
        visits[node] += 1
        reward[node] += returns[chooser[node]]


@nb.njit(cache=True)
def _most_visited(children, visits, mask, root_visits):
    """The root action tried most often (ties: the lowest action); fills ``root_visits``
    with each action's visit count."""
    best = -1
    best_visits = -1
    for a in range(mask.shape[0]):
        child = children[0, a]
        root_visits[a] = visits[child] if mask[a] and child >= 0 else 0
        if mask[a] and child >= 0 and visits[child] > best_visits:
            best_visits = visits[child]
            best = a
    return best


def _rollout_action(world, mask, obs_row, action_row, heuristic_rollouts, rng):
    """The rollout's move: the game's heuristic on the mover's observation, or uniform."""
    if heuristic_rollouts:
        observe(world, world[HDR_CURRENT], obs_row[0])
        heuristic_actions(obs_row, mask.reshape(1, mask.shape[0]), action_row)
        return rng, action_row[0]
    rng, bits = splitmix_next(rng)
    return rng, choose_legal(mask, bits)


def _simulate(world, tree, path, mask, rewards, returns, exploration, rng, rollout):
    """One simulation in ``world``: descend, expand one node, roll out to the end.

    ``tree`` is ``(children, visits, available, reward, chooser, size)`` with ``size[0]``
    the nodes in use; ``rollout`` is ``(obs_row, action_row, heuristic_rollouts)``. Fills
    ``path`` with the nodes visited and ``returns`` with each seat's summed reward; returns
    the advanced RNG state and the path length.
    """
    children, visits, available, reward, chooser, size = tree
    returns[:] = 0.0
    node = 0
    path[0] = 0
    length = 1
    expanded = False
    while world[HDR_TERMINAL] == 0 and not expanded:
        legal_mask(world, mask)
        untried = _count_available(children, available, node, mask)
        if untried > 0:
            rng, bits = splitmix_next(rng)
            action = _pick_untried(children, node, mask, untried, bits)
            seat = world[HDR_CURRENT]
            node = _add_child(children, available, chooser, size, node, action, seat)
            expanded = True
        else:
            action = _ucb_action(children, visits, available, reward, node, mask, exploration)
            node = children[node, action]
        path[length] = node
        length += 1
        step(world, action, rewards)
        _add_rewards(returns, rewards)
    obs_row, action_row, heuristic_rollouts = rollout
    while world[HDR_TERMINAL] == 0:
        legal_mask(world, mask)
        rng, action = _rollout_action(world, mask, obs_row, action_row, heuristic_rollouts, rng)
        step(world, action, rewards)
        _add_rewards(returns, rewards)
    return rng, length


@nb.njit(cache=True)
def _new_tree(nodes, num_actions):
    """An empty node table for ``nodes`` nodes (the root already in use)."""
    children = np.full((nodes, num_actions), -1, dtype=np.int32)
    visits = np.zeros(nodes, dtype=np.int64)
    available = np.zeros(nodes, dtype=np.int64)
    reward = np.zeros(nodes, dtype=np.float64)
    chooser = np.zeros(nodes, dtype=np.int64)
    size = np.ones(1, dtype=np.int64)
    return children, visits, available, reward, chooser, size


def _search(state, num_actions, simulations, exploration, rng, heuristic_rollouts, root_visits):
    """The move of the seat to act in ``state``, searched from what that seat knows.

    ``root_visits[a]`` gets the simulations that began with action ``a`` (a forced move,
    not searched, gets them all).
    """
    mask = np.zeros(num_actions, dtype=np.int8)
    legal_mask(state, mask)
    if mask.sum() == 1:
        action = choose_legal(mask, np.uint64(0))
        root_visits[:] = 0
        root_visits[action] = simulations
        return action
    player = state[HDR_CURRENT]
    tree = _new_tree(simulations + 1, num_actions)
    children, visits, _, reward, chooser, _ = tree
    path = np.zeros(simulations + 1, dtype=np.int64)
    world = np.empty_like(state)
    world_mask = np.zeros(num_actions, dtype=np.int8)
    rewards = np.zeros(state[HDR_NUM_PLAYERS], dtype=np.float32)
    returns = np.zeros(state[HDR_NUM_PLAYERS], dtype=np.float64)
    rollout = (np.zeros((1, OBS_SIZE), dtype=OBS_DTYPE), np.zeros(1, np.int64), heuristic_rollouts)
    for _ in range(simulations):
        rng, bits = splitmix_next(rng)
        sample_world(state, player, np.int64(bits >> np.uint64(1)), world)
        rng, length = _simulate(
            world, tree, path, world_mask, rewards, returns, exploration, rng, rollout
        )
        _backpropagate(path, length, chooser, visits, reward, returns)
    return _most_visited(children, visits, mask, root_visits)


def _search_all(states, num_actions, simulations, exploration, seeds, heuristic, actions, visits):
    """Search each state in turn; ``visits[i]`` gets state ``i``'s root visit counts.

    Serial on purpose: a parallel launch costs milliseconds on a busy machine, more than a
    small search; callers wanting more cores can split the batch across processes.
    """
    for i in range(states.shape[0]):
        actions[i] = _search(
            states[i], num_actions, simulations, exploration, seeds[i], heuristic, visits[i]
        )


# callees first: each is bound to the ones before it
_TEMPLATES = (_rollout_action, _simulate, _search, _search_all)
_compiled_searches: dict[str, Callable] = {}


@nb.njit(cache=True)
def _no_heuristic(obs, masks, actions):
    """What heuristic rollouts are bound to in a game without a heuristic (never called:
    ISMCTSAgent refuses heuristic rollouts there)."""
    for i in range(masks.shape[0]):
        actions[i] = np.argmax(masks[i])


def specialise_search(game: Game, sample_world_kernel: Callable) -> Callable:
    """The compiled (disk-cached) batched search bound to ``game``'s kernels.

    Returns ``search_all(states, num_actions, simulations, exploration, seeds,
    heuristic_rollouts, actions, visits)``.
    """
    heuristic = game.heuristic
    modules = (game.kernel,) if heuristic is None else (game.kernel, heuristic)
    digest = source_digest(*modules, core_header, core_rng)
    namespace = dict(_search_all.__globals__)
    namespace.update(
        legal_mask=game.kernel.legal_mask,
        step=game.kernel.step,
        sample_world=sample_world_kernel,
        observe=game.kernel.observe,
        heuristic_actions=_no_heuristic if heuristic is None else heuristic.heuristic_actions,
        OBS_SIZE=game.kernel.OBS_SIZE,
        OBS_DTYPE=game.obs_dtype,
    )
    for template in _TEMPLATES:
        qualname = f"{template.__name__}_{game.name}_{digest}"
        namespace[template.__name__] = bind_kernels(template, namespace, qualname)
    return namespace[_TEMPLATES[-1].__name__]


def _search_of(game: Game) -> Callable:
    """The game's compiled search, built once per process."""
    if game.name not in _compiled_searches:
        if game.world_sampler is None:
            raise NotImplementedError(
                f"{game.title} declares no world_sampler (a sample_world kernel), so it cannot "
                "be searched: search deals the worlds a seat cannot tell apart"
            )
        _compiled_searches[game.name] = specialise_search(game, game.world_sampler)
    return _compiled_searches[game.name]


@nb.njit(cache=True)
def _next_seeds(rng_state, seeds):
    for i in range(seeds.shape[0]):
        rng_state[0], bits = splitmix_next(rng_state[0])
        seeds[i] = np.int64(bits >> np.uint64(1))


class ISMCTSAgent(Agent):
    """Single-observer information-set MCTS with a budget of simulations per move.

    ``exploration`` is the UCB constant in reward units: the default suits returns spanning
    about [-1, 1] (it beat 0.35 and 0.7 in Président); scale it with a game's reward range.
    ``rollouts``: ``"random"`` plays uniform legal moves to the end of each simulation,
    ``"heuristic"`` the game's heuristic for every seat; ``None`` (default) takes the game's
    ``Game.search_rollouts``, the one that searched better there (docs/agents.md).

    It needs the full game states (``act_states``) to deal its worlds, but only reads what
    the acting seat knows: each world comes from the game's ``sample_world`` for that seat.
    Seeded, so a tournament replays exactly.

    Args:
        game_name: the game, or its name (it needs a ``world_sampler``).
        simulations: simulations per decision.
        exploration: the UCB constant, in reward units.
        seed: the seed of the worlds and rollouts.
        rollouts: "random", "heuristic", or None for the game's ``search_rollouts``.
    """

    needs_state = True

    def __init__(
        self,
        game_name: str | Game,
        simulations: int = 200,
        exploration: float = 1.4,
        seed: int = 0,
        rollouts: str | None = None,
    ) -> None:
        simulations = check_int(simulations, "simulations", 1, MAX_SIMULATIONS)
        if isinstance(exploration, (bool, np.bool_)) or not isinstance(
            exploration, (int, float, np.integer, np.floating)
        ):
            raise TypeError(f"exploration must be a number, got {exploration!r}")
        if not 0 <= exploration < np.inf:
            raise ValueError(f"exploration must be a finite number >= 0, got {exploration!r}")
        seed = check_seed(seed)
        self.game = as_game(game_name)
        if rollouts is None:
            rollouts = self.game.search_rollouts
        if rollouts not in ("random", "heuristic"):
            raise ValueError(f"rollouts must be 'random' or 'heuristic', got {rollouts!r}")
        if rollouts == "heuristic" and self.game.heuristic is None:
            raise ValueError(f"{self.game.title} has no heuristic to roll out with")
        self.heuristic_rollouts = rollouts == "heuristic"
        self.name = f"ismcts{simulations}" + ("h" if self.heuristic_rollouts else "")
        self.simulations = int(simulations)
        self.exploration = float(exploration)
        self._search = _search_of(self.game)
        self._rng_state = np.array([seed], dtype=np.int64)

    def act_states(self, states: np.ndarray) -> np.ndarray:
        """One action per row of ``states`` (``[B, S]``), for the seat to act in each.

        Every state is validated (:mod:`presages_env.core.validation`) before the search
        reads it; the caller's array is never written.
        """
        return self.search_states(states)[0]

    def search_states(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(actions, visits)``: :meth:`act_states`' actions and, for each state, how many
        simulations began with each action (``[B, A]``, int64; the targets of distillation,
        ``presages_env.training.distill``)."""
        if not isinstance(states, np.ndarray) or states.ndim != 2:
            shape = getattr(states, "shape", type(states).__name__)
            raise TypeError(f"states must be a 2-d numpy array [B, S], got {shape}")
        checked = [self._checked(i, state) for i, state in enumerate(states)]
        states = np.stack(checked) if checked else states.astype(self.game.state_dtype)
        num_actions = max(
            (self.game.num_actions(int(n)) for n in np.unique(states[:, HDR_NUM_PLAYERS])),
            default=0,
        )
        seeds = np.empty(states.shape[0], dtype=np.int64)
        _next_seeds(self._rng_state, seeds)
        actions = np.empty(states.shape[0], dtype=np.int64)
        visits = np.zeros((states.shape[0], num_actions), dtype=np.int64)
        self._search(
            states,
            num_actions,
            self.simulations,
            self.exploration,
            seeds,
            self.heuristic_rollouts,
            actions,
            visits,
        )
        return actions, visits

    def _checked(self, row: int, state: np.ndarray) -> np.ndarray:
        try:
            state = self.game.checked_state(state)
        except TypeError as err:
            raise TypeError(f"states[{row}]: {err}") from None
        except ValueError as err:
            raise ValueError(f"states[{row}]: {err}") from None
        if state[HDR_TERMINAL]:
            raise ValueError(f"states[{row}]: cannot act in a finished game")
        return state

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        raise TypeError(
            f"{type(self).__name__} searches from full game states: call act_states(states) "
            "(it only uses what the acting seat may know), not act_batch(obs, masks)"
        )
