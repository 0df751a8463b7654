"""Play a game in the terminal against any agents (``python -m presages_env play``).

Each turn fits one screen (80×24 and up, :mod:`presages_env.ui.screen`): the table from the
human's seat only (``Game.view(state, seat)``: built from the seat's observation), the last of
what happened since they last acted (the events they may see), their hand and the legal
actions numbered; a legend of the game's symbols and the deal's seed (random unless given, so
a deal can be played again) open the game. Input: a number or the start of an action's words
(:mod:`presages_env.core.choice`; several fitting are listed), ``?`` for the rules and keys,
``? <card>`` for a card's text (``Game.card_help``), ``log``, ``table``, ``hand`` and
``actions`` for the whole of each, ``u`` to undo their last decision (the game is re-played
from its seed and the actions before it, so the agents' moves come back exactly), ``q`` to
quit (the moves so far are saved as an unfinished record, where the game's record would go).
Bad input re-prompts with the reason. Long lines wrap, never cut. At the end the
screen says who won and each seat's place and score (``Game.result_words``), and the game
is saved as a record (:mod:`presages_env.records`; by default under ``runs/``): its path is
checked before the deal, and if it cannot be written after all, the record goes to a new
file in the temporary folder, and the screen says where.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

import presages_env
from presages_env import records
from presages_env.agents.specs import make_agent
from presages_env.core.choice import match_action
from presages_env.core.files import check_output_path, in_runs
from presages_env.core.game import Game
from presages_env.core.header import HDR_CURRENT
from presages_env.core.results import counted
from presages_env.core.seats import PERSON, as_seen_by, row_names
from presages_env.core.validation import check_int, check_seed, offset_seed
from presages_env.core.view import TableView
from presages_env.ui.screen import Turn, card, cards, turn_screen
from presages_env.ui.seating import seat_specs

HELP = (
    "Type the number of an action or the start of its words (accents optional), then Enter.\n"
    "  ?  the rules and this help    ? <card name>  that card's text\n"
    "  log  everything so far        table  the whole table\n"
    "  hand  your cards' texts       actions  every action\n"
    "  u  undo your last decision    q  quit (the moves so far are saved)"
)
SEEDS = 10**9  # a random deal's seed is below this: short enough to type again


class Quit(Exception):
    """The human left the game."""


def play(
    game_name: str,
    seat: int,
    opponents: Sequence[str],
    num_players: int | None = None,
    seed: int | None = None,
    record_path: str | Path | None = None,
    console: Console | None = None,
    ask: Callable[[str], str] | None = None,
    partners: Sequence[str] | None = None,
    **options: Any,
) -> records.GameRecord:
    """Play one game with the human at ``seat`` on the deal of ``seed`` (by default a random
    one, printed): in a game played in teams, the human's partners take ``partners`` (default
    the heuristic) and the other seats ``opponents``, each in turn, as the deal made the
    teams; otherwise every other seat takes ``opponents`` in turn
    (:mod:`presages_env.ui.seating`). Returns the record (also saved to ``record_path``, by
    default ``runs/<game>-<seed>.json``): on quit, the unfinished record of the moves so
    far."""
    console = console or Console(highlight=False)
    ask = ask or console.input
    game = presages_env.get_game(game_name)
    n = game.check_num_players(game.default_players if num_players is None else num_players)
    seat = check_int(seat, "seat", 0, n - 1)
    seed = secrets.randbelow(SEEDS) if seed is None else check_seed(seed)
    path = check_output_path(record_path or in_runs(f"{game_name}-{seed}.json"), "the record path")
    session = _Session(game_name, n, seed, options)
    dealt = session.env.get_state()
    specs = seat_specs(game.teams(dealt), seat, opponents, partners, game.title)
    names: list[str] = []
    agents: dict[int, Any] = {}
    for p, spec in enumerate(specs):
        if spec is None:
            names.append(PERSON)
            continue
        label, agents[p] = make_agent(spec, game_name, seed=offset_seed(seed, p), num_players=n)
        names.append(label)
    badges = game.seat_badges(dealt, names, seat)
    console.print(f"{game.title}, deal {seed}: --seed {seed} deals it again.")
    console.print(Text("Seats: " + ", ".join(badges)))
    try:
        session.run(seat, agents, badges, console, ask)
    except Quit:
        rec = records.from_env(session.env, names, unfinished=True)
        saved = _save(rec, path, console)
        console.print(
            Text(
                f"You left the game; the moves so far are saved in {saved} "
                f"(replay with python -m presages_env replay {saved})"
            )
        )
        return rec
    rec = records.from_env(session.env, names)
    saved = _save(rec, path, console)
    words = game.result_words(session.env.get_state(), rec.result, as_seen_by(names, seat))
    lines = [f"Game over: {words.headline}.", *(f"  {line}" for line in words.lines)]
    console.print(Text("\n".join([*lines, f"Record saved to {saved}"])))
    return rec


def _save(rec: records.GameRecord, path: Path, console: Console) -> Path:
    """Where ``rec`` was saved: ``path`` (checked before the deal), or, when writing there
    fails after all (a disk removed, full), a new file in the temporary folder, so that the
    game played is not lost."""
    try:
        records.save(rec, path)
        return path
    except OSError as error:
        descriptor, fallback = tempfile.mkstemp(prefix=f"{path.stem}-", suffix=".json")
        os.close(descriptor)
        records.save(rec, fallback)
        console.print(Text(f"Could not write the record to {path}: {error.strerror}."))
        return Path(fallback)


class _Session:
    """One game's actions, replayable to any point (undo)."""

    def __init__(self, game_name: str, n: int, seed: int, options: dict[str, Any]) -> None:
        self.env = presages_env.make(game_name, num_players=n, **options)
        self.game = self.env.game
        self.seed = seed
        self.actions: list[int] = []
        # each human decision: its index in actions, and the events shown before it
        self.human_turns: list[tuple[int, int]] = []
        self._restart([])

    def _restart(self, actions: list[int]) -> None:
        self.env.reset(seed=self.seed)
        for action in actions:
            self.env.step(action)
        self.actions = list(actions)

    def run(
        self, seat: int, agents: dict[int, Any], badges: list[str], console: Console, ask
    ) -> None:
        seen = 0  # events of the human's seat already shown
        console.print(_legend(self.game))
        while not self.game.is_over(self.env.get_state()):
            state = self.env.get_state()
            current = int(state[HDR_CURRENT])
            agent_name = self.env.possible_agents[current]
            if current != seat:
                self._step(_agent_action(agents[current], self.env, agent_name, state))
                continue
            events = self.env.events(seat)
            mask = self.env.observe(agent_name)["action_mask"]
            legal = [int(a) for a in np.flatnonzero(mask)]
            turn = Turn(
                title=f"{self.game.title}: {badges[seat]}",
                view=self.game.view(state, seat),
                log=[e.text for e in events],
                new=len(events) - seen,
                labels=[self.env.action_label(a) for a in legal],
                badges=badges,
            )
            width, height = console.size
            console.print(Text("\n").join(turn_screen(turn, console, width, height)))
            choice = _ask_choice(turn, console, ask, self.game)
            if choice == "undo":
                if not self.human_turns:
                    console.print("Nothing to undo yet.")
                    continue
                cut, seen = self.human_turns.pop()
                self._restart(self.actions[:cut])
                continue
            self.human_turns.append((len(self.actions), seen))
            self._step(legal[choice])
            seen = len(self.env.events(seat))
        console.print(_table(self.game.view(self.env.get_state(), seat), badges))

    def _step(self, action: int) -> None:
        self.env.step(action)
        self.actions.append(action)


