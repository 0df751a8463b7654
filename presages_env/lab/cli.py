"""The lab's commands (``python -m presages_env serve``, ``lab migrate``, ``lab export``,
``lab proxy``, ``lab client``),
loaded by ``__main__`` only when one is asked for: an ImportError here means the ``lab``
extra is missing."""

from __future__ import annotations

import argparse
import os
import sys

from presages_env.lab.export import export
from presages_env.lab.server import serve
from presages_env.lab.store import Store

# where ``serve`` also reads its database URL and admin token (kept out of ``ps``)
DB_VARIABLE, ADMIN_TOKEN_VARIABLE = "PRESAGES_LAB_DB", "PRESAGES_LAB_ADMIN_TOKEN"


def run(args: argparse.Namespace) -> int:
    """Run the command; a refusal (a bad URL or setting, an unwritable folder) is one line
    on stderr and status 1."""
    try:
        if args.command == "serve":
            serve(
                args.host,
                args.port,
                args.db or os.environ.get(DB_VARIABLE),
                args.admin_token or os.environ.get(ADMIN_TOKEN_VARIABLE),
                args.idle_seconds,
                args.durability,
                lobby=args.lobby,
                max_open_tables=args.max_open_tables,
                tables_per_minute=args.tables_per_minute,
                allowed_hosts=args.allowed_hosts.split(",") if args.allowed_hosts else (),
            )
        elif args.lab_command == "migrate":
            Store(args.db).migrate()
            print("the lab's schema is up to date")
        elif args.lab_command == "client":
            play_seat(args.link, args.agent, args.seed, args.retries)
        elif args.lab_command == "proxy":
            from presages_env.lab.proxy import train_proxy

            fit = train_proxy(
                args.exported, args.game, args.players, args.out, args.init, args.epochs, args.seed
            )
            print(
                f"human proxy: {fit['decisions']} decisions, agreement {fit['agreement']:.1%}; "
                f"saved {args.out} (agent spec ppo:{args.out})"
            )
        else:
            done = export(args.db, args.out)
            print(
                f"wrote {done.games} records, {done.decisions} decisions and {done.answers} "
                f"answers under {args.out}; skipped {len(done.skipped)} tables (skipped.csv)"
            )
            for table, reason in done.skipped:
                print(f"  skipped table {table}: {reason}")
    except (OSError, ValueError, TypeError, ImportError) as error:  # ImportError: torch
        # (OSError: a client's seat closed for good, SeatClosed)
        print(f"cannot {args.command}: {' '.join(str(error).split())}", file=sys.stderr)
        return 1
    return 0


def play_seat(link: str, agent: str, seed: int, retries: int) -> None:
    """``lab client``: play the seat to its game's end, then print the result."""
    import asyncio

    from presages_env.lab.client import play

    final = asyncio.run(play(link, agent, seed, retries))
    print("\n".join([final["result"]["headline"], *final["result"]["lines"]]))
