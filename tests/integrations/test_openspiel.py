"""The OpenSpiel bridge (``presages_env.openspiel``): every game and several player counts
pass OpenSpiel's own random-simulation checks with serialisation and cloning; saved states
are validated and replayed, never trusted. Skipped without the ``openspiel`` extra (`make
test` installs it in .venv)."""

from __future__ import annotations

import base64
import hashlib
import pickle
import subprocess
import sys

import numpy as np
import pytest
from extras import require

pyspiel = require("openspiel")

from forged_saves import FIRST_STATE_LINE, FORGED_NUMBERS, with_line  # noqa: E402

from presages_env import openspiel  # noqa: E402
from presages_env.core import state_io  # noqa: E402
from presages_env.core.header import HDR_CURRENT  # noqa: E402
from presages_env.integrations.openspiel_game import restore_play  # noqa: E402

# Res Arcana's information state grows with its step cap (docs/research.md): a small cap
# keeps the checks' tensors small (games cut there end truncated, with zero returns).
CONFIGS = [
    ("president", {"players": 3}),
    ("president", {"players": 4, "num_manches": 2, "reward_scheme": "match"}),
    ("president", {"players": 6, "reward_scheme": "points"}),
    ("presages", {"players": 4}),
    ("presages", {"players": 5, "round_reward": 0.25}),
    ("presages", {"players": 6}),
    ("aciliande", {"players": 2}),
    ("aciliande", {"players": 4, "teams": True, "fixed_hand_size": 3}),
    ("aciliande", {"players": 7, "goddesses": "2/3/17", "stake": 5}),
    ("res_arcana", {"players": 2, "step_cap": 120}),
    ("res_arcana", {"players": 4, "step_cap": 120, "starter_sets": True}),
]


def load(game: str, params: dict) -> pyspiel.Game:
    return pyspiel.load_game(openspiel.PREFIX + game, params)


def ids(config: tuple) -> str:
    game, params = config
    return f"{game}-" + "-".join(f"{k}={v}" for k, v in params.items())


def random_state(game: pyspiel.Game, decisions: int, seed: int = 0) -> pyspiel.State:
    """A state ``decisions`` random decisions after a random deal."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(int(rng.integers(256)))
    for _ in range(decisions):
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=[ids(c) for c in CONFIGS])
def test_openspiel_random_simulation_checks_pass(config):
    """OpenSpiel's RandomSimTest: clones, serialises and reloads every few states, checks
    legal actions, observations and information states of every seat, returns and bounds."""
    game = load(*config)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["president", "presages", "aciliande", "res_arcana"])
def test_python_api_agrees_with_the_cpp_path(name):
    """legal_actions and is_chance_node answer Python callers in Python: they must equal
    what pyspiel's C++ State returns through the trampolines."""
    game = load(name, {"players": 4, "step_cap": 200} if name == "res_arcana" else {})
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for seat in range(game.num_players()):
            assert state.legal_actions(seat) == pyspiel.State.legal_actions(state, seat)
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    assert state.legal_actions() == pyspiel.State.legal_actions(state) == []


@pytest.mark.parametrize("name", ["president", "presages", "aciliande", "res_arcana"])
def test_every_decision_writes_an_event_its_actor_sees(name):
    """What makes ``max_game_length`` (players x the events a seat sees) a sound bound."""
    from presages_env.core import events as ev
    from presages_env.games import get_game

    game = get_game(name)
    kernel = game.kernel
    rng = np.random.default_rng(0)
    buffer = ev.new_buffer(kernel.MAX_STEP_EVENTS)
    rewards = np.zeros(game.max_players, dtype=np.float32)
    for seed in range(3):
        state = game.new_state(game.max_players, seed)
        mask = np.zeros(game.num_actions(game.max_players), dtype=np.int8)
        while not game.is_over(state):
            actor = int(state[HDR_CURRENT])
            kernel.legal_mask(state, mask)
            legal = np.flatnonzero(mask)
            kernel.step_logged(state, np.int64(rng.choice(legal)), rewards, buffer)
            assert len(ev.visible_to(ev.drain(buffer), actor)) >= 1


