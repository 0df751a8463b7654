"""What each seat's replay page may show, for the shared contract (tests/ui/test_replay_page.py)
and each game's own hidden decisions and cards (tests/<game>/)."""

from __future__ import annotations

import json

import numpy as np

import presages_env
from presages_env import records
from presages_env.agents import RandomAgent
from presages_env.core import events as ev
from presages_env.ui.replay_page import page_data


def random_record(
    name: str, seed: int, num_players: int | None = None, names: list[str] | None = None, **options
) -> records.GameRecord:
    """A game of random agents (seat ``p`` seeded ``seed + p``), at the game's smallest
    table unless ``num_players`` says otherwise."""
    n = num_players or presages_env.get_game(name).min_players
    seats = [RandomAgent(seed + p) for p in range(n)]
    return records.play_recorded(name, seats, names or ["random"] * n, seed, **options)


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


def check_seat_pages(rec: records.GameRecord) -> set[str]:
    """Check that each seat's page shows only what that seat saw: its view only, the events
    it saw, its own moves as labelled and another's hidden move in a line that does not say
    which it was. Returns the hidden decisions, each by the first word of its label."""
    game = presages_env.get_game(rec.game)
    n = rec.num_players
    states = records.replay(rec)
    hidden = hidden_choices(rec)
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
    return {rec.actions[t - 1]["label"].split()[0] for t, _ in hidden}


def cards_explained_to_each_seat(rec: records.GameRecord) -> tuple[set[str], list[set[str]]]:
    """Check that each seat's page explains only cards it shows, and no card the referee's
    page does not; returns the referee's cards explained and each seat's."""
    referee = set(page_data(rec)["cards"])
    seats = []
    for seat in range(rec.num_players):
        data = page_data(rec, seat=seat)
        shown = json.dumps(data["frames"], ensure_ascii=False)
        assert all(json.dumps(label, ensure_ascii=False)[1:-1] in shown for label in data["cards"])
        assert set(data["cards"]) <= referee
        seats.append(set(data["cards"]))
    return referee, seats
