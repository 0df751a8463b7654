"""The lab served for real on loopback, for the ``lab`` fuzz (:mod:`.lab`): uvicorn in a
thread on 127.0.0.1 (a port the system picks), SQLite in a temporary folder, every error the
server logs kept, and a client that writes raw HTTP bytes (so a hostile request line, Host
or path reaches the server as written) and opens WebSockets."""

from __future__ import annotations

import dataclasses
import logging
import socket
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import presages_env

ADMIN_TOKEN = "fuzz-admin"
ANSWER_SECONDS = 10.0  # an answer later than this is a server that stopped answering


@dataclasses.dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


class ErrorLog(logging.Handler):
    """Every record at ERROR or above the server logs (an exception in the app among them)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.errors: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.errors.append(f"{record.name}: {record.getMessage()}"[:300])


def server_paths(*more: str) -> list[str]:
    """Where the server is installed and runs (the package's folder's parent, the Python
    prefix, the working folder) and ``more``: no answer may name one."""
    package_parent = str(Path(presages_env.__file__).resolve().parents[1])
    paths = {package_parent, sys.prefix, str(Path.cwd()), *more}
    return sorted(p for p in paths if len(p) > 1)  # "/" is in every path and every URL


class LoopbackLab:
    """``with LoopbackLab(**settings) as lab``: the lab (its ``LabConfig`` given ``settings``
    besides the database and admin token) answering on ``lab.port`` until the block ends."""

    def __init__(self, **settings: Any) -> None:
        self.settings = settings
        self.errors = ErrorLog()
        self.folder = tempfile.TemporaryDirectory(prefix="lab-fuzz-")
        self.port = 0
        self.last_request = ""  # for a failure's report

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> LoopbackLab:
        import uvicorn

        from presages_env.lab.app import LabConfig, create_app
        from presages_env.lab.server import WS_MAX_SIZE

        url = f"sqlite:///{Path(self.folder.name) / 'lab.sqlite3'}"
        app = create_app(LabConfig(db_url=url, admin_token=ADMIN_TOKEN, **self.settings))
        listening = socket.socket()
        listening.bind(("127.0.0.1", 0))
        self.port = listening.getsockname()[1]
        config = uvicorn.Config(
            app, log_config=None, log_level="error", access_log=False, ws_max_size=WS_MAX_SIZE
        )
        self.server = uvicorn.Server(config)
        logging.getLogger().addHandler(self.errors)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [listening]}, daemon=True
        )
        self.thread.start()
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the lab did not start on loopback")
            self.thread.join(0.01)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.server.should_exit = True
        self.thread.join(30)
        logging.getLogger().removeHandler(self.errors)
        self.folder.cleanup()

    def request(
        self,
        method: str,
        target: bytes,
        body: bytes = b"",
        headers: dict[str, str] | None = None,
        seconds: float = ANSWER_SECONDS,
    ) -> Answer:
        """One request written as raw bytes on a connection of its own; ``TimeoutError`` if
        the answer takes longer than ``seconds``."""
        shown = {name: value[:40] for name, value in (headers or {}).items()}
        self.last_request = f"{method} {target[:100]!r} {shown} {body[:100]!r}"
        head = {"host": self.host, "connection": "close", "content-type": "application/json"}
        head |= {"content-length": str(len(body))} if body or method == "POST" else {}
        head |= headers or {}
        lines = [method.encode() + b" " + target + b" HTTP/1.1"]
        lines += [
            f"{name}: {value}".encode("utf-8", "surrogateescape") for name, value in head.items()
        ]
        with socket.create_connection(("127.0.0.1", self.port), seconds) as wire:
            wire.sendall(b"\r\n".join(lines) + b"\r\n\r\n" + body)
            received = b"".join(iter(lambda: wire.recv(65536), b""))
        return parse_answer(received)

    def websocket(self, path: str, origin: str | None = None):
        """A WebSocket to ``path`` (``websockets``' synchronous client); its handshake's
        refusal raises ``websockets.exceptions.InvalidStatus``."""
        from websockets.sync.client import connect

        self.last_request = f"WebSocket {path[:100]!r} origin {origin!r}"
        return connect(
            f"ws://{self.host}{path}",
            origin=origin,
            open_timeout=ANSWER_SECONDS,
            close_timeout=1,
            max_size=None,
        )


def parse_answer(received: bytes) -> Answer:
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        raise ValueError(f"not an HTTP answer: {received[:80]!r}")
    fields = (line.split(": ", 1) for line in lines[1:] if ": " in line)
    headers = {name.lower(): value for name, value in fields}
    return Answer(int(parts[1]), headers, body)
