"""The throughput benchmark's figure says what it measured and what its points and bars are."""

import importlib
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def throughput(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the script imports its sibling `machine`
    return importlib.import_module("throughput")


def test_the_throughput_plot_names_games_players_method_and_the_spread(throughput, tmp_path):
    samples = {
        "presages (4p)": {"1/1": [1e5, 1.2e5, 1.1e5], "64/1": [2e6, 2.4e6, 2.2e6]},
        "pgx leduc_holdem (CPU)": {"1/1": [8e3, 9e3, 7e3], "64/1": [2e5, 2.1e5, 1.9e5]},
    }
    medians = {name: throughput.median_table(table) for name, table in samples.items()}
    figure = throughput.throughput_figure(medians, [1, 64], [1], samples=samples)
    title = " ".join(figure.get_suptitle().split())  # wrapped lines joined
    assert "presages (4p), pgx leduc_holdem (CPU)" in title
    assert "random legal play through the vector env" in title
    assert "points: median of 3 measurements each; bars: slowest to fastest" in title
    bars = figure.axes[0].collections[0].get_segments()
    assert [segment[:, 1].tolist() for segment in bars] == [[0.1, 0.12], [2.0, 2.4]]
    bare = throughput.throughput_figure(medians, [1, 64], [1])
    assert "no bars" in bare.get_suptitle() and not bare.axes[0].collections
    assert throughput.plot(tmp_path / "sweep.png", medians, [1, 64], [1]).exists()
