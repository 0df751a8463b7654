"""The documentation site (mkdocs.yml, `make docs`): what its pages take from the code.

`make test` builds the site with warnings as errors (broken links, anchors, API references);
these tests check, without MkDocs, that the API reference lists every public name of
``presages_env`` and that each page's generated parts (docs/hooks.py) are filled in.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import presages_env

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("**/*.md"))


def load_hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    return hooks


def test_the_api_reference_lists_every_public_name():
    page = (DOCS / "api" / "index.md").read_text()
    block = page.split("::: presages_env\n")[1].split("\n\n")[0]
    members = re.findall(r"^ +- (\w+)$", block, flags=re.M)
    assert sorted(members) == sorted(presages_env.__all__)


def test_every_page_is_in_the_navigation():
    config = (ROOT / "mkdocs.yml").read_text()
    for page in PAGES:
        assert f": {page.relative_to(DOCS).as_posix()}\n" in config, page


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_every_generated_part_is_filled_in(page):
    text = load_hooks().on_page_markdown(page.read_text())
    marker = r"<!-- (readme|game-summary|game-options|game-state-layout|game-obs-layout) "
    assert not re.search(marker, text)
    assert "](docs/" not in text  # README links, made relative to the site


@pytest.mark.parametrize("name", presages_env.list_games())
def test_each_game_page_shows_its_players_and_options(name):
    text = load_hooks().on_page_markdown((DOCS / f"{name}.md").read_text())
    game = presages_env.get_game(name)
    assert f"{game.min_players} to {game.max_players} players" in text
    for option in presages_env.options(name):
        assert f"| `{option.name}` | " in text


@pytest.mark.parametrize("name", presages_env.list_games())
def test_each_game_page_shows_its_state_layout(name):
    """The page's state table is the layout the kernels index: every slot at its offset."""
    text = load_hooks().on_page_markdown((DOCS / f"{name}.md").read_text())
    slots = presages_env.get_game(name).state_layout.slots
    assert slots
    for slot in slots:
        assert f"| `{slot.name}` | {slot.offset} | " in text


@pytest.mark.parametrize("name", presages_env.list_games())
def test_each_game_page_shows_its_observation_layout(name):
    """The page's observation table is the one the kernels write (``obs_slots``), generated:
    every piece at its offset, the pieces ending at the observation's size."""
    text = load_hooks().on_page_markdown((DOCS / f"{name}.md").read_text())
    game = presages_env.get_game(name)
    pieces = game.obs_layout.slots
    assert pieces[-1].offset + pieces[-1].size == game.obs_size(game.max_players)
    for piece in pieces:
        assert f"| `{piece.name}` | {piece.offset} | " in text


def test_an_unknown_readme_section_fails_the_build():
    with pytest.raises(ValueError, match="site:begin nowhere"):
        load_hooks().on_page_markdown("<!-- readme nowhere -->")
