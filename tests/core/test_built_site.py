"""The documentation site as built (`make docs`), read where the README says to open it:
``site/index.html`` from the disk, where a link to a folder shows a file listing and a
search worker cannot load, as well as over HTTP."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from extras import require

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built once for this module's tests (about 20 s)."""
    require("docs")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)]
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
    return out


def test_from_the_disk_every_navigation_link_opens_a_page_and_search_finds(site):
    """Opened as ``site/index.html``, every navigation link landed on a folder listing
    (``presages/`` rather than ``presages.html``) and search was hidden."""
    require("browser")
    from browser import chromium
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = chromium((1280, 900))
    try:
        driver.get((site / "index.html").as_uri())
        links = driver.find_elements(By.CSS_SELECTOR, "nav.md-nav--primary a.md-nav__link[href]")
        pages = sorted({link.get_attribute("href").split("#")[0] for link in links})
        assert len(pages) > 10
        for page in pages:
            assert page.startswith("file://") and page.endswith(".html"), page
            driver.get(page)
            assert driver.find_elements(By.CSS_SELECTOR, "article.md-content__inner h1"), page
        driver.get((site / "index.html").as_uri())
        search = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
        search.click()
        search.send_keys("Aciliande")
        results = WebDriverWait(driver, 20).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "li.md-search-result__item")
        )
        assert results and "Aciliande" in results[0].text
    finally:
        driver.quit()


def test_no_page_shows_markup_internal_references_or_1_cards(site):
    """The pages showed reST roles, the rules document's section marks and rule ids
    ("(§4.2, G4)", "Game Park") and "1 cards"."""
    import html
    import re

    from text_leaks import text_leaks

    leaks = []
    for page in sorted(site.rglob("*.html")):
        text = re.sub(r"<(script|style)\b.*?</\1>", " ", page.read_text(), flags=re.S)
        text = html.unescape(re.sub(r"<[^>]+>", "", text))
        leaks += [f"{page.relative_to(site)}: {leak}" for leak in text_leaks(text)]
    assert not leaks, "\n".join(leaks)
