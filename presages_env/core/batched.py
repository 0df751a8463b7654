"""Batched kernels: one template, specialised per game so numba can cache each.

The loops below call a game's kernels by global name (``reset_logged``, ``legal_mask``,
``step_logged``, ``observe``, ``global_state``). :func:`specialise` copies each template
with those names bound to one game's kernels and a per-game name, so the compiled code is
cached on disk per game (numba cannot cache functions that receive other compiled functions
as arguments or closures).

The step and reset loops take ``events``: None on the default path (numba compiles the event
writes away, so it runs the plain kernels' code), or ``[B, capacity + 1, EVENT_WIDTH]``
buffers that receive each game's events of the call (core/events.py).

Every kernel's plain ``reset``/``step`` are two more such templates (:func:`plain_kernels`):
its ``reset_logged``/``step_logged`` with no events.
"""

from __future__ import annotations

import hashlib
import inspect
import types

import numba as nb

from presages_env.core import header as core_header
from presages_env.core import prefetch as core_prefetch
from presages_env.core import rng as core_rng
from presages_env.core.events import game_buffer
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL, TRUNCATED, read_step
from presages_env.core.prefetch import prefetch_rows
from presages_env.core.rng import choose_legal, derive_seed, rng_get, splitmix_next

# The step loop asks for the lines of the game this many places ahead (core/prefetch.py),
# for games whose state and observation rows span at least this many bytes: smaller ones
# (President's, Aciliande's) stay in cache at any batch size measured, and the hints only
# cost them time (docs/speed.md).
PREFETCH_AHEAD = 2
PREFETCH_MIN_BYTES = 1024

# Names the templates use; bound per game by `specialise`.
reset_logged = legal_mask = step_logged = observe = global_state = None


def _reset(state, seed):
    reset_logged(state, seed, None)


def _step(state, action, rewards):
    step_logged(state, action, rewards, None)


def _reset_all(states, seeds, obs, masks, current, events):
    for i in nb.prange(states.shape[0]):
        reset_logged(states[i], seeds[i], game_buffer(events, i))
        current[i] = states[i, HDR_CURRENT]
        legal_mask(states[i], masks[i])
        observe(states[i], current[i], obs[i])


def _step_all(states, actions, obs, masks, rewards, current, done, truncated, max_steps, events):
    """Apply one action per game, auto-reset finished games; returns -1 or a bad index.

    Action -1 leaves its game untouched (its reward is 0 and it is not done), so callers can
    step only the games where a given agent is to act. Any other action outside the mask
    (out of range included) is refused before any game moves.
    """
    for i in range(states.shape[0]):
        a = actions[i]
        if a < -1 or a >= masks.shape[1] or (a >= 0 and masks[i, a] == 0):
            return i
    row_bytes = states.shape[1] * states.itemsize + obs.shape[1] * obs.itemsize
    prefetching = row_bytes >= PREFETCH_MIN_BYTES
    for i in nb.prange(states.shape[0]):
        if prefetching and i + PREFETCH_AHEAD < states.shape[0]:
            prefetch_rows(states, obs, i + PREFETCH_AHEAD)
        state = states[i]
        buffer = game_buffer(events, i)
        if actions[i] == -1:
            rewards[i] = 0.0
            done[i] = False
            truncated[i] = False
            continue
        step_logged(state, actions[i], rewards[i], buffer)
        capped = state[HDR_TERMINAL] == 0 and max_steps > 0 and read_step(state) >= max_steps
        truncated[i] = capped or state[HDR_TERMINAL] == TRUNCATED
        done[i] = state[HDR_TERMINAL] != 0 or truncated[i]
        if done[i]:
            # the next game's seed comes from this game's RNG: reproducible per env
            reset_logged(state, derive_seed(rng_get(state), 0), buffer)
        current[i] = state[HDR_CURRENT]
        legal_mask(state, masks[i])
        observe(state, current[i], obs[i])
    return -1


def _global_state_all(states, out):
    """Every game's global state (on request only: the step loops never compute it)."""
    for i in nb.prange(states.shape[0]):
        global_state(states[i], out[i])


def _random_actions(masks, rng_states, actions):
    """Uniform legal action per row; each row has its own splitmix64 RNG state."""
    for i in nb.prange(masks.shape[0]):
        rng_states[i], bits = splitmix_next(rng_states[i])
        actions[i] = choose_legal(masks[i], bits)


random_actions = nb.njit(cache=True, parallel=True)(_random_actions)
random_actions_serial = nb.njit(cache=True)(_random_actions)


def source_digest(*modules) -> str:
    """Short hash of modules' sources: part of the cache name of code that inlines them.

    A kernel module split by concern lists the other modules its kernels call in
    ``KERNEL_MODULES``; their sources are hashed too, so editing any of them recompiles.
    """
    expanded = [m for module in modules for m in (module, *getattr(module, "KERNEL_MODULES", ()))]
    sources = "".join(inspect.getsource(module) for module in expanded)
    return hashlib.sha1(sources.encode()).hexdigest()[:10]


def bind_kernels(template, namespace: dict, qualname: str, parallel: bool = False):
    """A disk-cached njit copy of ``template`` whose global names resolve in ``namespace``.

    ``qualname`` names the copy in numba's cache; make it unique per game (and per version
    of the kernels it calls, see :func:`source_digest`).
    """
    fn = types.FunctionType(template.__code__, namespace, template.__name__)
    fn.__qualname__ = qualname
    fn.__module__ = template.__module__
    return nb.njit(cache=True, parallel=parallel)(fn)


def plain_kernels(kernel: types.ModuleType) -> tuple:
    """``reset(state, seed)`` and ``step(state, action, rewards)`` for a kernel module: its
    ``reset_logged`` and ``step_logged`` without events, compiled and cached per game.

    A kernel module binds them once its ``*_logged`` kernels are defined:
    ``reset, step = plain_kernels(sys.modules[__name__])``.
    """
    namespace = dict(
        _reset.__globals__, reset_logged=kernel.reset_logged, step_logged=kernel.step_logged
    )
    digest = source_digest(kernel, core_header, core_rng)
    game_name = kernel.__name__.rsplit(".", 2)[-2]
    return tuple(
        bind_kernels(template, namespace, f"{template.__name__.lstrip('_')}_{game_name}_{digest}")
        for template in (_reset, _step)
    )


def specialise(game) -> types.SimpleNamespace:
    """Compiled (cached) batched ``reset_all``, ``step_all`` and ``global_state_all`` for
    ``game``.

    Each comes twice: multi-threaded, and ``*_serial`` for small batches, where waking
    threads costs more than the work (each variant compiles on first use only).
    """
    kernels = {
        "reset_logged": game.kernel.reset_logged,
        "legal_mask": game.kernel.legal_mask,
        "step_logged": game.kernel.step_logged,
        "observe": game.kernel.observe,
        "global_state": game.kernel.global_state,
    }
    # A kernel (or header, RNG) edit must invalidate the cache of the batched copy.
    digest = source_digest(game.kernel, core_header, core_rng, core_prefetch)
    out = {}
    for template in (_reset_all, _step_all, _global_state_all):
        namespace = dict(template.__globals__, **kernels)
        for parallel, suffix in ((True, ""), (False, "_serial")):
            qualname = f"{template.__name__}{suffix}_{game.name}_{digest}"
            name = template.__name__.lstrip("_") + suffix
            out[name] = bind_kernels(template, namespace, qualname, parallel)
    return types.SimpleNamespace(**out)
