"""Aciliande (trick-taking with bids, Goddesses and life piles, on the 22 major arcana)."""
