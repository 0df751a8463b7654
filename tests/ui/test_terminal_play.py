"""A person can play a whole game of each game in the terminal against the shipped agents
(PPO, the heuristic): the CLI is driven through a pseudo-terminal with scripted input (help,
a bad answer, a move, an undo, then moves) to the end, and the record it saves replays to
the same result."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pexpect
import pytest
from extras import require
from text_leaks import text_leaks

import presages_env
from presages_env import records
from presages_env.core.header import HDR_CURRENT
from presages_env.core.seats import PERSON, as_seen_by

# the shipped PPO agents need the train extra; without it there is nothing to play against
require("train")

ROOT = Path(__file__).resolve().parents[2]


def players(name: str) -> int:
    """The table a test plays ``name`` at: the game's smallest, its shortest game."""
    return presages_env.get_game(name).min_players


def a_deal_that_asks_twice(name: str, opponents: list[str], tmp_path: Path) -> tuple[int, int]:
    """``(seat, seed)``: seat 1 or else 0, and the first seed from 5, where the human who
    answers 1 is asked again (so that the answer can be undone): a game can end at a seat's
    first decision (Kuhn poker's second seat has only one at two players)."""
    from rich.console import Console

    from presages_env.ui.terminal import play

    for seed in range(5, 45):
        for seat in (1, 0):
            asked = []

            def answer(prompt: str, asked: list[str] = asked) -> str:
                asked.append(prompt)
                return "1" if len(asked) == 1 else "q"

            console = Console(file=io.StringIO(), width=120)
            record = tmp_path / "probe.json"
            play(name, seat, opponents, players(name), seed, record, console, answer)
            if len(asked) > 1:
                return seat, seed
    raise AssertionError(f"{name}: no deal of seeds 5 to 44 asks a seat twice")


@pytest.mark.parametrize("name", presages_env.list_games())
def test_a_whole_game_is_played_from_the_terminal(name, tmp_path):
    record = tmp_path / "game.json"
    # the shipped PPO agent where the game ships one (every game has a heuristic)
    first = "ppo" if presages_env.get_game(name).ships_checkpoint else "heuristic"
    seat, seed = a_deal_that_asks_twice(name, [first, "heuristic"], tmp_path)
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="120", TERM="xterm")
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "presages_env",
            "play",
            name,
            "--seat",
            str(seat),
            "--players",
            str(players(name)),
            "--opponents",
            first,
            "heuristic",
            "--seed",
            str(seed),
            "--record",
            str(record),
        ],
        env=env,
        encoding="utf-8",
        timeout=600,
        dimensions=(60, 120),
    )
    child.delaybeforesend = None  # pexpect sleeps 50 ms before each send by default
    prompt = "your move> "
    child.expect(prompt)
    assert f"P{seat + 1} · you" in child.before  # the seat's one name (issue 50)
    child.sendline("?")
    child.expect("undo your last decision")
    child.expect(prompt)
    child.sendline("not a move")
    child.expect("is not a number from 1 to")
    child.expect(prompt)
    child.sendline("1")
    child.expect(prompt)
    child.sendline("u")  # back to the first decision
    child.expect(prompt)
    moves = 0
    while True:
        child.sendline("1")
        moves += 1
        if child.expect([prompt, "Record saved to", pexpect.EOF]) != 0:
            break
        assert moves < 2_000, "the game did not end"
    end = ANSI.sub("", child.before)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    rec = records.load(record)
    assert rec.agents[seat] == PERSON and first in rec.agents
    assert records.replay(rec)  # the saved game replays to its stored result
    human = [m for m in rec.actions if m["seat"] == seat]
    assert len(human) == moves
    game = presages_env.get_game(name)
    words = game.result_words(records.replay(rec)[-1], rec.result, as_seen_by(rec.agents, seat))
    assert f"Game over: {words.headline}." in end  # who won, then each seat's place
    assert all(line in end for line in words.lines) and f"P{seat + 1} · you" in end, end


