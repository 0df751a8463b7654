"""The lab in a real headless Chromium (Selenium, as the replay page's tests): a person plays
a whole Président game against three heuristics, on a desktop's and a phone's screen, by
clicking cards of the hand and moves, to its result and replay; two
people sit at one Présages table as partners, each seeing only their own hand, and both
finish; the lobby opens a table; a study participant goes from consent through a game and
its questions to the end, on a phone's screen, the way on in view when the game ends; a remote
``dmc`` agent (``lab client``) plays Présages beside a person as it plays in process.
Screenshots go to test-artifacts/; the browser logs no error."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import extras
import pytest
from browser import chromium, set_viewport

extras.require("lab")

import uvicorn  # noqa: E402
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

import presages_env  # noqa: E402
from presages_env.lab.app import LabConfig, create_app  # noqa: E402
from presages_env.lab.store import SeatSpec  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WINDOW = (1280, 1000)
WAIT = 120  # seconds a page may take to reach the next decision (agents think meanwhile)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def app(tmp_path: Path):
    return create_app(LabConfig(db_url=f"sqlite:///{tmp_path / 'lab.db'}", admin_token="x"))


@pytest.fixture
def server(app) -> Iterator[str]:
    """A lab server on a free local port, its SQLite file in ``tmp_path``."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    while not running.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=30)


def open_table(base: str, game: str, seats: list[str], names: list[str | None]) -> dict:
    body = {"game": game, "players": len(seats), "seats": seats, "names": names}
    request = urllib.request.Request(
        f"{base}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())["links"]


def move_or_result(driver, wait: float = WAIT) -> str:
    """Wait until the page offers moves ("move") or shows the result ("over");
    ``TimeoutException`` after ``wait`` seconds."""

    def ready(d):
        if d.find_element("id", "result").is_displayed():
            return "over"
        buttons = d.find_elements("css selector", "#actions button:not([disabled])")
        return "move" if buttons else False

    return WebDriverWait(driver, wait, poll_frequency=0.05).until(ready)


def click_a_move(driver, step: int) -> None:
    """Click one of the moves (by keyboard every third time: digits pick moves too)."""
    buttons = driver.find_elements("css selector", "#actions button:not([disabled])")
    if step % 3 == 0 and len(buttons) >= 2:
        driver.find_element("tag name", "body").send_keys("2")
    else:
        buttons[step % len(buttons)].click()


def errors_logged(driver) -> list[str]:
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"lab-{name}.png"))


IN_VIEW = """const r = arguments[0].getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;"""
OVERFLOW = "return document.documentElement.scrollWidth - innerWidth;"


def in_view(driver, css: str) -> bool:
    """Whether the first element ``css`` selects lies wholly inside the viewport."""
    return driver.execute_script(IN_VIEW, driver.find_element("css selector", css))


def play_a_card(driver) -> bool:
    """Click a card of the hand that a move names (then the first option, where the card
    offers several) and wait until it left the hand; False if no card of the hand plays."""
    cards = driver.find_elements("css selector", ".seat.you .card.playable")
    if not cards:
        return False
    held = len(driver.find_elements("css selector", ".seat.you .card"))
    cards[-1].click()
    options = driver.find_elements("css selector", ".choice button:not(.cancel)")
    if options:
        assert in_view(driver, ".choice button")
        options[0].click()
    WebDriverWait(driver, WAIT).until(
        lambda d: len(d.find_elements("css selector", ".seat.you .card")) < held
    )
    return True


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_person_plays_a_whole_president_game_from_the_hand(server, viewport):
    """The hand and the moves show without scrolling; a click on a card plays it; the result
    and the next steps come into view at the end; the replay fits the width."""
    links = open_table(
        server, "president", ["human", *["heuristic"] * 3], ["Ada <b>", None, None, None]
    )
    size = "x".join(map(str, viewport))
    driver = chromium(WINDOW)
    try:
        set_viewport(driver, viewport)
        driver.get(server + links["0"])
        steps, by_card = 0, 0
        while move_or_result(driver) == "move":
            if steps == 0:
                assert in_view(driver, ".seat.you .card") and in_view(driver, "#actions button")
                assert driver.execute_script(OVERFLOW) <= 0
                shot(driver, f"president-turn-{size}")
                title = driver.find_element("id", "title").text
                assert "you are P1 · Ada <b>" in title  # as text
                hand = driver.find_elements("css selector", ".seat.you .card")
                assert hand and all(c.text for c in hand)
                values = driver.find_elements("css selector", ".seat.you .card .value")
                assert len(values) == len(hand) and all(v.text for v in values)  # as cards
                assert len(driver.find_elements("css selector", ".seat:not(.you) .card.back"))
            if steps % 2 == 0 and play_a_card(driver):
                by_card += 1
            else:
                click_a_move(driver, steps)
            steps += 1
        assert steps > 3 and by_card >= 2
        headline = driver.find_element("id", "headline").text
        assert headline.endswith("won")
        assert in_view(driver, "#result") and in_view(driver, "#replay")
        shot(driver, f"president-result-{size}")
        places = driver.find_elements("css selector", "#places li")
        assert len(places) == 4 and any("P1 · you" in p.text for p in places)
        driver.find_element("id", "replay").click()
        assert driver.find_element("id", "title").text.startswith("Président")
        assert driver.execute_script(OVERFLOW) <= 0
        shot(driver, f"president-replay-{size}")
        assert errors_logged(driver) == []
    finally:
        driver.quit()


