"""The compiled OpenSpiel games (``presages_env_<game>_native``): OpenSpiel's own checks, and
play equal to the Python games move for move (legal actions, rewards, returns, every seat's
strings and tensors, action labels). Skipped where they cannot be built, unless
``PRESAGES_REQUIRE_NATIVE=1`` (``make test`` builds them first and sets it)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra (make test has it)")

from native_or_skip import register_native  # noqa: E402

from presages_env import openspiel  # noqa: E402
from presages_env.integrations import openspiel_native  # noqa: E402

register_native()

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


def test_a_saved_state_reloads_equal_and_a_forged_one_is_refused():
    game = native("aciliande", {"players": 4})
    state = game.new_initial_state()
    for byte in (5, 6, 7, 8):
        state.apply_action(byte)
    for _ in range(10):
        state.apply_action(state.legal_actions()[-1])
    text = pyspiel.serialize_game_and_state(game, state)
    _, loaded = pyspiel.deserialize_game_and_state(text)
    assert loaded.history() == state.history()
    assert loaded.returns() == state.returns()
    assert loaded.information_state_string(1) == state.information_state_string(1)
    # the history is replayed through the checked apply_action: a forged move is refused
    lines = text.split("\n")
    last = max(i for i, line in enumerate(lines) if line)
    before = replayed(game, state.history()[:-1])
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in before.legal_actions())
    lines[last] = str(illegal)
    with pytest.raises(ValueError, match="not legal"):
        pyspiel.deserialize_game_and_state("\n".join(lines))