# ---- bad input and bad arguments (issue 27, defect 8) ---------------------------------------
def run_play(*args: str, stdin: str = "", cwd: Path) -> subprocess.CompletedProcess:
    """The CLI run to its end with ``stdin`` piped (not a terminal)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="120")
    command = [sys.executable, "-m", "presages_env", "play", *args]
    return subprocess.run(
        command, input=stdin, env=env, cwd=cwd, capture_output=True, text=True, timeout=600
    )


@pytest.mark.parametrize("line", ["\u00b2", "\u0663", "9" * 5000, "0", "-1", "1.0"])
def test_a_move_that_is_not_ascii_digits_in_range_re_prompts(tmp_path, line):
    """'²' passes ``str.isdigit`` and a 5,000-digit line is past ``int``'s limit: each
    ended the game; every bad line re-prompts, and the game goes on."""
    result = run_play("president", "--opponents", "random", stdin=f"{line}\nq\n", cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert (result.returncode, result.stderr) == (0, "")
    assert "is not a number from 1 to" in result.stdout
    end = " ".join(result.stdout.split("You left the game;")[-1].split())
    assert re.fullmatch(r"the moves so far are saved in \S+ \(replay with .+\)", end), end


def test_ctrl_c_ends_the_game_with_one_line_and_no_traceback(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="120", TERM="xterm")
    command = ["-m", "presages_env", "play", "president", "--opponents", "random"]
    child = pexpect.spawn(
        sys.executable, command, env=env, cwd=str(tmp_path), encoding="utf-8", timeout=600
    )
    child.expect("your move> ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before
    assert child.before.strip().splitlines()[-1] == "Interrupted; no record saved."
    assert child.exitstatus == 130  # 128 + SIGINT, the shell's convention


def another_games_checkpoint(tmp_path: Path) -> str:
    from presages_env.agents.ppo import shipped_checkpoint

    return f"ppo:{shipped_checkpoint('president')}"


BAD_OPPONENTS = {
    "missing checkpoint": (lambda tmp: f"ppo:{tmp / 'absent.pt'}", "absent.pt"),
    "directory checkpoint": (lambda tmp: f"ppo:{tmp}", "is a folder, not a regular file"),
    "huge random seed": (lambda tmp: "random:" + "9" * 30, "seed"),
    "5,000-digit random seed": (lambda tmp: "random:" + "9" * 5000, "seed"),
    "non-ASCII random seed": (lambda tmp: "random:\u00b2", "seed"),
    "another game's checkpoint": (another_games_checkpoint, "plays 'president', not 'presages'"),
}


@pytest.mark.parametrize("case", sorted(BAD_OPPONENTS))
def test_bad_opponents_print_one_error_line_and_exit_2(tmp_path, case):
    """A missing or directory checkpoint and a huge seed printed tracebacks; a checkpoint of
    another game was accepted and failed at its first move."""
    spec, message = BAD_OPPONENTS[case]
    result = run_play("presages", "--opponents", spec(tmp_path), cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("python -m presages_env play: error: ") and message in line, line
    assert "your move" not in result.stdout  # refused before the game began


# ---- the screen in the game's words (issue 29, item 2) --------------------------------------
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]|\r")
RAW_IDS = {
    "a key=value pair": re.compile(r"\w=\w"),
    "an internal name": re.compile(r"\b[A-Z]{2,}(?:_[A-Z0-9]+)+\b"),
    # rich's ellipsis; the screen's own, for notes left out, stands as a note (", …")
    "a cut-off line": re.compile("(?<!, )(?<!; )\u2026"),
}


def raw_ids_on(screen: str, game_name: str) -> list[str]:
    """What on ``screen`` is not in the game's words: key=value pairs, internal names (the
    decision nodes of the game's kernel too: ``NODE_PLAY`` as ``PLAY``), a line cut off."""
    found = [f"{what}: {m.group()!r}" for what, p in RAW_IDS.items() for m in p.finditer(screen)]
    kernel = presages_env.get_game(game_name).kernel
    nodes = [key.removeprefix("NODE_") for key in vars(kernel) if key.startswith("NODE_")]
    return found + [f"node {n}" for n in nodes if re.search(rf"\b{n}\b", screen)]


