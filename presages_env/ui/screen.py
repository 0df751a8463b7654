"""One turn on one terminal screen: the table, the last moves, your hand, the actions and
the prompt fit the terminal's size (80×24 and up), so nothing scrolls away while you choose.
The moves are those since the human's last turn, or the last few when none happened since.

Each part is wrapped to the width (never cut mid-line); when the parts are taller than the
screen, the moves shrink first (``log`` shows them all), then the middle of the table's
status lines (``table``), then the actions past the first rows (``actions``); a line says
what was left out and the command that shows it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from presages_env.core.results import counted
from presages_env.core.seats import row_names
from presages_env.core.view import TableView

RED_SUITS = ("\u2665", "\u2666")
MIN_MOVES = 3  # event lines kept before the table and the actions give up lines
MIN_ACTION_ROWS = 4
COMMANDS = "? help  log  table  hand  actions  u undo  q quit"


@dataclass
class Turn:
    """What one of the human's turns shows."""

    title: str  # "Présages: P1 · you"
    view: TableView  # the table from the human's seat
    log: list[str]  # what the seat saw happen, in words
    new: int  # how many of the log's last lines happened since their last turn
    labels: list[str]  # the legal actions, in order
    badges: list[str]  # each seat's one name as the human reads it: "P2 · ppo · opponent"


def card(label: str) -> Text:
    """A card as a chip: ``[label]``, red for the red suits."""
    style = "bold red" if any(s in label for s in RED_SUITS) else "bold"
    return Text(f"[{label}]", style=style)


def cards(labels: list[str]) -> Text:
    return Text(" ").join(card(c) for c in labels) if labels else Text("-")


def heading(title: str, width: int) -> Text:
    """``── title ─────``, the full width."""
    text = f"\u2500\u2500 {title} "
    return Text(text + "\u2500" * max(0, width - len(text)), style="dim")


def wrap(text: Text | str, console: Console, width: int, indent: int = 4) -> list[Text]:
    """``text`` wrapped to ``width`` columns, the lines after the first indented."""
    text = Text(text) if isinstance(text, str) else text
    lines = text.wrap(console, width - indent, overflow="fold") or [Text("")]
    for line in lines:
        line.rstrip()
    return [lines[0], *(Text(" " * indent) + line for line in lines[1:])]


def table_parts(turn: Turn, console: Console, width: int) -> tuple[list[list[Text]], list[Text]]:
    """The table's lines: each player's (the heading first, the middle's cards last), then
    the status lines; the parts the screen may shorten."""
    view = turn.view
    players = [[heading(turn.title, width)]]
    names = row_names([player.name for player in view.players], turn.badges)
    players += [player_lines(view, p, names[p], console, width) for p in range(len(view.players))]
    players.append(wrap(Text.assemble("table: ", cards(view.table)), console, width))
    status = [line for s in view.status for line in wrap(s, console, width)]
    return players, status


def player_lines(
    view: TableView, p: int, name: str, console: Console, width: int, most: int | None = None
) -> list[Text]:
    """Player ``p``'s line (``name``: its seat's name), wrapped; with ``most``, in at most
    that many lines: whole notes left out from the last (an ellipsis says so), never a line
    cut mid-phrase."""
    notes = list(view.players[p].notes)
    for kept in range(len(notes), -1, -1):
        shown = notes[:kept] + (["\u2026"] if kept < len(notes) else [])
        lines = wrap(player_line(view, p, name, shown), console, width)
        if most is None or len(lines) <= most:
            return lines
    return lines[:most]  # the cards alone are longer: the table command shows them


def player_line(view: TableView, p: int, name: str, notes: list[str]) -> Text:
    """Player ``p``: the turn mark, ``name``, the hand (cards shown or how many), the cards in
    play and ``notes``."""
    player = view.players[p]
    mark = "\u25b6 " if p == view.to_act else "  "
    if p == view.seat or player.hand is None:
        held = Text(counted(player.hand_size, "card"))
    else:
        held = cards(player.hand)
    line = Text.assemble(mark, (name, "bold"), ": ", held)
    if player.area:
        line.append_text(Text.assemble("; in play: ", cards(player.area)))
    if notes:
        line.append(f"; {', '.join(notes)}")
    return line


