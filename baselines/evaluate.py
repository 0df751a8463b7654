"""Round-robin evaluation of agents on one game of presages_env.

    python baselines/evaluate.py --game president --agents random heuristic ppo:runs/ppo/policy.pt

Every ordered pair of agents plays --games games: the first agent plays one side (a seat,
or a whole team), the second all the others, the sides rotating from game to game, on the
same fixed-seed deals for every pair. Prints and writes under --out: results.md (win rates
and mean rewards with 95% intervals, openskill ratings and, for team games, the cross-play
matrix of partners against --opponent) and winrates.png (plus crossplay.png for team games).
Agents: random (random:SEED for another seed), heuristic, search (ISMCTS, --simulations per
move, or search:N), ppo (the game's shipped checkpoint) or ppo:PATH (a policy.pt checkpoint).

--record N also saves N games of each ordered pair as game records under OUT/records
(``python -m presages_env replay OUT/records/<file>.json`` draws one).

--ray fans the head-to-head games out to Ray workers in chunks of --chunk-games (a local Ray,
or the cluster at --address); --chunk-games alone plays the same chunks here, with identical
results. Cross-play stays local.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from presages_env import records
from presages_env.agents import Agent
from presages_env.agents.specs import make_agent as agent_from_spec
from presages_env.evaluation import (
    RayExecutor,
    chunked_round_robin,
    cross_play,
    cross_play_table,
    has_teams,
    plot_cross_play,
    plot_win_rates,
    rate,
    ratings_table,
    results_table,
    round_robin,
)
from presages_env.games import get_game


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages")
    p.add_argument("--players", type=int, default=None, help="number of players")
    p.add_argument("--games", type=int, default=1000, help="games per ordered pair of agents")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--agents", nargs="+", default=["random", "heuristic"])
    p.add_argument("--opponent", default="heuristic", help="cross-play opponent (team games)")
    p.add_argument("--simulations", type=int, default=100, help="search agent, per move")
    p.add_argument("--num-envs", type=int, default=256, help="games played in parallel")
    p.add_argument("--chunk-games", type=int, default=None, help="play in chunks of N games")
    p.add_argument("--ray", action="store_true", help="play the chunks on Ray workers")
    p.add_argument("--address", default=None, help="Ray cluster address (implies --ray)")
    p.add_argument("--out", default="runs/eval")
    p.add_argument(
        "--record",
        type=int,
        default=0,
        metavar="N",
        help="also save N sample games of each ordered pair as records (OUT/records/*.json)",
    )
    return p.parse_args()


def make_agent(spec: str, args: argparse.Namespace) -> tuple[str, Agent]:
    """The agent a command-line name stands for, and the label it gets in the tables."""
    try:
        return agent_from_spec(
            spec,
            args.game,
            seed=args.seed,
            simulations=args.simulations,
            num_players=args.players,
        )
    except ModuleNotFoundError as error:
        raise SystemExit(f"agent {spec!r} is unavailable here: {error}") from error
    except (OSError, ValueError, TypeError) as error:
        raise SystemExit(f"cannot build agent {spec!r}: {error}") from error


def save_sample_games(args: argparse.Namespace, agents: dict[str, Agent], folder: Path) -> int:
    """--record N: N games of each ordered pair, the first agent's seat rotating, as records
    (``python -m presages_env replay`` turns one into a page)."""
    game = get_game(args.game)
    n = game.check_num_players(args.players or game.default_players)
    folder.mkdir(parents=True, exist_ok=True)
    saved = 0
    for first, a in agents.items():
        for second, b in agents.items():
            if first == second:
                continue
            for i in range(args.record):
                seat = i % n
                seats = [a if p == seat else b for p in range(n)]
                names = [first if p == seat else second for p in range(n)]
                rec = records.play_recorded(args.game, seats, names, args.seed + i)
                records.save(rec, folder / f"{first}-vs-{second}-{i}.json".replace(":", "_"))
                saved += 1
    return saved


def main() -> None:
    args = parse_args()
    agents = dict(make_agent(spec, args) for spec in args.agents)
    if len(agents) < 2 or len(agents) != len(args.agents):
        raise SystemExit(f"give at least two distinct agents, got {args.agents}")
    setting = dict(num_players=args.players, seed=args.seed, num_envs=args.num_envs)
    out = Path(args.out)
    start = time.perf_counter()

    if args.ray or args.address or args.chunk_games:
        executor = RayExecutor(args.address) if args.ray or args.address else None
        chunk = args.chunk_games or 500
        results = chunked_round_robin(
            args.game, agents, args.games, chunk_games=chunk, executor=executor, **setting
        )
    else:
        results = round_robin(args.game, agents, args.games, progress=True, **setting)
    sections = [
        f"# Evaluation: {get_game(args.game).title}, {results[0].num_players} players",
        f"{args.games:,} games per ordered pair, seed {args.seed}. The agent plays one side "
        "(a seat or a team), the opponents every other side; chance is the win rate of an "
        "agent exactly as strong as its opponents. Ties for the top count as half a win.",
        "## Head-to-head\n\n" + results_table(results),
        "## openskill ratings (Plackett-Luce)\n\n" + ratings_table(rate(results)),
    ]
    plot_win_rates(results, out / "winrates.png", method=f"round robin of {', '.join(agents)}")

    if has_teams(args.game, args.players):
        _, opponent = make_agent(args.opponent, args)
        matrix = cross_play(args.game, agents, opponent, args.games, progress=True, **setting)
        sections.append(
            f"## Cross-play against {args.opponent}\n\nRow agent in one seat of a team, "
            "column agent in its other seat(s): how well agents that never trained together "
            "cooperate.\n\n" + cross_play_table(matrix)
        )
        method = f"{', '.join(agents)} as partners"
        plot_cross_play(matrix, out / "crossplay.png", method=method)

    if args.record:
        saved = save_sample_games(args, agents, out / "records")
        sections.append(f"Sample games: {saved} records in `{out / 'records'}`.")
    sections.append(f"Evaluated in {time.perf_counter() - start:.0f}s.")
    report = "\n\n".join(sections) + "\n"
    print(report)
    (out / "results.md").write_text(report, encoding="utf-8")
    print(f"wrote {out / 'results.md'} and {out / 'winrates.png'}")


if __name__ == "__main__":
    main()
