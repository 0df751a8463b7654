"""Res Arcana's components in words (the shared contract: tests/ui/test_card_text.py)."""

from __future__ import annotations

import presages_env

GAME = presages_env.get_game("res_arcana")


def test_the_game_names_its_78_components():
    assert len(GAME.card_texts.CARD_NAMES) == 78


def test_vault_gives_its_kind_cost_and_effect():
    text = GAME.card_help("vault")
    assert text.startswith("Vault (Coffre-Fort): artifact, cost 1 Gold + 1 any")
    assert "if Gold is left on this, gain 2 non-Gold essences" in text
    assert "turn → put 1 Gold on this" in text


def test_a_component_is_found_by_its_french_name():
    assert "Vault (Coffre-Fort)" in GAME.card_help("coffre-fort")
