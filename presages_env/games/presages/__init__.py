"""Présages (team shedding game, 35 Arcane cards, Spiral Éditions 2025)."""
