"""Suite-wide pytest hooks."""

from __future__ import annotations

import pytest

# Longest first: a test id naming one game belongs to that game's group.
GAMES = ("res_arcana", "president", "presages", "aciliande")
# Measured on a cold cache (a fresh clone): Présages about 510 s of one worker, Res Arcana
# 500, Président 250, Aciliande 230.
GROUPS_COSTLIEST_FIRST = ("presages", "res_arcana", "president", "aciliande")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's hook reads the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group each test by the game its id names. Under ``-n 2 --dist loadgroup`` (``make
    test``) a game's tests then run on one worker, so its numba kernels are compiled once,
    not once per worker: on a cold cache compiling is most of the suite's time."""
    games = {}
    for item in items:
        path_and_params = item.nodeid.replace("presages_env", "")
        games[item] = next((g for g in GAMES if g in path_and_params), None)
        if games[item] is not None:
            item.add_marker(pytest.mark.xdist_group(games[item]))
    items.sort(key=lambda item: dispatch_rank(item, games[item]))


def dispatch_rank(item: pytest.Item, game: str | None) -> int:
    """The order ``make test`` hands tests to its workers (``--no-loadscope-reorder``): the
    long single tests first, while both workers are free (a worker takes a unit whenever it
    has two tests left, so long ones handed out last pile up on one), then the games from the
    costliest (compiling included), then the quick single tests that even out the end."""
    if game is not None:
        return 1 + GROUPS_COSTLIEST_FIRST.index(game)
    return 0 if item.get_closest_marker("slow") else 1 + len(GROUPS_COSTLIEST_FIRST)


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
