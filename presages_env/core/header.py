"""The header every game state starts with.

A game state is one flat ``int64`` array. Its first ``HEADER_SIZE`` slots have the same
meaning in every game, so the shared core (AEC adapter, vector env, serialisation) can read
who acts and whether the game is over without calling into the game. The rest of the array
is the game's own layout, documented at the top of its ``kernel.py``.
"""

HDR_NUM_PLAYERS = 0  # seats in this game
HDR_RNG = 1  # splitmix64 state of the game's own RNG (uint64 bits stored as int64)
HDR_CURRENT = 2  # seat whose decision it is; -1 once the game is over
HDR_TERMINAL = 3  # 1 once the game is over; TRUNCATED if the game cut itself at its step cap
HDR_STEP = 4  # decisions applied since the deal
HDR_SEED = 5  # seed the game was dealt from (replay = seed + actions)
HDR_GAME_ID = 6  # which game wrote this state (guards deserialisation)
HDR_RESERVED = 7
HEADER_SIZE = 8

# HDR_TERMINAL of a game its own rules cut short (a step cap): over, no winner, zero rewards;
# the envs report it as a truncation, not a termination.
TRUNCATED = 2
