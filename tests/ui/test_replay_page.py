"""The replay page: one self-contained HTML file per record, every string from the record
escaped, tested in a real headless Chromium (Debian's chromium and chromium-driver; with
CI=true a missing browser fails, elsewhere it is skipped with the reason)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import presages_env
from presages_env import records
from presages_env.__main__ import main
from presages_env.agents import RandomAgent
from presages_env.core import events as ev
from presages_env.ui.replay_page import page_data, write_replay_page

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


# ---- a page write that fails leaves nothing half-written (issue 27, defect 6) ----------------
def test_a_record_that_cannot_become_a_page_leaves_the_output_untouched(tmp_path, capsys):
    data = sample_record("president").to_json()
    data["agents"][0] = "bad \ud800 name"  # valid JSON, not valid text: cannot be encoded
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    output = tmp_path / "game.html"
    output.write_text("the previous page")
    assert main(["replay", str(path), "-o", str(output)]) == 1
    assert "agents" in capsys.readouterr().err
    assert output.read_text() == "the previous page"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "game.html"]


def test_a_page_that_cannot_be_encoded_is_not_written(tmp_path):
    rec = sample_record("president")
    bad = dataclasses.replace(rec, agents=["bad \ud800 name", *rec.agents[1:]])
    output = tmp_path / "game.html"
    output.write_text("the previous page")
    with pytest.raises(ValueError, match="not valid Unicode"):
        write_replay_page(bad, output)
    assert output.read_text() == "the previous page"
    assert [p.name for p in tmp_path.iterdir()] == ["game.html"]


# ---- a seat view shows only what that seat saw (issue 27, defect 5) --------------------------
# A random game per game that reaches its hidden decisions (Président's exchange needs a
# second manche), named by the first word of their labels; Aciliande has none.
HIDDEN_GAMES = {  # name: (players, seed, options, hidden decisions)
    "president": (4, 1, {"num_manches": 3}, {"give"}),  # give back a card
    "presages": (4, 0, {}, {"show", "give"}),  # Le Secret's card, L'Absolu's exchange
    "res_arcana": (2, 26, {}, {"keep", "put"}),  # the mage kept, the order put back
    "aciliande": (3, 1, {}, set()),
}


def outcome_seen_by(game, state: np.ndarray, action: int, seat: int) -> tuple[bytes, bytes, bytes]:
    """After ``action``: the whole state, ``seat``'s observation and the events it saw."""
    n = game.num_players_of(state)
    after = state.copy()
    log = ev.new_buffer(game.kernel.MAX_STEP_EVENTS)
    game.kernel.step_logged(after, np.int64(action), np.zeros(n, np.float32), log)
    obs = np.zeros(game.obs_size(n), dtype=game.obs_dtype)
    game.kernel.observe(after, np.int64(seat), obs)
    return after.tobytes(), obs.tobytes(), ev.visible_to(ev.drain(log), seat).tobytes()


def hidden_choices(rec: records.GameRecord) -> dict[tuple[int, int], list[int]]:
    """``(frame, seat) -> alternatives`` for each move that ``seat`` could not tell from other
    legal actions with other labels: the same observation and the same events for ``seat``
    (another outcome for the game). The page's line for ``seat`` must not say which."""
    game = presages_env.get_game(rec.game)
    states = records.replay(rec)
    mask = np.zeros(game.num_actions(rec.num_players), dtype=np.int8)
    hidden = {}
    for t, move in enumerate(rec.actions, start=1):
        state = states[t - 1]
        game.kernel.legal_mask(state, mask)
        others = [int(a) for a in np.flatnonzero(mask) if a != move["action"]]
        others = [a for a in others if game.action_label(state, a) != move["label"]]
        for seat in range(rec.num_players):
            if seat == move["seat"]:
                continue
            played = outcome_seen_by(game, state, move["action"], seat)
            alike = [
                a
                for a in others
                if (seen := outcome_seen_by(game, state, a, seat))[1:] == played[1:]
                and seen[0] != played[0]
            ]
            if alike:
                hidden[t, seat] = alike
    return hidden


@pytest.mark.parametrize("name", presages_env.list_games())
def test_a_seat_page_shows_only_what_that_seat_saw(name):
    n, seed, options, decisions = HIDDEN_GAMES[name]
    game = presages_env.get_game(name)
    rec = records.play_recorded(
        name, [RandomAgent(seed + p) for p in range(n)], ["random"] * n, seed, **options
    )
    states = records.replay(rec)
    hidden = hidden_choices(rec)
    assert {rec.actions[t - 1]["label"].split()[0] for t, _ in hidden} == decisions
    referee = page_data(rec)
    assert referee["views"] == ["all", *map(str, range(n))]
    for seat in range(n):
        data = page_data(rec, seat=seat)
        assert data["views"] == [str(seat)]
        for t, frame in enumerate(data["frames"]):
            assert list(frame["views"]) == [str(seat)]
            assert all(e["visible"] == "all" or seat in e["visible"] for e in frame["events"])
            if t == 0:
                continue
            move, line = rec.actions[t - 1], frame["move"]["label"][str(seat)]
            assert referee["frames"][t]["move"]["label"][str(seat)] == line
            assert referee["frames"][t]["move"]["label"]["all"] == move["label"]
            if move["seat"] == seat:
                assert line == move["label"]  # a seat sees its own choices
            if (t, seat) not in hidden:
                continue  # (a public move may still be shown in a public form)
            assert move["label"] not in line, f"step {t}: seat {seat} sees {move['label']!r}"
            for other in hidden[t, seat]:  # the line is the same whichever was played
                assert line == game.action_label_for(states[t - 1], other, seat)
