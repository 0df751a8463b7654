"""The pending decision of a state from outside must be one its game's kernel produces.

Issue 27, defect 1: each slot of a pending decision can be in range while their combination
is one no play reaches (Res Arcana accepted "put the paid essence" as the target kind of a
discard cost, and a placement at the effect stage). The tables of
``presages_env/games/<game>/decisions.json`` are derived from the kernels' transitions
(``python -m presages_env.games.decision_tables --write``); these tests show they refuse such
states and cover fresh play: over options drawn from each game's whole option space, with a
seed drawn for each run (issue 39: the tables, explored over four option sets, refused legal
Aciliande states of the team variant with unequal lives); fresh play is the conformance
check ``fresh_play_meets_no_pending_decision_outside_the_table`` (core/conformance.py).
"""

from __future__ import annotations

import numpy as np
import pytest

import presages_env
from presages_env.core.decisions import known_signatures
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL
from presages_env.core.state_io import deserialize, serialize
from presages_env.core.validation import InvalidStateError, checked_state
from presages_env.fuzzing import states as fuzz
from presages_env.games.aciliande import kernel as aciliande_kernel
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


def test_aciliande_team_variant_with_unequal_lives_is_never_refused():
    """Issue 39, the reported repro: random play of the team variant with lives (3, 1, 3,
    3) and ``env.set_state(env.get_state())`` at every step. Once seat 1 is out, seats 0 and
    2 play in a row, and "the last card's player is the decider's partner" was a pending
    decision no explored play had reached: refused in 5 of these 12 games (21 of their 384
    decisions)."""
    env = presages_env.make("aciliande", num_players=4, teams=True, lives=(3, 1, 3, 3))
    game = env.game
    rng = np.random.default_rng(0)
    after_a_partner = 0
    for seed in range(12):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            state = env.get_state()
            env.set_state(state)
            np.testing.assert_array_equal(deserialize(serialize(state, game), game), state)
            game.view(state, int(state[HDR_CURRENT]))
            after_a_partner += _follows_a_partner(state)
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert after_a_partner > 0  # the play reached the states that were refused


def _follows_a_partner(state: np.ndarray) -> bool:
    """The seat to act plays right after its partner in the trick under way."""
    k = aciliande_kernel
    length = int(state[k.TRICK_LEN])
    last = int(state[k.TRICK_SEATS + length - 1]) if length else -1
    current = int(state[HDR_CURRENT])
    return state[k.NODE] == k.NODE_PLAY and last >= 0 and last % 2 == current % 2


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


def test_the_table_command_is_handed_its_games_from_above(capsys):
    """The core's command imports no game: the registry's module hands it the games."""
    from presages_env.core.decision_tables import main

    asked = []

    def get_game(name: str) -> Game:
        asked.append(name)
        return presages_env.get_game(name)

    assert main(["--check", "--games", "2", "--seed", "0"], get_game, ["kuhn_poker"]) == 0
    assert asked == ["kuhn_poker"]
    assert "kuhn_poker: 0 signatures missing" in capsys.readouterr().out
