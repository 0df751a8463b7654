"""The replay page: one self-contained HTML file per record, every string from the record
escaped, tested in a real headless Chromium (Debian's chromium and chromium-driver; with
CI=true a missing browser fails, elsewhere it is skipped with the reason)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

import presages_env
from presages_env import records
from presages_env.__main__ import main
from presages_env.agents import RandomAgent

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
EVIL = '</script><script>document.title="owned"</script><img src=x onerror=alert(1)>'


def sample_record(name: str, seed: int = 2) -> records.GameRecord:
    """A game of random agents, the first seat named with markup."""
    n = presages_env.get_game(name).min_players
    seats = [RandomAgent(seed + p) for p in range(n)]
    return records.play_recorded(name, seats, [EVIL] + ["random"] * (n - 1), seed)


@pytest.mark.parametrize("name", presages_env.list_games())
def test_the_page_is_self_contained_and_escapes_the_record(name, tmp_path):
    path = tmp_path / "game.json"
    records.save(sample_record(name), path)
    assert main(["replay", str(path), "-o", str(tmp_path / "game.html")]) == 0
    html = (tmp_path / "game.html").read_text(encoding="utf-8")
    assert EVIL not in html and "<img" not in html  # the name is data, never markup
    assert "\\u003c/script\\u003e" in html
    assert "http://" not in html and "https://" not in html  # nothing fetched
    assert not re.search(r"<[a-z]+[^>]*\ssrc=", html)  # no tag loads anything


def test_a_tampered_record_is_refused(tmp_path, capsys):
    rec = sample_record("president")
    data = rec.to_json()
    data["result"][0] += 2
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 1
    assert "result" in capsys.readouterr().err


def browser():
    """A headless Chromium driven by Selenium, or a skip (a failure on CI) saying why."""
    from selenium import webdriver

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not (chromium and driver_path):
        reason = "no chromium and chromedriver on PATH (apt-get install chromium chromium-driver)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=driver_path)
    return webdriver.Chrome(options=options, service=service)


@pytest.mark.parametrize("name", presages_env.list_games())
def test_the_page_steps_through_the_game_in_a_real_browser(name, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    path = tmp_path / "game.json"
    records.save(sample_record(name), path)
    main(["replay", str(path), "-o", str(tmp_path / "game.html")])
    driver = browser()
    try:
        driver.get((tmp_path / "game.html").as_uri())
        assert driver.title != "owned"
        counter = driver.find_element(By.ID, "counter")
        assert counter.text.startswith("step 0 /")
        players = driver.find_element(By.ID, "players").text
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        assert counter.text.startswith("step 1 /")
        for _ in range(5):
            driver.find_element(By.ID, "step").click()
        assert counter.text.startswith("step 6 /")
        assert driver.find_element(By.ID, "players").text != players
        driver.find_element(By.ID, "back").click()
        assert counter.text.startswith("step 5 /")
        Select(driver.find_element(By.ID, "seat")).select_by_value("0")
        hidden = driver.find_elements(By.CSS_SELECTOR, ".card.back")
        assert hidden, "a seat's view hides the other hands"
        driver.find_element(By.ID, "last").click()
        shown, total = re.match(r"step (\d+) / (\d+)", counter.text).groups()
        assert shown == total and int(total) > 6
        assert EVIL in driver.find_element(By.ID, "title").text  # shown as text
        assert not driver.find_elements(By.TAG_NAME, "img")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"replay_{name}.png"))
    finally:
        driver.quit()
