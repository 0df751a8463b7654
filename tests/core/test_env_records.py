"""A game played through the AEC env is saved and replayed (issue 42, item 3): its deal's seed
is ``env.game_seed``, ``records.from_env(env)`` is the record of the game played, which saves,
loads, replays to the env's states and draws as a page; a game started from a position, or
not over, is refused with the reason."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.utils import wrappers

import presages_env
from presages_env import records
from presages_env.ui.replay_page import write_replay_page


def play_randomly(env, seed: int) -> tuple[list[np.ndarray], dict[str, float]]:
    """Random legal moves through the AEC loop to the end: every state on the way and each
    agent's summed rewards."""
    rng = np.random.default_rng(seed)
    states = [env.get_state()]
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        states.append(env.get_state())
    return states, totals


@pytest.mark.parametrize("name", presages_env.list_games())
def test_a_game_played_through_the_env_saves_loads_and_replays(name, tmp_path):
    env = presages_env.make(name)
    env.reset(seed=11)
    game = env.game
    dealt = game.new_state(env.num_players, env.game_seed, **vars(env.game_options))
    assert np.array_equal(env.get_state(), dealt)  # game_seed is the deal's own seed
    states, totals = play_randomly(env, seed=3)
    rec = records.from_env(env)
    # no names given: the seats are unnamed (pages name them P1, P2 ..., issue 50), not
    # "player_0" beside the "P1" of the event texts
    assert rec.seed == env.game_seed and rec.agents == [""] * env.num_players
    assert [m["action"] for m in rec.actions] == env.actions_since_deal()
    records.save(rec, tmp_path / "game.json")
    loaded = records.load(tmp_path / "game.json")
    assert loaded == rec
    replayed = records.replay(loaded)
    assert len(replayed) == len(states)
    assert all(np.array_equal(a, b) for a, b in zip(replayed, states, strict=True))
    assert rec.result == pytest.approx([totals[a] for a in env.possible_agents], abs=1e-5)
    write_replay_page(loaded, tmp_path / "game.html")
    assert game.title in (tmp_path / "game.html").read_text(encoding="utf-8")


def test_the_same_seed_records_the_same_game_and_names_can_be_given():
    """``reset(seed=11)`` deals the same game each time, and so records the same game."""
    recorded = []
    for _ in range(2):
        env = presages_env.make("president")
        env.reset(seed=11)
        play_randomly(env, seed=5)
        recorded.append(records.from_env(env, ["ann", "bob", "cy", "dee"]))
    assert recorded[0] == recorded[1] and recorded[0].agents == ["ann", "bob", "cy", "dee"]
    wrapped = wrappers.OrderEnforcingWrapper(env)  # what pettingzoo.make hands out
    assert records.from_env(wrapped, recorded[0].agents) == recorded[0]


def test_a_reset_starts_a_new_record():
    env = presages_env.make("president")
    env.reset(seed=1)
    play_randomly(env, seed=1)
    first = records.from_env(env)
    env.reset()  # the next deal of the same seed sequence
    assert env.actions_since_deal() == [] and env.game_seed != first.seed
    play_randomly(env, seed=2)
    assert records.from_env(env).seed == env.game_seed


def test_a_game_started_from_a_position_has_no_record():
    env = presages_env.make("president")
    env.reset(seed=4)
    play_randomly(env, seed=4)
    position = env.get_state()
    for start in (env.set_state, lambda s: env.reset(options={"state": s})):
        start(position)
        with pytest.raises(ValueError, match=r"set_state\(\).*not from a deal"):
            records.from_env(env)
        with pytest.raises(ValueError, match="not from a deal"):
            env.actions_since_deal()


def test_a_refused_position_keeps_the_game_and_its_record():
    env = presages_env.make("president")
    env.reset(seed=4)
    play_randomly(env, seed=4)
    before = records.from_env(env)
    with pytest.raises((TypeError, ValueError)):
        env.set_state(np.zeros(3, dtype=np.int8))
    assert records.from_env(env) == before


def test_a_game_that_is_not_over_has_no_record():
    env = presages_env.make("president", max_steps=5)
    with pytest.raises(ValueError, match="call reset"):
        records.from_env(env)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not over after 0 actions"):
        records.from_env(env)
    play_randomly(env, seed=0)  # cut by max_steps
    with pytest.raises(ValueError, match="not over after 5 actions"):
        records.from_env(env)
    with pytest.raises(TypeError, match="AEC env"):
        records.from_env(presages_env.make_vec("president", num_envs=2))
