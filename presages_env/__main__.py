"""The command line: play GAME (a game in the terminal against agents), replay RECORD -o
PAGE (a record's replay page), info GAME (its players, sizes and options), scoreboard AGENT
(an agent against the reference agents), arena --agents ... (a round robin of agents),
serve (the human-AI table in a browser, extra lab) and lab (its data)."""

from __future__ import annotations

import argparse
import functools
import os
import signal
import sys
from pathlib import Path
from typing import NoReturn

import presages_env
from presages_env.ui.evaluation_commands import add_commands as add_evaluation_commands
from presages_env.ui.evaluation_commands import run as run_evaluation

INTERRUPTED = "Interrupted; no record saved."
# what Ctrl-C prints for the commands that save no record of a game
INTERRUPTED_WORDS = {
    "serve": "server stopped",
    "lab": "Interrupted.",
    "scoreboard": "Interrupted.",
    "arena": "Interrupted.",
}
INTERRUPTED_STATUS = 130  # 128 + SIGINT, as a shell reports a command Ctrl-C stopped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m presages_env", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a game in the terminal against agents")
    play.add_argument("game", choices=presages_env.list_games())
    play.add_argument("--seat", type=int, default=0, help="your seat (0 plays first seat)")
    play.add_argument(
        "--opponents",
        nargs="+",
        default=["heuristic"],
        help="agents of the other teams' seats (every other seat in a game without teams), "
        "in turn: random[:SEED] heuristic search[:SIMS] ppo[:PATH] dmc[:PATH]",
    )
    play.add_argument(
        "--partner",
        nargs="+",
        default=None,
        help="agents of your partners' seats, in turn, in a game played in teams (the deal "
        "decides the teams in Présages; the agents sit where it put them); default heuristic",
    )
    play.add_argument("--players", type=int, default=None)
    play.add_argument(
        "--seed", type=int, default=None, help="the deal (default: a random one, printed)"
    )
    play.add_argument(
        "--record",
        default=None,
        help="where to save the record (JSON; default runs/GAME-SEED.json)",
    )
    replay = commands.add_parser("replay", help="write a record's replay page (one HTML file)")
    replay.add_argument("record", type=Path)
    replay.add_argument(
        "-o", "--output", type=Path, default=None, help="the page (default runs/RECORD.html)"
    )
    replay.add_argument(
        "--seat", type=int, default=None, help="one seat's view only (default: every view)"
    )
    info = commands.add_parser("info", help="a game's player counts, sizes and options")
    info.add_argument("game", choices=presages_env.list_games())
    serve = commands.add_parser(
        "serve", help="the human-AI table in a browser (extra lab; docs/lab.md)"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--db",
        default=None,
        help="database URL, or PRESAGES_LAB_DB (default: SQLite under runs/; postgresql://...)",
    )
    serve.add_argument(
        "--admin-token",
        default=None,
        help="or PRESAGES_LAB_ADMIN_TOKEN (kept out of ps); default: a fresh one, printed",
    )
    serve.add_argument("--idle-seconds", type=int, default=120, help="a person's time per move")
    serve.add_argument(
        "--durability",
        choices=("process", "power"),
        default="process",
        help="what an acknowledged move survives on SQLite (docs/lab.md)",
    )
    serve.add_argument(
        "--lobby",
        choices=("admin", "open"),
        default=None,
        help="who may open a table: admin (the admin token) or open (anyone; rate-limited); "
        "default: open on a loopback address, admin on any other",
    )
    serve.add_argument(
        "--allowed-hosts",
        default=None,
        help="comma-separated names the server answers to (*.domain for subdomains), besides "
        "the bound address and localhost: what browsers reach it by (docs/lab.md)",
    )
    serve.add_argument(
        "--tables-per-minute",
        type=int,
        default=None,
        help="new tables (a study's enrolments included) one client may open at once and "
        "then each minute (default 10)",
    )
    serve.add_argument(
        "--max-open-tables",
        type=int,
        default=None,
        help="unfinished tables at which the lobby refuses more (default 500)",
    )
    lab = commands.add_parser("lab", help="the lab's data (extra lab; docs/lab.md)")
    lab_commands = lab.add_subparsers(dest="lab_command", required=True)
    export = lab_commands.add_parser(
        "export", help="finished tables as records, and every decision (CSV, Parquet)"
    )
    export.add_argument("--db", default=None, help="database URL (default: runs/lab.sqlite3)")
    export.add_argument("--out", type=Path, required=True, help="the folder to write")
    migrate = lab_commands.add_parser("migrate", help="create or upgrade the lab's schema")
    migrate.add_argument("--db", default=None, help="database URL (default: runs/lab.sqlite3)")
    client = lab_commands.add_parser(
        "client", help="play a lab seat from elsewhere with an agent (docs/agents_anywhere.md)"
    )
    client.add_argument("link", help="the seat's link, http(s)://HOST/t/TABLE/TOKEN")
    client.add_argument("--agent", default="heuristic", help="an agent spec (default heuristic)")
    client.add_argument("--seed", type=int, default=0, help="the agent's seed")
    client.add_argument("--retries", type=int, default=5, help="failed connections in a row")
    proxy = lab_commands.add_parser(
        "proxy", help="clone exported human decisions into a PPO checkpoint (extras lab, train)"
    )
    proxy.add_argument("exported", type=Path, help="a folder lab export wrote")
    proxy.add_argument("--game", required=True, choices=presages_env.list_games())
    proxy.add_argument("--players", type=int, required=True)
    proxy.add_argument("--out", type=Path, required=True, help="the checkpoint (.pt) to write")
    proxy.add_argument("--init", default=None, help="checkpoint to start from (default: shipped)")
    proxy.add_argument("--epochs", type=int, default=20)
    proxy.add_argument("--seed", type=int, default=0)
    add_evaluation_commands(commands)
    args = parser.parse_args(argv)

    if args.command in INTERRUPTED_WORDS and signal.getsignal(signal.SIGINT) is exit_on_interrupt:
        words = INTERRUPTED_WORDS[args.command]
        signal.signal(signal.SIGINT, functools.partial(exit_on_interrupt, words=words))
    if args.command in ("serve", "lab"):
        try:
            from presages_env.lab.cli import run as run_lab
        except ImportError as error:
            parser.exit(2, f"{parser.prog}: error: {error}; pip install -e '.[lab]'\n")
        return run_lab(args)
    if args.command in ("scoreboard", "arena"):
        try:
            return run_evaluation(args)
        except (ValueError, TypeError, OSError, ImportError) as error:
            parser.exit(2, f"{parser.prog} {args.command}: error: {one_line(error)}\n")
    if args.command == "info":
        from presages_env.ui.game_info import game_info

        try:
            print(game_info(args.game))
        except ValueError as error:  # a plug-in game whose package does not load
            info.exit(2, f"{info.prog}: error: {one_line(error)}\n")
        return 0
    if args.command == "play":
        from presages_env.core.compiling import announce_compiling
        from presages_env.ui.terminal import play as play_game

        announce_compiling([presages_env.get_game(args.game)])
        try:
            play_game(
                args.game,
                args.seat,
                args.opponents,
                args.players,
                args.seed,
                args.record,
                partners=args.partner,
            )
        except KeyboardInterrupt:  # main() called from Python, without exit_on_interrupt
            print(INTERRUPTED, file=sys.stderr)
            return INTERRUPTED_STATUS
        except (ValueError, TypeError, OSError, ImportError) as error:
            play.exit(2, f"{play.prog}: error: {one_line(error)}\n")  # argparse's status
        return 0
    from presages_env import records
    from presages_env.core.files import in_runs
    from presages_env.ui.replay_page import write_replay_page

    try:
        rec = records.load(args.record)
        output = args.output or in_runs(f"{args.record.stem}.html")
        write_replay_page(rec, output, args.seat)
    except (OSError, ValueError, TypeError) as error:
        print(f"cannot replay {args.record}: {error}", file=sys.stderr)
        return 1
    left = "" if rec.finished else f" (unfinished: left after {len(rec.actions)} moves)"
    print(f"wrote {output}{left}")
    return 0


def one_line(error: Exception) -> str:
    """An error as one line: a missing file as ``path: reason``, not ``[Errno 2] ...``."""
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.filename}: {error.strerror}"
    return " ".join(str(error).split())


def exit_on_interrupt(signum: int, frame: object, words: str = INTERRUPTED) -> NoReturn:
    """Ctrl-C at any moment, start-up included: one line (``words``: the command's own, as
    ``serve``'s "server stopped" once uvicorn has shut down) and the shell's status, no traceback.
    It exits here instead of raising ``KeyboardInterrupt``: raised inside an import, C code
    can turn that into another error (numpy: "PyCapsule_Import could not import")."""
    os.write(sys.stderr.fileno(), f"\n{words}\n".encode())
    os._exit(INTERRUPTED_STATUS)  # the record: whole or absent (one rename), a stray .tmp at worst


if __name__ == "__main__":
    # `python -m` runs this after the package's __init__, which imports nothing heavy
    signal.signal(signal.SIGINT, exit_on_interrupt)
    sys.exit(main())
