"""What a renderer draws: a game's table as plain data, for one seat or for a referee.

Each game's ``view.py`` turns a state (the referee's view: every hand, for debugging) or one
seat's observation (what that seat may see, nothing more) into a :class:`TableView`; the
terminal player, the ansi render and the HTML replay viewer draw that, so no renderer reads
hidden state for a seat. Cards are short labels (``"7♥"``, ``"K"``, ``"Secret"``).
"""

from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from presages_env.core.events import seat_name
from presages_env.core.results import counted

# The first line of every text showing every hand (TableView.text, the envs' render()).
REFEREE_HEADING = "[every hand: a referee's view, for debugging]"


@dataclass
class PlayerView:
    name: str  # "player_2", or "you"
    hand: list[str] | None  # None: hidden from this view
    hand_size: int
    notes: list[str] = field(default_factory=list)  # "team A", "3 lives", "passed", ...
    area: list[str] = field(default_factory=list)  # cards in front of the player (tableau)


@dataclass
class TableView:
    players: list[PlayerView]
    table: list[str]  # cards in the middle (the trick, the bout, the play to beat)
    status: list[str]  # lines: round, phase, scores, what is pending
    to_act: int  # the seat to act, -1 when the game is over
    seat: int | None  # whose view this is; None: the referee's (every hand)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def text(self) -> str:
        """Plain text, one block per player, then the table and the status."""
        lines = [REFEREE_HEADING if self.seat is None else f"[{seat_name(self.seat)}'s view]"]
        for p, player in enumerate(self.players):
            mark = ">" if p == self.to_act else " "
            shown = player.hand is not None
            hand = (_cards(player.hand) or "-") if shown else counted(player.hand_size, "card")
            notes = f"; {', '.join(player.notes)}" if player.notes else ""  # cards hold ( )
            lines.append(f"{mark} {player.name}: {hand}{notes}")
            if player.area:
                lines.append(f"    in play: {_cards(player.area)}")
        lines.append(f"table: {_cards(self.table) or '-'}")
        lines.extend(self.status)
        return "\n".join(lines)


def _cards(labels: list[str]) -> str:
    """Labels joined by spaces, or by commas when a label has a space (``"XVII L'Étoile"``)."""
    return (", " if any(" " in label for label in labels) else " ").join(labels)


def name_key(name: str) -> str:
    """``name`` folded for a lookup by what a person types: any case, accents dropped, a
    typographic apostrophe as a plain one, runs of spaces as one (``"le reve"`` finds
    ``"Le Rêve"``)."""
    plain = unicodedata.normalize("NFKD", name.replace("\u2019", "'"))
    letters = "".join(c for c in plain if not unicodedata.combining(c))
    return " ".join(letters.casefold().split())
