"""The lab fuzz (:mod:`presages_env.fuzzing.lab`): a few hundred hostile requests and
WebSocket conversations against the lab served on loopback find no failure (no server
error, no server path in any answer, every refusal a 4xx with a reason), and the fuzz does
report a server path when an answer names one."""

from __future__ import annotations

import extras

extras.require("lab")

from presages_env.fuzzing.lab import fuzz_lab  # noqa: E402
from presages_env.fuzzing.loopback import server_paths  # noqa: E402

CASES = 250


def test_hostile_requests_and_frames_find_no_failure():
    report = fuzz_lab("kuhn_poker", CASES, seed=0)
    assert not report.failures, "\n".join(report.failures[:10])
    assert report.cases == CASES and not report.skipped
    for outcome in ("table refused", "route refused", "study refused", "link refused"):
        assert report.outcomes[outcome], report.line()
    for outcome in ("frames accepted", "frames refused", "frames closed"):
        assert report.outcomes[outcome], report.line()


def test_an_answer_that_names_a_server_path_is_a_failure(monkeypatch):
    from presages_env.lab.routes import tables
    from presages_env.lab.web import refusal

    leaky = f"{server_paths()[0]}/presages_env/checkpoints/x.pt"  # as an OSError's text was
    monkeypatch.setattr(tables, "refused", lambda error: refusal(f"{leaky}: {error}"))
    report = fuzz_lab("kuhn_poker", 40, seed=0)
    assert any("names the server path" in failure for failure in report.failures), report.line()
