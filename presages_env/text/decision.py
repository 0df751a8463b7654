"""One seat's pending decision in words, built only from what that seat may know.

A :class:`Decision` holds the seat's table (``Game.view`` from its observation, the source
the terminal player draws), the events it saw (their texts; an event the seat does not see
is refused), its legal moves by name (``Game.action_label`` of its own legal actions, as the
lab shows them) and the names of the other moves (so that a name that is not legal now is
refused as such, never taken for a legal move it happens to start). :func:`prompt` words it
in one of three tiers:

``"observation"`` (tier a)
    the rules in short, the table and what the seat saw: the agent must find a legal move
    itself (as Kaggle's Game Arena asks of a model);
``"moves"`` (tier b)
    the same and the legal moves, numbered;
``"tools"`` (tier c)
    the same as (a), with the tools that list the moves, describe a card and play
    (:mod:`presages_env.text.tools`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from presages_env.core.choice import label_words
from presages_env.core.events import Event, seat_name
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT
from presages_env.core.view import TableView

TIERS = ("observation", "moves", "tools")
LAST_EVENTS = 60  # the newest event lines a prompt carries (the table holds the rest)
ANSWER_HINT = {
    "observation": (
        "It is your turn. Answer with your move, named as the game words its moves (the "
        "events above show how); the start of its name is enough when only one move fits. "
        "You may reason first: then end with a line 'Move: <your move>'."
    ),
    "moves": (
        "It is your turn. Answer with the number of your move or its name (the start of "
        "its name is enough when only one move fits). You may reason first: then end with "
        "a line 'Move: <your move>'."
    ),
    "tools": (
        "It is your turn. Call one tool: legal_moves() lists your legal moves, "
        "describe(card) gives a card's text, play(move) plays a move by its number in "
        "legal_moves() or its name."
    ),
}


@dataclass(frozen=True, eq=False)  # it holds arrays: two decisions are never compared
class Decision:
    """``seat``'s decision in ``game`` (its legal ``actions``, named ``labels``); every
    field is something the seat may know. ``observation`` and ``mask`` are the seat's
    arrays, for an agent that acts on them (a fallback)."""

    game: Game
    seat: int
    num_players: int
    view: TableView
    events: tuple[str, ...]
    actions: tuple[int, ...]
    labels: tuple[str, ...]
    other_names: tuple[str, ...]  # the names of the moves that are not legal now
    observation: np.ndarray
    mask: np.ndarray

    @classmethod
    def at(cls, game: Game, state: np.ndarray, events: Sequence[Event] = ()) -> Decision:
        """The decision ``state`` waits for, for the seat to act; ``events`` are those that
        seat saw (``env.events(seat)``): one it does not see raises ``ValueError``."""
        valid = game.checked_state(state)
        if game.is_over(valid):
            raise ValueError(f"the {game.title} game is over: no decision is pending")
        seat = int(valid[HDR_CURRENT])
        n = game.num_players_of(valid)
        unseen = [event.kind for event in events if not event.seen_by(seat)]
        if unseen:
            raise ValueError(f"seat {seat} does not see the {unseen[0]} event given to it")
        mask = np.zeros(game.num_actions(n), dtype=np.int8)
        game.kernel.legal_mask(valid, mask)
        observation = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
        game.kernel.observe(valid, np.int64(seat), observation)
        actions = tuple(int(a) for a in np.flatnonzero(mask))
        labels = tuple(game.action_label(valid, a) for a in actions)
        return cls(
            game=game,
            seat=seat,
            num_players=n,
            view=game.viewer.seat_view(observation, seat, n),
            events=tuple(event.text or game.describe_event(event, seat) for event in events),
            actions=actions,
            labels=labels,
            other_names=_other_names(game, valid, mask, labels),
            observation=observation,
            mask=mask,
        )

    def numbered(self) -> str:
        """The legal moves, one a line: ``  1. play V Le Pape``."""
        return "\n".join(f"{i:>3}. {label}" for i, label in enumerate(self.labels, 1))


def _other_names(
    game: Game, state: np.ndarray, mask: np.ndarray, labels: Sequence[str]
) -> tuple[str, ...]:
    """The names of the actions ``mask`` does not allow, those that are words (an action
    that means nothing at this decision is named by its bare number) and name no legal
    move (two actions may share a name: Res Arcana's passes)."""
    legal = {tuple(label_words(label)) for label in labels}
    names = (game.action_label(state, a) for a in np.flatnonzero(mask == 0))
    return tuple(
        dict.fromkeys(
            name
            for name in names
            if any(c.isalpha() for c in name) and tuple(label_words(name)) not in legal
        )
    )


def prompt(decision: Decision, tier: str, last_events: int = LAST_EVENTS) -> str:
    """``decision`` in words for ``tier`` (one of :data:`TIERS`), with the newest
    ``last_events`` of the events the seat saw."""
    if tier not in TIERS:
        raise ValueError(f"tier must be one of {TIERS}, got {tier!r}")
    game, view = decision.game, decision.view
    me = dict.fromkeys((view.players[decision.seat].name, seat_name(decision.seat)))
    shown = decision.events[-last_events:] if last_events > 0 else ()
    left_out = len(decision.events) - len(shown)
    parts = [
        f"You play {game.title} at a table of {decision.num_players}: you are "
        f"{' / '.join(me)} (seat {decision.seat}).",
        f"The rules in short:\n{game.rules_summary()}",
        f"The table as you see it:\n{view.text()}",
        "What you saw, oldest first"
        + (f" ({left_out} earlier lines left out)" if left_out else "")
        + ":\n"
        + ("\n".join(shown) or "-"),
    ]
    legend = "; ".join(f"{symbol} = {meaning}" for symbol, meaning in game.legend())
    if legend:
        parts.insert(2, f"Symbols: {legend}")
    if tier == "moves":
        parts.append(f"Your legal moves:\n{decision.numbered()}")
    parts.append(ANSWER_HINT[tier])
    return "\n\n".join(parts)
