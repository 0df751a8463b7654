"""Kuhn poker: the exemplar game, small enough to read in one sitting (docs/adding_a_game.md)."""
