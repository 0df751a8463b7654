"""RLlib: the MultiAgentEnv, the batched runner's env, a tiny league run and its conversion."""

import os

import numpy as np
import pytest
from extras import require
from ray_or_skip import FAIL_ON_DEPRECATIONS, import_rllib

ray = require("rllib")
import_rllib()
pytestmark = FAIL_ON_DEPRECATIONS

from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

import presages_env  # noqa: E402
from presages_env.rllib import (  # noqa: E402
    BatchedMultiAgentEnv,
    CardGameMultiAgentEnv,
    load_rllib_checkpoint,
    team_of,
)


@pytest.fixture(scope="module")
def local_ray():
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # "local": a Ray of its own, whatever cluster another test in this process connected to
    ray.init(address="local", num_cpus=2, include_dashboard=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


def play_one(env, actions_of) -> tuple[list, dict]:
    """Play one game with ``actions_of(obs) -> action``; returns the steps and the totals."""
    obs, _ = env.reset(seed=3)
    steps, totals = [], {}
    while True:
        ((agent, o),) = obs.items()
        obs, rewards, terminated, truncated, _ = env.step({agent: actions_of(o)})
        steps.append((agent, obs, rewards, terminated, truncated))
        for a, r in rewards.items():
            totals[a] = totals.get(a, 0.0) + r
        if terminated["__all__"] or truncated["__all__"]:
            return steps, totals


def first_legal(o) -> int:
    return int(np.flatnonzero(o["action_mask"])[0])


@pytest.mark.parametrize("game", ["president", "presages", "aciliande"])
def test_the_env_passes_rllibs_checker_and_is_turn_based(game):
    env = CardGameMultiAgentEnv({"game": game})
    check_multiagent_environments(env)
    steps, totals = play_one(env, first_legal)
    assert all(len(step[1]) == 1 for step in steps[:-1])  # only the seat to act observes
    assert steps[-1][3]["__all__"] and steps[-1][1] == {}  # ended by the rules: no obs
    assert set(totals) <= set(env.possible_agents)


def test_team_ids_name_each_seat_by_its_team():
    env = CardGameMultiAgentEnv({"game": "presages", "agent_ids": "team"})
    for seed in range(5):
        env.reset(seed=seed)
        teams = env.teams()
        assert all(team_of(agent) == team for agent, team in teams.items())
        assert sorted(teams.values()) == [0, 0, 1, 1]


def test_a_cut_game_gives_every_seat_its_final_observation():
    env = CardGameMultiAgentEnv({"game": "president", "max_steps": 7})
    steps, _ = play_one(env, first_legal)
    agent, obs, _rewards, terminated, truncated = steps[-1]
    assert truncated["__all__"] and not terminated["__all__"] and len(steps) == 7
    assert set(obs) == set(env.possible_agents)


def test_an_illegal_action_ends_the_game_with_a_penalty():
    env = CardGameMultiAgentEnv({"game": "president"})
    steps, totals = play_one(env, lambda o: int(np.flatnonzero(o["action_mask"] == 0)[0]))
    assert len(steps) == 1 and steps[0][3]["__all__"]
    assert totals == {steps[0][0]: -1.0}


def test_the_batched_env_plays_the_same_turn_based_protocol():
    env = BatchedMultiAgentEnv({"game": "presages", "agent_ids": "team", "max_steps": 40}, 8, 0)
    obs, _ = env.reset(seed=0)
    ends = {"terminated": 0, "truncated": 0}
    ended = np.zeros(8, dtype=bool)  # those games show their new deal on the next step
    for _ in range(300):
        actions = [
            {} if ended[b] else {a: first_legal(o) for a, o in obs[b].items()} for b in range(8)
        ]
        obs, rewards, terminated, truncated, _ = env.step(actions)
        ended = np.array([terminated[b]["__all__"] or truncated[b]["__all__"] for b in range(8)])
        for b in range(8):
            if terminated[b]["__all__"]:
                ends["terminated"] += 1
                assert obs[b] == {}
            elif truncated[b]["__all__"]:
                ends["truncated"] += 1
                assert len(obs[b]) == 4
            else:
                assert len(obs[b]) == 1
            assert all(team_of(a) in (0, 1) for a in obs[b])
    assert ends["terminated"] and ends["truncated"]
    with pytest.raises(ValueError, match="is to act"):
        env.step([{"team_9_9": 0}] * 8)


def test_the_batched_env_refuses_bad_seeds_and_seed_lists_and_stays_unchanged():
    """The one seed rule (issue 27, defect 7): ``reset(seed=[])`` raised IndexError."""
    bad = [-1, 1.5, True, 2**63, np.uint64(2**64 - 1), "3", float("nan")]
    for value in bad:
        with pytest.raises((TypeError, ValueError), match="seed"):
            BatchedMultiAgentEnv({"game": "president"}, 2, seed=value)
    env = BatchedMultiAgentEnv({"game": "president"}, 2, seed=0)
    env.reset(seed=1)
    before = env.vec.states.tobytes(), repr(env._rng.bit_generator.state)
    for value in [*bad, [], [1], [1, 2, 3], [1, -1]]:
        with pytest.raises((TypeError, ValueError), match="seed"):
            env.reset(seed=value)
        assert (env.vec.states.tobytes(), repr(env._rng.bit_generator.state)) == before
    env.reset(seed=[4, 5])


def test_two_league_iterations_train_and_convert(local_ray, tmp_path):
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(presages_env.__file__), "..", "baselines"))
    import train_rllib

    args = train_rllib.parse_args(
        [
            "--game", "president", "--iterations", "2", "--snapshots", "1",
            "--snapshot-every", "1", "--num-env-runners", "0", "--num-envs", "8",
            "--batch-size", "256", "--minibatch-size", "128", "--epochs", "1",
            "--hiddens", "16", "16", "--out", str(tmp_path),
        ]
    )  # fmt: skip
    algo, _ = train_rllib.build(args)
    try:
        for _ in range(2):
            result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 512
        train_rllib.refresh_snapshot(algo, "snapshot_0")
        weights = algo.learner_group.get_weights()
        for name, value in weights["learner"].items():
            np.testing.assert_array_equal(value, weights["snapshot_0"][name])
        algo.save_to_path(str(tmp_path / "checkpoint"))
    finally:
        algo.stop()
    with pytest.raises(ValueError, match="trusted=True"):
        load_rllib_checkpoint(tmp_path / "checkpoint", "president")
    agent = load_rllib_checkpoint(tmp_path / "checkpoint", "president", trusted=True)
    agent.save(tmp_path / "policy.pt")
    from presages_env.agents.ppo import PPOAgent

    vec = presages_env.make_vec("president", 32, seed=1)
    loaded = PPOAgent.load(tmp_path / "policy.pt")
    np.testing.assert_array_equal(
        loaded.act_batch(vec.obs, vec.masks), agent.act_batch(vec.obs, vec.masks)
    )
