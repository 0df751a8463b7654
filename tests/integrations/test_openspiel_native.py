"""The compiled OpenSpiel games (``presages_env_<game>_native``): OpenSpiel's own checks, and
play equal to the Python games move for move (legal actions, rewards, returns, every seat's
strings and tensors, action labels). Skipped where they cannot be built, unless the
``native`` extra is required (tests/extras.py: ``make test`` builds them first and requires
them)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from extras import require

pyspiel = require("openspiel")

from forged_saves import FIRST_STATE_LINE, FORGED_NUMBERS, with_line  # noqa: E402

from presages_env import openspiel  # noqa: E402
from presages_env.integrations import openspiel_native  # noqa: E402

require("native")

CONFIGS = [
    ("president", {"players": 3}),
    ("president", {"players": 4, "num_manches": 2, "reward_scheme": "match"}),
    ("presages", {"players": 4}),
    ("presages", {"players": 6, "round_reward": 0.25}),
    ("aciliande", {"players": 2}),
    ("aciliande", {"players": 4, "teams": True, "fixed_hand_size": 3}),
    ("res_arcana", {"players": 2, "step_cap": 120}),
    ("res_arcana", {"players": 4, "step_cap": 120, "starter_sets": True}),
]


def ids(config: tuple) -> str:
    game, params = config
    return f"{game}-" + "-".join(f"{k}={v}" for k, v in params.items())


def native(game: str, params: dict) -> pyspiel.Game:
    return pyspiel.load_game(openspiel.PREFIX + game + openspiel_native.SUFFIX, params)


@pytest.mark.parametrize("config", CONFIGS, ids=[ids(c) for c in CONFIGS])
def test_openspiel_random_simulation_checks_pass(config):
    pyspiel.random_sim_test(native(*config), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("config", CONFIGS, ids=[ids(c) for c in CONFIGS])
def test_play_equals_the_python_game_move_for_move(config):
    game, params = config
    compiled, python = native(game, params), pyspiel.load_game(openspiel.PREFIX + game, params)
    assert compiled.num_distinct_actions() == python.num_distinct_actions()
    assert compiled.max_game_length() == python.max_game_length()
    assert compiled.get_type().utility == python.get_type().utility
    assert (compiled.min_utility(), compiled.max_utility()) == (
        python.min_utility(),
        python.max_utility(),
    )
    assert compiled.information_state_tensor_shape() == python.information_state_tensor_shape()
    rng = np.random.default_rng(7)
    a, b = compiled.new_initial_state(), python.new_initial_state()
    seats = range(compiled.num_players())
    while not b.is_terminal():
        assert a.current_player() == b.current_player()
        assert a.legal_actions() == b.legal_actions()
        if not b.is_chance_node():
            for seat in seats:
                assert a.information_state_string(seat) == b.information_state_string(seat)
                assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
                assert a.observation_string(seat) == b.observation_string(seat)
                assert a.observation_tensor(seat) == b.observation_tensor(seat)
        legal = b.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        assert a.action_to_string(a.current_player(), action) == b.action_to_string(
            b.current_player(), action
        )
        a.apply_action(action)
        b.apply_action(action)
        assert a.rewards() == b.rewards()
    assert a.is_terminal()
    for seat in seats:  # the views at the end too
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)
    assert a.returns() == b.returns()
    assert str(a).split(":", 1)[1] == str(b).split(":", 1)[1]


def replayed(game: pyspiel.Game, history: list[int]) -> pyspiel.State:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def same_game(a: pyspiel.State, b: pyspiel.State) -> bool:
    return (
        a.legal_actions() == b.legal_actions()
        and a.returns() == b.returns()
        and all(
            a.information_state_string(seat) == b.information_state_string(seat)
            for seat in range(a.num_players())
        )
    )


def test_a_clone_plays_on_alone():
    game = native("aciliande", {"players": 3})
    state = replayed(game, [1, 2, 3, 4])
    clone = state.clone()
    for _ in range(8):
        clone.apply_action(clone.legal_actions()[-1])
    assert state.history() == [1, 2, 3, 4]
    assert same_game(state, replayed(game, [1, 2, 3, 4]))
    assert same_game(clone, replayed(game, clone.history()))


def test_states_of_one_game_read_from_several_threads_see_their_own_game():
    """The views of every state of a loaded game come from one shared replay (kept between
    calls): interleaved states and threads must still each get their own game's."""
    from concurrent.futures import ThreadPoolExecutor

    params = {"players": 4}
    compiled = native("president", params)
    python = pyspiel.load_game(openspiel.PREFIX + "president", params)
    rng = np.random.default_rng(3)
    histories = []
    for _ in range(6):
        state = replayed(compiled, [int(b) for b in rng.integers(256, size=4)])
        for _ in range(int(rng.integers(5, 40))):
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        histories.append(state.history())
    states = [replayed(compiled, history) for history in histories]
    expected = [
        [replayed(python, h).information_state_string(seat) for seat in range(4)] for h in histories
    ]
    tasks = [(k, seat) for _ in range(20) for k in range(len(states)) for seat in range(4)]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda t: states[t[0]].information_state_string(t[1]), tasks))
    assert got == [expected[k][seat] for k, seat in tasks]


