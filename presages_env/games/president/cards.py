"""Président's 52-card deck. Suits have no effect on play, so a hand is a count per rank."""

NUM_RANKS = 13
SUITS = 4
NUM_CARDS = NUM_RANKS * SUITS

# Weakest to strongest: the 2 beats the Ace.
RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
RANK_NAMES_FR = ("3", "4", "5", "6", "7", "8", "9", "10", "Valet", "Dame", "Roi", "As", "2")
SET_NAMES = ("single", "pair", "triple", "quad")
PLACE_TITLES = ("Président", "Vice-président")
