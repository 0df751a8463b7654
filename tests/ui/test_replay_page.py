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
from presages_env.ui.replay_page import page_data, replay_page, write_replay_page

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WINDOW = (1280, 900)
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


@pytest.mark.parametrize("name", presages_env.list_games())
def test_the_title_and_banner_say_the_game_and_who_won_in_words(name):
    """The title read ``president — ... — result -0.3333333432674408 / 1 / ...``: it names
    the game as it is written, and the banner says who won and each seat's place and score."""
    rec = sample_record(name)
    game = presages_env.get_game(name)
    data = page_data(rec)
    assert data["title"] == game.title
    words = game.result_words(records.replay(rec)[-1], rec.result, rec.agents)
    assert data["result"] == {"headline": words.headline, "lines": list(words.lines)}
    assert words.headline.endswith(" won") or words.headline.startswith(("A draw", "No winner"))
    assert len(words.lines) == rec.num_players
    assert not re.search(r"\d\.\d{3}", json.dumps(data["result"], ensure_ascii=False))


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
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
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
    rec = sample_record(name)
    records.save(rec, path)
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
        title = driver.find_element(By.ID, "title").text
        assert EVIL in title  # shown as text
        result = page_data(rec)["result"]
        game_title = presages_env.get_game(name).title
        assert title.startswith(f"{game_title} \u2014 ") and driver.title == f"{game_title} replay"
        assert driver.find_element(By.ID, "winner").text == result["headline"]
        places = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#places li")]
        assert places == [" ".join(line.split()) for line in result["lines"]]
        assert not driver.find_elements(By.TAG_NAME, "img")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
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


# ---- a replay page a person can read (issue 29, item 3) --------------------------------------
RAW_EVENT = r"\b\w+=-?\d+"  # "card=12": an event's arguments, not words
# What every common text font draws: no emoji font needed (no U+23xx clock or media symbols).
PLAIN = frozenset("\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2022\u2039\u203a\u2190\u2192")


def opened_page(driver, rec: records.GameRecord, tmp_path: Path, seat: int | None = None):
    path = tmp_path / "game.html"
    path.write_text(replay_page(rec, seat), encoding="utf-8")
    driver.get(path.as_uri())


def expected_rounds(rec: records.GameRecord) -> list[tuple[str, list[str]]]:
    """``(round title, [bout titles])`` from the record's own (public) events."""
    texts = presages_env.get_game(rec.game).event_texts
    rounds: list[tuple[str, list[str]]] = []
    for data in rec.events:
        event = ev.Event(data["kind"], data["actor"], "all", data["args"])
        if (title := texts.round_title(event)) is not None:
            rounds.append((title, []))
            opener = event
        elif hasattr(texts, "bout_title") and (bout := texts.bout_title(event, opener)):
            rounds[-1][1].append(bout)
    return rounds


def test_every_game_titles_its_rounds_in_words():
    for name in presages_env.list_games():
        rec = sample_record(name)
        rounds = [(r["title"], [b["title"] for b in r["bouts"]]) for r in page_data(rec)["rounds"]]
        assert rounds == expected_rounds(rec)
        assert all(re.fullmatch(r"(Round|Manche) \d+( \(duel\))?", title) for title, _ in rounds)
        if name in ("res_arcana", "presages"):
            assert len(rounds) > 1, f"{name}: {rounds}"
        if name == "presages":
            assert all(
                re.fullmatch(r"Bout \d+ of round \d+", b) for _, bouts in rounds for b in bouts
            )
            assert all(bouts for _, bouts in rounds)


def jump_entries(driver) -> list[tuple[str, list[str]]]:
    """The round jump as shown: ``(round, [bouts])`` per entry, an option or a group."""
    return driver.execute_script(
        """return Array.from(document.getElementById("round").children).map((e) =>
             e.tagName === "OPTGROUP"
               ? [e.label, Array.from(e.children).map((o) => o.text)]
               : [e.text, []]);"""
    )


