"""Load on the lab's server: N simulated people (WebSocket clients playing random legal
moves after a think time) at tables of Président against fast agents, for T seconds.

Prints moves/s served, the p50, p99 and max latency from a person's move to the next view
they get (also for the moves sent in the 10 s after a restart), the connections that failed
by cause (refused with a status or close code, server down, timed out, cut), and the
acknowledged moves missing from the database (must be 0). A person retries a failed
connection after the server's ``Retry-After`` (or half a second). With ``--kill-at S`` the
server is killed (SIGKILL) S seconds in and started again on the same database: the people
reconnect with their links and every table resumes. The server's log is kept in the run's
folder; its errors are counted and, if any, its tail is printed.

    python benchmarks/lab_load.py --people 200 --seconds 60 --kill-at 30
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets

from presages_env.lab.store import Store

GAME = "president"
PEOPLE_PER_TABLE = 2  # the other two seats are random agents (fast)
MANCHES = 50  # long games: tables keep playing for the whole run
ADMIN_TOKEN = "lab-load"  # the server's, given on its command line
RETRY_SECONDS = 0.5  # before a person reconnects, unless the server says how long
RESUME_SECONDS = 10  # after a restart, while the tables are loaded again
LOG_TAIL = 40  # lines of the server's log printed when it logged errors


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, db: str, durability: str, log: Path) -> subprocess.Popen:
    """The server on ``port``, its output appended to ``log``, once it answers."""
    command = [sys.executable, "-m", "presages_env", "serve", "--port", str(port), "--db", db]
    command += ["--durability", durability, "--admin-token", ADMIN_TOKEN]
    with log.open("ab") as out:
        environment = {**os.environ, "PYTHONUNBUFFERED": "1"}  # its lines in order
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=environment)
    for _ in range(600):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return server
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the lab server did not start")


def open_tables(port: int, tables: int) -> list[str]:
    links = []
    seats = ["human"] * PEOPLE_PER_TABLE + ["random"] * (4 - PEOPLE_PER_TABLE)
    for _ in range(tables):
        body = {"game": GAME, "players": 4, "seats": seats, "options": {"num_manches": MANCHES}}
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables",
            data=json.dumps(body).encode(),
            # as the admin: one client opening every table, past the lobby's rate per client
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {ADMIN_TOKEN}"},
        )
        with urllib.request.urlopen(request) as answer:
            links += list(json.loads(answer.read())["links"].values())
    return links


class Person:
    def __init__(self, link: str, think: float, rng: random.Random) -> None:
        self.link, self.think, self.rng = link, think, rng
        self.latencies: list[tuple[float, float]] = []  # (when sent, seconds to the view)
        self.acked: list[int] = []
        self.moves = 0
        self.failures: collections.Counter[str] = collections.Counter()  # by cause

    async def play(self, port: int, until: float) -> None:
        """Play until ``until``, reconnecting whenever the server goes away or refuses."""
        url = f"ws://127.0.0.1:{port}/ws{self.link[2:]}"
        while time.monotonic() < until:
            wait = RETRY_SECONDS
            try:
                async with websockets.connect(url, proxy=None) as ws:
                    await self._session(ws, until)
            except websockets.InvalidStatus as error:
                response = error.response
                self.failures[f"refused: HTTP {response.status_code}"] += 1
                wait = float(response.headers.get("Retry-After", wait))
            except websockets.ConnectionClosed as error:
                self.failures[_closed_cause(error)] += 1
            except ConnectionRefusedError:
                self.failures["server down (connection refused)"] += 1
            except TimeoutError:
                self.failures["timed out (opening handshake)"] += 1
            except (OSError, websockets.InvalidHandshake) as error:
                self.failures[f"failed: {type(error).__name__}"] += 1
            await asyncio.sleep(min(wait, max(0.0, until - time.monotonic())))

    async def _session(self, ws, until: float) -> None:
        sent_at, sent_step = None, -1
        while time.monotonic() < until:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), until - time.monotonic()))
            except TimeoutError:
                return
            if message["type"] in ("refused", "error"):
                self.failures[f"move {message['type']}: {message['reason']}"] += 1
                continue
            if message["type"] == "ack":
                self.acked.append(message["step"])
                continue
            if message["type"] != "state":
                continue
            if sent_at is not None and message["step"] > sent_step:
                self.latencies.append((sent_at, time.perf_counter() - sent_at))
                sent_at = None
            if message["result"] or not message["actions"]:
                continue
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            action = self.rng.choice(message["actions"])["action"]
            move = {"type": "move", "step": message["step"], "action": action, "reaction_ms": 1}
            sent_at, sent_step = time.perf_counter(), message["step"]
            await ws.send(json.dumps(move))
            self.moves += 1


def _closed_cause(error: websockets.ConnectionClosed) -> str:
    """A closed connection's cause: the server's close code and reason, or a cut."""
    if error.rcvd is None:
        return "cut (no close frame: the server went away)"
    if error.rcvd.code == 1000:
        return "closed normally"
    return f"closed {error.rcvd.code} ({error.rcvd.reason})"


async def run(args: argparse.Namespace, port: int, db: str, links: list[str]) -> list[Person]:
    rng = random.Random(args.seed)
    people = [Person(link, args.think, random.Random(rng.random())) for link in links]
    until = time.monotonic() + args.seconds
    tasks = [asyncio.create_task(p.play(port, until)) for p in people]
    if args.kill_at:
        await asyncio.sleep(args.kill_at)
        args.server.send_signal(signal.SIGKILL)
        args.server.wait()
        args.server = await asyncio.to_thread(start_server, port, db, args.durability, args.log)
        args.restarted = time.perf_counter()
    await asyncio.gather(*tasks)
    return people


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds per decision")
    parser.add_argument("--kill-at", type=float, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    parser.add_argument(
        "--durability", choices=("process", "power"), default="process", help="serve's setting"
    )
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="lab-load-")
    db = args.db or f"sqlite:///{Path(folder) / 'lab.db'}"
    port = free_port()
    args.log = Path(folder) / "server.log"
    args.server = start_server(port, db, args.durability, args.log)
    try:
        tables = max(1, args.people // PEOPLE_PER_TABLE)
        links = open_tables(port, tables)[: args.people]
        started = time.monotonic()
        people = asyncio.run(run(args, port, db, links))
        elapsed = time.monotonic() - started
    finally:
        args.server.send_signal(signal.SIGINT)
        args.server.wait()
    store = Store(db)
    stored = {t: {m["step"] for m in store.table(t).moves} for t in store.table_ids()}
    lost = sum(step not in stored[p.link.split("/")[2]] for p in people for step in p.acked)
    samples = [sample for p in people for sample in p.latencies]
    moves = sum(len(s) for s in stored.values())
    cores = os.cpu_count()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{len(people)} people at {len(stored)} tables for {elapsed:.0f} s on {cores} cores")
    print(f"durability {args.durability}; load average (1, 5, 15 min) at the end: {load}")
    print(f"moves stored: {moves} ({moves / elapsed:.0f}/s, people's and agents')")
    print_latencies("move -> next view", [seconds for _, seconds in samples])
    if args.kill_at:
        resumed = args.restarted + RESUME_SECONDS
        after = [seconds for sent, seconds in samples if args.restarted <= sent < resumed]
        print_latencies(f"  of them, sent in the {RESUME_SECONDS} s after the restart", after)
    failures = sum((p.failures for p in people), collections.Counter())
    print(f"connections failed or cut (retried), moves refused, by cause: {failures.total()}")
    for cause, count in failures.most_common():
        print(f"  {count:6d}  {cause}")
    errors = report_server_log(args.log)
    print(f"acknowledged moves missing from the database: {lost}")
    sys.exit(1 if lost or errors else 0)


def print_latencies(what: str, latencies: list[float]) -> None:
    if latencies:
        latencies = sorted(latencies)
        p50 = statistics.median(latencies) * 1000
        p99 = latencies[int(0.99 * (len(latencies) - 1))] * 1000
        print(
            f"{what}: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {latencies[-1] * 1000:.0f} ms "
            f"({len(latencies)} moves)"
        )


def report_server_log(log: Path) -> int:
    """How many lines of the server's log report an error (an ``ERROR`` line or the start of
    a traceback); prints the log's tail if any do."""
    lines = log.read_text(errors="replace").splitlines()
    errors = sum("ERROR" in line or line.startswith("Traceback") for line in lines)
    print(f"server log {log}: {errors} error lines")
    if errors:
        print("\n".join(lines[-LOG_TAIL:]))
    return errors


if __name__ == "__main__":
    main()
