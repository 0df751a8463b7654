"""Round-robin evaluation of agents on one game of presages_env.

    python baselines/evaluate.py --game president --agents random heuristic ppo:runs/ppo/policy.pt
    python baselines/evaluate.py --game presages --pairings dmc:heuristic --games 4000 --duplicate

Every ordered pair of --agents (or each of --pairings, ``A:B``) plays exactly --games games:
the first agent plays one side (a seat, or a whole team), the second all the others, the
sides rotating from game to game, on the same fixed-seed deals for every pairing. The number
of games is printed before any is played. Prints and writes under --out: results.md (win
rates and mean rewards with 95% intervals, openskill ratings and, with --cross-play in a team
game, the cross-play matrix of partners against --opponent, --games per ordered pair of
partners) and winrates.png (plus crossplay.png). Agents: random (random:SEED for another
seed), heuristic, search (ISMCTS, --simulations per move, or search:N), ppo (the game's
shipped checkpoint) or ppo:PATH (a policy.pt checkpoint), dmc (the game's shipped action
scorers) or dmc:PATH (a checkpoint, or a folder of them as one ensemble).

--duplicate plays each deal once per side (a seat, or a team), so the deal's luck cancels
and the intervals, taken over the deals, narrow; --games must then be a multiple of the
number of sides (refused otherwise, with the nearest counts that are). Cross-play stays
plain rotation.

--record N also saves N games of each pairing as game records under OUT/records
(``python -m presages_env replay OUT/records/<file>.json`` draws one).

--ray fans the head-to-head games out to Ray workers in chunks of --chunk-games (a local Ray,
or the cluster at --address); --chunk-games alone plays the same chunks here, with identical
results. Cross-play stays local.
"""

from __future__ import annotations

import argparse
import itertools
import time
from pathlib import Path

from presages_env import records
from presages_env.agents import Agent
from presages_env.agents.specs import make_agent as agent_from_spec
from presages_env.agents.specs import parse_pairing
from presages_env.evaluation import (
    RayExecutor,
    chunked_round_robin,
    cross_play,
    cross_play_table,
    deal_group_size,
    has_teams,
    plot_cross_play,
    plot_win_rates,
    rate,
    ratings_table,
    results_table,
    round_robin,
)
from presages_env.evaluation.tournament import MatchResult, check_duplicate_games
from presages_env.games import get_game


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="presages")
    p.add_argument("--players", type=int, default=None, help="number of players")
    p.add_argument("--games", type=int, default=1000, help="games per pairing, exactly")
    p.add_argument("--seed", type=int, default=0)
    who = p.add_mutually_exclusive_group()
    who.add_argument("--agents", nargs="+", help="every ordered pair (default: random heuristic)")
    who.add_argument("--pairings", nargs="+", metavar="A:B", help="these pairings only")
    p.add_argument("--duplicate", action="store_true", help="play each deal once per side")
    p.add_argument("--cross-play", action="store_true", help="team games: partners matrix too")
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
        help="also save N sample games of each pairing as records (OUT/records/*.json)",
    )
    return p.parse_args(argv)


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


def save_sample_games(
    args: argparse.Namespace, agents: dict[str, Agent], pairs: list[tuple[str, str]], folder: Path
) -> int:
    """--record N: N games of each pairing, the first agent's seat rotating, as records
    (``python -m presages_env replay`` turns one into a page)."""
    game = get_game(args.game)
    n = game.check_num_players(args.players or game.default_players)
    folder.mkdir(parents=True, exist_ok=True)
    for first, second in pairs:
        a, b = agents[first], agents[second]
        for i in range(args.record):
            seat = i % n
            seats = [a if p == seat else b for p in range(n)]
            names = [first if p == seat else second for p in range(n)]
            rec = records.play_recorded(args.game, seats, names, args.seed + i)
            records.save(rec, folder / f"{first}-vs-{second}-{i}.json".replace(":", "_"))
    return len(pairs) * args.record


def agents_and_pairs(args: argparse.Namespace) -> tuple[dict[str, Agent], list[tuple[str, str]]]:
    """The agents by label and the (first, second) pairings to play, as the labels."""
    if args.pairings:
        try:
            spec_pairs = [parse_pairing(text) for text in args.pairings]
        except ValueError as error:
            raise SystemExit(str(error)) from error
        specs = list(dict.fromkeys(spec for pair in spec_pairs for spec in pair))
    else:
        specs = args.agents or ["random", "heuristic"]
    built = {spec: make_agent(spec, args) for spec in specs}
    agents = dict(built.values())
    if len(agents) != len(specs):
        labels = [label for label, _ in built.values()]
        raise SystemExit(f"agents {specs} share a label ({labels}): name each agent once")
    if not args.pairings and len(agents) < 2:
        raise SystemExit(f"give at least two distinct agents, got {specs}")
    if args.pairings:
        pairs = [(built[a][0], built[b][0]) for a, b in spec_pairs]
        if any(a == b for a, b in pairs):
            raise SystemExit(f"a pairing needs two distinct agents, got {args.pairings}")
    else:
        pairs = list(itertools.permutations(agents, 2))
    return agents, pairs


