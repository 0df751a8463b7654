"""Distributed evaluation: chunks fanned out to a two-node Ray cluster give the local result
(duplicate deals included)."""

import os

import numpy as np
from extras import require

from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.evaluation import chunked_round_robin

ray = require("rllib")


def agents():
    return {"random": RandomAgent(3), "heuristic": HeuristicAgent("president")}


def test_chunks_replay_the_same_games_whatever_the_order():
    kwargs = dict(num_games=60, seed=4, num_envs=16, chunk_games=25)
    one = chunked_round_robin("president", agents(), **kwargs)
    two = chunked_round_robin("president", agents(), **kwargs)
    for a, b in zip(one, two, strict=True):
        np.testing.assert_array_equal(a.seat_rewards, b.seat_rewards)
        np.testing.assert_array_equal(a.focus_side, b.focus_side)
    assert one[0].num_games == 60 and 0.4 < one[1].win_rate <= 1.0  # heuristic beats random


def test_a_two_node_cluster_gives_the_local_result():
    from ray.cluster_utils import Cluster

    from presages_env.evaluation import RayExecutor

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    cluster.add_node(num_cpus=1)
    try:
        ray.init(address=cluster.address)
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        for duplicate in (False, True):  # duplicate deals: chunks of whole deal groups
            kwargs = dict(num_games=80, seed=1, num_envs=16, chunk_games=20, duplicate=duplicate)
            remote = chunked_round_robin("president", agents(), executor=RayExecutor(), **kwargs)
            local = chunked_round_robin("president", agents(), **kwargs)
            for r, m in zip(remote, local, strict=True):
                np.testing.assert_array_equal(r.seat_rewards, m.seat_rewards)
                np.testing.assert_array_equal(r.seat_sides, m.seat_sides)
                np.testing.assert_array_equal(r.focus_side, m.focus_side)
                assert (r.focus, r.others, r.group_size) == (m.focus, m.others, m.group_size)
            assert remote[0].group_size == (4 if duplicate else 1)
    finally:
        ray.shutdown()
        cluster.shutdown()
        os.environ.pop("RAY_ADDRESS", None)  # ray.init left the cluster's address for others
