"""A game as a third party would ship it in its own package (tests/core/test_game_contract.py
registers it through a fake ``presages_env.games`` entry point): here, Président's rules
under another name."""

from __future__ import annotations

from presages_env.games.kuhn_poker.game import KuhnPokerGame
from presages_env.games.president.game import PresidentGame


class PluginGame(PresidentGame):
    name = "plugin_president"
    title = "Président, as a plug-in"
    game_id = 101  # its own: Président's would be refused (the registry keeps ids unique)


class KuhnIdGame(PluginGame):
    """A plug-in claiming Kuhn poker's ``game_id``: the registry refuses it."""

    name = "kuhn_id_game"
    game_id = KuhnPokerGame.game_id