def hand_lines(turn: Turn, console: Console, width: int) -> list[Text]:
    view = turn.view
    hand = view.players[view.seat].hand if view.seat is not None else None
    return [
        heading("your hand (? <card> for its text, hand for all)", width),
        *wrap(cards(hand or []), console, width, indent=0),
    ]


def action_rows(labels: list[str], console: Console, width: int) -> tuple[list[list[Text]], int]:
    """The actions numbered, row by row (in order across, as many columns as the longest
    fits, at most 3), each row its lines (a label wider than the screen wraps); and the
    number of columns."""
    cells = [f"{i + 1:>3}. {label}" for i, label in enumerate(labels)]
    cell_width = max(map(len, cells), default=0) + 2
    columns = max(1, min(3, width // cell_width))
    if columns == 1:
        return [wrap(c, console, width, indent=6) for c in cells], 1
    rows = [
        [Text("".join(c.ljust(cell_width) for c in cells[r : r + columns]).rstrip())]
        for r in range(0, len(cells), columns)
    ]
    return rows, columns


def turn_screen(turn: Turn, console: Console, width: int, height: int) -> list[Text]:
    """The turn's lines, at most ``height - 1`` (the prompt takes the last line)."""
    players, status = table_parts(turn, console, width)
    hand = hand_lines(turn, console, width)
    rows, columns = action_rows(turn.labels, console, width)
    recent = turn.log[len(turn.log) - turn.new :] if turn.new else turn.log[-MIN_MOVES:]
    news = [line for event in recent for line in wrap(event, console, width)]
    status_cut, players_cut = 0, False  # each cut says so on a line of its own

    def room() -> int:  # lines left for the moves (heading included)
        fixed = sum(map(len, players)) + len(status) + bool(status_cut) + players_cut
        fixed += len(hand) + 1 + sum(map(len, rows)) + (len(rows) * columns < len(turn.labels))
        return height - 1 - fixed

    wanted = MIN_MOVES + 1 if news else 0
    if room() < wanted and len(status) > 2:  # the first and the last ("now: ...") stay
        status_cut = min(len(status) - 2, wanted - room() + 1)
        status = [*status[: len(status) - 1 - status_cut], status[-1]]
    seats = range(len(turn.view.players))
    names = row_names([player.name for player in turn.view.players], turn.badges)
    for most in (2, 1):  # each player's lines, shortened to their first notes
        if room() < wanted and any(len(lines) > most for lines in players[1:-1]):
            players_cut = True
            shortened = [player_lines(turn.view, p, names[p], console, width, most) for p in seats]
            players = [players[0], *shortened, players[-1]]
    while room() < wanted and len(rows) > MIN_ACTION_ROWS:
        rows.pop()
    actions = [heading(f"your move ({COMMANDS})", width), *(line for row in rows for line in row)]
    shown = min(len(turn.labels), len(rows) * columns)
    if shown < len(turn.labels):
        more = len(turn.labels) - shown
        actions.append(Text(f"  (+{more} more: actions lists them all)", style="dim"))
    table = [line for lines in players for line in lines] + status
    if status_cut:
        table.append(Text(f"  ({status_cut} status lines left out: table)", style="dim"))
    if players_cut:
        table.append(Text("  (players' notes shortened: table)", style="dim"))
    left = height - 1 - len(table) - len(hand) - len(actions)
    if left < min(wanted, 2):  # the table's end goes, for the latest move at least
        keep = max(1, len(table) - (min(wanted, 2) - left) - 1)
        table = [*table[:keep], Text(f"  ({len(table) - keep} more lines: table)", style="dim")]
        left = height - 1 - len(table) - len(hand) - len(actions)
    moves = []
    if left >= 2:
        shown = news[-(left - 1) :] if news else [Text("-")]
        title = "since your last turn" if turn.new else "last moves"
        if len(shown) < len(news):
            title += f" ({len(news) - len(shown)} lines earlier: log)"
        moves = [heading(title, width), *shown]
    return [*table, *moves, *hand, *actions]