def _agent_action(agent, env, agent_name: str, state: np.ndarray) -> int:
    if agent.needs_state:
        return int(agent.act_states(state[None, :])[0])
    seen = env.observe(agent_name)
    return agent.act(seen["observation"], seen["action_mask"])


def _ask_choice(turn: Turn, console: Console, ask, game: Game) -> int | str:
    """The index of the chosen action, or "undo"; re-prompts until the input is valid, and
    answers the commands that show the whole of what the screen shortened."""
    shows = {
        "log": lambda: Panel(Text("\n".join(turn.log) or "-"), title="everything so far"),
        "table": lambda: _table(turn.view, turn.badges),
        "hand": lambda: _hand_panel(game, turn.view),
        "actions": lambda: _numbered(turn.labels, range(len(turn.labels))),
    }
    while True:
        try:
            answer = ask("your move> ").strip()
        except EOFError:
            raise Quit from None
        lowered = answer.lower()
        if lowered in ("q", "quit"):
            raise Quit
        if lowered in ("h", "help") or answer.startswith("?"):
            _show_help(game, answer[1:].strip() if answer.startswith("?") else "", console)
            continue
        if lowered in ("u", "undo"):
            return "undo"
        if lowered in shows:
            console.print(shows[lowered]())
            continue
        found = match_action(answer, turn.labels)
        if len(found.indices) == 1:
            return found.indices[0]
        if len(found.indices) > 1:
            console.print(Text(f"{_shown(answer)!r} fits {len(found.indices)} actions:"))
            console.print(_numbered(turn.labels, found.indices))
            console.print("Type more of its words, or its number.")
            continue
        words = "" if found.number else " nor the start of an action's words"
        console.print(
            Text(
                f"{_shown(answer)!r} is not a number from 1 to {len(turn.labels)}{words}; "
                "? for help"
            )
        )


