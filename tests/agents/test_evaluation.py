"""Evaluation maths and tournament mechanics: intervals, outcomes, seat rotation, ratings."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
import subprocess
import sys
from collections import Counter, defaultdict

import numpy as np
import pytest

from presages_env.agents import HeuristicAgent, RandomAgent
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL, seed_of
from presages_env.core.rng import derive_seed
from presages_env.evaluation import (
    Estimate,
    LocalExecutor,
    MatchResult,
    chunked_round_robin,
    cross_play,
    cross_play_table,
    deal_group_size,
    format_percent,
    game_statistics,
    has_teams,
    head_to_head,
    mean_interval,
    plot_win_rates,
    rate,
    ratings_table,
    results_table,
    round_robin,
    statistics_table,
    wilson_interval,
    win_rate,
)
from presages_env.evaluation.tournament import _partners_against_opponent
from presages_env.games.president.game import PresidentGame


class SeatRecorder:
    """Plays the lowest legal action and remembers, per deal, the seats it acted for."""

    needs_state = True

    def __init__(self, name: str) -> None:
        self.name = name
        self.game = PresidentGame()
        self.seats_by_deal: dict[int, set[int]] = defaultdict(set)

    def act_states(self, states: np.ndarray) -> np.ndarray:
        actions = np.empty(len(states), dtype=np.int64)
        mask = np.zeros(self.game.num_actions(4), dtype=np.int8)
        for row, state in enumerate(states):
            self.seats_by_deal[seed_of(state)].add(int(state[HDR_CURRENT]))
            self.game.legal_mask(state, mask)
            actions[row] = np.flatnonzero(mask)[0]
        return actions


class PairedPresident(PresidentGame):
    """Président with two teams of two that depend on the deal (as Présages' teams do)."""

    def teams(self, state: np.ndarray) -> np.ndarray:
        seats = np.arange(self.num_players_of(state))
        return seats % 2 if seed_of(state) % 2 else seats // 2


def hand_made_result(seat_rewards, seat_sides, focus_side, group_size=1) -> MatchResult:
    return MatchResult(
        "a",
        "b",
        "test",
        len(seat_rewards[0]),
        np.array(seat_rewards, dtype=np.float64),
        np.array(seat_sides),
        np.array(focus_side),
        group_size,
    )


# ---- statistics -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("successes", "n", "expected"),
    [(8, 10, (0.4902, 0.9433)), (0, 10, (0.0, 0.2775)), (50, 100, (0.4038, 0.5962))],
)
def test_wilson_interval_matches_hand_computed_values(successes, n, expected):
    low, high = wilson_interval(successes, n)
    assert low == pytest.approx(expected[0], abs=1e-4)
    assert high == pytest.approx(expected[1], abs=1e-4)


def test_wilson_interval_rejects_impossible_counts():
    with pytest.raises(ValueError, match="at least one game"):
        wilson_interval(0, 0)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(11, 10)


def test_ties_count_as_half_a_win():
    estimate = win_rate(np.array([1.0, 0.5, 0.5, 0.0]))
    assert estimate.value == 0.5
    assert (estimate.low, estimate.high) == pytest.approx(wilson_interval(2, 4))


def test_mean_interval_uses_the_sample_standard_deviation():
    estimate = mean_interval(np.array([1.0, 2.0, 3.0, 4.0, 5.0]))
    # 3 ± 1.959964 · 1.581139 / √5 = 3 ± 1.385904
    assert (estimate.value, estimate.low, estimate.high) == pytest.approx((3, 1.614096, 4.385904))


def test_percent_format_shows_half_the_interval():
    assert format_percent(Estimate(0.523, 0.502, 0.544, 100)) == "52.3% ± 2.1"


# ---- outcomes of a game ---------------------------------------------------------------------
def test_outcome_is_win_tie_or_loss_of_the_focused_side():
    result = hand_made_result(
        seat_rewards=[[1, 0, -1], [1, 1, -1], [0, 1, -1]],
        seat_sides=[[0, 1, 2]] * 3,
        focus_side=[0, 0, 0],
    )
    assert result.outcomes().tolist() == [1.0, 0.5, 0.0]
    assert result.win_rate == result.win_rate_ci().value == 0.5
    assert result.mean_reward == pytest.approx(2 / 3)
    assert result.chance == pytest.approx(1 / 3)


