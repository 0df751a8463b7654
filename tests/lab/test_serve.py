"""``python -m presages_env serve``: its settings (the lobby, its bound, the allowed hosts)
and, as a process, how it stops."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import extras
from conftest import free_port

extras.require("lab")

from presages_env.__main__ import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_ctrl_c_stops_the_server_in_its_own_words(tmp_path):
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    command = [sys.executable, "-m", "presages_env", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp_path / 'lab.db'}", "--admin-token", "sesame"]
    server = subprocess.Popen(
        command, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        deadline = time.monotonic() + 300
        while not listening(port):
            assert server.poll() is None and time.monotonic() < deadline, server.stdout.read()
            time.sleep(0.1)
        server.send_signal(signal.SIGINT)
        output, _ = server.communicate(timeout=60)
    finally:
        server.kill()
    assert "Traceback" not in output and "no record saved" not in output, output
    assert output.strip().splitlines()[-1] == "server stopped"
    assert server.returncode == 130  # 128 + SIGINT, as play reports it


def served_configs(monkeypatch) -> list:
    """The configs ``serve`` would run the lab with (uvicorn is not started)."""
    import uvicorn

    served: list = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **settings: served.append(app.state.lab.config))
    return served


def test_serve_has_an_admin_only_lobby_off_loopback_and_its_limits_of_tables(
    tmp_path, monkeypatch, capsys
):
    served = served_configs(monkeypatch)
    given = ["--db", f"sqlite:///{tmp_path / 'lab.db'}", "--admin-token", "sesame"]
    for flags in (
        [],
        ["--host", "0.0.0.0"],
        ["--host", "0.0.0.0", "--lobby", "open"],
        ["--host", "::1", "--lobby", "admin", "--max-open-tables", "7"],
        ["--tables-per-minute", "30"],
    ):
        assert main(["serve", *flags, *given]) == 0, capsys.readouterr().err
    assert [c.lobby_admin_only for c in served] == [False, True, False, True, False]
    assert [c.max_open_tables for c in served] == [500, 500, 500, 7, 500]
    assert [(c.table_burst, c.tables_per_minute) for c in served[3:]] == [(10, 10), (30, 30)]
    for flag, words in (
        ("--max-open-tables", "max open tables"),
        ("--tables-per-minute", "tables per minute"),
    ):
        assert main(["serve", flag, "0", *given]) == 1
        assert words in capsys.readouterr().err


def test_serve_allows_the_bound_address_the_loopback_names_and_the_hosts_given(
    tmp_path, monkeypatch, capsys
):
    served = served_configs(monkeypatch)
    given = ["--db", f"sqlite:///{tmp_path / 'lab.db'}", "--admin-token", "sesame"]
    loopback = {"localhost", "127.0.0.1", "[::1]"}
    assert main(["serve", *given]) == 0
    assert main(["serve", "--host", "192.0.2.7", *given]) == 0
    assert main(["serve", "--host", "0.0.0.0", *given]) == 0  # every address: none named
    flags = ["--allowed-hosts", "Lab.Example.org:443,*.example.net,::1,2001:db8::1"]
    assert main(["serve", "--host", "::", *flags, *given]) == 0
    assert [set(c.allowed_hosts) for c in served] == [
        loopback,
        loopback | {"192.0.2.7"},
        loopback,
        loopback | {"lab.example.org", "*.example.net", "[2001:db8::1]"},
    ]
    for bad in ("a*.example.org", "exa mple.org", "http://example.org", "a.org,,b.org"):
        assert main(["serve", "--allowed-hosts", bad, *given]) == 1, bad
        assert "allowed host" in capsys.readouterr().err
