"""Président (climbing game, Pagat basic variant)."""
