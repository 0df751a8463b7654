"""Kuhn poker, the exemplar (docs/adding_a_game.md): its options, declared once, here where
``presages_env.options`` reads them without loading the rules (``kernel.py``, ``game.py``)."""

from presages_env.core.option_space import integers, option

option_space = {
    "bet": option(
        integers(1, 4),
        "Bet",
        "Chips a bet (or a call) adds to the pot; every player antes 1. 1 is the classic "
        "game, whose value for the first player at two players is -1/18.",
        default=1,
    )
}
