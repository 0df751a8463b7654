"""The ``scoreboard`` and ``arena`` commands: one evaluation engine
(:mod:`presages_env.evaluation.arena`) behind both, the scoreboard adding the reference
agents, every player count and a best-response bound (trained here: this layer may import
the trainers, the evaluation layer may not)."""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path
from typing import Any

from presages_env import list_games
from presages_env.games import DEFAULT_GAME

BEST_RESPONSE_MODES = {"cheap": "ppo", "dmc": "dmc"}  # --br: the trainer of each mode
SPECS = (
    "random[:SEED], heuristic, search[:SIMS], ppo[:PATH], dmc[:PATH], python:MODULE:NAME, "
    "text:MODULE:NAME[@TIER], or any other kind agents/specs.py resolves"
)


def add_commands(commands: Any) -> None:
    """The two commands' parsers, under the main parser's ``commands``."""
    scoreboard = commands.add_parser(
        "scoreboard", help="score one agent against the reference agents (docs/evaluation.md)"
    )
    scoreboard.add_argument("agent", help=f"the agent: {SPECS}")
    _common(scoreboard, nargs="+", help="player counts (default: every count)")
    scoreboard.add_argument(
        "--references",
        nargs="+",
        default=None,
        metavar="SPEC",
        help="the reference agents (default: random, heuristic and the game's shipped agents)",
    )
    scoreboard.add_argument(
        "--br",
        choices=("cheap", "dmc", "none"),
        default="cheap",
        help="best-response bound: cheap (PPO, default), dmc (Deep Monte-Carlo) or none",
    )
    scoreboard.add_argument(
        "--br-decisions", type=int, default=None, help="its training budget (default 1,000,000)"
    )
    arena = commands.add_parser(
        "arena", help="a round robin of agents, every game recorded (docs/evaluation.md)"
    )
    arena.add_argument("--agents", nargs="+", required=True, help=f"two or more: {SPECS}")
    _common(arena, help="the table's size (default: the game's)")
    arena.add_argument(
        "--opponent", default=None, help="team games: the partners' opponent (default heuristic)"
    )


def _common(parser: argparse.ArgumentParser, **players: Any) -> None:
    """The settings both commands take; ``players``: how --players is read."""
    parser.add_argument("--game", default=DEFAULT_GAME, choices=list_games())
    parser.add_argument("--players", type=int, **players)
    parser.add_argument(
        "--games-per-pairing",
        type=int,
        default=200,
        help="games of each series (rounded down to whole duplicate deals)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the seed every deal is drawn from")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option (VALUE read as JSON, else as text), e.g. teams=true",
    )
    parser.add_argument("--simulations", type=int, default=100, help="search, per move")
    parser.add_argument("--out", type=Path, default=None, help="the folder to write")


