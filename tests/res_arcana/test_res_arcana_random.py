"""Long random and heuristic games: every state valid (essences conserved, cards conserved,
the pending decision coherent), games end under the cap, envs agree, labels name actions."""

import numpy as np
import pytest
from res_arcana_helpers import GAME

import presages_env
from presages_env.agents import HeuristicAgent
from presages_env.core.header import HDR_TERMINAL, step_of
from presages_env.games.res_arcana import cards as cd
from presages_env.games.res_arcana import layout as lay
from presages_env.games.res_arcana.game import legal_labels, render_text


def artifact_places(state):
    """Each artifact's location, with each deck listing its cards exactly once."""
    n = int(state[0])
    places = {}
    for c in range(cd.NUM_ARTIFACTS):
        places[c] = (int(state[lay.LOC + c]), int(state[lay.OWNER + c]))
    for s in range(n):
        size = int(state[lay.DECK_SIZE + s])
        listed = state[lay.DECK + s * lay.DECK_CAP : lay.DECK + s * lay.DECK_CAP + size]
        assert len(set(listed.tolist())) == size
        for c in listed:
            assert places[int(c)] == (lay.LOC_DECK, s)
    return places


def holdings(state, seat):
    pool = state[lay.POOL + 5 * seat : lay.POOL + 5 * seat + 5].astype(np.int64)
    for c in range(cd.NUM_COMPONENTS):
        if state[lay.LOC + c] == lay.LOC_PLAY and state[lay.OWNER + c] == seat:
            pool = pool + state[lay.STORED + 5 * c : lay.STORED + 5 * c + 5]
    return pool


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_conserve_cards_and_essences_and_end_under_the_cap(n):
    rng = np.random.default_rng(n)
    mask = np.zeros(GAME.num_actions(n), dtype=np.int8)
    rewards = np.zeros(n, dtype=np.float32)
    for seed in range(4):
        state = GAME.new_state(n, seed, starter_sets=seed % 2 == 1)
        while not state[HDR_TERMINAL]:
            GAME.validate_state(state)  # essences: holdings == GAINED - SPENT
            before = [holdings(state, s) for s in range(n)]
            gained = state[lay.GAINED : lay.GAINED + 20].copy()
            spent = state[lay.SPENT : lay.SPENT + 20].copy()
            artifact_places(state)
            GAME.kernel.legal_mask(state, mask)
            GAME.kernel.step(state, np.int64(rng.choice(np.flatnonzero(mask))), rewards)
            if state[lay.PHASE] == lay.PHASE_COLLECT and state[lay.COL_K] == 0:
                continue  # the counters restart at a new round
            for s in range(n):
                delta_in = (
                    state[lay.GAINED + 5 * s : lay.GAINED + 5 * s + 5] - gained[5 * s : 5 * s + 5]
                )
                delta_out = (
                    state[lay.SPENT + 5 * s : lay.SPENT + 5 * s + 5] - spent[5 * s : 5 * s + 5]
                )
                np.testing.assert_array_equal(holdings(state, s) - before[s], delta_in - delta_out)
        assert state[HDR_TERMINAL] == 1, "a random game reached the step cap"
        assert step_of(state) < lay.DEFAULT_STEP_CAP
        assert rewards.sum() == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("n", [2, 4])
def test_heuristic_games_end_with_a_winner_of_ten_points(n):
    vec = presages_env.make_vec("res_arcana", 16, num_players=n, seed=3)
    agent = HeuristicAgent("res_arcana")
    finished = 0
    for _ in range(4000):
        out = vec.step(agent.act_batch(vec.obs, vec.masks))
        assert not out.truncated.any()
        finished += int(out.done.sum())
        if finished >= 16:
            break
    assert finished >= 16


def test_every_legal_action_has_a_distinct_label_at_every_decision():
    rng = np.random.default_rng(0)
    for n in (2, 3):
        state = GAME.new_state(n, seed=9)
        mask = np.zeros(GAME.num_actions(n), dtype=np.int8)
        rewards = np.zeros(n, dtype=np.float32)
        while not state[HDR_TERMINAL]:
            labels = legal_labels(state)
            assert labels and all(labels.values())
            assert len(set(labels.values())) == len(labels), labels
            GAME.kernel.legal_mask(state, mask)
            assert set(labels) == set(np.flatnonzero(mask).tolist())
            GAME.kernel.step(state, np.int64(rng.choice(list(labels))), rewards)


def test_ansi_rendering_and_infos_show_tableaux_pools_and_points():
    env = presages_env.make("res_arcana", num_players=2, render_mode="ansi")
    env.reset(seed=2)
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert set(info) >= {"vp", "essences", "victory_points", "round"}
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    text = env.render()
    assert "Res Arcana" in text and "VP" in text and "pool" in text
    assert "won" in text
    plain = render_text(env.get_state(), colour=False)
    assert "\x1b[" not in plain
