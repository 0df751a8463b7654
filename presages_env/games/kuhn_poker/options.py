"""Kuhn poker's options, declared once: each field's type and default, its label, meaning
and range in the option space. Nothing here loads the rules (numba)."""

from __future__ import annotations

import dataclasses

from presages_env.core.option_space import integers, option

MAX_BET = 4


@dataclasses.dataclass(frozen=True)
class KuhnPokerOptions:
    """Options of a Kuhn poker hand. Each option's label and meaning are in
    :data:`option_space` below."""

    bet: int = 1


Options = KuhnPokerOptions  # the names describe_options reads, as on the Game
option_space = {
    "bet": option(
        integers(1, MAX_BET),
        "Bet",
        "Chips a bet (or a call) adds to the pot; every player antes 1. 1 is the classic "
        "game, whose value for the first player at two players is -1/18.",
    )
}