def test_team_sides_are_judged_on_the_mean_reward_of_their_seats():
    result = hand_made_result(
        seat_rewards=[[1, -1, 1, -1], [1, -1, 1, -1]],
        seat_sides=[[0, 1, 0, 1], [0, 1, 0, 1]],
        focus_side=[0, 1],
    )
    assert result.outcomes().tolist() == [1.0, 0.0]
    assert result.focus_rewards().tolist() == [1.0, -1.0]
    assert result.chance == 0.5


# ---- seats ----------------------------------------------------------------------------------
def test_individual_game_rotates_agent_a_over_every_seat_equally():
    recorder = SeatRecorder("a")
    result = head_to_head("president", recorder, RandomAgent(1), 48, seed=5, num_envs=7)
    assert result.focus_seats.sum(axis=0).tolist() == [12, 12, 12, 12]
    assert len(recorder.seats_by_deal) == 48
    seats_played = Counter()
    for seats in recorder.seats_by_deal.values():
        assert len(seats) == 1  # one seat per game
        seats_played.update(seats)
    assert sorted(seats_played.values()) == [12, 12, 12, 12]


def test_team_game_gives_agent_a_a_whole_team_of_the_deal():
    game = PairedPresident()
    recorder = SeatRecorder("a")
    result = head_to_head(game, recorder, RandomAgent(1), 40, seed=2, num_envs=9)
    assert np.bincount(result.focus_side).tolist() == [20, 20]
    for seats in recorder.seats_by_deal.values():
        assert tuple(sorted(seats)) in {(0, 2), (1, 3), (0, 1), (2, 3)}
    deals_with_each_pairing = {tuple(sorted(s)) for s in recorder.seats_by_deal.values()}
    assert len(deals_with_each_pairing) > 2  # both deal-dependent layouts were met


def test_partner_plan_puts_x_in_one_rotating_seat_of_the_team_and_y_in_the_other():
    sides = np.array([0, 1, 0, 1])
    x_seats = Counter()
    for k in range(8):
        focus, seat_agents = _partners_against_opponent(k, sides)
        assert focus == k % 2
        team = np.flatnonzero(sides == focus)
        assert sorted(seat_agents[team].tolist()) == [0, 1]  # x and y
        assert (seat_agents[sides != focus] == 2).all()  # the opponent
        x_seats[int(np.flatnonzero(seat_agents == 0)[0])] += 1
    assert x_seats == {0: 2, 1: 2, 2: 2, 3: 2}


def test_cross_play_keeps_the_pair_on_one_team_of_each_deal():
    pair, opponent = SeatRecorder("x"), SeatRecorder("opponent")
    result = cross_play(PairedPresident(), {"x": pair}, opponent, 20, seed=1)
    assert list(result.matches) == [("x", "x")]
    assert result.matches["x", "x"].focus == "x + x"
    assert np.bincount(result.matches["x", "x"].focus_side).tolist() == [10, 10]
    for deal, seats in pair.seats_by_deal.items():
        assert tuple(sorted(seats)) in {(0, 2), (1, 3), (0, 1), (2, 3)}
        assert not seats & opponent.seats_by_deal[deal]
    table = cross_play_table(result).splitlines()
    assert table[0] == "| one seat \\ partner(s) | x |"
    assert table[2] == f"| x | {format_percent(result.matches['x', 'x'].win_rate_ci())} |"


def test_cross_play_refuses_a_game_without_teams():
    assert not has_teams("president")
    with pytest.raises(ValueError, match="own team"):
        cross_play("president", {"r": RandomAgent(0)}, RandomAgent(1), 8)