def play_a_few_moves(
    name: str, tmp_path: Path, moves: int, columns: int = 80, record: Path | None = None
) -> str:
    """The screen (colours left out) of ``moves`` first moves in a terminal ``columns`` wide,
    the human answering 1 each time against random agents, then quitting."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS=str(columns), TERM="xterm")
    args = ["-m", "presages_env", "play", name, "--players", str(players(name)), "--seed", "5"]
    args += ["--opponents", "random", "--record", str(record or tmp_path / "game.json")]
    # codec_errors: the tty's echo of the final "q" can land inside a character being drawn
    child = pexpect.spawn(
        sys.executable,
        args,
        env=env,
        encoding="utf-8",
        codec_errors="replace",
        timeout=600,
        dimensions=(60, columns),
    )
    child.delaybeforesend = None
    screen = ""
    for _ in range(moves):
        if child.expect(["your move> ", "Record saved to"]) != 0:
            break
        screen += child.before
        child.sendline("1")
    child.sendline("q")
    child.expect(pexpect.EOF)
    return ANSI.sub("", screen + child.before)


@pytest.mark.parametrize("name", presages_env.list_games())
def test_the_screen_is_in_the_games_words_at_80_columns(name, tmp_path):
    """Prompts showed the kernel's node names (``decides LUCK_DISCARD``, ``(PLAY)``) and the
    hand no cost or effect: a few moves at 80 columns show no raw name and no cut-off line,
    and show the legend and the hand with each card's text."""
    screen = play_a_few_moves(name, tmp_path, moves=8)
    game = presages_env.get_game(name)
    problems = raw_ids_on(screen, name) + text_leaks(screen)  # "1 cards", "§4.2", ``x``
    assert not problems, problems
    words = " ".join(screen.replace("\u2502", " ").split())  # the text, unwrapped
    assert "legend" in screen and game.legend()[0][1] in words
    assert "your hand" in screen


