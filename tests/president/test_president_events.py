"""Président's events tell the game as it was played: deals, the exchange seen by its two
parties only, plays, tricks, places and scores."""

from __future__ import annotations

import numpy as np

import presages_env
from presages_env.games.president import kernel as k


def play_match(n: int, seed: int):
    env = presages_env.make("president", num_players=n, num_manches=3)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    hands_at_start = []
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        state = env.get_state()
        fresh = not state[k.GONE : k.GONE + 13].any() and state[k.PHASE] == k.PHASE_PLAY
        if fresh and len(hands_at_start) == state[k.MANCHE]:
            hands_at_start.append(state[k.HAND : k.HAND + n * 13].reshape(n, 13).copy())
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env, hands_at_start


def test_events_replay_the_match():
    for n in (3, 4, 6):
        env, hands_at_start = play_match(n, seed=n)
        events = env.events()
        manche = -1
        dealt = np.zeros((3, n, 13), dtype=int)
        played = np.zeros((3, n, 13), dtype=int)
        exchanges = 0
        for event in events:
            if event.kind == "manche_start":
                manche = event.args["manche"]
            elif event.kind == "dealt":
                assert event.visible_to == (event.args["player"],)
                dealt[manche, event.args["player"], event.args["rank"]] += 1
            elif event.kind == "exchange_card":
                giver, receiver = event.args["giver"], event.args["receiver"]
                assert set(event.visible_to) == {giver, receiver}
                dealt[manche, giver, event.args["rank"]] -= 1
                dealt[manche, receiver, event.args["rank"]] += 1
                exchanges += 1
            elif event.kind == "play":
                assert event.visible_to == "all"
                played[manche, event.actor, event.args["rank"]] += event.args["count"]
        assert exchanges == 4  # two manches after the first, a card each way
        assert [e.kind for e in events].count("manche_scored") == 3 * n
        assert events[-1].kind == "match_end"
        for m, hands in enumerate(hands_at_start):
            # a manche's deal and exchange give the hands its first play starts from
            assert np.array_equal(dealt[m], hands)
            # every card is played but the last player's
            assert (played[m] <= hands).all() and played[m].sum() < 52
        for seat in range(n):
            seen = env.events(seat)
            assert all(e.kind != "dealt" or e.args["player"] == seat for e in seen)
