"""The pending decision of a state from outside must be one its game's kernel produces.

Issue 27, defect 1: each slot of a pending decision can be in range while their combination
is one no play reaches (Res Arcana accepted "put the paid essence" as the target kind of a
discard cost, and a placement at the effect stage). The tables of
``presages_env/games/<game>/decisions.json`` are derived from the kernels' transitions
(``python -m presages_env.core.decision_tables --write``); these tests show they refuse such
states and cover fresh play.
"""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.core import fuzz
from presages_env.core.decision_tables import new_signatures
from presages_env.core.decisions import known_signatures
from presages_env.core.game import Game
from presages_env.core.header import HDR_TERMINAL
from presages_env.core.validation import InvalidStateError, checked_state
from presages_env.games.res_arcana import layout as lay

GAMES = presages_env.list_games()


def random_play(game: Game, n: int, seed: int, steps: int) -> np.ndarray:
    """The state after ``steps`` random legal actions (NumPy ``default_rng(seed)``)."""
    state = game.new_state(n, seed)
    rng = np.random.default_rng(seed)
    mask = np.zeros(game.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    for _ in range(steps):
        game.kernel.legal_mask(state, mask)
        game.kernel.step(state, np.int64(rng.choice(np.flatnonzero(mask))), rewards)
    return state


def test_res_arcana_refuses_a_target_kind_its_action_never_asks():
    """The reported case: after 175 random actions, "put the paid essence" as the target
    kind of a discard cost; the legal action 198 then put Gold on a card not in play."""
    game = presages_env.get_game("res_arcana")
    state = random_play(game, 4, 0, 175)
    assert state[lay.TGT_KIND] == lay.TK_DISCARD_COST  # the position the tester used
    checked_state(game, state)
    state[lay.TGT_KIND] = lay.TK_PUT_PAID
    with pytest.raises(InvalidStateError, match="pending decision.*TGT_KIND=19"):
        checked_state(game, state)
    env = presages_env.make("res_arcana", num_players=4)
    env.reset(seed=1)
    before = env.get_state()
    with pytest.raises(ValueError, match="no res_arcana play reaches it"):
        env.set_state(state)
    np.testing.assert_array_equal(env.get_state(), before)


def test_res_arcana_refuses_a_placement_at_the_effect_stage():
    """A placement has no effect stage: a card stayed "being placed" for ever."""
    game = presages_env.get_game("res_arcana")
    state = random_play(game, 4, 0, 109)
    assert state[lay.ACT_KIND] == lay.DO_PLACE
    checked_state(game, state)
    state[lay.ACT_STAGE] = lay.ST_EFFECT
    with pytest.raises(InvalidStateError, match="ACT_KIND=1.*ACT_STAGE=3"):
        checked_state(game, state)


@pytest.mark.parametrize("name", GAMES)
def test_fresh_play_meets_no_pending_decision_outside_the_table(name):
    """Games the table was not written from (another seed), every legal action of every
    visited state tried, at every player count and listed option set."""
    game = presages_env.get_game(name)
    assert new_signatures(game, games=3, seed=99) == set()


@pytest.mark.parametrize("name", GAMES)
def test_every_pending_decision_of_the_table_is_refused_in_another_context(name):
    """The table bites: for each game, copying the pending decision of one real state into
    another is refused at least sometimes (the fuzz's pending_copy corruption)."""
    game = presages_env.get_game(name)
    rng = np.random.default_rng(3)
    states = fuzz.real_states(game, 40, rng)
    corpus = fuzz.Corpus.of(game, states)
    refused = 0
    for state in states:
        if state[HDR_TERMINAL]:
            continue
        _, corrupted = fuzz.corrupt_pending(state, "pending_copy", rng, corpus)
        try:
            checked_state(game, corrupted)
        except ValueError:
            refused += 1
    assert refused > 0
    assert all(len(s) == len(game.validator.DECISION_FIELDS) for s in known_signatures(game))


def test_a_game_must_name_its_pending_decision():
    """A new game cannot forget the check: its class is refused at definition."""
    president = presages_env.get_game("president")

    class NoSignature:
        validate_state = staticmethod(president.validator.validate_state)

    with pytest.raises(TypeError, match="decision_signature"):
        type(
            "Forgetful", (type(president),), {"kernel": president.kernel, "validator": NoSignature}
        )