# ---- duplicate deals -----------------------------------------------------------------------
@pytest.mark.parametrize(("game", "group"), [("president", 4), (PairedPresident(), 2)])
def test_a_duplicate_deal_seats_each_agent_once_on_each_of_its_sides(game, group):
    a, b = SeatRecorder("a"), SeatRecorder("b")
    result = head_to_head(game, a, b, 6 * group, seed=3, num_envs=5, duplicate=True)
    assert deal_group_size(game) == group == result.group_size
    deals = [int(derive_seed(3, g)) for g in range(6)]
    assert sorted(a.seats_by_deal) == sorted(b.seats_by_deal) == sorted(deals)
    for deal in deals:  # across its group, each agent played every seat of the deal
        assert a.seats_by_deal[deal] == b.seats_by_deal[deal] == {0, 1, 2, 3}
    for sides, focus in zip(
        result.seat_sides.reshape(6, group, 4), result.focus_side.reshape(6, group), strict=True
    ):
        assert (sides == sides[0]).all()  # one deal, so one layout of the sides
        assert sorted(focus.tolist()) == list(range(group))  # the focus on each side once


class DealDriven(SeatRecorder):
    """A deterministic agent whose play depends on the deal: the legal action its seed picks."""

    def act_states(self, states: np.ndarray) -> np.ndarray:
        mask = np.zeros(self.game.num_actions(4), dtype=np.int8)
        actions = np.empty(len(states), dtype=np.int64)
        for row, state in enumerate(states):
            self.game.legal_mask(state, mask)
            legal = np.flatnonzero(mask)
            actions[row] = legal[seed_of(state) % legal.size]
        return actions


class TwoWorkers:
    """Runs chunks on two worker processes, as Ray workers would: each pickled there."""

    def map(self, fn, items):
        self.chunks = list(items)
        context = multiprocessing.get_context("fork")  # the workers inherit the compiled games
        with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
            return list(pool.map(fn, self.chunks))


def test_duplicate_deals_do_not_depend_on_the_chunking_or_the_workers():
    agents = {"heuristic": HeuristicAgent("president"), "dealt": DealDriven("dealt")}
    whole = head_to_head("president", *agents.values(), 24, seed=9, num_envs=7, duplicate=True)
    runs = [(4, 3, LocalExecutor()), (24, 24, LocalExecutor()), (10, 5, TwoWorkers())]
    for chunk_games, num_envs, executor in runs:  # 10: rounded to 8, whole groups
        (chunked,) = chunked_round_robin(
            "president",
            agents,
            24,
            seed=9,
            num_envs=num_envs,
            chunk_games=chunk_games,
            executor=executor,
            pairs=[("heuristic", "dealt")],
            duplicate=True,
        )
        assert chunked.group_size == 4
        np.testing.assert_array_equal(chunked.seat_rewards, whole.seat_rewards)
        np.testing.assert_array_equal(chunked.seat_sides, whole.seat_sides)
        np.testing.assert_array_equal(chunked.focus_side, whole.focus_side)
    chunks = [(chunk.first, chunk.count) for chunk in executor.chunks]
    assert chunks == [(0, 8), (8, 8), (16, 8)]  # whole groups of 4 on each worker


def test_duplicate_intervals_are_taken_over_the_groups():
    # every deal favours seat 0, whoever holds it: the focus wins it once and loses it once
    rewards = [[1.0, -1.0]] * 20
    sides, focus = [[0, 1]] * 20, [0, 1] * 10
    duplicate = hand_made_result(rewards, sides, focus, group_size=2)
    plain = hand_made_result(rewards, sides, focus)
    assert duplicate.win_rate == plain.win_rate == 0.5
    assert duplicate.win_rate_ci() == Estimate(0.5, 0.5, 0.5, 10)  # 10 groups, no spread
    assert plain.win_rate_ci().n == 20 and plain.win_rate_ci().half_width > 0.15
    assert duplicate.mean_reward_ci() == Estimate(0.0, 0.0, 0.0, 10)
    # a group mean of 1 and one of 0: worth one game (p(1 - p) / SE² = 0.25 / 0.25), not four
    rewards = [[1.0, -1.0]] * 2 + [[-1.0, 1.0]] * 2
    pairs = hand_made_result(rewards, [[0, 1]] * 4, [0, 0, 0, 0], 2).win_rate_ci()
    low, high = wilson_interval(0.5, 1)
    assert pairs == Estimate(0.5, pytest.approx(low), pytest.approx(high), 2)
    # no game won: no spread to measure, the Wilson interval of the games themselves
    lost = hand_made_result([[-1.0, 1.0]] * 8, [[0, 1]] * 8, [0] * 8, 2).win_rate_ci()
    assert lost == Estimate(0.0, 0.0, pytest.approx(wilson_interval(0, 8)[1]), 4)