@pytest.mark.parametrize("name", presages_env.list_games())
def test_question_mark_shows_the_rules_and_a_card_named(name, tmp_path):
    """``?`` showed the keys only: it shows the rules summary and the keys, ``? <card>`` that
    card's text (each game's texts: tests/<game>/test_<game>_card_text.py), and an unknown
    name says so and asks again."""
    game = presages_env.get_game(name)
    if not game.card_texts.CARD_NAMES:
        pytest.skip(f"{name} names no card")  # its rules summary: tests/<game>
    card = max(game.card_texts.CARD_NAMES, key=len)  # the longest: accents, spaces
    expected = " ".join(game.card_help(card).split())
    stdin = f"?\n? {card}\n? no such card\nq\n"
    result = run_play(name, "--opponents", "random", stdin=stdin, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    out = " ".join(result.stdout.replace("\u2502", " ").split())  # the words, unwrapped
    summary_start = " ".join(presages_env.get_game(name).rules_summary().split()[:6])
    assert summary_start in out and "undo your last decision" in out
    assert expected in out
    assert "No card is named 'no such card'" in out
    assert out.count("your move>") == 4  # asked again after each help


@pytest.mark.parametrize("name", presages_env.list_games())
def test_the_hand_panel_shows_only_the_seats_own_cards(name):
    """The hand panel is drawn from the seat's view: every card of its hand with its text,
    no card only another hand holds (the referee's view says which)."""
    if not presages_env.get_game(name).card_texts.CARD_NAMES:
        pytest.skip(f"{name} names no card: its hand holds no card text")
    from rich.console import Console

    from presages_env.ui.terminal import _hand_panel

    env = presages_env.make(name, num_players=players(name))
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    game = env.game
    for _ in range(12):
        state = env.get_state()
        if game.is_over(state):
            break
        seat = int(state[HDR_CURRENT])
        referee = game.view(state)
        mine = referee.players[seat].hand
        others = {c for p, pv in enumerate(referee.players) if p != seat for c in pv.hand}
        console = Console(width=400, record=True, file=io.StringIO())
        console.print(_hand_panel(game, game.view(state, seat)))
        panel = console.export_text()
        for card in mine:
            assert f"[{card}]" in panel and game.card_summary(card) in panel
        leaked = [card for card in others - set(mine) if f"[{card}]" in panel]
        assert not leaked, leaked
        mask = env.observe(env.possible_agents[seat])["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


# ---- the end in words, files under runs/ (issue 42, items 3 and 4) ----------------------------
def test_the_end_says_who_won_and_play_and_replay_write_under_runs(tmp_path, monkeypatch, capsys):
    """The end read ``Game over: you -1, ppo +0.333333, ...`` and the record landed in the
    current folder: the end names the winners and each seat's place and score, and ``play``
    and ``replay`` write under ``runs/`` and say where."""
    from rich.console import Console

    from presages_env.__main__ import main
    from presages_env.ui.terminal import play

    monkeypatch.chdir(tmp_path)
    screen = io.StringIO()
    console = Console(file=screen, width=200)
    rec = play("president", 0, ["random"], seed=5, console=console, ask=lambda prompt: "1")
    saved = Path("runs", "president-5.json")
    assert records.load(saved) == rec
    end = screen.getvalue().split("Game over: ")[-1].splitlines()
    assert re.fullmatch(r"P\d · \w+( and P\d · \w+)* won\.", end[0]), end
    assert [line.split()[0] for line in end[1:5]] == ["1st", "2nd", "3rd", "4th"]
    assert any("P1 · you: " in line for line in end[1:5])
    assert not re.search(r"\d\.\d{3}", "\n".join(end))
    assert end[5] == f"Record saved to {saved}"
    assert main(["replay", str(saved)]) == 0
    assert capsys.readouterr().out == f"wrote {Path('runs', 'president-5.html')}\n"
    assert sorted(p.name for p in Path("runs").iterdir()) == ["president-5.html", saved.name]


def test_quitting_keeps_the_moves_so_far_as_an_unfinished_record(tmp_path):
    """``q`` said "You left the game; no record saved.": what the person played was lost. The
    moves so far are saved where the record would go, as an unfinished record that replays."""
    from presages_env.ui.replay_page import page_data

    record = tmp_path / "left.json"
    screen = play_a_few_moves("president", tmp_path, moves=2, columns=200, record=record)
    end = " ".join(screen.split("You left the game;")[-1].split())
    replay = f"(replay with python -m presages_env replay {record})"
    assert end == f"the moves so far are saved in {record} {replay}", end
    rec = records.load(record)
    assert not rec.finished and rec.result is None
    assert len([m for m in rec.actions if m["seat"] == 0]) == 2  # the human's two moves
    assert page_data(rec)["unfinished"] == f"unfinished: left after {len(rec.actions)} moves"


# ---- Ctrl-C at start-up, and a record path that cannot be written (issue 39, defect 6) -----
# modules whose import line (``-X importtime``) is written while start-up is still under way:
# numpy's core, numba, then the terminal's last import (agents, kernels and deal still to come)
START_UP_MOMENTS = [
    "numpy._core._multiarray_umath",
    "numba.core.config",
    "presages_env.ui.terminal",
]


@pytest.mark.parametrize("imported", START_UP_MOMENTS)
def test_ctrl_c_during_start_up_ends_with_one_line_and_status_130(tmp_path, imported):
    """Ctrl-C in the first seconds (imports, numba loading, the deal) printed a
    ``KeyboardInterrupt`` traceback: ``import presages_env`` loaded numba before any handler."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="120", TERM="xterm")
    command = ["-X", "importtime", "-m", "presages_env", "play", "president"]
    child = pexpect.spawn(
        sys.executable,
        [*command, "--opponents", "random"],
        env=env,
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=120,
    )
    child.expect(rf"\| +{re.escape(imported)}\r?\n")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in child.before and "your move" not in child.before, child.before
    assert child.before.strip().splitlines()[-1] == "Interrupted; no record saved."
    assert child.exitstatus == 130


@pytest.mark.parametrize("where", ["a missing folder", "a folder", "a device"])
def test_a_record_path_that_cannot_be_written_is_refused_before_the_deal(tmp_path, where):
    """``--record /proc/nope/x.json`` or a folder failed only after the game was played, and
    the error named a temporary file: refused at once, naming the path given."""
    path = {
        "a missing folder": "/proc/nope/x.json",
        "a folder": str(tmp_path),
        "a device": "/dev/null",
    }
    result = run_play("president", "--opponents", "random", "--record", path[where], cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("python -m presages_env play: error: the record path ")
    assert path[where] in line and ".tmp" not in line, line
    assert "your move" not in result.stdout  # nothing was dealt
    assert list(tmp_path.iterdir()) == []


def test_a_record_that_cannot_be_written_at_the_end_is_kept_and_the_screen_says_where(
    tmp_path, monkeypatch
):
    """The record's folder removed during the game: the record goes to the temporary folder,
    the screen names both paths, and the game is not lost."""
    from rich.console import Console

    from presages_env.ui.terminal import play

    folder = tmp_path / "usb"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def answer(prompt: str) -> str:
        shutil.rmtree(folder, ignore_errors=True)  # the disk is gone before the game ends
        return "1"

    screen = io.StringIO()
    console = Console(file=screen, width=200)
    rec = play(
        "president",
        0,
        ["random"],
        seed=5,
        record_path=folder / "game.json",
        console=console,
        ask=answer,
    )
    (kept,) = tmp_path.glob("game-*.json")
    assert records.load(kept).actions == rec.actions
    text = " ".join(screen.getvalue().split())
    assert (
        f"Could not write the record to {folder / 'game.json'}: No such file or directory" in text
    )
    assert f"Record saved to {kept}" in text and ".tmp" not in text


# ---- one turn on one 80×24 screen, moves typed by their words (issue 42, item 5) -------------
def screen_lines(chunk: str, title: str) -> list[str]:
    """The lines a turn printed, colours left out, from its table's heading on (the legend and
    the seed line open the game above the first one)."""
    text = ANSI.sub("", chunk)
    return text[text.index(f"\u2500\u2500 {title}: P") :].rstrip("\n").split("\n")


@pytest.mark.parametrize("name", presages_env.list_games())
def test_each_turn_fits_an_80_by_24_screen_and_moves_are_typed_by_their_words(name, tmp_path):
    """Each turn reprinted about 90 lines (the table scrolled away) and only the exact label,
    emoji included, was a move: every turn shows the table, the last moves, the hand and the
    actions in 23 lines of at most 80 columns above the prompt; the start of an action's
    words is a move, and a start several actions share lists them."""
    from rich.cells import cell_len

    from presages_env.core.choice import match_action, words

    game = presages_env.get_game(name)
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80", LINES="24", TERM="xterm")
    args = ["-m", "presages_env", "play", name, "--players", str(players(name))]
    args += ["--opponents", "random", "--record", str(tmp_path / "game.json")]
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=600, dimensions=(24, 80)
    )
    child.delaybeforesend = None
    prompt = "your move> "
    child.expect(prompt)
    seed = re.search(rf"{game.title}, deal (\d+): --seed \1 deals it again", child.before)
    assert seed, child.before  # a random deal, printed so that it can be played again
    screens = [child.before]
    child.sendline("actions")  # every action, one a line
    child.expect(prompt)
    labels = re.findall(r"^ *\d+\. (.+?)\s*$", ANSI.sub("", child.before), re.MULTILINE)
    assert labels, child.before
    shared = [w for w in {words(label)[0][:2] for label in labels} if len(w) == 2]
    ambiguous = [s for s in shared if len(match_action(s, labels).indices) > 1]
    if ambiguous:
        child.sendline(ambiguous[0])
        child.expect(r"fits \d+ actions")
        child.expect(prompt)
    target = labels[-1]
    typed = next(
        start
        for k in range(1, len(words(target)) + 1)
        for start in [" ".join(w[:3] for w in words(target)[:k])]
        if match_action(start, labels).indices == (len(labels) - 1,)
    )
    child.sendline(typed.upper())
    for _ in range(6):
        index = child.expect([prompt, "Record saved to"])
        assert "is not a number" not in child.before and " fits " not in child.before
        if index:
            break
        screens.append(child.before)
        child.sendline("1")
    child.sendline("q")
    child.expect(pexpect.EOF)
    for chunk in screens:
        lines = screen_lines(chunk, game.title)
        assert len(lines) <= 23, "\n".join(lines)  # the prompt is the 24th
        assert max(map(cell_len, lines)) <= 80, "\n".join(lines)
        shown = "\n".join(lines)
        assert f"{game.title}: P1 · you" in shown and "table: " in shown
        assert "since your last turn" in shown or "last moves" in shown, shown
        assert "your hand" in shown and "your move (" in shown, shown


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("loi", (1,)),
        ("place loi", (1,)),
        ("law", (1,)),  # the English name
        ("place law", (1,)),
        ("PLACE LA LOI (LAW, 15, YELLOW)", (1,)),
        ("place La Loi (law, 15, yellow \u26a1)", (1,)),
        ("amitie", (0,)),
        ("l'ami", (0,)),
        ("pl", (0, 1, 2)),
        ("place l", (0, 1, 2)),
        ("law place", ()),  # in the label's order only
        ("2", (1,)),
        ("-1", ()),
        ("\u00b2", ()),
        ("4", ()),
    ],
)
def test_a_move_is_its_number_or_the_start_of_its_words(typed, expected):
    from presages_env.core.choice import match_action

    labels = ["place L'Amiti\u00e9 (friendship, 3, green \u23f3)"]
    labels.append("place La Loi (law, 15, yellow \u26a1)")
    labels.append("place L'\u00c9nigme (enigma, 10, yellow \u23f3)")
    assert match_action(typed, labels).indices == expected


def test_a_label_typed_whole_is_chosen_beside_a_longer_one():
    from presages_env.core.choice import match_action

    labels = ["pair of 3", "pair of 3 and 4", "pass"]
    assert match_action("Pair of 3", labels).indices == (0,)
    assert match_action("pa", labels).indices == (0, 1, 2)


def test_a_tall_table_leaves_the_latest_move_hand_and_actions_on_the_screen():
    """Whatever the table's size, the turn fits: the status, the players' notes and the
    actions shrink, each saying which command shows the whole."""
    from rich.console import Console

    from presages_env.core.view import PlayerView, TableView
    from presages_env.ui.screen import Turn, turn_screen

    notes = ["a long note " * 20]
    players = [PlayerView(f"player_{p}", None, 5, notes=notes) for p in range(6)]
    players[0] = PlayerView("you", ["La Loi"] * 5, 5, notes=notes)
    view = TableView(players, ["Le Jour"], [f"status line {i}" for i in range(30)], 0, 0)
    labels = [f"choice number {i} with a longer label" for i in range(40)]
    badges = [f"P{p + 1} · agent" for p in range(6)]
    turn = Turn("Game: P1 · you", view, [f"move {i}" for i in range(50)], 40, labels, badges)
    console = Console(width=80, file=io.StringIO())
    lines = [line.plain for line in turn_screen(turn, console, 80, 24)]
    text = "\n".join(lines)
    assert len(lines) <= 23 and max(map(len, lines)) <= 80, text
    assert "move 49" in text and "[La Loi]" in text and "1. choice number 0" in text
    assert "status line 0" in text and "status line 29" in text  # the first and "now: ..."
    assert "actions lists them all" in text and ": table)" in text and "earlier: log)" in text


# ---- who sits where: --partner, --opponents and the seat badges (issue 50, item 4) ----------
def test_partner_and_opponents_sit_where_the_deal_put_the_teams_and_the_screen_says_so(tmp_path):
    """``make play`` promised a heuristic partner against the PPO team, but the agents took
    the other seats in turn while Présages deals its teams: the partner could be ``ppo``,
    and the screen never said which agent sat where."""
    game = presages_env.get_game("presages")
    seed = next(
        s
        for s in range(50)
        if game.teams(game.new_state(4, s))[1] == game.teams(game.new_state(4, s))[0]
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="120", TERM="xterm")
    args = ["-m", "presages_env", "play", "presages", "--seat", "0", "--seed", str(seed)]
    args += [
        "--partner",
        "heuristic",
        "--opponents",
        "random",
        "--record",
        str(tmp_path / "g.json"),
    ]
    child = pexpect.spawn(
        sys.executable, args, env=env, encoding="utf-8", timeout=600, dimensions=(60, 120)
    )
    child.delaybeforesend = None
    child.expect("your move> ")
    screen = ANSI.sub("", child.before)
    badges = [
        "P1 · you",
        "P2 · heuristic · partner",
        "P3 · random · opponent",
        "P4 · random · opponent",
    ]
    assert f"Seats: {', '.join(badges)}" in screen  # seat 1 is the partner this deal made
    assert all(badge in screen.split("Seats: ")[-1].split("legend")[-1] for badge in badges)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_partner_in_a_game_without_teams_is_refused_with_one_line(tmp_path):
    result = run_play("kuhn_poker", "--partner", "heuristic", cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    (line,) = result.stderr.splitlines()
    assert "Kuhn poker at 2 players has no teams, so no partner" in line, line
    assert "your move" not in result.stdout
