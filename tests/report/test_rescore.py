"""--rescore scores the logged answers with the installed scorer, through Inspect's `score`."""

from __future__ import annotations

import pytest
from inspect_ai.log import read_eval_log, write_eval_log

from inspect_sparc.report.build import build_report


@pytest.mark.slow
def test_rescore_replaces_stale_scores_and_says_so(request, tmp_path):
    pytest.importorskip("jinja2")
    _, logs, _ = request.getfixturevalue("report_logs")
    mock = next(
        log
        for log in logs
        if log.eval.task.endswith("/sparc") and log.eval.model.startswith("mock")
    )
    stale = read_eval_log(mock.location)
    for sample in stale.samples:  # an "older scorer" that failed everything
        for score in sample.scores.values():
            score.value = {**score.value, "correct": 0}
    stale.results.scores[0].metrics["accuracy"].value = 0.0
    logs_dir = tmp_path / "logs"
    logs_dir.mkdir()
    write_eval_log(stale, str(logs_dir / "stale.eval"))

    as_logged = build_report(logs_dir, tmp_path / "plain")
    assert as_logged.tables["results"]["accuracy"].item() == 0.0
    rescored = build_report(logs_dir, tmp_path / "rescored", rescore=True)
    expected = 100 * mock.results.scores[0].metrics["accuracy"].value
    assert expected > 0
    assert rescored.tables["results"]["accuracy"].item() == pytest.approx(expected)
    assert "Rescored" in rescored.index.read_text(encoding="utf-8")
    assert read_eval_log(logs_dir / "stale.eval").results.scores[0].metrics["accuracy"].value == 0