def test_returns_are_the_kernels_rewards_and_team_rewards_per_seat():
    """Présages: every member of the winning team gets +1, the others -1."""
    game = load("presages", {"players": 4})
    state = random_state(game, 0, seed=3)
    rng = np.random.default_rng(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    teams = openspiel_teams(state)
    returns = state.returns()
    assert sorted(returns) == [-1.0, -1.0, 1.0, 1.0]
    for a in range(4):
        for b in range(4):
            assert (returns[a] == returns[b]) == (teams[a] == teams[b])


def openspiel_teams(state: pyspiel.State) -> list[int]:
    play = state.play
    return play.setup.game.teams(play.state).tolist()


def test_chance_draws_seed_bytes_and_deals_that_seed():
    game = load("president", {"players": 4, "seed_bytes": 2})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
    state.apply_action(0x34)
    state.apply_action(0x12)
    assert not state.is_chance_node()
    dealt = state.play.setup.game.new_state(4, 0x1234)
    assert np.array_equal(state.play.state, dealt)


def test_serialised_state_reloads_equal_through_pyspiel_and_the_safe_loader():
    game = load("aciliande", {"players": 4})
    state = random_state(game, 20)
    text = pyspiel.serialize_game_and_state(game, state)
    for loaded_game, loaded in (
        pyspiel.deserialize_game_and_state(text),
        openspiel.deserialize_game_and_state(text),
    ):
        assert str(loaded_game) == str(game)
        assert str(loaded) == str(state)
        assert loaded.history() == state.history()
        assert loaded.information_state_tensor(1) == state.information_state_tensor(1)


class Saved:
    """Pickles as a saved state does, with arguments of the test's choosing."""

    def __init__(self, *args) -> None:
        self.args = args

    def __reduce__(self):
        return (restore_play, self.args)


def forged_text(text: str, *args) -> str:
    """``text`` (a serialised game and state) with the state's attribute replaced."""
    head, _ = text.rsplit("__dict__=", 1)
    payload = base64.b64encode(pickle.dumps({"play": Saved(*args)})).decode()
    return f"{head}__dict__={payload}\n"


def forge_slot(data: bytes, slot: int, value: int, itemsize: int) -> bytes:
    """``state_io`` bytes with one slot changed and the digest recomputed (it only catches
    accidents), so that only the validation can refuse them."""
    body = bytearray(data[:-16])
    offset = 16 + slot * itemsize  # after the 16-byte prefix
    body[offset : offset + itemsize] = int(value).to_bytes(itemsize, "little", signed=True)
    return bytes(body) + hashlib.blake2b(bytes(body), digest_size=16).digest()


@pytest.fixture
def saved_aciliande():
    game = load("aciliande", {"players": 4})
    state = random_state(game, 6)
    play = state.play
    text = pyspiel.serialize_game_and_state(game, state)
    start = state_io.serialize(play.start, play.setup.game)
    args = (play.setup.short_name, dict(play.setup.params), tuple(play.seed_bytes))
    return text, args, start, tuple(play.actions)


@pytest.mark.parametrize(
    "loader", [pyspiel.deserialize_game_and_state, openspiel.deserialize_game_and_state]
)
def test_a_forged_saved_state_is_refused(saved_aciliande, loader):
    text, args, start, actions = saved_aciliande
    bad_seat = forge_slot(start, HDR_CURRENT, 9, 2)
    with pytest.raises(ValueError, match="HDR_CURRENT"):
        loader(forged_text(text, *args, bad_seat, actions))


@pytest.mark.parametrize(
    "loader", [pyspiel.deserialize_game_and_state, openspiel.deserialize_game_and_state]
)
def test_a_valid_start_state_that_is_not_the_deal_of_its_seed_is_refused(saved_aciliande, loader):
    text, args, _, actions = saved_aciliande
    game = openspiel_game_of(args)
    other_deal = state_io.serialize(game.new_state(4, 99), game)
    with pytest.raises(ValueError, match="not the deal of its seed"):
        loader(forged_text(text, *args, other_deal, actions))


def openspiel_game_of(args: tuple):
    from presages_env.games import get_game

    return get_game(args[0].removeprefix(openspiel.PREFIX))


@pytest.mark.parametrize(
    "loader", [pyspiel.deserialize_game_and_state, openspiel.deserialize_game_and_state]
)
def test_an_illegal_saved_action_is_refused(saved_aciliande, loader):
    text, args, start, actions = saved_aciliande
    with pytest.raises(ValueError, match="not legal"):
        loader(forged_text(text, *args, start, (*actions, 10_000)))


class RunsCode:
    def __reduce__(self):
        return (sys.exit, ("the loader ran code",))


def test_the_safe_loader_runs_no_code(saved_aciliande):
    text = saved_aciliande[0]
    head, _ = text.rsplit("__dict__=", 1)
    payload = base64.b64encode(pickle.dumps({"play": RunsCode()})).decode()
    with pytest.raises(ValueError, match="may not name"):
        openspiel.deserialize_game_and_state(f"{head}__dict__={payload}\n")


def test_the_safe_loader_refuses_a_history_that_disagrees(saved_aciliande):
    text = saved_aciliande[0]
    first, rest = text.split("history=", 1)
    forged = first + "history=-1:0," + rest.split(",", 1)[1]
    with pytest.raises(ValueError, match="history disagrees"):
        openspiel.deserialize_game_and_state(forged)


HISTORY_LINE = FIRST_STATE_LINE  # a Python game's state: history, move number, attributes


@pytest.mark.parametrize("forged", FORGED_NUMBERS, ids=ascii)
def test_a_saved_history_number_that_is_not_exactly_a_number_in_range_is_refused(
    saved_aciliande, forged
):
    text = saved_aciliande[0]
    history = text.split("\n")[HISTORY_LINE - 1]
    first_seed_byte = history.replace("history=-1:", "", 1).split(",", 1)[0]
    forged_history = history.replace(f"-1:{first_seed_byte},", f"-1:{forged},", 1)
    with pytest.raises(ValueError, match=f"line {HISTORY_LINE} .*{FORGED_NUMBERS[forged]}"):
        openspiel.deserialize_game_and_state(with_line(text, HISTORY_LINE, forged_history))


def test_a_saved_history_with_a_forged_player_move_number_or_layout_is_refused(saved_aciliande):
    text = saved_aciliande[0]
    lines = text.split("\n")
    history, move_number = lines[HISTORY_LINE - 1], lines[HISTORY_LINE]
    forgeries = {
        with_line(text, HISTORY_LINE, history.replace("-1:", "-2:", 1)): "-2 is not from -1 to 3",
        with_line(text, HISTORY_LINE, history.replace(",", ",,", 1)): "'' is not a decimal",
        with_line(text, HISTORY_LINE + 1, move_number + "0"): "expected move_number=",
        with_line(text, HISTORY_LINE + 1, "\n" + move_number): "line 9 '': expected move_number",
        text + "\n": "line 11 '': expected the end of the string",
        text.rsplit("\n", 2)[0]: "3 lines",
        text.replace("__dict__=", "__dict__= ", 1): "line 10 .*base64",
    }
    for forged, why in forgeries.items():
        with pytest.raises(ValueError, match=why):
            openspiel.deserialize_game_and_state(forged)


def test_a_saved_string_whose_header_or_game_is_not_as_pyspiel_writes_it_is_refused(
    saved_aciliande,
):
    text = saved_aciliande[0]
    game_string = text.split("\n")[5]
    forgeries = {
        "": "line 1 '': expected '# Automatically generated",
        text.replace("Version: 1", "Version: 2"): "line 3 'Version: 2': expected 'Version: 1'",
        text.replace("[State]", "[state]"): "line 7 '\\[state\\]'",
        text.replace("players=4", "players=04"): "line 6 .*pyspiel writes this game",
        text.replace("players=4", "players=9"): "line 6 .*num_players",
        text.replace("players=4", "players=four"): "line 6 .*players",
        text.replace(game_string, "kuhn_poker()"): "line 6 .*not a registered presages_env",
        text.split("[State]")[0]: "line 7 '': expected '\\[State\\]'",
        text.split("[State]")[0] + "[State]": "it ends at line 7",
    }
    for forged, why in forgeries.items():
        with pytest.raises(ValueError, match=why):
            openspiel.deserialize_game_and_state(forged)
    with pytest.raises(TypeError, match="string"):
        openspiel.deserialize_game_and_state(text.encode())


def test_an_illegal_action_is_refused_and_changes_nothing():
    game = load("president", {"players": 4})
    state = random_state(game, 3)
    before = (str(state), state.play.state.copy())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(illegal)
    assert str(state) == before[0]
    assert np.array_equal(state.play.state, before[1])


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="num_players"):
        load("president", {"players": 9})
    with pytest.raises(ValueError, match="seed_bytes"):
        load("president", {"seed_bytes": 8})
    with pytest.raises(ValueError, match="num_manches"):
        load("president", {"num_manches": 0})
    with pytest.raises(ValueError, match="separated integers"):
        load("aciliande", {"goddesses": "two"})


