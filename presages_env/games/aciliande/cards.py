"""The 22 major arcana that Aciliande is played with.

A card is its number, 0 (Le Mat) to 21 (Le Monde); strength is the number itself. The life
piles (minor arcana 2, 3, 4 of a suit) are only counters, so they are not cards here.
"""

NUM_CARDS = 22

# default Goddesses (Déesses): II La Papesse, III L'Impératrice, XVII L'Étoile
DEFAULT_GODDESSES = (2, 3, 17)

FRENCH_NAMES = (
    "Le Mat",
    "Le Bateleur",
    "La Papesse",
    "L'Impératrice",
    "L'Empereur",
    "Le Pape",
    "L'Amoureux",
    "Le Chariot",
    "La Justice",
    "L'Ermite",
    "La Roue de Fortune",
    "La Force",
    "Le Pendu",
    "L'Arcane sans nom",
    "Tempérance",
    "Le Diable",
    "La Maison Dieu",
    "L'Étoile",
    "La Lune",
    "Le Soleil",
    "Le Jugement",
    "Le Monde",
)

ENGLISH_IDS = (
    "fool",
    "magician",
    "high_priestess",
    "empress",
    "emperor",
    "hierophant",
    "lovers",
    "chariot",
    "justice",
    "hermit",
    "wheel_of_fortune",
    "strength",
    "hanged_man",
    "death",
    "temperance",
    "devil",
    "tower",
    "star",
    "moon",
    "sun",
    "judgement",
    "world",
)

ROMAN_NUMERALS = (
    "0",
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",
    "VII",
    "VIII",
    "IX",
    "X",
    "XI",
    "XII",
    "XIII",
    "XIV",
    "XV",
    "XVI",
    "XVII",
    "XVIII",
    "XIX",
    "XX",
    "XXI",
)


def card_name(card: int) -> str:
    """Short label such as ``"XVII L'Étoile"``."""
    return f"{ROMAN_NUMERALS[card]} {FRENCH_NAMES[card]}"