def hand_rows(driver) -> dict[str, list[str]]:
    """Each seat box's hand row: its card labels (backs as ``""``)."""
    return driver.execute_script(
        """return Object.fromEntries(Array.from(document.querySelectorAll('.seat')).map(
            (s) => [s.querySelector('.name').textContent,
                    Array.from(s.querySelector('.row .cards').querySelectorAll('.card'))
                      .map((c) => c.classList.contains('back') ? '' : c.textContent)]));"""
    )


def partners_deal(game, seats: tuple[int, int]) -> int:
    """The first seed whose deal makes ``seats`` partners (Présages deals its teams)."""
    return next(
        seed
        for seed in range(1000)
        if len({int(game.teams(game.new_state(4, seed))[p]) for p in seats}) == 1
    )


def test_two_partners_at_one_presages_table_each_see_only_their_own_hand(app, server):
    game = presages_env.get_game("presages")
    seats = [SeatSpec("human", "Ann"), SeatSpec("human", "Bob")]
    seats += [SeatSpec("heuristic", "heuristic")] * 2
    seed = partners_deal(game, (0, 1))
    table_id, tokens = app.state.lab.store.create_table("presages", 4, {}, seed, seats, 120)
    links = {str(p): f"/t/{table_id}/{token}" for p, token in tokens.items()}
    drivers = [chromium(WINDOW), chromium(WINDOW)]
    try:
        for seat, driver in enumerate(drivers):
            driver.get(server + links[str(seat)])
        done, steps, checked = [False, False], 0, False
        while not all(done):
            for seat, driver in enumerate(drivers):
                if done[seat]:
                    continue
                try:  # a moment only: the other person may be the one to act
                    done[seat] = move_or_result(driver, 0.5) == "over"
                except TimeoutException:
                    continue
                if done[seat]:
                    continue
                if not checked:
                    rows = [hand_rows(d) for d in drivers]
                    # each seat by its one name as each person reads it (issue 50)
                    assert list(rows[0])[:2] == ["P1 · you", "P2 · Bob · partner"]
                    assert list(rows[1])[:2] == ["P1 · Ann · partner", "P2 · you"]
                    assert all(rows[0]["P1 · you"]) and set(rows[0]["P2 · Bob · partner"]) == {""}
                    assert all(rows[1]["P2 · you"]) and set(rows[1]["P1 · Ann · partner"]) == {""}
                    colours = drivers[0].find_elements(
                        "css selector", ".seat.you .card[class*='c-'] .band"
                    )
                    assert colours  # Présages cards show their colour
                    shot(drivers[0], "presages-ann")
                    shot(drivers[1], "presages-bob")
                    checked = True
                click_a_move(driver, steps)
                steps += 1
        assert checked
        for seat, driver in enumerate(drivers):
            assert driver.find_element("id", "headline").text
            shot(driver, f"presages-result-{seat}")
            assert errors_logged(driver) == []
    finally:
        for driver in drivers:
            driver.quit()


def test_the_lobby_opens_a_table_and_gives_one_link_per_person(server):
    driver = chromium(WINDOW)
    try:
        driver.get(server + "/")
        WebDriverWait(driver, 60).until(lambda d: d.find_elements("css selector", "#game option"))
        game = Select(driver.find_element("id", "game"))
        assert game.first_selected_option.text == "Présages"  # the flagship, declared
        labels = [e.text for e in driver.find_elements("css selector", "#options label")]
        assert "The placer wins the bout" in labels and not any("_" in t for t in labels)
        assert not driver.find_elements("id", "option-round_reward")  # training only
        helps = driver.find_elements("css selector", "#options .help")
        assert len(helps) == len(labels) and all("Default:" in h.text for h in helps)
        kinds = [o.text for o in driver.find_elements("css selector", "#seats .kind option")]
        assert "dmc" in kinds and "a remote agent" in kinds  # dmc: shipped for Présages
        shot(driver, "lobby-presages")
        game.select_by_visible_text("Président")
        assert driver.find_element("id", "option-num_manches").get_attribute("type") == "number"
        kinds = [o.text for o in driver.find_elements("css selector", "#seats .kind option")]
        assert "dmc" not in kinds and "ppo" in kinds
        kinds = driver.find_elements("css selector", "#seats .kind")
        assert len(kinds) == 4
        Select(kinds[2]).select_by_value("human")
        driver.find_element("css selector", "#create button").click()
        WebDriverWait(driver, 30).until(lambda d: d.find_element("id", "made").is_displayed())
        links = [a.get_attribute("href") for a in driver.find_elements("css selector", "#links a")]
        assert len(links) == 2 and all("/t/" in link for link in links)
        shot(driver, "lobby")
        driver.get(links[1])
        WebDriverWait(driver, WAIT).until(
            lambda d: "you are P3 · person" in d.title + d.find_element("id", "title").text
        )
        assert errors_logged(driver) == []
    finally:
        driver.quit()


