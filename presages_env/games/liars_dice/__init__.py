"""Liar's dice, the second exemplar, a game without cards (docs/liars_dice.md): its options,
declared once, here where ``presages_env.options`` reads them without loading the rules."""

from presages_env.core.option_space import integers, option

option_space = {
    "faces": option(
        integers(2, 6),
        "Faces",
        "Faces of each die, numbered from 1; the highest is wild. 6, the default, is "
        "OpenSpiel's liars_dice.",
        default=6,
    )
}