@pytest.mark.parametrize("name", presages_env.list_games())
def test_the_round_jump_has_one_entry_per_round_played_in_words(name, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    rec = sample_record(name)
    expected = expected_rounds(rec)
    driver = browser()
    try:
        opened_page(driver, rec, tmp_path)
        assert [tuple(entry) for entry in jump_entries(driver)] == expected
        jump = Select(driver.find_element(By.ID, "round"))
        last = page_data(rec)["rounds"][-1]
        target = (last["bouts"] or [last])[-1]
        jump.select_by_visible_text(target["title"])
        counter = driver.find_element(By.ID, "counter").text
        assert counter.startswith(f"step {target['frame']} /")
    finally:
        driver.quit()
    if name == "res_arcana":
        assert len(expected) > 1


@pytest.mark.parametrize("name", presages_env.list_games())
def test_the_table_is_drawn_as_elements_not_a_text_dump(name, tmp_path):
    from selenium.webdriver.common.by import By

    rec = sample_record(name)
    middle = len(rec.actions) // 2
    view = page_data(rec)["frames"][middle]["views"]["all"]
    driver = browser()
    try:
        opened_page(driver, rec, tmp_path)
        driver.execute_script("go(arguments[0]);", middle)
        seats = driver.find_elements(By.CSS_SELECTOR, "#players .seat")
        assert len(seats) == rec.num_players
        acting = [i for i, seat in enumerate(seats) if "to-act" in seat.get_attribute("class")]
        assert acting == [view["to_act"]]
        for seat, player in zip(seats, view["players"], strict=True):
            chips = seat.find_elements(By.CSS_SELECTOR, ".card")
            assert len(chips) == len(player["hand"]) + len(player["area"])
            assert len(seat.find_elements(By.CSS_SELECTOR, ".tag")) == len(player["notes"])
        assert len(driver.find_elements(By.CSS_SELECTOR, "#center .card")) == len(view["table"])
        assert len(driver.find_elements(By.CSS_SELECTOR, "#status li")) == len(view["status"])
        assert not driver.find_elements(By.TAG_NAME, "pre")
    finally:
        driver.quit()


FRAME_TEXTS = """
const texts = [];
for (const view of data.views) {
  const seat = document.getElementById("seat");
  seat.value = view;
  seat.dispatchEvent(new Event("change"));
  for (let i = 0; i < data.frames.length; i++) { go(i); texts.push(document.body.innerText); }
}
return texts;
"""


@pytest.mark.parametrize("name", presages_env.list_games())
def test_every_step_reads_in_words_without_an_emoji_font(name, tmp_path):
    rec = sample_record(name)
    driver = browser()
    try:
        opened_page(driver, rec, tmp_path)
        driver.set_script_timeout(600)  # every frame of every view is laid out: slow on 2 cores
        texts = driver.execute_script(FRAME_TEXTS)
    finally:
        driver.quit()
    assert len(texts) == (rec.num_players + 1) * (len(rec.actions) + 1)
    raw = {m for text in texts for m in re.findall(RAW_EVENT, text)}
    assert not raw, f"raw event text on the page: {sorted(raw)[:5]}"
    odd = {c for text in texts for c in text if ord(c) >= 0x2000 and c not in PLAIN}
    assert not odd, f"symbols that need an emoji font: {sorted(odd)}"


def hover_texts(driver, selector: str) -> dict[str, str]:
    return driver.execute_script(
        "return Object.fromEntries(Array.from(document.querySelectorAll(arguments[0]))"
        ".map((e) => [e.textContent, e.title]));",
        selector,
    )


@pytest.mark.parametrize("name", presages_env.list_games())
def test_cards_show_their_text_on_hover_and_click(name, tmp_path):
    from selenium.webdriver.common.by import By

    game = presages_env.get_game(name)
    rec = sample_record(name)
    middle = len(rec.actions) // 2
    driver = browser()
    try:
        opened_page(driver, rec, tmp_path, seat=0)
        driver.execute_script("go(arguments[0]);", middle)
        chips = driver.find_elements(By.CSS_SELECTOR, ".card[title]")
        assert chips, "no card with its text"
        assert all(chip.get_attribute("title") for chip in chips)
        assert not driver.find_elements(By.CSS_SELECTOR, ".card.back[title]")  # hidden: no text
        chip = chips[0]
        label = chip.get_attribute("data-help")
        assert chip.get_attribute("title") == page_data(rec, seat=0)["cards"][label]
        assert game.card_help(label) or game.card_help(re.sub(r"\s*[\[(].*$", "", label))
        chip.click()
        popover = driver.find_element(By.ID, "popover")
        assert popover.is_displayed()
        assert chip.get_attribute("title").split("\n")[0] in popover.text
        driver.find_element(By.TAG_NAME, "h1").click()
        assert not popover.is_displayed()
        if name != "president":  # its cards are ranks ("K"), too short to mark in lines
            names = driver.find_elements(By.CSS_SELECTOR, ".cardname[title]")
            assert names, "no card named in a line with its text"
        chip.click()
        ARTIFACTS.mkdir(exist_ok=True)
        height = driver.execute_script("return document.documentElement.scrollHeight;")
        driver.execute_cdp_cmd(  # the whole page, at the window's width
            "Emulation.setDeviceMetricsOverride",
            {"width": WINDOW[0], "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        driver.save_screenshot(str(ARTIFACTS / f"replay_{name}.png"))
    finally:
        driver.quit()


@pytest.mark.parametrize("name", presages_env.list_games())
def test_a_seat_page_explains_only_cards_that_seat_saw(name):
    n, seed, options, _ = HIDDEN_GAMES[name]
    rec = records.play_recorded(
        name, [RandomAgent(seed + p) for p in range(n)], ["random"] * n, seed, **options
    )
    referee = page_data(rec)["cards"]
    for seat in range(n):
        data = page_data(rec, seat=seat)
        shown = json.dumps(data["frames"], ensure_ascii=False)
        assert all(json.dumps(label, ensure_ascii=False)[1:-1] in shown for label in data["cards"])
        assert set(data["cards"]) <= set(referee)
        if name in ("presages", "res_arcana"):  # some cards stay hidden from each seat
            assert set(data["cards"]) < set(referee), "the referee sees cards this seat does not"
