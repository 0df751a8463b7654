"""Suite-wide pytest hooks."""

from __future__ import annotations

import pytest

from presages_env.games import GAME_CLASSES

# The registered games, costliest to test first (the registry's order; docs/architecture.md
# says why the order matters).
GROUPS_COSTLIEST_FIRST = tuple(GAME_CLASSES)
# Longest first: a test id naming one game belongs to that game's group.
GAMES = tuple(sorted(GROUPS_COSTLIEST_FIRST, key=len, reverse=True))


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's hook reads the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group each test by the game its id names, or by the game of its ``slow`` mark (a
    script or notebook playing one game). Under ``-n 2 --dist loadgroup`` (``make test``) a
    game's tests then run on one worker, so its numba kernels are compiled once, not once per
    worker: on a cold cache compiling is most of the suite's time."""
    games = {item: game_of(item) for item in items}
    for item, game in games.items():
        if game is not None:
            item.add_marker(pytest.mark.xdist_group(game))
    items.sort(key=lambda item: dispatch_rank(item, games[item]))


def game_of(item: pytest.Item) -> str | None:
    slow = item.get_closest_marker("slow")
    if slow is not None and slow.args:
        return slow.args[0]
    path_and_params = item.nodeid.replace("presages_env", "")
    return next((g for g in GAMES if g in path_and_params), None)


def dispatch_rank(item: pytest.Item, game: str | None) -> tuple[int, bool]:
    """The order ``make test`` hands tests to its workers (``--no-loadscope-reorder``): the
    games from the costliest (the two largest start together), then the single tests, the
    quick ones last to even out the end (a worker takes the next unit whenever it has two
    tests left, so long ones handed out last pile up on one). Slow tests come last in their
    group: their subprocesses then load the kernels the group compiled instead of compiling
    them again, several at once."""
    slow = item.get_closest_marker("slow") is not None
    if game is not None:
        return 1 + GROUPS_COSTLIEST_FIRST.index(game), slow
    return 1 + len(GROUPS_COSTLIEST_FIRST), not slow


def pytest_collection_finish(session: pytest.Session) -> None:
    """On an xdist worker under ``--dist loadgroup``, stop if the groups did not reach the
    scheduler (a grouped test's node id carries ``@group``): the suite would still pass,
    compiling every game's kernels on both workers."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    lost = [
        i.nodeid
        for i in session.items
        if i.get_closest_marker("xdist_group") and "@" not in i.nodeid
    ]
    if lost:
        raise pytest.UsageError(
            f"--dist loadgroup lost the test groups ({lost[0]} has no @group): this "
            "pytest/pytest-xdist pair does not group; see constraints.txt"
        )
