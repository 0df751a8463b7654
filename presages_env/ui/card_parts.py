"""The parts of a page that draw cards, written once for the replay page and the lab's table
page: the card stylesheet (``cards.css``: value in the corner, the colour as band, border
and ink), the script that draws a card from its face (``cards.js``) and the game symbols as
inline SVG (``symbols.html``: they show without an emoji font). A page's template names them
by placeholder; the lab serves the stylesheet and script as files, since its policy allows
no inline style or script."""

from __future__ import annotations

from importlib.resources import files

CARD_STYLE = "__CARD_STYLE__"
CARD_SCRIPT = "__CARD_SCRIPT__"
SYMBOLS = "__SYMBOLS__"


def card_part(name: str) -> str:
    """The text of the part ``name``: ``cards.css``, ``cards.js`` or ``symbols.html``."""
    return files("presages_env.ui").joinpath(name).read_text(encoding="utf-8")


def with_card_parts(template: str) -> str:
    """``template`` with its placeholders replaced: the card stylesheet and script (where
    they are inline) and the symbols' SVG. Call it before a page's data goes in, so no data
    is replaced."""
    for placeholder, name in (
        (CARD_STYLE, "cards.css"),
        (CARD_SCRIPT, "cards.js"),
        (SYMBOLS, "symbols.html"),
    ):
        template = template.replace(placeholder, card_part(name))
    return template