def test_duplicate_deals_refuse_a_series_of_partial_groups():
    with pytest.raises(ValueError, match="multiple of 4, at least 8: 8 or 12, not 10"):
        head_to_head("president", RandomAgent(0), RandomAgent(1), 10, duplicate=True)
    with pytest.raises(ValueError, match="at least 8: 8, not 4"):
        chunked_round_robin(
            "president", {"a": RandomAgent(0), "b": RandomAgent(1)}, 4, duplicate=True
        )


# ---- results --------------------------------------------------------------------------------
def test_fixed_seeds_reproduce_the_games():
    def play(seed):
        return head_to_head("president", RandomAgent(1), RandomAgent(2), 60, seed=seed)

    first, again, other = play(3), play(3), play(4)
    np.testing.assert_array_equal(first.seat_rewards, again.seat_rewards)
    assert not np.array_equal(first.seat_rewards, other.seat_rewards)


def test_heuristic_beats_random_in_president_with_a_significant_margin():
    result = head_to_head(
        "president", HeuristicAgent("president"), RandomAgent(0), 400, num_players=4, seed=0
    )
    assert result.win_rate_ci().low > result.chance
    assert result.mean_reward_ci().low > 0


def test_rating_raises_the_winner_and_lowers_the_loser():
    a_always_first = hand_made_result(
        seat_rewards=[[1, -1, -1, -1], [-1, 1, -1, -1]] * 10,
        seat_sides=[[0, 1, 2, 3]] * 20,
        focus_side=[0, 1] * 10,
    )
    ratings = rate([a_always_first])
    assert ratings["a"].mu > 25 > ratings["b"].mu
    assert ratings["a"].sigma < 25 / 3
    assert ratings["a"].ordinal == pytest.approx(ratings["a"].mu - 3 * ratings["a"].sigma)


