"""OpenSpiel's algorithms run on our games at a tiny budget (``baselines/openspiel_algorithms.py``
runs them at a real one): NFSP and PSRO with RL best responses on Président and Présages,
outcome-sampling MCCFR on Aciliande's smallest meaningful table; each result is measured
against our heuristic with the tournaments' intervals. Skipped without the ``openspiel``
extra or torch."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from extras import require

pyspiel = require("openspiel")
require("train")


from presages_env.agents.heuristic import HeuristicAgent  # noqa: E402
from presages_env.evaluation import mean_interval, win_rate  # noqa: E402
from presages_env.integrations import openspiel_algorithms as algorithms  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# The smallest Aciliande where MCCFR means something: two players, one life, one-card hands:
# a game is a bid each and a card each, and the information states recur.
MCCFR_PARAMS = {"players": 2, "lives": 1, "fixed_hand_size": 1}


def load(game: str, **params) -> pyspiel.Game:
    return pyspiel.load_game(f"presages_env_{game}", params)


def check_result(result, games: int) -> None:
    assert result.num_games == games
    outcomes = result.outcomes()
    assert set(np.unique(outcomes)) <= {0.0, 0.5, 1.0}
    estimate = win_rate(outcomes)
    assert 0.0 <= estimate.low <= estimate.value <= estimate.high <= 1.0


@pytest.mark.parametrize("game, players", [("president", 3), ("presages", 4)])
def test_nfsp_trains_and_is_measured_against_the_heuristic(game, players):
    spiel_game = load(game, players=players)
    agents = algorithms.train_nfsp(spiel_game, episodes=3, hidden_layers=(32,))
    policy = algorithms.NFSPAveragePolicy(spiel_game, agents)
    result = algorithms.play_against(spiel_game, lambda k: policy, HeuristicAgent(game), 4)
    check_result(result, 4)


@pytest.mark.parametrize("game, players", [("president", 3), ("presages", 4)])
def test_psro_with_rl_oracles_grows_every_population(game, players):
    spiel_game = load(game, players=players)
    solver = algorithms.train_psro(
        spiel_game, iterations=1, episodes_per_oracle=2, sims_per_entry=1, hidden_layers=(32,)
    )
    populations = solver.get_policies()
    assert [len(p) for p in populations] == [2] * players  # the initial policy and one BR
    for probabilities in solver.get_meta_strategies():
        assert np.isclose(np.sum(probabilities), 1.0)
    rng = np.random.default_rng(0)
    result = algorithms.play_against(
        spiel_game, lambda k: algorithms.MetaStrategySample(solver, rng), HeuristicAgent(game), 4
    )
    check_result(result, 4)


def test_cpp_mccfr_on_the_compiled_game_plays_the_python_game():
    require("native")
    compiled = pyspiel.load_game("presages_env_aciliande_native", MCCFR_PARAMS)
    policy = algorithms.train_mccfr_compiled(compiled, iterations=300)
    spiel_game = load("aciliande", **MCCFR_PARAMS)
    learned = 0
    for deal in range(20):  # the same answer on either game's state: the keys are equal
        states = [game.new_initial_state() for game in (compiled, spiel_game)]
        for state in states:
            for byte in (deal, 1, 2, 3):
                state.apply_action(byte)
        answers = [policy.action_probabilities(s, s.current_player()) for s in states]
        assert answers[0] == answers[1]
        assert set(answers[1]) == set(states[1].legal_actions())
        assert np.isclose(sum(answers[1].values()), 1.0)
        learned += len(set(answers[1].values())) > 1  # not the uniform fallback
    assert learned > 0
    result = algorithms.play_against(spiel_game, lambda k: policy, HeuristicAgent("aciliande"), 20)
    check_result(result, 20)


def test_outcome_sampling_mccfr_learns_a_policy_that_is_measured():
    spiel_game = load("aciliande", **MCCFR_PARAMS)
    solver = algorithms.train_mccfr(spiel_game, iterations=300)
    policy = solver.average_policy()
    state = spiel_game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(7)
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert np.isclose(sum(probabilities.values()), 1.0)
    result = algorithms.play_against(spiel_game, lambda k: policy, HeuristicAgent("aciliande"), 20)
    check_result(result, 20)
    assert mean_interval(result.focus_rewards()).n == 20


class RecordingPolicy:
    """Uniform over the legal actions; records the seats it was asked to play."""

    def __init__(self) -> None:
        self.seats: list[tuple[int, int]] = []
        self.game = 0

    def action_probabilities(self, state, player_id):
        self.seats.append((self.game, player_id))
        legal = state.legal_actions(player_id)
        return {a: 1 / len(legal) for a in legal}


@pytest.mark.parametrize("game, players", [("presages", 4), ("president", 3)])
def test_play_against_seats_the_focus_on_the_rotating_side_only(game, players):
    spiel_game = load(game, players=players)
    recorder = RecordingPolicy()

    def focus(k):
        recorder.game = k
        return recorder

    result = algorithms.play_against(spiel_game, focus, HeuristicAgent(game), 6, seed=3)
    sides = result.seat_sides.max(axis=1) + 1
    assert np.array_equal(result.focus_side, np.arange(6) % sides)
    asked = {(k, seat) for k, seat in recorder.seats}
    assert asked  # the focus played
    for k, seat in asked:
        assert result.seat_sides[k, seat] == result.focus_side[k]


def openspiel_snippets() -> list[tuple[str, str]]:
    """The ```python openspiel blocks of the README and docs/research.md (other tests run
    the plain ```python blocks, in venvs that may lack this extra)."""
    found = []
    for doc in (ROOT / "README.md", ROOT / "docs" / "research.md"):
        for snippet in re.findall(r"```python openspiel\n(.*?)```", doc.read_text(), flags=re.S):
            found.append((doc.name, snippet))
    return found


def test_the_docs_have_the_openspiel_snippet():
    assert {name for name, _ in openspiel_snippets()} == {"README.md", "research.md"}


@pytest.mark.parametrize("doc, snippet", openspiel_snippets(), ids=lambda x: x[:12])
def test_openspiel_snippet_runs(doc, snippet):
    exec(compile(snippet, f"{doc} OpenSpiel snippet", "exec"), {"__name__": "snippet"})