def test_bad_actions_seats_and_parameters_are_refused_and_change_nothing():
    game = native("president", {"players": 4})
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="byte"):
        state.apply_action(256)
    for byte in (9, 0, 0, 0):
        state.apply_action(byte)
    before = state.serialize()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    for action in (illegal, game.num_distinct_actions()):
        with pytest.raises(ValueError, match="not legal"):
            state.apply_action(action)
    with pytest.raises(pyspiel.SpielError):  # OpenSpiel's own check of kInvalidAction
        state.apply_action(-1)
    for seat in (-1, 4):
        with pytest.raises(ValueError, match="seat"):
            state.observation_string(seat)
    assert state.serialize() == before
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):  # OpenSpiel's check
        native("president", {"players": 4, "nonsense": 1})
    with pytest.raises(ValueError, match="players"):
        native("president", {"players": 9})


@pytest.fixture
def saved_aciliande() -> tuple[pyspiel.State, str]:
    """A compiled Aciliande state after its deal and ten moves, and its saved string."""
    game = native("aciliande", {"players": 4})
    state = game.new_initial_state()
    for byte in (5, 6, 7, 8):
        state.apply_action(byte)
    for _ in range(10):
        state.apply_action(state.legal_actions()[-1])
    return state, pyspiel.serialize_game_and_state(game, state)


def test_a_saved_state_reloads_equal_and_a_forged_move_is_refused(saved_aciliande):
    state, text = saved_aciliande
    game = state.get_game()
    _, loaded = openspiel.deserialize_game_and_state(text)
    assert loaded.history() == state.history()
    assert loaded.returns() == state.returns()
    assert loaded.information_state_string(1) == state.information_state_string(1)
    # the history is replayed through the checked apply_action: a forged move is refused
    last = FIRST_STATE_LINE + len(state.history()) - 1
    before = replayed(game, state.history()[:-1])
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in before.legal_actions())
    with pytest.raises(ValueError, match=f"line {last} .*not legal"):
        openspiel.deserialize_game_and_state(with_line(text, last, str(illegal)))


@pytest.mark.parametrize("forged", FORGED_NUMBERS, ids=ascii)
def test_a_saved_line_that_is_not_exactly_a_number_in_range_is_refused(saved_aciliande, forged):
    _, text = saved_aciliande
    for number in (FIRST_STATE_LINE + 2, FIRST_STATE_LINE + 6):  # a seed byte, a move
        with pytest.raises(ValueError, match=f"line {number} .*{FORGED_NUMBERS[forged]}"):
            openspiel.deserialize_game_and_state(with_line(text, number, forged))


def test_a_saved_state_with_extra_empty_lines_or_none_at_the_end_is_refused(saved_aciliande):
    state, text = saved_aciliande
    end = FIRST_STATE_LINE + len(state.history())  # the empty line that ends the history
    with pytest.raises(ValueError, match=f"line {end} ''"):
        openspiel.deserialize_game_and_state(text + "\n")
    with pytest.raises(ValueError, match="must end with an empty line"):
        openspiel.deserialize_game_and_state(text[:-1])


# A daemon thread reading views and one running OpenSpiel's C++ MCCFR (which reads views too)
# on one compiled game, while the main thread returns and the interpreter finalises.
EXIT_WHILE_THREADS_PLAY = """
import json, random, sys, threading, pyspiel
from presages_env import openspiel
openspiel.register_native()
game = pyspiel.load_game(sys.argv[1], json.loads(sys.argv[2]))
looking, solving = threading.Event(), threading.Event()

def look():
    rng = random.Random(0)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                state.information_state_string(state.current_player())
                state.observation_tensor(state.current_player())
                looking.set()
            state.apply_action(rng.choice(state.legal_actions()))

def solve():
    solver = pyspiel.OutcomeSamplingMCCFRSolver(game, seed=1)
    while True:
        solver.run_iteration()
        solving.set()

for work in (look, solve):
    threading.Thread(target=work, daemon=True).start()
looking.wait()
solving.wait()
"""
FIRST_CONFIG_OF_EACH_GAME = dict(reversed(CONFIGS))


@pytest.mark.parametrize(
    "game",
    [pytest.param(game, marks=pytest.mark.slow(game)) for game in FIRST_CONFIG_OF_EACH_GAME],
)
def test_the_process_exits_cleanly_while_daemon_threads_are_inside_the_game(game):
    """Python ends a daemon thread that takes the GIL during finalisation by unwinding its
    stack; through the game's C++ that released a GIL the thread no longer held and aborted
    the process ("Fatal Python error: PyGILState_Release", status 134)."""
    params = json.dumps(FIRST_CONFIG_OF_EACH_GAME[game])
    name = openspiel.PREFIX + game + openspiel_native.SUFFIX
    done = subprocess.run(
        [sys.executable, "-c", EXIT_WHILE_THREADS_PLAY, name, params],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Fatal Python error" not in done.stderr
    assert done.returncode == 0, done.stderr
