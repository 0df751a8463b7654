"""``python -m presages_env info <game>``: what a newcomer needs before ``make``: the player
counts, the observation and action sizes, and every option with its range and default. The
docs site's game pages show the same lines (docs/hooks.py)."""

from __future__ import annotations

import re

import numpy as np

import presages_env

CODE = re.compile(r"``(.+?)``")  # reST code in a docstring: its text alone on a screen


def game_info(name: str) -> str:
    """A game's players, sizes and options table, as printed by ``info``: the options'
    docstrings in plain words (their ``code`` marks are for the API reference)."""
    return "\n".join(
        (
            *summary_lines(name),
            "",
            f'Options (presages_env.make("{name}", num_players=..., option=value)):',
            CODE.sub(r"\1", str(presages_env.options(name))),
        )
    )


def summary_lines(name: str) -> list[str]:
    """The player counts, then the observation and action sizes: one line if they are the
    same at every player count, else one line per count."""
    game = presages_env.get_game(name)
    players = range(game.min_players, game.max_players + 1)
    dtype = np.dtype(game.obs_dtype).name
    sizes = {n: (game.obs_size(n), game.num_actions(n)) for n in players}
    lines = [
        f"{game.title} ({name}): {players[0]} to {players[-1]} players "
        f"(default {game.default_players})"
    ]
    if len(set(sizes.values())) == 1:
        obs, actions = sizes[players[0]]
        same = "(the same at every player count)"
        return [*lines, f"Observation: {obs} {dtype} entries; actions: {actions} {same}"]
    return lines + [
        f"{n} players: observation {obs} {dtype} entries; actions: {actions}"
        for n, (obs, actions) in sizes.items()
    ]
