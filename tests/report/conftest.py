"""One set of real logs of every task (plus bad ones), and one report over them, per session."""

from __future__ import annotations

import pytest
from make_logs import write_bad_logs, write_logs


@pytest.fixture(scope="session")
def report_logs(tmp_path_factory):
    """(log folder, the good EvalLogs, the bad logs' paths)."""
    log_dir = tmp_path_factory.mktemp("logs")
    logs = write_logs(log_dir, limit=10)  # 2 puzzles per level: keeps the suite fast
    mock_sparc = next(
        log
        for log in logs
        if log.eval.task.endswith("/sparc") and log.eval.model.startswith("mock")
    )
    bad = write_bad_logs(log_dir, mock_sparc)
    return log_dir, logs, bad


@pytest.fixture(scope="session")
def report(request, tmp_path_factory):
    """The report over `report_logs`, published results shown (skipped, before any log is
    written, where the `report` extra is not installed)."""
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    from inspect_sparc.report import build_report

    log_dir = request.getfixturevalue("report_logs")[0]
    return build_report(log_dir, tmp_path_factory.mktemp("report"))


@pytest.fixture(scope="session")
def base(report_logs):
    """A finished mockllm `sparc` log with its samples (10 puzzles, 2 per level), read once: the
    template the scripted logs of the section tests are made from."""
    from inspect_ai.log import read_eval_log

    _, logs, _ = report_logs
    log = next(
        log
        for log in logs
        if log.eval.task.endswith("/sparc") and log.eval.model == "mockllm/model"
    )
    return read_eval_log(log.location)
