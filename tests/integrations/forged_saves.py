"""Forged numbers for the saved-state tests of both kinds of OpenSpiel games: what
OpenSpiel's own loader reads as a number (``std::stol``: ``34abc`` is 34, ``0 rm -rf /`` is 0,
`` 4`` and ``+4`` are 4) or cannot read (a number beyond a long), and the reason
``presages_env.openspiel.deserialize_game_and_state`` gives for refusing each."""

FORGED_NUMBERS = {
    "34abc": "not a decimal integer",
    "0 rm -rf /": "not a decimal integer",
    " 4": "not a decimal integer",
    "+4": "not a decimal integer",
    "04": "not a decimal integer",
    "\u0664": "not a decimal integer",  # ARABIC-INDIC DIGIT FOUR: Python's int() reads 4
    "": "not a decimal integer",  # an empty line in a compiled game's history: OpenSpiel skips it
    "9" * 30: "not from 0 to 255",
    "-4": "not from 0 to 255",
}

FIRST_STATE_LINE = 8  # after the header, the game string and "[State]" (counted from 1)


def with_line(text: str, number: int, line: str) -> str:
    """``text`` with its line ``number`` (counted from 1) replaced by ``line``."""
    lines = text.split("\n")
    lines[number - 1] = line
    return "\n".join(lines)
