"""What an arena or a scoreboard writes: Markdown sections and plain JSON of its round
robins (:mod:`presages_env.evaluation.arena`), with the seeds that replay them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from presages_env.core.files import write_text_atomically
from presages_env.evaluation.arena import RoundRobin, Table, payoff_matrix
from presages_env.evaluation.report import (
    cross_play_table,
    game_title,
    markdown_table,
    results_table,
)
from presages_env.evaluation.scoreboard import Scoreboard
from presages_env.evaluation.stats import Estimate, format_number, format_percent
from presages_env.evaluation.tournament import CrossPlayResult, MatchResult


def setting_line(setting: Table) -> str:
    """One sentence naming everything that replays the table's games."""
    options = ", ".join(f"{k}={v}" for k, v in sorted(setting.options.items()))
    return (
        f"{game_title(setting.game)} at {setting.num_players} players"
        f"{f' ({options})' if options else ''}: {setting.games:,} games per series, "
        f"{setting.games // setting.group_size:,} duplicate deals each played once per side "
        f"({setting.group_size} sides), dealt from seed {setting.seed} (deal g: "
        f"derive_seed({setting.seed}, g)); intervals over the deals."
    )


def ratings_markdown(robin: RoundRobin) -> str:
    """openskill and α-Rank side by side, best openskill ordinal first."""
    ranked = sorted(robin.ratings.items(), key=lambda item: item[1].ordinal, reverse=True)
    rows = [
        [
            str(rank),
            name,
            f"{r.mu:.2f}",
            f"{r.sigma:.2f}",
            f"{r.ordinal:.2f}",
            f"{robin.alpha_rank[name]:.3f}",
        ]
        for rank, (name, r) in enumerate(ranked, start=1)
    ]
    header = ["rank", "agent", "openskill mu", "sigma", "ordinal (mu − 3σ)", "α-Rank mass"]
    return markdown_table(header, rows)


def partners_markdown(robin: RoundRobin) -> str:
    """The partner series: the whole matrix where every pair was played, else one row each."""
    names = list(dict.fromkeys(name for pair in robin.partners for name in pair))
    if len(robin.partners) == len(names) ** 2:
        return cross_play_table(CrossPlayResult(names, robin.opponent or "", robin.partners))
    return results_table(list(robin.partners.values()))


def round_robin_markdown(robin: RoundRobin, title: str) -> str:
    """The round robin's sections: its setting, every series, the ratings, the partners."""
    sections = [
        f"## {title}",
        setting_line(robin.setting),
        "### Head to head\n\nThe first agent plays one side (a seat, or a whole team), the "
        "second every other side; chance is the win rate of an agent exactly as strong as "
        "its opponents, a tie for the top counting half.\n\n" + results_table(robin.matches),
        "### Ratings\n\nopenskill (Plackett-Luce) over every game's sides ranked by reward; "
        "α-Rank (OpenSpiel, its default m = 50, α = 100) over the meta-game whose payoff is "
        "the first agent's mean reward minus the other sides'.\n\n" + ratings_markdown(robin),
    ]
    if robin.partners:
        sections.append(
            f"### Partners against {robin.opponent}\n\nThe row agent in one seat of a team "
            "(the seat rotating), its partner in the team's other seats, the opponent in every "
            "other team's.\n\n" + partners_markdown(robin)
        )
    return "\n\n".join(sections)


def estimate_json(estimate: Estimate) -> dict[str, float]:
    """An estimate and its interval's bounds, over ``n`` samples (games, or deals)."""
    return {"value": estimate.value, "low": estimate.low, "high": estimate.high, "n": estimate.n}


def match_json(match: MatchResult) -> dict[str, Any]:
    """One series: who played, how many games on how many sides, win rate and reward."""
    return {
        "agent": match.focus,
        "opponents": match.others,
        "games": match.num_games,
        "deal_group": match.group_size,
        "win_rate": estimate_json(match.win_rate_ci()),
        "chance": match.chance,
        "mean_reward": estimate_json(match.mean_reward_ci()),
    }


def round_robin_json(robin: RoundRobin) -> dict[str, Any]:
    """Plain JSON of a round robin: its table (seed included), series and ratings."""
    setting = robin.setting
    names = list(robin.ratings)
    return {
        "game": setting.game,
        "num_players": setting.num_players,
        "options": setting.options,
        "games_per_series": setting.games,
        "deal_group": setting.group_size,
        "seed": setting.seed,
        "head_to_head": [match_json(match) for match in robin.matches],
        "openskill": {
            name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}
            for name, r in robin.ratings.items()
        },
        "alpha_rank": {
            "mass": robin.alpha_rank,
            "agents": names,
            "payoffs": payoff_matrix(robin.matches, names).tolist(),
        },
        "partners": {
            "opponent": robin.opponent,
            "series": [match_json(match) for match in robin.partners.values()],
        },
    }


