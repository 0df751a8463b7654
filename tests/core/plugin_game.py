"""A game as a third party would ship it in its own package (tests/core/test_game_contract.py
registers it through a fake ``presages_env.games`` entry point): here, Président's rules
under another name."""

from __future__ import annotations

from presages_env.games.president.game import PresidentGame


class PluginGame(PresidentGame):
    name = "plugin_president"
    title = "Président, as a plug-in"
