"""Fixtures of the lab's tests: a database of each kind (a SQLite file, and a throwaway
PostgreSQL cluster started here, or the server ``PRESAGES_LAB_PG_URL`` names) and a store
migrated on it. Without the ``lab`` extra or a PostgreSQL the tests skip with the reason;
where ``PRESAGES_REQUIRE_EXTRAS`` requires them, they fail (tests/extras.py)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import extras
import pytest

extras.require("lab")

from presages_env.lab.store import Store  # noqa: E402

PG_URL_VARIABLE = "PRESAGES_LAB_PG_URL"
PG_USER = "postgres"  # as root, the cluster runs as this system user (initdb refuses root)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server's URL (its ``postgres`` database): ``PRESAGES_LAB_PG_URL``, or a
    cluster made in a temporary folder on a free port, stopped and removed afterwards."""
    given = os.environ.get(PG_URL_VARIABLE)
    if given:
        yield given
        return
    extras.require("postgresql")
    folder = Path(tempfile.mkdtemp(prefix="presages-lab-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            pytest.fail("running as root, the test cluster needs runuser to drop to postgres")
        as_user = ["runuser", "-u", PG_USER, "--"]
        shutil.chown(folder, PG_USER)
    data, port = folder / "data", free_port()
    bin_dir = Path(extras.postgres_bin())

    def run(*command: str) -> None:
        subprocess.run([*as_user, *command], check=True, capture_output=True, timeout=120)

    run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    run(
        str(bin_dir / "pg_ctl"),
        "-D",
        str(data),
        "-o",
        options,
        "-w",
        "-l",
        str(folder / "log"),
        "start",
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the PostgreSQL server, dropped afterwards."""
    import psycopg

    name = f"lab_test_{uuid.uuid4().hex[:12]}"
    plain = postgres_server.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    yield plain.rsplit("/", 1)[0] + f"/{name}"
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """One database of each kind the lab supports, empty."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lab.sqlite3'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    store = Store(db_url)
    store.migrate()
    yield store
    store.close()