def game_options(pairs: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` pairs as options (checked by the game when the table is built)."""
    options = {}
    for pair in pairs:
        name, equals, text = pair.partition("=")
        if not equals or not name.isidentifier():
            raise ValueError(f"--option {pair!r}: expected NAME=VALUE, e.g. teams=true")
        try:
            options[name] = json.loads(text)
        except json.JSONDecodeError:
            options[name] = text
    return options


def command_line(args: argparse.Namespace) -> str:
    """The command that reruns ``args``, every setting spelled out."""
    words = ["python", "-m", "presages_env", args.command]
    words += [args.agent] if args.command == "scoreboard" else ["--agents", *args.agents]
    words += ["--game", args.game]
    if args.players:
        words += ["--players", *map(str, _as_list(args.players))]
    words += ["--games-per-pairing", str(args.games_per_pairing), "--seed", str(args.seed)]
    for option in args.option:
        words += ["--option", option]
    words += ["--simulations", str(args.simulations)]
    if args.command == "scoreboard" and args.references:
        words += ["--references", *args.references]
    if args.command == "scoreboard":
        words += ["--br", args.br]
        if args.br != "none":
            words += ["--br-decisions", str(args.br_decisions)]
    elif args.opponent:
        words += ["--opponent", args.opponent]
    return shlex.join(words)


def _as_list(players: Any) -> list[int]:
    return players if isinstance(players, list) else [players]


def run(args: argparse.Namespace) -> int:
    """Run the command ``args`` names; ``ValueError``, ``TypeError``, ``OSError`` and
    ``ImportError`` come out for the caller to report."""
    from presages_env.core.compiling import announce_compiling
    from presages_env.games import get_game

    announce_compiling([get_game(args.game)])
    options = game_options(args.option)
    if args.command == "scoreboard":
        return _scoreboard(args, options)
    return _arena(args, options)


def _arena(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from presages_env.core.files import in_runs
    from presages_env.evaluation import arena, arena_report, report, scoreboard

    setting = arena.table(args.game, args.players, args.games_per_pairing, args.seed, options)
    agents = arena.build_agents(args.agents, setting, args.simulations)
    opponent = None
    if setting.teams:
        spec = args.opponent or scoreboard.default_opponent(setting.game)
        opponent = arena.build_agents([spec], setting, args.simulations).popitem()
    command = command_line(args)
    pairs = [(x, y) for x in agents for y in agents]
    series = len(agents) * (len(agents) - 1) + len(pairs) * (opponent is not None)
    print(f"{command}\nplaying {series} series x {setting.games:,} games", flush=True)
    robin = arena.play_round_robin(
        setting, agents, partner_pairs=pairs, opponent=opponent, keep_moves=True, progress=True
    )
    out = args.out or in_runs("arena")
    saved = arena.save_records(robin, out / "records")
    page = "\n\n".join(
        [
            f"# Arena: {report.game_title(setting.game)}",
            f"Rerun with `{command}`. Every game is recorded in `records/` "
            f"({saved:,} records; `python -m presages_env replay` draws one).",
            arena_report.round_robin_markdown(robin, "Round robin"),
        ]
    )
    data = {"command": command, "specs": args.agents, "records": saved}
    data.update(arena_report.round_robin_json(robin))
    paths = arena_report.write_outputs(out, "arena", page, data)
    method = f"arena of {', '.join(agents)}, duplicate deals"
    paths.append(report.plot_win_rates(robin.matches, out / "arena.png", method=method))
    print(page)
    print("wrote " + ", ".join(map(str, paths)) + f" and {saved:,} records")
    return 0


def _scoreboard(args: argparse.Namespace, options: dict[str, Any]) -> int:
    from presages_env.core.files import in_runs
    from presages_env.evaluation import arena_report, report, scoreboard

    players = args.players or scoreboard.player_counts(args.game)
    label = args.agent.replace("/", "_").replace(":", "_")
    out = args.out or in_runs(f"scoreboard-{label}")
    trainer = None if args.br == "none" else best_response_trainer(args, out)
    command = command_line(args)
    print(command, flush=True)
    board = scoreboard.score_agent(
        args.agent,
        args.game,
        players,
        args.games_per_pairing,
        args.seed,
        options,
        simulations=args.simulations,
        references=args.references,
        best_response=trainer,
        progress=True,
    )
    page = arena_report.scoreboard_markdown(board, command)
    data = arena_report.scoreboard_json(board, command)
    paths = arena_report.write_outputs(out, "scoreboard", page, data)
    series = arena_report.labelled(
        board.against_references() + [b.result for b in board.bounds], len(board.robins)
    )
    method = f"{board.label} against the reference agents, duplicate deals"
    paths.append(report.plot_win_rates(series, out / "scoreboard.png", method=method))
    print(page)
    print("wrote " + ", ".join(map(str, paths)))
    return 0


def best_response_trainer(args: argparse.Namespace, out: Path):
    """The scoreboard's trainer: ``--br``'s mode for ``--br-decisions`` decisions (the
    documented budget unless given: written back into ``args`` for the rerun command), from
    ``--seed``, into OUT/best-response-Np; it is measured on the trainer's evaluation seed."""
    from presages_env.training.best_response import ABR_DECISIONS, approximate_best_response

    mode = BEST_RESPONSE_MODES[args.br]
    if args.br_decisions is None:
        args.br_decisions = ABR_DECISIONS
    decisions = args.br_decisions

    def train(agent, setting) -> tuple[str, int, dict[str, Any]]:
        extra = {"game_options": setting.options} if setting.options else {}
        response = approximate_best_response(
            setting.game,
            agent,
            out_dir=out / f"best-response-{setting.num_players}p",
            mode=mode,
            num_players=setting.num_players,
            decisions=decisions,
            eval_games=2,  # measured by the scoreboard, on duplicate deals
            curve_games=min(setting.games, 400),
            seed=setting.seed,
            **extra,
        )
        training = {"mode": f"{args.br} ({mode})", "decisions": response.decisions}
        training.update(seconds=response.seconds, seed=response.seed)
        return response.spec, response.eval_seed, training

    return train
