"""The replay page: one self-contained HTML file per record, every string from the record
escaped, tested in a real headless Chromium (Debian's chromium and chromium-driver: the ``browser``
extra of tests/extras.py, skipped with the reason where missing unless required)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from browser import chromium
from replay_views import cards_explained_to_each_seat, check_seat_pages, random_record

import presages_env
from presages_env import records
from presages_env.__main__ import main
from presages_env.core import events as ev
from presages_env.ui.replay_page import (
    SHORTEST_MARKED_NAME,
    page_data,
    replay_page,
    write_replay_page,
)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WINDOW = (1280, 900)
EVIL = '</script><script>document.title="owned"</script><img src=x onerror=alert(1)>'


def sample_record(name: str, seed: int = 2) -> records.GameRecord:
    """A game of random agents at the smallest table, the first seat named with markup."""
    n = presages_env.get_game(name).min_players
    return random_record(name, seed, names=[EVIL] + ["random"] * (n - 1))


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
    """A headless Chromium of the page tests' window (tests/browser.py)."""
    return chromium(WINDOW)


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
        far = min(6, len(rec.actions))  # a Kuhn poker hand can end at its second move
        for _ in range(far - 1):
            driver.find_element(By.ID, "step").click()
        assert counter.text.startswith(f"step {far} /")
        assert driver.find_element(By.ID, "players").text != players
        driver.find_element(By.ID, "back").click()
        assert counter.text.startswith(f"step {far - 1} /")
        Select(driver.find_element(By.ID, "seat")).select_by_value("0")
        hidden = driver.find_elements(By.CSS_SELECTOR, ".card.back")
        assert hidden, "a seat's view hides the other hands"
        driver.find_element(By.ID, "last").click()
        shown, total = re.match(r"step (\d+) / (\d+)", counter.text).groups()
        assert shown == total == str(len(rec.actions))
        title = driver.find_element(By.ID, "title").text
        # the header names the seats as the view shown reads them (issue 50): seat 0's own
        assert title.startswith(f"{presages_env.get_game(name).title} \u2014 P1 · you, P2 · ")
        Select(driver.find_element(By.ID, "seat")).select_by_value("all")
        title = driver.find_element(By.ID, "title").text
        assert f"P1 · {EVIL}, P2 · " in title  # the referee's: every name, shown as text
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


def test_an_unfinished_record_shows_how_far_it_went_and_no_result(tmp_path, capsys):
    """A game left before its end (the terminal's ``q``, issue 50) is a record too: its page
    says so where a finished game's says who won, and names no winner."""
    from selenium.webdriver.common.by import By

    whole = sample_record("president")
    first_five = [m["action"] for m in whole.actions[:5]]
    rec = records.record("president", whole.num_players, whole.seed, first_five, whole.agents)
    path, page = tmp_path / "left.json", tmp_path / "left.html"
    records.save(rec, path)
    banner = "unfinished: left after 5 moves"
    assert main(["replay", str(path), "-o", str(page)]) == 0
    assert capsys.readouterr().out == f"wrote {page} ({banner})\n"
    data = page_data(rec)
    assert (data["result"], data["unfinished"], len(data["frames"])) == (None, banner, 6)
    driver = browser()
    try:
        driver.get(page.as_uri())
        assert driver.find_element(By.ID, "winner").text == banner
        assert not driver.find_elements(By.CSS_SELECTOR, "#places li")
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
# The checks live in tests/replay_views.py; each game's folder plays a game that reaches its
# hidden decisions and says which they are (tests/<game>/test_<game>_replay_page.py).
@pytest.mark.parametrize("name", presages_env.list_games())
def test_a_seat_page_shows_only_what_that_seat_saw(name):
    check_seat_pages(random_record(name, 2))


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
        assert rounds, f"{name}: no round titled"


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
    if not game.card_texts.CARD_NAMES:
        pytest.skip(f"{name} names no card: no card has a text")
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
        if any(len(card) >= SHORTEST_MARKED_NAME for card in game.card_texts.CARD_NAMES):
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
    """(Where cards stay hidden from each seat, its folder's test says so.)"""
    if not presages_env.get_game(name).card_texts.CARD_NAMES:
        pytest.skip(f"{name} names no card: none to explain")
    referee, seats = cards_explained_to_each_seat(random_record(name, 2))
    assert referee and all(seats), "no card explained"


