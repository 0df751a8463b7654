"""Writing and checking the pending-decision tables of :mod:`presages_env.core.decisions`.

The tables are derived from the kernels' own transitions, never written by hand; ``--check``
explores afresh with a seed drawn for the run (printed, give it back with ``--seed``)::

    python -m presages_env.games.decision_tables --write            # regenerate every table
    python -m presages_env.games.decision_tables --check --games 50 # explore afresh: new ones?

The core imports no game: :func:`main` is handed the games by name from the registry
(:mod:`presages_env.games.decision_tables` is the command).
"""

from __future__ import annotations

import argparse
import json
import secrets
from collections.abc import Callable, Sequence

import numpy as np

from presages_env.core.decisions import TABLE_FORMAT, known_signatures, load_table, table_path
from presages_env.core.files import write_text_atomically
from presages_env.core.game import Game
from presages_env.core.header import HDR_TERMINAL
from presages_env.core.option_space import random_options

# Games explored per player count to write a table (--write), each with options of its own,
# and the seed; and the games per player count of a --check.
WRITE_GAMES = 1000
WRITE_SEED = 2026
CHECK_GAMES = 100


def explore(game: Game, games: int, seed: int) -> tuple[set[tuple[int, ...]], int]:
    """The signatures met in ``games`` random games per player count, each with options
    drawn from the game's whole option space (core/option_space.py), every legal action of
    every visited state tried once; and the transitions tried."""
    rng = np.random.default_rng(seed)
    found: set[tuple[int, ...]] = set()
    tried = 0
    for n in range(game.min_players, game.max_players + 1):
        mask = np.zeros(game.num_actions(n), dtype=np.int8)
        rewards = np.zeros(n, dtype=np.float32)
        for _ in range(games):
            options = random_options(game, n, rng)
            state = game.new_state(n, int(rng.integers(2**62)), **options)
            tried += _explore_game(game, state, mask, rewards, rng, found)
    return found, tried


def _explore_game(
    game: Game,
    state: np.ndarray,
    mask: np.ndarray,
    rewards: np.ndarray,
    rng: np.random.Generator,
    found: set[tuple[int, ...]],
) -> int:
    """Random play of ``state`` to its end, adding to ``found`` the signature of every
    state met and of every child of a legal action; returns the transitions tried."""
    signature = game.validator.decision_signature
    tried = 0
    while not state[HDR_TERMINAL]:
        found.add(signature(state))
        game.kernel.legal_mask(state, mask)
        legal = np.flatnonzero(mask)
        for action in legal:
            child = state.copy()
            game.kernel.step(child, np.int64(action), rewards)
            if not child[HDR_TERMINAL]:
                found.add(signature(child))
        tried += legal.size
        game.kernel.step(state, np.int64(rng.choice(legal)), rewards)
    return tried


def write_table(game: Game, games: int = WRITE_GAMES, seed: int = WRITE_SEED) -> int:
    found, tried = explore(game, games, seed)
    table = {
        "format": TABLE_FORMAT,
        "about": (
            f"Pending-decision signatures the {game.name} kernel produced: {games} random "
            f"games per player count, each with options drawn from the game's option space "
            f"(seed {seed}), every legal action of every visited state tried ({tried} "
            "transitions). Written by "
            "python -m presages_env.games.decision_tables --write; never edit by hand."
        ),
        "fields": list(game.validator.DECISION_FIELDS),
        "signatures": sorted([int(v) for v in s] for s in found),
    }
    write_text_atomically(table_path(game), json.dumps(table, separators=(",", ":")) + "\n")
    load_table.cache_clear()
    return len(found)


def new_signatures(game: Game, games: int, seed: int) -> set[tuple[int, ...]]:
    """Signatures a fresh exploration finds that the table lacks (empty when complete)."""
    found, _ = explore(game, games, seed)
    return found - known_signatures(game)


def fresh_seed() -> int:
    """A seed for one exploration that no earlier run used (print it to replay the run)."""
    return secrets.randbits(63)


def main(argv: list[str] | None, get_game: Callable[[str], Game], names: Sequence[str]) -> int:
    """The command: ``get_game(name)`` gives the game of each of ``names`` (every game,
    unless ``--names`` picks some)."""
    parser = argparse.ArgumentParser(
        prog="python -m presages_env.games.decision_tables",
        description=__doc__.splitlines()[0],
    )
    parser.add_argument("--write", action="store_true", help="regenerate the tables")
    parser.add_argument("--check", action="store_true", help="explore afresh, report new ones")
    parser.add_argument("--names", nargs="+", default=list(names), help="games")
    parser.add_argument("--games", type=int, default=None, help="per player count")
    parser.add_argument("--seed", type=int, default=None, help="default: --write's, or fresh")
    args = parser.parse_args(argv)
    failed = False
    for name in args.names:
        game = get_game(name)
        if args.write:
            seed = WRITE_SEED if args.seed is None else args.seed
            count = write_table(game, args.games or WRITE_GAMES, seed)
            print(f"{name}: {count} signatures written to {table_path(game)}", flush=True)
        if args.check:
            seed = fresh_seed() if args.seed is None else args.seed
            new = new_signatures(game, args.games or CHECK_GAMES, seed)
            print(f"{name}: {len(new)} signatures missing from the table (seed {seed})", flush=True)
            for signature in sorted(new)[:20]:
                print("  ", dict(zip(game.validator.DECISION_FIELDS, signature, strict=True)))
            failed |= bool(new)
    return 1 if failed else 0
