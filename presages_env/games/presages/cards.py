"""The 35 Arcane cards of Présages: values, names, colours and timings.

A card is its value ``1..35`` (all distinct). Per-card arrays below have 36 entries and are
indexed by value; entry 0 is unused. They are numba-friendly module globals.
"""

import numpy as np

NUM_CARDS = 35

# values with a rule of their own
LOVE = 2
HOPE = 6
SPRING = 7
LIE = 9
ENIGMA = 10
SUMMER = 11
FEAR = 12
LUCK = 13
MIRROR = 14
LAW = 15
MALICE = 17
AUTUMN = 19
DREAM = 21
PRIDE = 22
JEALOUSY = 23
SECRET = 24
SADNESS = 26
WRATH = 28
BETRAYAL = 29
FIRST_ABSOLUTE = 30  # 30..35 are all L'Absolu
LAST_ABSOLUTE = 35

# colour bits; La Malice has all four
GREEN = 1
YELLOW = 2
RED = 4
BLUE = 8
ALL_COLOURS = GREEN | YELLOW | RED | BLUE

_NAMES = [
    # (value, english id, French name)
    (1, "life", "La Vie"),
    (2, "love", "L'Amour"),
    (3, "friendship", "L'Amitié"),
    (4, "calm", "Le Calme"),
    (5, "feast", "Le Festin"),
    (6, "hope", "L'Espoir"),
    (7, "spring", "Le Printemps"),
    (8, "death", "La Mort"),
    (9, "lie", "Le Mensonge"),
    (10, "enigma", "L'Énigme"),
    (11, "summer", "L'Été"),
    (12, "fear", "La Peur"),
    (13, "luck", "La Chance"),
    (14, "mirror", "Le Miroir"),
    (15, "law", "La Loi"),
    (16, "truth", "La Vérité"),
    (17, "malice", "La Malice"),
    (18, "day", "Le Jour"),
    (19, "autumn", "L'Automne"),
    (20, "harmony", "L'Harmonie"),
    (21, "dream", "Le Rêve"),
    (22, "pride", "L'Orgueil"),
    (23, "jealousy", "La Jalousie"),
    (24, "secret", "Le Secret"),
    (25, "night", "La Nuit"),
    (26, "sadness", "La Tristesse"),
    (27, "winter", "L'Hiver"),
    (28, "wrath", "La Colère"),
    (29, "betrayal", "La Trahison"),
] + [(v, f"absolute_{v}", "L'Absolu") for v in range(FIRST_ABSOLUTE, LAST_ABSOLUTE + 1)]

ENGLISH_IDS = ("",) + tuple(english for _, english, _ in _NAMES)
FRENCH_NAMES = ("",) + tuple(french for _, _, french in _NAMES)


def _colour_of(value: int) -> int:
    if value == MALICE:
        return ALL_COLOURS
    if value <= 8:
        return GREEN
    if value <= 16:
        return YELLOW
    if value <= 25:
        return RED
    return BLUE


COLOURS = np.array([0] + [_colour_of(v) for v in range(1, NUM_CARDS + 1)], dtype=np.int64)

# ⚡ cards resolve when placed from a hand; every other card is ⏳ (end of bout)
_FLASH_VALUES = (LAW, DREAM, JEALOUSY, SECRET, WRATH, BETRAYAL) + tuple(
    range(FIRST_ABSOLUTE, LAST_ABSOLUTE + 1)
)
IS_FLASH = np.array([v in _FLASH_VALUES for v in range(NUM_CARDS + 1)], dtype=np.bool_)

COLOUR_NAMES = {
    GREEN: "green",
    YELLOW: "yellow",
    RED: "red",
    BLUE: "blue",
    ALL_COLOURS: "every colour",
}
ANSI_COLOURS = {GREEN: "32", YELLOW: "33", RED: "31", BLUE: "34", ALL_COLOURS: "35"}


def is_absolute(value: int) -> bool:
    return FIRST_ABSOLUTE <= value <= LAST_ABSOLUTE
