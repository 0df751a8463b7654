"""``python -m presages_env lab proxy``: a human-proxy agent cloned from what people chose.

It reads a folder ``lab export`` wrote: the decisions table says which moves a person chose
(``by == "human"``; a move the stand-in played at a timeout is not theirs), the records
replay each game through the checked path and give the observation that person's seat had
at each of those moves. The policy starts from a checked PPO checkpoint (the game's shipped
one unless given) and is fitted to the people's actions by ``training.imitation.imitate``;
the result is saved in the checkpoint format ``PPOAgent.load`` checks, so ``ppo:PATH``
seats it anywhere an agent spec is taken, the cooperation benchmark's ad-hoc partners
among them (docs/lab.md).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq

from presages_env import records
from presages_env.core.files import open_regular
from presages_env.core.validation import check_int
from presages_env.games import get_game

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # a table id as the store makes them
MAX_EPOCHS = 1000


def human_decisions(
    folder: str | Path, game: str, num_players: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(obs, masks, actions)`` of every move a person chose in the exported games of
    ``game`` at ``num_players`` under ``folder``; ``ValueError`` if there is none."""
    folder = Path(folder)
    spec = get_game(game)
    num_players = spec.check_num_players(num_players)
    columns = ["table", "game", "step", "seat", "by"]
    with open_regular(folder / "decisions.parquet", "the exported decisions") as file:
        table = pq.read_table(file, columns=columns).to_pylist()
    steps: dict[str, set[int]] = {}
    for row in table:
        if row["by"] == "human" and row["game"] == game:
            steps.setdefault(row["table"], set()).add(row["step"])
    obs_size, num_actions = spec.obs_size(num_players), spec.num_actions(num_players)
    obs, masks, actions = [], [], []
    for table_id, chosen in sorted(steps.items()):
        if not TABLE_ID.fullmatch(table_id):
            raise ValueError(f"decisions.parquet names a table {table_id!r} no store makes")
        rec = records.load(folder / "records" / f"{table_id}.json")  # checked on loading
        if (rec.game, rec.num_players) != (game, num_players):
            continue
        for step, state in enumerate(records.replay(rec)[:-1]):  # replayed and checked
            if step not in chosen:
                continue
            seat = rec.actions[step]["seat"]
            seen = np.zeros(obs_size, dtype=spec.obs_dtype)
            legal = np.zeros(num_actions, dtype=np.int8)
            spec.kernel.observe(state, np.int64(seat), seen)
            spec.kernel.legal_mask(state, legal)
            obs.append(seen)
            masks.append(legal)
            actions.append(rec.actions[step]["action"])
    if not actions:
        raise ValueError(f"no person's decision of {game} at {num_players} players in {folder}")
    return np.stack(obs), np.stack(masks), np.array(actions, dtype=np.int64)


def train_proxy(
    folder: str | Path,
    game: str,
    num_players: int,
    out: str | Path,
    init: str | Path | None = None,
    epochs: int = 20,
    seed: int = 0,
) -> dict[str, Any]:
    """Clone the people's decisions under ``folder`` into a PPO policy (from ``init``, else
    the shipped checkpoint) saved at ``out``; returns the decisions used and the fit."""
    from presages_env.agents.ppo import PPOAgent, shipped_checkpoint
    from presages_env.training.imitation import imitate

    epochs = check_int(epochs, "epochs", 1, MAX_EPOCHS)
    data = human_decisions(folder, game, num_players)
    start = shipped_checkpoint(game, num_players) if init is None else Path(init)
    agent = PPOAgent.load(start, game=game, num_players=num_players)
    fit = imitate(agent.policy, (*data, None), epochs=epochs, seed=seed, features=agent.features)
    agent.save(out, game=game)
    return {"decisions": len(data[2]), **fit}
