"""Every loader reads regular files only: a named pipe (whose opening waited for a writer
for ever), a symbolic link to ``/dev/zero`` (which the checkpoint's archive check read
without end), a Unix socket or a folder where a file is expected is refused at once with a
``ValueError`` naming the path (issue 49). Each load runs in a thread, so that a loader that
blocks fails the test instead of hanging it (a guard, not a speed check)."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import extras
import pytest

from presages_env import records
from presages_env.core.files import read_json, read_regular

SPECIALS = ("fifo", "dev_zero", "socket", "folder")
HANG_GUARD_S = 120  # a blocked loader never returns; a refusal takes well under a second


@contextlib.contextmanager
def special_file(kind: str, path: Path) -> Iterator[Path]:
    """``path`` made a file of ``kind``, for as long as the context lasts."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    with contextlib.ExitStack() as stack:
        if kind == "socket":
            listening = stack.enter_context(socket.socket(socket.AF_UNIX))
            listening.bind(str(path))
        yield path


def refused_at_once(load: Callable[[Path], object], path: Path) -> str:
    """``load(path)``'s refusal: a ``ValueError`` naming ``path`` as not a regular file."""
    outcome: dict[str, BaseException | None] = {}

    def attempt() -> None:
        try:
            load(path)
            outcome["error"] = None
        except BaseException as error:  # whatever it is, the test reports it
            outcome["error"] = error

    thread = threading.Thread(target=attempt, daemon=True)  # a blocked one dies with pytest
    thread.start()
    thread.join(HANG_GUARD_S)
    assert not thread.is_alive(), f"the loader blocked on {path}"
    error = outcome["error"]
    assert isinstance(error, ValueError), f"{path}: {error!r}"
    assert str(path) in str(error) and "not a regular file" in str(error), str(error)
    return str(error)


@pytest.mark.parametrize("kind", SPECIALS)
def test_the_checked_readers_refuse_what_is_not_a_regular_file(kind, tmp_path):
    with special_file(kind, tmp_path / "data.json") as path:
        refused_at_once(lambda p: read_regular(p, "the data", 1000), path)
        refused_at_once(lambda p: read_json(p, "the data", 1000, 4), path)


@pytest.mark.parametrize("kind", SPECIALS)
def test_a_record_that_is_not_a_regular_file_is_refused_at_once(kind, tmp_path):
    with special_file(kind, tmp_path / "game.json") as path:
        message = refused_at_once(records.load, path)
    assert message.startswith("the record ")


def test_a_file_larger_than_allowed_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2000)
    with pytest.raises(ValueError, match="2,000 bytes, more than the 1,000 allowed"):
        read_json(path, "the data", 1000, 4)


def test_a_missing_file_is_still_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        records.load(tmp_path / "absent.json")


@pytest.mark.parametrize("kind", ("fifo", "dev_zero", "socket"))
@pytest.mark.parametrize("spec", ("ppo", "dmc"))
def test_a_checkpoint_that_is_not_a_regular_file_is_refused_at_once(spec, kind, tmp_path):
    """``dmc:PATH`` and ``ppo:PATH`` (a folder is ``dmc``'s ensemble: below)."""
    extras.require("train")
    from presages_env.agents.specs import make_agent

    with special_file(kind, tmp_path / "policy.pt") as path:
        refused_at_once(lambda p: make_agent(f"{spec}:{p}", "presages"), path)


@pytest.mark.parametrize("kind", SPECIALS)
def test_an_ensemble_member_that_is_not_a_regular_file_is_refused_at_once(kind, tmp_path):
    extras.require("train")
    from presages_env.agents.specs import make_agent

    with special_file(kind, tmp_path / "member.pt") as path:
        refused_at_once(lambda p: make_agent(f"dmc:{p.parent}", "presages"), path)


@pytest.mark.parametrize("kind", SPECIALS)
def test_a_trusted_zip_that_is_not_a_regular_file_is_refused_at_once(kind, tmp_path):
    extras.require("train")
    from presages_env.agents.ppo import PPOAgent

    with special_file(kind, tmp_path / "model.zip") as path:
        refused_at_once(lambda p: PPOAgent.load(p, trusted=True), path)


@pytest.mark.parametrize("kind", SPECIALS)
def test_exported_decisions_that_are_not_a_regular_file_are_refused_at_once(kind, tmp_path):
    extras.require("lab")
    from presages_env.lab.proxy import human_decisions

    with special_file(kind, tmp_path / "decisions.parquet") as path:
        refused_at_once(lambda p: human_decisions(p.parent, "president", 4), path)
