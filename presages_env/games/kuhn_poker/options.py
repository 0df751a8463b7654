"""Kuhn poker's options, declared once: each field's type and default, its meaning in the class
docstring and its range in the option space. Nothing here loads the rules (numba)."""

from __future__ import annotations

import dataclasses

from presages_env.core.option_space import integers

MAX_BET = 4


@dataclasses.dataclass(frozen=True)
class KuhnPokerOptions:
    """Options of a Kuhn poker hand.

    bet: chips a bet (or a call) adds to the pot; every seat antes 1. Default 1, the classic
        game, whose value for the first seat with two players is -1/18.
    """

    bet: int = 1


Options = KuhnPokerOptions  # the names describe_options reads, as on the Game
option_space = {"bet": integers(1, MAX_BET)}