def test_round_robin_tables_list_every_pair_and_rank_the_ratings(tmp_path):
    agents = {"heuristic": HeuristicAgent("president"), "random": RandomAgent(0)}
    results = round_robin("president", agents, 40, seed=1)
    assert [(r.focus, r.others) for r in results] == [
        ("heuristic", "random"),
        ("random", "heuristic"),
    ]
    lines = results_table(results).splitlines()
    assert lines[0].startswith("| agent | opponents | games | win rate (95% CI) |")
    assert lines[2].startswith(
        f"| heuristic | random | 40 | {format_percent(results[0].win_rate_ci())}"
    )
    ranking = ratings_table(rate(results)).splitlines()
    assert ranking[2].startswith("| 1 | heuristic |")
    png = plot_win_rates(results, tmp_path / "winrates.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_evaluation_imports_without_torch_or_openskill():
    code = (
        "import sys, presages_env.evaluation; "
        "print(sorted({'torch', 'openskill', 'matplotlib'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_game_statistics_count_every_decision_and_its_legal_actions():
    """The first deal of each env, replayed by hand with the same (deterministic) heuristic,
    gives the same length and the same legal-action counts, decision by decision."""
    game, agent = PresidentGame(), HeuristicAgent("president")
    stats = game_statistics("president", agent, 3, num_players=4, seed=5, num_envs=3)
    assert stats.num_games == 3 and not stats.truncated.any()
    expected_counts = []
    for k in range(3):
        state = game.new_state(4, derive_seed(5, k))
        mask = np.zeros(game.num_actions(4), dtype=np.int8)
        obs = np.zeros(game.obs_size(4), dtype=game.obs_dtype)
        rewards = np.zeros(4, dtype=np.float32)
        counts = []
        while not state[HDR_TERMINAL]:
            game.legal_mask(state, mask)
            game.observe(state, int(state[HDR_CURRENT]), obs)
            counts.append(int(mask.sum()))
            game.step(state, agent.act(obs, mask), rewards)
        assert stats.lengths[k] == len(counts)
        expected_counts += counts
    assert sorted(stats.legal_counts.tolist()) == sorted(expected_counts)
    assert stats.forced_share == pytest.approx(np.mean(np.array(expected_counts) == 1))
    assert stats.branching == pytest.approx(np.mean(expected_counts))
    table = statistics_table([stats])
    assert "| 4 | heuristic | 3 |" in table


def test_game_statistics_replay_from_the_seed():
    first, again = (
        game_statistics("president", RandomAgent(3), 20, num_players=3, seed=1, num_envs=4)
        for _ in range(2)
    )
    assert (first.lengths == again.lengths).all() and first.lengths.min() > 0
    assert (first.legal_counts == again.legal_counts).all()


def test_a_win_rate_of_zero_plots(tmp_path):
    """A Wilson bound computed a hair above a 0% rate must not break the plot."""
    from presages_env.evaluation.tournament import MatchResult

    games = 10
    lost = MatchResult(
        "a",
        "b",
        "president",
        2,
        np.array([[-1.0, 1.0]] * games),
        np.array([[0, 1]] * games),
        np.zeros(games, dtype=np.int64),
    )
    assert lost.win_rate_ci().low > lost.win_rate_ci().value  # the rounding this guards
    assert plot_win_rates([lost], tmp_path / "zero.png").exists()


def team_series(focus: str, wins: int, games: int = 100, teams: int = 2) -> MatchResult:
    """``games`` games of two seats per team against ``random``; the focus's team (side 0)
    wins the first ``wins``, side 1 the others."""
    sides = np.tile(np.arange(2 * teams) % teams, (games, 1))
    winner = np.where(np.arange(games) < wins, 0, 1)
    rewards = np.where(sides == winner[:, None], 1.0, -1.0)
    return MatchResult(
        focus, "random", "presages", 2 * teams, rewards, sides, np.zeros(games, dtype=np.int64)
    )


def test_the_win_rate_plot_names_its_setting_its_interval_and_chance(tmp_path):
    from presages_env.evaluation.report import win_rates_figure

    results = [team_series("ppo", 70, teams=3), team_series("heuristic", 40, teams=3)]
    figure = win_rates_figure(results, method="PPO self-play against the field")
    axes = figure.axes[0]
    title = " ".join(axes.get_title().split())  # wrapped lines joined
    assert "Présages, 6 players: PPO self-play against the field" in title
    assert "bars: 95% Wilson interval over 100 games each" in title
    chance = [line for line in axes.lines if line.get_label().startswith("chance")]
    assert len(chance) == 1 and chance[0].get_xdata() == pytest.approx([100 / 3] * 2)
    (legend,) = figure.legends  # below the plot, clear of the bars
    assert chance[0].get_label() in [t.get_text() for t in legend.get_texts()]
    assert plot_win_rates(results, tmp_path / "setting.png").exists()  # the default method
    duplicate = [dataclasses.replace(result, group_size=2) for result in results]
    title = " ".join(win_rates_figure(duplicate).axes[0].get_title().split())
    assert "bars: 95% Wilson interval over the duplicate deals over 100 games each" in title


def test_the_cross_play_map_shows_the_gap_to_self_play_on_a_centred_scale():
    from presages_env.evaluation import CrossPlayResult
    from presages_env.evaluation.report import cross_play_figure

    wins = {("a", "a"): 64, ("a", "b"): 60, ("b", "a"): 59, ("b", "b"): 66}
    matches = {pair: team_series(" + ".join(pair), won) for pair, won in wins.items()}
    result = CrossPlayResult(["a", "b"], "random", matches)
    figure = cross_play_figure(result, method="independent PPO populations")
    axes, colour_bar = figure.axes
    title = " ".join(axes.get_title().split())  # wrapped lines joined
    assert "Présages, 4 players: independent PPO populations" in title
    assert "self-play mean 65.0%, chance 50.0%" in title
    assert "95% Wilson interval over 100 games" in title
    image = axes.images[0]
    np.testing.assert_allclose(image.get_array(), [[-1, -5], [-6, 1]])  # minus the 65% mean
    assert image.norm.vmin == -image.norm.vmax
    # the scale spans the widest interval: a 6-point gap over 100 games is noise, not saturated
    widest = max(match.win_rate_ci().half_width for match in matches.values())
    assert image.norm.vmax == pytest.approx(200 * widest)
    assert "self-play mean (65.0%)" in colour_bar.get_ylabel()
    cells = [text.get_text() for text in axes.texts]
    assert cells[1].startswith("60.0% ± ") and cells[1].endswith("-5.0 pts")
