"""What must not reach a person's screen: reStructuredText markup (``double backticks``,
``:class:`` roles), references to documents a reader does not have (rule sections ``§4.2``,
rule ids ``G4``, the name "Game Park") and a singular count with a plural noun ("1 cards").
Used on ``--help``, ``info``, the terminal's screens and the built docs site."""

from __future__ import annotations

import re

# what the games, results and screens count
NOUNS = (
    "cards|laurels|points|chips|lives|essences|tricks|rounds|bouts|manches|players|seats|"
    "decisions|games|actions|moves|turns|hands|bids|piles|artifacts|monuments|steps|seconds|"
    "wins|teams|VPs"
)
LEAKS = {
    "reST markup": re.compile(r"``[^`\n]+``|:(?:class|func|meth|mod|data|attr|exc|obj):`"),
    "an internal reference": re.compile(r"§ ?\d|\bG\d{1,2}\b|Game Park"),
    "a plural after 1": re.compile(rf"(?<![\d.,/×x+−-])(?<![+,−-] )\b1 (?:{NOUNS})\b"),
}


def text_leaks(text: str) -> list[str]:
    """Each leak in ``text``: what it is and a little of its context."""
    found = []
    for what, pattern in LEAKS.items():
        for match in pattern.finditer(text):
            start, end = max(match.start() - 30, 0), match.end() + 30
            found.append(f"{what}: {' '.join(text[start:end].split())!r}")
    return found
