"""A person can play a whole game of each game in the terminal against the shipped agents
(PPO, the heuristic): the CLI is driven through a pseudo-terminal with scripted input (help,
a bad answer, a move, an undo, then moves) to the end, and the record it saves replays to
the same result."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

import presages_env
from presages_env import records

# the shipped PPO agents need the train extra; without it there is nothing to play against
pytest.importorskip("torch", reason="the shipped PPO agents need the [train] extra (torch)")

ROOT = Path(__file__).resolve().parents[2]
TABLES = {"president": 3, "presages": 4, "aciliande": 3, "res_arcana": 2}


@pytest.mark.parametrize("name", presages_env.list_games())
def test_a_whole_game_is_played_from_the_terminal(name, tmp_path):
    record = tmp_path / "game.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="120", TERM="xterm")
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "presages_env",
            "play",
            name,
            "--seat",
            "1",
            "--players",
            str(TABLES[name]),
            "--opponents",
            "ppo",
            "heuristic",
            "--seed",
            "5",
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
    assert "seat 1" in child.before and "you" in child.before
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
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    rec = records.load(record)
    assert rec.agents[1] == "you" and rec.agents[0] == "ppo"  # the shipped checkpoint
    assert records.replay(rec)  # the saved game replays to its stored result
    human = [m for m in rec.actions if m["seat"] == 1]
    assert len(human) == moves


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
    assert result.stdout.rstrip().endswith("You left the game; no record saved.")


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
    "directory checkpoint": (lambda tmp: f"ppo:{tmp}", "directory"),
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