def test_observations_are_the_kernels_and_information_states_the_envs():
    """After the same deal and actions, each seat's observation tensor is the AEC env's
    observation and its information state tensor the env's ``information_state``."""
    import presages_env
    from presages_env.core.header import seed_of

    envs = {
        mode: presages_env.make("president", num_players=4, observation_mode=mode)
        for mode in ("observation", "information_state")
    }
    seed = next(s for s in range(1000) if _env_deal(envs["observation"], s) < 2**56)
    deal = _env_deal(envs["information_state"], seed)
    state = load("president", {"players": 4, "seed_bytes": 7}).new_initial_state()
    for byte in deal.to_bytes(7, "little"):
        state.apply_action(byte)
    assert seed_of(state.play.state) == deal
    rng = np.random.default_rng(0)
    for _ in range(15):
        for seat in range(4):
            agent = f"player_{seat}"
            for mode, env in envs.items():
                expected = env.observe(agent)["observation"].astype(np.float32).tolist()
                seen = getattr(state, f"{mode}_tensor")(seat)
                assert seen == expected, (mode, seat)
        legal = state.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
        for env in envs.values():
            env.step(action)


def _env_deal(env, seed: int) -> int:
    from presages_env.core.header import seed_of

    env.reset(seed=seed)
    return seed_of(env.get_state())


