"""Remote agents: programs that take a lab seat through its link, as a person does, over the
seat protocol (its messages' JSON Schema: :mod:`presages_env.lab.protocol.schema`;
docs/agents_anywhere.md). A remote seat's views carry one more field, ``obs``: the seat's
observation vector (``Game.kernel.observe``, what the library's agents read), so any
:class:`~presages_env.agents.base.Agent` can play from it (:mod:`presages_env.lab.client`).
An observation holds the seat's information only, as its view does (tests/lab/test_no_leak.py).

The protocol is versioned: ``hello`` names :data:`PROTOCOL_VERSION`, and a client may state
the version it speaks in its link's query (``/ws/TABLE/TOKEN?protocol=1``); a version this
server does not speak is refused with a close that says which ones it speaks."""

from __future__ import annotations

from typing import Any

import numpy as np

from presages_env.lab.agents_pool import REMOTE
from presages_env.lab.live import LiveGame
from presages_env.lab.store import Store

PROTOCOL_VERSION = 1
SPOKEN = (PROTOCOL_VERSION,)  # the versions this server speaks
UNKNOWN_PROTOCOL = 4001  # the close code of a socket that asked for a version not spoken


def protocol_refusal(asked: str | None) -> str | None:
    """Why a socket that asked for protocol ``asked`` (its ``?protocol=`` query; None: it
    did not say) cannot be served, or None if it can."""
    if asked is None or asked in {str(v) for v in SPOKEN}:
        return None
    spoken = ", ".join(map(str, SPOKEN))
    return f"protocol {asked!r:.20} is unknown here: this server speaks version {spoken}"


def observation(live: LiveGame, seat: int) -> list[int]:
    """``seat``'s observation vector now, as JSON numbers."""
    game = live.game
    obs = np.zeros(game.obs_size(live.num_players), dtype=game.obs_dtype)
    game.kernel.observe(live.state, np.int64(seat), obs)
    return obs.tolist()


def with_observation(message: dict[str, Any], live: LiveGame, seat: int) -> dict[str, Any]:
    """A remote seat's ``state`` message: the seat's view and its observation."""
    return {**message, "obs": observation(live, seat)}


def remote_link(store: Store, table_id: str, seat: int) -> str:
    """A new link to the remote agent's ``seat`` at an unfinished table (``LookupError`` if
    there is none); its old link stops working."""
    data = store.table(table_id) if len(table_id) <= 32 else None
    if data is None or data.finished or not 0 <= seat < len(data.seats):
        raise LookupError("no such unfinished table or seat")
    if data.seats[seat].kind != REMOTE:
        raise LookupError(f"seat {seat} is not a remote agent's")
    return f"/t/{table_id}/{store.reissue_token(table_id, seat)}"
