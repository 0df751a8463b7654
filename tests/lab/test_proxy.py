"""``python -m presages_env lab proxy``: a human-proxy agent cloned from exported games, a
checkpoint the checked loader takes and the cooperation benchmark seats as an ad-hoc partner.
"""

from __future__ import annotations

import extras

extras.require("lab")
extras.require("train")

from presages_env import records  # noqa: E402
from presages_env.__main__ import main  # noqa: E402
from presages_env.agents import RandomAgent  # noqa: E402
from presages_env.agents.ppo import PPOAgent  # noqa: E402
from presages_env.agents.specs import make_agent  # noqa: E402
from presages_env.evaluation.coordination import evaluate_coordination  # noqa: E402
from presages_env.lab.proxy import human_decisions  # noqa: E402
from presages_env.lab.store import SeatSpec, Store  # noqa: E402

GAME, PLAYERS = "presages", 4


def exported_games(tmp_path, seeds=(1, 2, 3)):
    """A few finished Présages tables (a person at seat 0, the stand-in once), exported."""
    store = Store(f"sqlite:///{tmp_path / 'lab.db'}")
    store.migrate()
    seats = [SeatSpec("human", "Ada"), *[SeatSpec("random", "random")] * 3]
    people = 0
    for seed in seeds:
        agents = [RandomAgent(seed * 10 + p) for p in range(PLAYERS)]
        rec = records.play_recorded(GAME, agents, ["x"] * PLAYERS, seed)
        table_id, _ = store.create_table(GAME, PLAYERS, {}, seed, seats, 60)
        last, timed_out = len(rec.actions) - 1, False
        for step, move in enumerate(rec.actions):
            by = "agent"
            if move["seat"] == 0:
                by = "human" if timed_out else "timeout"  # the first one timed out
                timed_out = True
                people += by == "human"
            store.add_move(
                table_id, step, move["seat"], move["action"], move["label"], by, None, step == last
            )
    store.close()
    out = tmp_path / "export"
    assert main(["lab", "export", "--db", store.url, "--out", str(out)]) == 0
    return out, people


def test_a_proxy_clones_the_people_and_partners_in_the_cooperation_benchmark(tmp_path, capsys):
    out, people = exported_games(tmp_path)
    obs, masks, actions = human_decisions(out, GAME, PLAYERS)
    assert len(actions) == people > 0  # the stand-in's move is not the person's
    assert all(masks[i, a] for i, a in enumerate(actions))
    proxy = tmp_path / "proxy.pt"
    command = ["lab", "proxy", str(out), "--game", GAME, "--players", str(PLAYERS)]
    assert main([*command, "--out", str(proxy), "--epochs", "2"]) == 0
    assert f"{people} decisions" in capsys.readouterr().out
    PPOAgent.load(proxy, game=GAME, num_players=PLAYERS)  # the checked loader takes it
    label, partner = make_agent(f"ppo:{proxy}", GAME, num_players=PLAYERS)
    assert label == "ppo:proxy"
    result = evaluate_coordination(
        GAME,
        {"pop0": RandomAgent(0), "pop1": RandomAgent(1)},
        RandomAgent(9),
        2,
        ad_hoc_partners={"human proxy": partner},
        num_players=PLAYERS,
        seed=3,
    )
    assert [m.focus for m in result.ad_hoc["human proxy"]] == [
        "pop0 + human proxy",
        "pop1 + human proxy",
    ]


def test_the_proxy_command_refuses_a_folder_without_people(tmp_path, capsys):
    out, _ = exported_games(tmp_path, seeds=(1,))
    command = ["lab", "proxy", str(out), "--game", "president", "--players", "4"]
    assert main([*command, "--out", str(tmp_path / "p.pt")]) == 1
    assert "no person's decision of president" in capsys.readouterr().err
    assert not (tmp_path / "p.pt").exists()
