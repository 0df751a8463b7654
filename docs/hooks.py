"""MkDocs hooks (mkdocs.yml): the parts of the site that the code or the README already say,
written in at build time instead of copied into the pages.

- ``<!-- readme SECTION -->``: the README's text between ``<!-- site:begin SECTION -->`` and
  ``<!-- site:end SECTION -->``, its ``docs/`` links made relative to the site.
- ``<!-- game-summary GAME -->``: the player counts and sizes ``python -m presages_env info``
  prints, then the rules in short the terminal shows (``Game.rules_summary``).
- ``<!-- game-options GAME -->``: the game's options table (``presages_env.options``); ``all``
  gives every game's, each under a heading.
- ``<!-- game-state-layout GAME -->``: the game's state slots after the header, with their
  offsets, sizes and meanings (``Game.state_layout``, declared in the game's layout).
- ``<!-- game-obs-layout GAME -->``: the game's observation, piece by piece, the same way
  (``Game.obs_layout``, the kernel's ``obs_slots``).

Sphinx roles in docstrings (``:func:`make` ``, ``:class:`~x.Game` ``) read as plain code on
the API pages. And a fence's second word, which tells the suite where a snippet runs (```` ```python
openspiel ````: in the venv with OpenSpiel), is dropped: Markdown reads it as no fence at all.

A marker that names an unknown section or game fails the build.
"""

from __future__ import annotations

import re
from pathlib import Path

import presages_env
from presages_env.ui.game_info import summary_lines

README = Path(__file__).resolve().parents[1] / "README.md"
README_MARKER = re.compile(r"<!-- readme ([\w-]+) -->")
GAME_MARKER = re.compile(
    r"<!-- (game-summary|game-options|game-state-layout|game-obs-layout) (\w+) -->"
)
DOCS_LINK = re.compile(r"\]\(docs/")
FENCE_TAG = re.compile(r"^```python \w+$", re.M)
ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):<code>~?")


def on_page_markdown(markdown: str, **kwargs: object) -> str:
    markdown = README_MARKER.sub(lambda m: readme_section(m[1]), markdown)
    markdown = GAME_MARKER.sub(lambda m: GENERATED[m[1]](m[2]), markdown)
    return FENCE_TAG.sub("```python", markdown)


def on_page_content(html: str, **kwargs: object) -> str:
    return ROLE.sub("<code>", html)


def readme_section(name: str) -> str:
    """The README's section ``name``, with links into ``docs/`` as the site has them."""
    text = README.read_text(encoding="utf-8")
    begin, end = f"<!-- site:begin {name} -->", f"<!-- site:end {name} -->"
    if text.count(begin) != 1 or text.count(end) != 1:
        raise ValueError(f"README.md needs exactly one {begin} and one {end}")
    section = text.split(begin)[1].split(end)[0]
    return DOCS_LINK.sub("](", section)


def game_summary(name: str) -> str:
    """The player counts and sizes, then the rules in short, as an admonition."""
    rules = presages_env.get_game(name).rules_summary().splitlines()
    facts = "\n\n".join(summary_lines(name))
    quoted = "\n\n".join(f"    {line}" for line in rules)
    return f'{facts}\n\n!!! abstract "The rules in short (the terminal\'s `?`)"\n\n{quoted}\n'


def game_options(name: str) -> str:
    """A Markdown table of the options of ``name``, or of every game for ``all``."""
    if name == "all":
        games = presages_env.list_games()
        return "\n".join(f"### {game}\n\n{game_options(game)}" for game in games)
    rows = [
        "| option | type | default | range | meaning |",
        "|---|---|---|---|---|",
        *(
            f"| `{o.name}` | {code(o.type)} | {code(repr(o.default))} | {cell(o.range)} "
            f"| {cell(meaning(o))} |"
            for o in presages_env.options(name)
        ),
    ]
    return "\n".join(rows) + "\n"


def meaning(option) -> str:
    """An option's label and description, as the lobby shows them (and whether only
    training uses it)."""
    hidden = " *Training only: the lab's lobby does not offer it.*" if option.training_only else ""
    return f"**{option.label}**: {option.description}{hidden}"


def game_state_layout(name: str) -> str:
    """A Markdown table of the state slots of ``name`` after the shared header."""
    layout = presages_env.get_game(name).state_layout
    if layout is None:
        raise ValueError(f"{name} declares no state_layout to document")
    return layout.markdown()


def game_obs_layout(name: str) -> str:
    """A Markdown table of the observation pieces of ``name``."""
    layout = presages_env.get_game(name).obs_layout
    if layout is None:
        raise ValueError(f"{name} declares no obs_layout to document")
    return layout.markdown()


def code(text: str) -> str:
    """Code in a table cell (a pipe in a code span is no column break)."""
    return f"`{text}`"


def cell(text: str) -> str:
    """Text in a table cell: its pipes are not column breaks."""
    return text.replace("|", "\\|")


GENERATED = {
    "game-summary": game_summary,
    "game-options": game_options,
    "game-state-layout": game_state_layout,
    "game-obs-layout": game_obs_layout,
}