def _shown(answer: str) -> str:
    """What the person typed, cut to a readable length for an error line."""
    return answer if len(answer) <= 40 else answer[:37] + "..."


def _show_help(game: Game, card: str, console: Console) -> None:
    """``?``: the rules summary, the legend and the keys; ``? <card>``: that card's text."""
    if not card:
        console.print(Panel(Text(game.rules_summary()), title="rules"))
        console.print(_legend(game))
        console.print(HELP)
        return
    text = game.card_help(card)
    if text is None:  # the start of a name's words, as a move is typed: "? absolu"
        names = list(game.card_texts.CARD_NAMES)
        found = match_action(card, names)
        fits = [] if found.number else [names[i] for i in found.indices]
        if len(fits) == 1:
            text = game.card_help(fits[0])
        elif fits:
            console.print(Text(f"{_shown(card)!r} fits {', '.join(fits)}: type more of it."))
            return
    if text is None:
        console.print(Text(f"No card is named {_shown(card)!r}; ? alone shows the rules."))
    else:
        console.print(Panel(Text(text), title="card"))


def _table(view: TableView, badges: list[str]) -> Panel:
    grid = Table(show_header=True, expand=True)
    for column in ("", "player", "hand", "notes"):
        grid.add_column(column, overflow="fold")
    names = row_names([player.name for player in view.players], badges)
    for p, player in enumerate(view.players):
        held = Text(counted(player.hand_size, "card"))
        hand = cards(player.hand) if player.hand is not None else held
        if player.area:
            hand = Text.assemble(hand, "\nin play: ", cards(player.area))
        marker = "\u25b6" if p == view.to_act else ""
        grid.add_row(marker, Text(names[p]), hand, Text(", ".join(player.notes)))
    body = Table.grid()
    body.add_column(overflow="fold")
    body.add_row(grid)
    body.add_row(Text.assemble("table: ", cards(view.table)))
    for line in view.status:
        body.add_row(Text(line))
    return Panel(body, title=badges[view.seat] if view.seat is not None else "every hand")


def _hand_panel(game: Game, view: TableView) -> Panel:
    """The seat's own hand (from its view alone), each card once, with its cost and effect."""
    hand = view.players[view.seat].hand if view.seat is not None else None
    if not hand:
        return Panel(Text("no cards"), title="your hand")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(overflow="fold", max_width=42)  # a chip whole: "[La Malice (malice, 17, …)]"
    grid.add_column(overflow="fold")
    for label in dict.fromkeys(hand):  # each card once (Président's hand repeats ranks)
        grid.add_row(card(label), Text(game.card_summary(label) or ""))
    return Panel(grid, title="your hand")


def _legend(game: Game) -> Panel:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(overflow="fold", max_width=24)
    grid.add_column(overflow="fold")
    for symbol, meaning in game.legend():
        grid.add_row(Text(symbol, style="bold"), Text(meaning))
    return Panel(grid, title="legend")


def _numbered(labels: list[str], indices) -> Text:
    """The actions at ``indices``, one a line with their numbers."""
    return Text("\n".join(f"{i + 1:>3}. {labels[i]}" for i in indices))
