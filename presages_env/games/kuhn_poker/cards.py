"""Kuhn poker's deck: n players play the n + 1 lowest of J, Q, K, A (suits do not exist)."""

CARD_NAMES = ("J", "Q", "K", "A")  # weakest first
LONG_NAMES = ("Jack", "Queen", "King", "Ace")