def test_importing_presages_env_does_not_import_pyspiel():
    code = (
        "import sys, presages_env, presages_env.training, presages_env.evaluation;"
        "assert 'pyspiel' not in sys.modules and 'open_spiel' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


EXIT_SCRIPTS = {
    "python": (
        "import sys, pyspiel, presages_env.integrations.openspiel_game as module;"
        "sys.keep_module_alive = module;"
        "pyspiel.load_game('presages_env_president').new_initial_state()"
    ),
    "compiled": (
        "import sys, pyspiel; from presages_env import openspiel; openspiel.register_native();"
        "g = pyspiel.load_game('presages_env_aciliande_native', {'players': 3});"
        "s = g.new_initial_state(); [s.apply_action(b) for b in (1, 2, 3, 4)];"
        "s.information_state_string(0); sys.keep_alive = (g, s, openspiel)"
    ),
}


@pytest.mark.parametrize("kind", EXIT_SCRIPTS)
def test_the_process_exits_cleanly_when_the_module_outlives_finalisation(kind):
    """pyspiel releases its game creators at ``exit()``, after the interpreter finalised and
    without the GIL; a creator freed then aborted the process ("Fatal Python error:
    PyThreadState_Get"). Finalisation clears the globals of every module still alive, so
    keeping the module alive (here from ``sys``, cleared after the modules) left pyspiel's
    reference the last one. The compiled games' games, states and views must likewise
    release nothing into a finalised Python."""
    if kind == "compiled":
        require("native")
    done = subprocess.run(
        [sys.executable, "-c", EXIT_SCRIPTS[kind]], capture_output=True, text=True
    )
    assert "Fatal Python error" not in done.stderr
    assert done.returncode == 0, done.stderr
