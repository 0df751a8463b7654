"""One name per seat everywhere (issue 50, item 3): the lab showed an unnamed person as
"player 1 (P0)" though P1 was another seat, its status said "to act: player_0", the replay
header read "player_0 player 1", and a record made from an env without names was headed
"player_0 player_0". For every game, the seat names of the terminal's screen, of the lab's
messages (what the table page draws) and of the replay page's header are now the same
badges (core/seats.py: ``P1 · you``, ``P2 · random · opponent``)."""

from __future__ import annotations

import functools
import io
import re
import tempfile
from pathlib import Path

import extras
import pytest
from rich.console import Console

import presages_env
from presages_env import records
from presages_env.core.seats import PERSON
from presages_env.ui.replay_page import page_data, replay_page
from presages_env.ui.terminal import play

SEAT = 1
SEED = 4
# every game at its default count, and Aciliande's team variant (teams fixed by seating)
CASES = [(name, False) for name in presages_env.list_games()] + [("aciliande", True)]


@functools.cache
def terminal_game(name: str, teams: bool) -> tuple[list[str], str, records.GameRecord]:
    """The badges the terminal printed, its whole text and the game's record (once per
    case): the person at ``SEAT`` always takes the first action."""
    options = {"teams": True} if teams else {}
    n = 4 if teams else presages_env.get_game(name).default_players
    console = Console(file=io.StringIO(), width=200, height=400, record=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.json"
        rec = play(name, SEAT, ["random"], n, SEED, path, console, lambda _: "1", **options)
    text = console.export_text()
    seats = re.search(r"^Seats: (.*)$", text, re.MULTILINE).group(1)
    return seats.split(", "), text, rec


@pytest.mark.parametrize(("name", "teams"), CASES)
def test_the_terminal_and_the_replay_header_name_each_seat_alike(name, teams):
    badges, text, rec = terminal_game(name, teams)
    game = presages_env.get_game(name)
    assert badges[SEAT] == "P2 · you" and rec.agents[SEAT] == PERSON
    assert f"{game.title}: P2 · you" in text  # each turn's heading
    assert "player_" not in text and not re.search(r"\(P\d\)", text)  # no "player 1 (P0)"
    in_teams = len(set(game.teams(records.replay(rec)[0]).tolist())) < rec.num_players
    others = [badge for p, badge in enumerate(badges) if p != SEAT]
    assert all(b.endswith(("opponent", "partner")) for b in others) == in_teams
    assert any(b.endswith("partner") for b in others) == in_teams
    seat_page = page_data(rec, SEAT)
    assert seat_page["badges"][str(SEAT)] == badges  # the seat's page's header
    assert "P2 · you" in seat_page["result"]["headline"] + "".join(seat_page["result"]["lines"])
    assert page_data(rec)["seats"][SEAT] == f"P2 · {PERSON}"  # the referee's page


@pytest.mark.parametrize(("name", "teams"), CASES)
def test_the_lab_names_each_seat_as_the_terminal_does(name, teams):
    extras.require("lab")
    from presages_env.lab.live import LiveGame
    from presages_env.lab.protocol.messages import hello, seat_state

    badges, _, rec = terminal_game(name, teams)
    game = presages_env.get_game(name)
    live = LiveGame(game, rec.num_players, rec.seed, rec.options)
    message = seat_state(live, SEAT, rec.agents)
    assert message["badges"] == badges  # what the table page names the seats by
    assert "player_" not in str(message["view"])
    assert message["view"]["players"][SEAT]["name"] == "P2 · you"
    assert hello(game, SEAT, rec.agents, rec.agents, "")["badge"] == f"P2 · {PERSON}"


def test_a_record_made_without_names_leaves_its_seats_unnamed():
    env = presages_env.make("kuhn_poker")
    env.reset(seed=3)
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(mask.argmax()))
    rec = records.from_env(env)
    assert page_data(rec)["seats"] == ["P1", "P2"]  # the header, not "player_0 player_0"
    assert "player_" not in replay_page(rec).split("<script")[0]
