"""Every game as a compiled pyspiel game: ``presages_env_<game>_native``.

The Python games of :mod:`~presages_env.integrations.openspiel_game` pay for every
``apply_action`` two calls from pyspiel's C++ back into Python. These games are C++
(``openspiel_native.cc``): chance, legal actions, ``apply_action``, rewards, returns and
clones call the numba kernels through C entry points (``numba.cfunc``) and never enter
Python, so an OpenSpiel loop runs at the kernels' speed. What a seat sees (information
states, observations, action labels) is asked of Python, which replays the state's history
on the same kernels (:class:`SeatViews`, a :class:`~.openspiel_game.Play`): the same
strings and tensors as the Python games, at a replay's cost. Same parameters, chance (the
seed's bytes), actions and returns as the Python games (tested); saved states are
OpenSpiel's own format (the history, one action a line). Load them with
:func:`~.openspiel_game.deserialize_game_and_state`, which checks every line strictly and
replays it through the checked ``apply_action``: ``pyspiel.deserialize_game_and_state`` runs
no code of the string's choosing either, but reads each line with ``std::stol``, so
``34abc`` loads as 34 and ``0 rm -rf /`` as 0.

**Building.** The C++ is compiled once per source, pyspiel and Python (cached under
``$PRESAGES_ENV_CACHE``, default ``~/.cache/presages_env``) against the headers the
``open_spiel`` wheel installs beside pyspiel (OpenSpiel's and its abseil's, the ones pyspiel
was built with: a game compiled against other headers would corrupt memory), and linked to
pyspiel itself, whose game registry it joins. It needs a C++17 compiler (``$CXX``, default
``g++``) and the Python headers; :func:`register` raises :class:`NativeUnavailable` where
either is missing, and the Python games stay available everywhere. ``python -m
presages_env.integrations.openspiel_native`` builds and registers (``make test`` runs it).
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from presages_env.core import events as ev
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL
from presages_env.games import available_games, get_game
from presages_env.integrations.openspiel_game import (
    _ZERO_SUM,
    PREFIX,
    Play,
    _Setup,
    accept_saved_histories,
    load_setup,
    max_game_length,
    parameter_specification,
)

SUFFIX = "_native"
SOURCE = Path(__file__).with_suffix(".cc")


class NativeUnavailable(RuntimeError):
    """The compiled games cannot be built here (no compiler, no headers)."""


def cache_dir() -> Path:
    return Path(os.environ.get("PRESAGES_ENV_CACHE") or Path.home() / ".cache" / "presages_env")


# ---- building --------------------------------------------------------------------------
def build() -> Path:
    """The compiled games' library, built if this source, pyspiel and Python have none yet."""
    pyspiel_path = Path(pyspiel.__file__).resolve()
    headers = pyspiel_path.parent  # the wheel's open_spiel/ folder: spiel.h, abseil, json
    if not (headers / "open_spiel" / "spiel.h").exists():
        raise NativeUnavailable(f"this pyspiel has no C++ headers beside it ({headers})")
    built = pyspiel_path.stat()
    fingerprint = f"{pyspiel_path}|{built.st_size}|{built.st_mtime_ns}|{sys.version}"
    key = hashlib.sha256(SOURCE.read_bytes() + fingerprint.encode()).hexdigest()[:16]
    cache = cache_dir()
    library = cache / f"openspiel_native_{key}.so"
    if library.exists():
        return library
    compiler = shutil.which(os.environ.get("CXX", "g++"))
    python_include = Path(sysconfig.get_paths()["include"])
    if compiler is None or not (python_include / "Python.h").exists():
        raise NativeUnavailable("the compiled games need a C++17 compiler and Python's headers")
    cache.mkdir(parents=True, exist_ok=True)
    partial = library.with_suffix(f".{os.getpid()}.partial")
    command = [
        compiler,
        "-O2",
        "-std=c++17",
        "-shared",
        "-fPIC",
        f"-I{headers}",
        f"-I{headers / 'open_spiel' / 'abseil-cpp'}",
        f"-I{headers / 'open_spiel' / 'json' / 'include'}",
        f"-I{python_include}",
        str(SOURCE),
        str(pyspiel_path),  # its symbols: the registry and the base classes
        f"-Wl,-rpath,{pyspiel_path.parent}",
        "-o",
        str(partial),
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise NativeUnavailable(f"compiling {SOURCE.name} failed:\n{done.stderr[-4000:]}")
    partial.replace(library)  # atomic: a library of that name is complete
    return library


# ---- the kernels' C entry points -------------------------------------------------------
# The compiled entry points by game: held for the process, since a collected cfunc frees
# the code its address points to.
_entry_points: dict[str, tuple[Any, Any, Any]] = {}


def entry_points(name: str) -> tuple[int, int, int]:
    """Addresses of ``reset``, ``step`` and ``legal_mask`` of game ``name`` as C functions
    over raw arrays (the signatures ``openspiel_native.cc`` declares)."""
    if name not in _entry_points:
        _entry_points[name] = _compile_entry_points(name)
    return tuple(function.address for function in _entry_points[name])


def _compile_entry_points(name: str) -> tuple[Any, Any, Any]:
    from numba import carray, cfunc, from_dtype, types

    game = get_game(name)
    reset_kernel, step_kernel, mask_kernel = (
        game.kernel.reset,
        game.kernel.step,
        game.kernel.legal_mask,
    )
    slots = types.CPointer(from_dtype(np.dtype(game.state_dtype)))
    size = types.int64

    @cfunc(types.void(slots, size, types.int64))
    def reset(state, state_size, seed):
        reset_kernel(carray(state, state_size), seed)

    @cfunc(types.void(slots, size, types.int64, types.CPointer(types.float32), size))
    def step(state, state_size, action, rewards, players):
        step_kernel(carray(state, state_size), action, carray(rewards, players))

    @cfunc(types.void(slots, size, types.CPointer(types.int8), size))
    def legal_mask(state, state_size, mask, actions):
        mask_kernel(carray(state, state_size), carray(mask, actions))

    return reset, step, legal_mask


# ---- what a seat sees ------------------------------------------------------------------
class SeatViews:
    """A native state's strings and tensors: its history replayed by a :class:`Play`, kept
    between calls so that asking along one game replays each action once. Every state of
    a loaded game shares it, so a lock keeps one replay at a time (pyspiel may call from
    several threads), and a replay that fails is dropped rather than left half done."""

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        obs_size = setup.game.obs_size(setup.num_players)
        self.information_state_size = ev.information_state_size(obs_size, setup.max_events)
        self.observation_size = obs_size
        self._lock = threading.Lock()
        self._play = Play(setup)
        self._history: list[int] = []

    def _replayed(self, history: list[int], read: Callable[[Play], Any]) -> Any:
        with self._lock:
            if history[: len(self._history)] != self._history:
                self._play, self._history = Play(self.setup), []
            try:
                for action in history[len(self._history) :]:
                    self._play.apply(action)
                    self._history.append(action)
                return read(self._play)
            except BaseException:  # re-raised: only the half-done replay is dropped
                self._play, self._history = Play(self.setup), []
                raise

    def information_state_string(self, history: list[int], seat: int) -> str:
        return self._replayed(history, lambda play: play.information_state_string(seat))

    def observation_string(self, history: list[int], seat: int) -> str:
        return self._replayed(history, lambda play: play.observation_string(seat))

    def information_state_tensor(self, history: list[int], seat: int) -> np.ndarray:
        out = np.zeros(self.information_state_size, dtype=np.float32)
        self._replayed(history, lambda play: play.write_information_state(seat, out))
        return out

    def observation_tensor(self, history: list[int], seat: int) -> np.ndarray:
        out = np.zeros(self.observation_size, dtype=np.float32)
        self._replayed(history, lambda play: play.write_observation(seat, out))
        return out

    def action_string(self, history: list[int], player: int, action: int) -> str:
        return self._replayed(history, lambda play: play.action_string(player, action))


def describe(short_name: str, params: dict[str, Any]) -> tuple:
    """The game ``short_name`` with ``params``, as ``openspiel_native.cc``'s ``MakeGame``
    reads it."""
    name = short_name[len(PREFIX) : -len(SUFFIX)]
    setup, utility, low, high = load_setup(name, params)
    views = SeatViews(setup)
    return (
        setup.params,
        setup.num_players,
        setup.game.num_actions(setup.num_players),
        setup.seed_bytes,
        max_game_length(setup),
        low,
        high,
        utility == _ZERO_SUM,
        setup.template.tobytes(),
        setup.template.itemsize,
        HDR_CURRENT,
        HDR_TERMINAL,
        *entry_points(name),
        views.information_state_size,
        views.observation_size,
        views,
    )


# ---- registration ----------------------------------------------------------------------
_registered: set[str] = set()


def register() -> list[str]:
    """Build (once) and register ``presages_env_<game>_native`` for every game; returns the
    names. Raises :class:`NativeUnavailable` where the games cannot be built."""
    names = available_games()  # a plug-in that does not load is left out
    if len(_registered) == len(names):  # done: no need to fingerprint and load again
        return sorted(_registered)
    library = ctypes.PyDLL(str(build()))
    library.presages_register.argtypes = [
        ctypes.c_char_p,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.py_object,
        ctypes.py_object,
    ]
    library.presages_register.restype = ctypes.c_int
    for name in names:
        short_name = PREFIX + name + SUFFIX
        if short_name in _registered:
            continue
        game = get_game(name)
        library.presages_register(
            short_name.encode(),
            f"presages_env {name} (compiled)".encode(),
            game.min_players,
            game.max_players,
            parameter_specification(game),
            describe,
        )
        accept_saved_histories(short_name)
        _registered.add(short_name)
    return sorted(_registered)


if __name__ == "__main__":
    print("registered", ", ".join(register()), "from", build())
