"""``python -m presages_env play <game>`` (terminal play), ``replay <record> -o <page>`` and
``info <game>`` (players, sizes and options)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import NoReturn

import presages_env

INTERRUPTED = "Interrupted; no record saved."
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
        help="agents of the other seats, in turn: random[:SEED] heuristic search[:SIMS] "
        "ppo[:PATH] dmc:PATH",
    )
    play.add_argument("--players", type=int, default=None)
    play.add_argument("--seed", type=int, default=0)
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
    args = parser.parse_args(argv)

    if args.command == "info":
        from presages_env.ui.game_info import game_info

        print(game_info(args.game))
        return 0
    if args.command == "play":
        from presages_env.ui.terminal import play as play_game

        try:
            play_game(args.game, args.seat, args.opponents, args.players, args.seed, args.record)
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
    print(f"wrote {output}")
    return 0


def one_line(error: Exception) -> str:
    """An error as one line: a missing file as ``path: reason``, not ``[Errno 2] ...``."""
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.filename}: {error.strerror}"
    return " ".join(str(error).split())


def exit_on_interrupt(signum: int, frame: object) -> NoReturn:
    """Ctrl-C at any moment, start-up included: one line and the shell's status, no traceback.
    It exits here instead of raising ``KeyboardInterrupt``: raised inside an import, C code
    can turn that into another error (numpy: "PyCapsule_Import could not import")."""
    os.write(sys.stderr.fileno(), f"\n{INTERRUPTED}\n".encode())
    os._exit(INTERRUPTED_STATUS)  # the record: whole or absent (one rename), a stray .tmp at worst


if __name__ == "__main__":
    # `python -m` runs this after the package's __init__, which imports nothing heavy
    signal.signal(signal.SIGINT, exit_on_interrupt)
    sys.exit(main())
