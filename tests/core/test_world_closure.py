"""Every world ``sample_world`` draws from an accepted state is accepted too (issue 39).

Search and belief models play from these worlds through the checked entry points, so a
world ``checked_state`` refuses breaks them. A world keeps what the seat knows and re-deals
the rest, so this holds only if the validator ties what each seat knows (the knowledge
slots) to where the cards are: a corrupted knowledge slot must be refused, not passed on.
Checked for states of random play under options that exercise what seats learn, and for
the states made from them by changing one slot that ``checked_state`` still accepts.
"""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.core.header import HDR_TERMINAL
from presages_env.core.validation import checked_state

# (game, player count, options): options under which seats learn the most — Président's
# exchange from its second manche, Res Arcana's unseen starter decks, Présages' reveals.
TABLES = (
    ("presages", 4, {"reveal_all_hands_at_round_end": True}),
    ("presages", 6, {"pride_carries_into_next_round": True}),
    ("president", 4, {"num_manches": 3}),
    ("president", 6, {"num_manches": 2}),
    ("res_arcana", 2, {"starter_sets": True}),
    ("res_arcana", 4, {}),
    ("aciliande", 3, {}),
    ("aciliande", 6, {"teams": True}),
)
GAMES_PLAYED = 3
STATES_PER_GAME = 12  # spread over each game
MUTATIONS_PER_STATE = 25


def random_play(game, n: int, seed: int, options: dict) -> list[np.ndarray]:
    """``STATES_PER_GAME`` states of one random game, its end included."""
    rng = np.random.default_rng(seed)
    state = game.new_state(n, seed, **options)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    states = [state.copy()]
    while not state[HDR_TERMINAL]:
        game.kernel.legal_mask(state, mask)
        game.kernel.step(state, np.int64(rng.choice(np.flatnonzero(mask))), rewards)
        states.append(state.copy())
    picks = np.linspace(0, len(states) - 1, STATES_PER_GAME).astype(int)
    return [states[i] for i in picks]


def one_slot_changed(state: np.ndarray, others: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``state`` with one slot among those real states disagree on (``others``' rows) set to
    the value another real state holds there, or moved by one: values in range, so that it
    is the checks tying slots together (what a seat knows, where the cards are) that decide."""
    live = np.flatnonzero((others != others[0]).any(axis=0))
    i = int(rng.choice(live))
    changed = state.copy()
    if rng.random() < 0.5:
        changed[i] = others[rng.integers(len(others)), i]
    else:
        info = np.iinfo(state.dtype)
        changed[i] = min(max(int(state[i]) + int(rng.choice((-1, 1))), info.min), info.max)
    return changed


def world_problems(game, sampler, state: np.ndarray, seed: int) -> list[str]:
    """For each seat, what is wrong with one world of the accepted ``state``: refused by
    ``checked_state``, or showing the seat another observation than ``state`` does."""
    n = game.num_players_of(state)
    world = np.zeros_like(state)
    seen = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    seen_in_world = np.zeros_like(seen)
    problems = []
    for seat in range(n):
        sampler(state, np.int64(seat), np.int64(seed + seat), world)
        try:
            checked_state(game, world)
        except ValueError as error:
            problems.append(f"seat {seat}: {error}")
            continue
        game.kernel.observe(state, np.int64(seat), seen)
        game.kernel.observe(world, np.int64(seat), seen_in_world)
        if not np.array_equal(seen, seen_in_world):
            problems.append(f"seat {seat} sees another observation in its world")
    return problems


@pytest.mark.parametrize(("name", "n", "options"), TABLES)
def test_worlds_of_accepted_states_are_accepted_and_look_the_same_to_their_seat(name, n, options):
    game = presages_env.get_game(name)
    sampler = getattr(game.kernel, "sample_world", None)  # a game may have no exact beliefs
    if sampler is None:
        pytest.skip(f"{name} has no sample_world")
    states = [s for seed in range(GAMES_PLAYED) for s in random_play(game, n, seed, options)]
    others = np.stack(states)
    rng = np.random.default_rng(39)
    problems = []
    accepted_changes = 0
    for i, state in enumerate(states):
        changes = [one_slot_changed(state, others, rng) for _ in range(MUTATIONS_PER_STATE)]
        for j, candidate in enumerate([state, *changes]):
            try:
                valid = checked_state(game, candidate)
            except ValueError:
                continue
            accepted_changes += j > 0
            slots = np.flatnonzero(candidate != state).tolist()
            for problem in world_problems(game, sampler, valid, 1000 * i + j):
                problems.append(f"state {i}, slots changed {slots}: {problem}")
    assert accepted_changes > 0  # else the changes test nothing
    assert not problems, f"{len(problems)} bad worlds, e.g. " + "; ".join(problems[:3])
