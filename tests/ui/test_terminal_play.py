"""A person can play a whole game of each game in the terminal against the shipped agents
(PPO, the heuristic): the CLI is driven through a pseudo-terminal with scripted input (help,
a bad answer, a move, an undo, then moves) to the end, and the record it saves replays to
the same result."""

from __future__ import annotations

import os
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