def write_outputs(folder: Path, name: str, markdown: str, data: dict[str, Any]) -> list[Path]:
    """``name``.md and ``name``.json in ``folder`` (made if missing), each whole or absent."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{name}.md", folder / f"{name}.json"]
    write_text_atomically(paths[0], markdown + "\n")
    write_text_atomically(paths[1], json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return paths


def labelled(matches: Sequence[MatchResult], counts: int) -> list[MatchResult]:
    """The series with the player count in the first agent's label where there are several
    counts (one figure then tells them apart)."""
    if counts < 2:
        return list(matches)
    import dataclasses

    return [dataclasses.replace(m, focus=f"{m.focus} ({m.num_players}p)") for m in matches]


def scoreboard_markdown(board: Scoreboard, command: str) -> str:
    """The scoreboard's page: the agent against every reference, its best-response bound,
    then each player count's round robin in full."""
    rows = [
        [
            str(m.num_players),
            m.others,
            f"{m.num_games:,}",
            format_percent(m.win_rate_ci()),
            f"{m.chance:.1%}",
            format_number(m.mean_reward_ci()),
        ]
        for m in board.against_references()
    ]
    header = ["players", "reference", "games", "win rate (95% CI)", "chance", "mean reward"]
    sections = [
        f"# Scoreboard: {board.label} in {game_title(board.robins[0].setting.game)}",
        f"Rerun with `{command}`. The agent plays one side (a seat, or a whole team), the "
        "reference agent every other side, on duplicate deals; the seeds are below and in "
        "scoreboard.json.",
        "## Against the reference agents\n\n" + markdown_table(header, rows),
        "## Best-response bound\n\n" + bounds_markdown(board),
    ]
    if any(robin.partners for robin in board.robins):
        sections.append("## As a partner\n\n" + partner_summary(board))
    sections += [
        round_robin_markdown(r, f"Round robin at {r.setting.num_players} players")
        for r in board.robins
    ]
    return "\n\n".join(sections)


def partner_summary(board: Scoreboard) -> str:
    """Per team count and reference: the agent in one seat beside the reference, against
    the reference beside itself, both against the same opponent on the same deals."""
    rows = []
    for robin in board.robins:
        for (x, partner), match in robin.partners.items():
            if x != board.label:
                continue
            alone = robin.partners[partner, partner]
            rows.append(
                [
                    str(robin.setting.num_players),
                    partner,
                    str(robin.opponent),
                    f"{match.num_games:,}",
                    format_percent(match.win_rate_ci()),
                    format_percent(alone.win_rate_ci()),
                    f"{match.chance:.1%}",
                ]
            )
    header = ["players", "partner", "opponent", "games", "agent + partner", "partner + partner"]
    explain = (
        "The agent in one seat of a team (the seat rotating), the partner in its other seats; "
        "beside it, the partner's own team, on the same deals: win rates (95% CI).\n\n"
    )
    return explain + markdown_table([*header, "chance"], rows)


def bounds_markdown(board: Scoreboard) -> str:
    """The best responses' table and their seeds (or that none was trained)."""
    if not board.bounds:
        return "Not trained (`--br none`)."
    header = ["players", "mode", "decisions", "win rate (95% CI)", "chance", "mean reward"]
    rows = [
        [
            str(b.result.num_players),
            str(b.training["mode"]),
            f"{b.training['decisions']:,}",
            format_percent(b.result.win_rate_ci()),
            f"{b.result.chance:.1%}",
            format_number(b.result.mean_reward_ci()),
        ]
        for b in board.bounds
    ]
    seeds = ", ".join(
        f"{b.result.num_players}p: trained from seed {b.training['seed']}, measured on "
        f"{b.result.num_games:,} games dealt from seed {b.seed} ({b.spec})"
        for b in board.bounds
    )
    return (
        "A best response trained against the frozen agent, then measured against it on "
        "duplicate deals it never trained on: its edge (win rate above chance; in a two-player "
        "zero-sum game, mean reward above 0) is a lower bound on the agent's exploitability "
        f"at that budget. {seeds}.\n\n" + markdown_table(header, rows)
    )


def scoreboard_json(board: Scoreboard, command: str) -> dict[str, Any]:
    """Plain JSON of the scoreboard: the command, every seed, each count's round robin and
    the best responses."""
    return {
        "command": command,
        "agent": board.label,
        "spec": board.spec,
        "seeds": {
            "deals": board.robins[0].setting.seed,
            "best_response": [
                {"players": b.result.num_players, "train": b.training["seed"], "measure": b.seed}
                for b in board.bounds
            ],
        },
        "round_robins": [round_robin_json(robin) for robin in board.robins],
        "best_response": [
            {**b.training, "spec": b.spec, "measure_seed": b.seed, **match_json(b.result)}
            for b in board.bounds
        ],
    }
