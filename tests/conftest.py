"""Suite-wide pytest hooks."""

from __future__ import annotations

import pytest

# Longest first: a test id naming one game belongs to that game's group.
GAMES = ("res_arcana", "president", "presages", "aciliande")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's hook reads the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group each test by the game its id names. Under ``-n 2 --dist loadgroup`` (``make
    test``) a game's tests then run on one worker, so its numba kernels are compiled once,
    not once per worker: on a cold cache compiling is most of the suite's time."""
    for item in items:
        path_and_params = item.nodeid.replace("presages_env", "")
        game = next((g for g in GAMES if g in path_and_params), None)
        if game is not None:
            item.add_marker(pytest.mark.xdist_group(game))
    # xdist hands out the games' groups first, then single tests in this order: a long one
    # handed out last keeps one worker busy while the other waits.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


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