# ---- cards drawn as cards, the popover clear of other seats (issue 42, item 6) ---------------
# Each game's faces read from its labels: tests/<game>/test_<game>_replay_page.py.
BOXES = """
const box = (e) => { const r = e.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; };
return { pop: box(document.getElementById("popover")),
  header: box(document.querySelector("header")),
  others: Array.from(document.querySelectorAll(".seat"))
    .filter((s) => !s.contains(arguments[0])).map((s) => box(s.querySelector(".seat-head"))) };
"""


def overlaps(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@pytest.mark.parametrize("name", presages_env.list_games())
def test_cards_are_drawn_as_cards_and_their_text_leaves_other_seats_clear(name, tmp_path):
    """The popover of a card covered the next seat's header: for each seat's cards, the text
    opens where it covers neither another seat's header nor the page's; coloured cards show
    their colour and value. The page is saved as a screenshot for a look by eye."""
    from selenium.webdriver.common.by import By

    rec = sample_record(name)
    data = page_data(rec)
    middle = len(rec.actions) // 2
    driver = browser()
    try:
        opened_page(driver, rec, tmp_path)
        driver.execute_script("go(arguments[0]);", middle)
        banner = driver.find_element(By.ID, "banner").text
        assert data["result"]["headline"] in banner and "1st" in banner
        seats = driver.find_elements(By.CSS_SELECTOR, "#players .seat")
        for seat in seats:
            for chip in seat.find_elements(By.CSS_SELECTOR, ".card[data-help]")[-2:]:
                driver.execute_script("hidePopover();")  # closed, as a reader would close it
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", chip)
                chip.click()
                boxes = driver.execute_script(BOXES, chip)
                covered = [
                    b for b in [boxes["header"], *boxes["others"]] if overlaps(boxes["pop"], b)
                ]
                assert not covered, (chip.get_attribute("data-help"), boxes)
        for chip in driver.find_elements(By.CSS_SELECTOR, ".card[data-help]"):
            face = data["faces"][chip.get_attribute("data-help")]
            classes = chip.get_attribute("class").split()
            if face["colour"]:
                assert "c-" + face["colour"].replace(" ", "-") in classes
            if face["value"]:
                assert chip.find_element(By.CSS_SELECTOR, ".value").text == face["value"]
        driver.execute_script("window.scrollTo(0, 0);")
        chips = driver.find_elements(By.CSS_SELECTOR, "#players .card[data-help]")
        if chips:
            chips[0].click()
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"replay_cards_{name}.png"))
    finally:
        driver.quit()


PHONE = (390, 844)
LAYOUT = """const box = (e) => { const r = e.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; };
return { overflow: document.documentElement.scrollWidth - innerWidth, width: innerWidth,
  table: box(document.getElementById("table")), aside: box(document.querySelector("aside")),
  seats: Array.from(document.querySelectorAll(".seat")).map(box) };"""


@pytest.mark.parametrize("name", presages_env.list_games())
def test_the_page_fits_a_phone_without_sideways_scrolling(name, tmp_path):
    """At 390×844 the page scrolled sideways and its columns overlapped: it now reads in one
    column as wide as the screen, every seat inside it, the events below the table."""
    from browser import set_viewport

    rec = sample_record(name)
    driver = browser()
    try:
        set_viewport(driver, PHONE)
        opened_page(driver, rec, tmp_path)
        driver.execute_script("go(arguments[0]);", len(rec.actions) // 2)
        layout = driver.execute_script(LAYOUT)
        assert layout["width"] == PHONE[0] and layout["overflow"] <= 0, layout
        assert not overlaps(layout["table"], layout["aside"]), layout
        assert all(s[0] >= 0 and s[2] <= PHONE[0] for s in layout["seats"]), layout
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / f"replay_phone_{name}.png"))
    finally:
        driver.quit()