def test_a_study_participant_goes_from_consent_to_done(server):
    study = {
        "name": "a short study",
        "game": "president",
        "players": 4,
        "options": {},
        "conditions": {"heuristic": ["human", "heuristic", "heuristic", "heuristic"]},
        "games_per_participant": 1,
        "consent": "Your moves are stored without your name.",
        "questions": ["How did your opponents play?"],
        "seed": 1,
        "idle_seconds": 120,
    }
    request = urllib.request.Request(
        f"{server}/api/admin/studies",
        data=json.dumps(study).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer x"},
    )
    with urllib.request.urlopen(request) as answer:
        link = json.loads(answer.read())["link"].replace("=ID", "=worker-7")
    driver = chromium(WINDOW)
    try:
        set_viewport(driver, (390, 844))  # a participant on a phone
        driver.get(server + link)
        WebDriverWait(driver, WAIT).until(lambda d: d.find_elements("id", "agree"))
        assert "without your name" in driver.find_element("id", "consent").text
        shot(driver, "study-consent")
        driver.find_element("id", "agree").click()
        steps = 0
        while move_or_result(driver) == "move":
            click_a_move(driver, steps)
            steps += 1
        # the way on is in view at the end of a game, not left above the viewport
        assert in_view(driver, "#headline") and in_view(driver, "#continue")
        shot(driver, "study-result")
        driver.find_element("id", "continue").click()
        WebDriverWait(driver, WAIT).until(lambda d: d.find_elements("id", "answer-0"))
        driver.find_element("id", "answer-0").send_keys("They played well.")
        shot(driver, "study-questions")
        driver.find_element("css selector", "#stage button").click()
        WebDriverWait(driver, WAIT).until(lambda d: d.find_elements("id", "done"))
        shot(driver, "study-done")
        assert errors_logged(driver) == []
    finally:
        driver.quit()


class Replayed:
    """An agent that plays the stored moves of a seat, in order (a person's, in process)."""

    needs_state = False

    def __init__(self, actions: list[int]) -> None:
        self.actions = iter(actions)

    def act(self, obs, mask) -> int:
        return next(self.actions)


def test_a_remote_dmc_agent_plays_presages_beside_a_person_as_it_plays_in_process(app, server):
    """The ``lab client`` plays seat P2 with ``dmc`` over a real socket while a person clicks
    P1's moves; the table's record is the one the same seeds give in process, P2's moves the
    in-process ``dmc``'s."""
    from presages_env import records
    from presages_env.agents.specs import make_agent
    from presages_env.lab.agents_pool import seat_agent
    from presages_env.lab.client import play

    seed, agent_seed = 17, 5
    seats = [SeatSpec("human", "Ann"), SeatSpec("remote", "bot")]
    seats += [SeatSpec("heuristic", "heuristic")] * 2
    table_id, tokens = app.state.lab.store.create_table("presages", 4, {}, seed, seats, 600)
    finals: list = []
    client = threading.Thread(
        target=lambda: finals.append(
            asyncio.run(play(f"{server}/t/{table_id}/{tokens[1]}", "dmc", agent_seed))
        )
    )
    client.start()
    driver = chromium(WINDOW)
    try:
        driver.get(f"{server}/t/{table_id}/{tokens[0]}")
        steps = 0
        while move_or_result(driver) == "move":
            click_a_move(driver, steps)
            steps += 1
        assert "remote agent" in driver.find_element("id", "players").text
        shot(driver, "presages-beside-a-remote-agent")
        assert errors_logged(driver) == []
    finally:
        driver.quit()
    client.join(timeout=WAIT)
    assert finals and finals[0]["result"]
    data = app.state.lab.store.table(table_id)
    assert {m["by"] for m in data.moves if m["seat"] == 1} == {"remote"}
    assert {m["by"] for m in data.moves if m["seat"] == 0} == {"human"}
    names = [s.name for s in data.seats]
    person = Replayed([m["action"] for m in data.moves if m["seat"] == 0])
    in_process = [
        person,
        make_agent("dmc", "presages", agent_seed, num_players=4)[1],
        *(seat_agent("heuristic", "presages", seed, p, 4) for p in (2, 3)),
    ]
    expected = records.play_recorded("presages", in_process, names, seed)
    assert records.record("presages", 4, seed, data.actions, names) == expected