def count_games(args: argparse.Namespace, agents: dict, pairs: list, cross: bool) -> str:
    """What will be played, e.g. ``8,000 games: 2 pairings x 4,000``."""
    parts = [(len(pairs), "pairing")]
    if cross:
        parts.append((len(agents) ** 2, "cross-play pair"))
    total = sum(count for count, _ in parts) * args.games + len(pairs) * args.record
    text = " + ".join(
        f"{count} {kind}{'s' * (count > 1)} x {args.games:,}" for count, kind in parts
    )
    records_note = f" + {len(pairs) * args.record} recorded" if args.record else ""
    return f"{total:,} games: {text}{records_note}"


def check_duplicate(args: argparse.Namespace) -> None:
    """--duplicate needs --games to be whole deal groups: refused before anything is played."""
    try:
        check_duplicate_games(args.games, deal_group_size(args.game, args.players))
    except ValueError as error:
        raise SystemExit(f"--games {args.games} with --duplicate: {error}") from error


def head_to_head_results(
    args: argparse.Namespace, agents: dict[str, Agent], pairs: list[tuple[str, str]]
) -> list[MatchResult]:
    setting = dict(num_players=args.players, seed=args.seed, num_envs=args.num_envs)
    setting.update(pairs=pairs, duplicate=args.duplicate)
    if args.ray or args.address or args.chunk_games:
        executor = RayExecutor(args.address) if args.ray or args.address else None
        chunk = args.chunk_games or 500
        return chunked_round_robin(
            args.game, agents, args.games, chunk_games=chunk, executor=executor, **setting
        )
    return round_robin(args.game, agents, args.games, progress=True, **setting)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    agents, pairs = agents_and_pairs(args)
    cross = args.cross_play and has_teams(args.game, args.players)
    if args.cross_play and not cross:
        raise SystemExit(f"--cross-play needs teams; {args.game} has none at that count")
    if args.duplicate:
        check_duplicate(args)
    print(f"playing {count_games(args, agents, pairs, cross)}", flush=True)
    out = Path(args.out)
    start = time.perf_counter()
    results = head_to_head_results(args, agents, pairs)
    deals = (
        "each deal once per side (duplicate deals; intervals over the deals)"
        if args.duplicate
        else "the sides rotating from game to game"
    )
    sections = [
        f"# Evaluation: {get_game(args.game).title}, {results[0].num_players} players",
        f"{args.games:,} games per pairing, seed {args.seed}, {deals}. The agent plays one "
        "side (a seat or a team), the opponents every other side; chance is the win rate of "
        "an agent exactly as strong as its opponents. Ties for the top count as half a win.",
        "## Head-to-head\n\n" + results_table(results),
        "## openskill ratings (Plackett-Luce)\n\n" + ratings_table(rate(results)),
    ]
    plot_win_rates(results, out / "winrates.png", method=f"round robin of {', '.join(agents)}")

    if cross:
        sections.append(play_cross(args, agents, out))
    if args.record:
        saved = save_sample_games(args, agents, pairs, out / "records")
        sections.append(f"Sample games: {saved} records in `{out / 'records'}`.")
    sections.append(f"Evaluated in {time.perf_counter() - start:.0f}s.")
    report = "\n\n".join(sections) + "\n"
    print(report)
    (out / "results.md").write_text(report, encoding="utf-8")
    print(f"wrote {out / 'results.md'} and {out / 'winrates.png'}")


def play_cross(args: argparse.Namespace, agents: dict[str, Agent], out: Path) -> str:
    """The cross-play section: every ordered pair of agents as partners against --opponent."""
    _, opponent = make_agent(args.opponent, args)
    setting = dict(num_players=args.players, seed=args.seed, num_envs=args.num_envs)
    matrix = cross_play(args.game, agents, opponent, args.games, progress=True, **setting)
    plot_cross_play(matrix, out / "crossplay.png", method=f"{', '.join(agents)} as partners")
    return (
        f"## Cross-play against {args.opponent}\n\nRow agent in one seat of a team, "
        "column agent in its other seat(s): how well agents that never trained together "
        "cooperate.\n\n" + cross_play_table(matrix)
    )


if __name__ == "__main__":
    main()
