"""The pending-decision tables' command, over every registered game::

    python -m presages_env.games.decision_tables --write            # regenerate every table
    python -m presages_env.games.decision_tables --check --games 50 # explore afresh: new ones?

The work is :mod:`presages_env.core.decision_tables`'s; the registry hands it the games.
"""

from __future__ import annotations

import sys

from presages_env.core.decision_tables import main
from presages_env.games import available_games, get_game

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], get_game, available_games()))
