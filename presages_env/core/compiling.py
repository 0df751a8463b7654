"""Whether a game's kernels still have to be compiled, and the one line that says so.

numba compiles a game's kernels on their first call and keeps the machine code in its disk
cache (``cache=True``: ``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``), where
later processes load it in a second or two. A first run on a machine compiles for a minute
or more with nothing on screen; wherever that happens in front of a person (the demo, the
trainers, ``play``, ``serve``, ``info``), :func:`announce_compiling` first prints why, and
only then: the cache's folder is looked at for the index files of the game's kernels,
nothing is compiled or loaded to find out.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from presages_env.core.game import Game

NOTICE = "compiling the game's kernels, first run only (about {seconds} s)"
NOTICE_GAMES = "compiling the kernels of {titles}, first run only (about {seconds} s)"


def kernels_cached(game: Game) -> bool:
    """Whether ``game``'s kernels are compiled in this process or in numba's disk cache
    (an index file of its kernel module there: any way of playing compiles some). True
    where numba keeps no disk cache for them: then there is no first run to announce."""
    kernels = [getattr(game.kernel, name) for name in ("reset_logged", "legal_mask", "observe")]
    if any(getattr(kernel, "signatures", None) for kernel in kernels):  # this process's
        return True
    try:
        folder = Path(kernels[0]._cache._cache_path)
        module = Path(kernels[0].py_func.__code__.co_filename).stem
    except AttributeError:  # not a caching numba dispatcher
        return True
    return any(folder.glob(f"{module}.*.nbi"))


def compiling_notice(games: Iterable[Game]) -> str | None:
    """The line that says the kernels of ``games`` not cached yet are about to compile,
    and about how long that takes (the games' declared ``compile_seconds``); None when
    every one is cached."""
    cold = [game for game in games if not kernels_cached(game)]
    if not cold:
        return None
    seconds = sum(game.compile_seconds for game in cold)
    if len(cold) == 1:
        return NOTICE.format(seconds=seconds)
    return NOTICE_GAMES.format(titles=", ".join(game.title for game in cold), seconds=seconds)


def announce_compiling(games: Iterable[Game]) -> bool:
    """Print :func:`compiling_notice` where there is one (flushed: what follows is a
    long silence); returns whether it printed."""
    notice = compiling_notice(games)
    if notice is not None:
        print(notice, flush=True)
    return notice is not None
