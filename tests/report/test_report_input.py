"""Bad input gives summary lines, never tracebacks; text from logs is escaped on the page."""

from __future__ import annotations

import pytest
from make_logs import HOSTILE_MODEL

from inspect_sparc.report.__main__ import main


def lines_for(report, path) -> list[str]:
    return [line["text"] for line in report.summary if line["path"] == str(path)]


def test_every_bad_log_gets_a_clear_line(report_logs, report):
    _, _, bad = report_logs
    [cancelled] = lines_for(report, bad["cancelled"])
    assert "cancelled: incomplete" in cancelled and "10 samples" in cancelled
    [other] = lines_for(report, bad["other"])
    assert "not one of our tasks" in other
    [corrupt] = lines_for(report, bad["corrupt"])  # a text file
    assert corrupt == "not an Inspect log: no header"
    [truncated] = lines_for(report, bad["truncated"])  # says where it stops
    size = bad["truncated"].stat().st_size
    assert truncated.startswith("truncated .eval log") and f"stops at byte {size}" in truncated
    assert "samples/" in truncated or "header" in truncated or "_journal" in truncated
    [errored] = lines_for(report, bad["errored"])  # Inspect's error, first line; no traceback
    assert "error: RuntimeError('the solver crashed')" in errored and "2 samples" in errored
    [old] = lines_for(report, bad["old"])
    assert "older task version 0-A" in old
    results = report.tables["results"]
    [status] = results.loc[results["run"].str.contains("[cancelled]", regex=False), "status"]
    assert status == "cancelled"


def test_a_path_without_logs_is_a_line_exit_code_1_and_no_page(tmp_path, capsys):
    pytest.importorskip("jinja2")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([str(empty), "--out", str(tmp_path / "out")]) == 1
    out = capsys.readouterr().out
    assert "no Inspect logs found" in " ".join(out.split())  # wrapped to 80 columns
    assert "no report written" in out and not (tmp_path / "out").exists()
    assert max(len(line) for line in out.splitlines()) <= 80


def test_a_file_that_is_not_a_log_writes_nothing(tmp_path, capsys):
    pytest.importorskip("jinja2")
    text = tmp_path / "notes.eval"
    text.write_text("not a log")
    assert main([str(text), "--out", str(tmp_path / "out")]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "not an Inspect log" in out and "no report written" in out
    assert not (tmp_path / "out").exists()


def test_the_progress_bar_counts_and_is_off_outside_a_terminal(tmp_path, capsys):
    pytest.importorskip("jinja2")
    empty = tmp_path / "empty"
    empty.mkdir()
    main([str(empty), "--out", str(tmp_path / "out")])
    assert "reading" not in capsys.readouterr().out  # captured stdout is not a terminal


def test_a_missing_path_writes_no_report_and_exits_non_zero(tmp_path, capsys):
    pytest.importorskip("jinja2")
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "out"
    assert main([str(empty), str(tmp_path / "missing"), "--out", str(out)]) == 2
    text = capsys.readouterr().out
    assert "no such file or folder" in text and "missing" in text and "Wrote" not in text
    assert not out.exists()


def test_model_names_are_escaped_on_the_page(report):
    html = report.index.read_text(encoding="utf-8")
    assert HOSTILE_MODEL not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert html.count("<script") == 0


def test_the_page_figures_and_tables_are_written(report):
    out = report.out_dir
    for name in (
        "difficulty_curves",
        "rule_accuracy",
        "gym_endings",
        "rule_breaks",
        "tokens",
        "visual",
        "algopuzzlevqa_puzzles",
        "protocol_deltas",
    ):
        assert (out / "figures" / f"{name}.png").stat().st_size > 1000
        pdf = (out / "figures" / f"{name}.pdf").read_bytes()
        assert pdf.startswith(b"%PDF")
        # TrueType fonts (editable text, as journals ask), never Type 3 outlines
        assert b"/FontFile2" in pdf and b"/Type3" not in pdf, name
    tex = (out / "tables" / "results.tex").read_text()
    assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
    html = report.index.read_text(encoding="utf-8")
    assert html.count("data:image/png;base64,") == len(report.figures)
    assert 'src="http' not in html and "<link" not in html  # nothing loaded from the network


@pytest.mark.slow
def test_no_published_hides_the_papers(report_logs, tmp_path, capsys):
    pytest.importorskip("jinja2")
    assert main([str(report_logs[0]), "--out", str(tmp_path), "--no-published"]) == 0
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "(published)" not in html and "GPT-OSS" not in html
    assert not (tmp_path / "tables" / "published_sparc.csv").exists()
    assert "Runs" in capsys.readouterr().out


def test_a_run_with_no_scored_sample_alone_is_shown_incomplete(report_logs, tmp_path, capsys):
    # alone: beside scored logs the sample frame has a `correct` column anyway
    pytest.importorskip("jinja2")
    errored = report_logs[2]["errored"]
    assert main([str(errored), "--out", str(tmp_path)]) == 0
    assert "RuntimeError('the solver crashed')" in capsys.readouterr().out
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "error: RuntimeError(&#39;the solver crashed&#39;)" in html and "Traceback" not in html


def test_failed_runs_never_feed_baselines_or_comparisons(report):
    failed = set(report.runs.loc[report.runs["status"] != "success", "run"])
    assert failed and all(r.endswith(("[error]", "[cancelled]")) for r in failed)
    assert not failed & set(report.tables["baselines"]["from"])
    paired = report.tables["paired"]
    assert not failed & (set(paired["run_a"]) | set(paired["run_b"]))
    deltas = report.tables["protocol_deltas"]
    assert not failed & (set(deltas["run_a"]) | set(deltas["run_b"]))


def test_a_missing_inspect_feature_stops_the_report_naming_the_version(
    report_logs, tmp_path, monkeypatch
):
    """An Inspect older than the declared floor is an error naming the version, never a
    report quietly missing its per-sample tables."""
    import inspect_ai.log

    from inspect_sparc.report import build_report

    monkeypatch.delattr(inspect_ai.log, "read_eval_log_samples_by_id")
    with pytest.raises(ImportError, match=r"inspect-ai 0\.3\.262 or later"):
        build_report(report_logs[0], tmp_path / "out")


def test_task_versions_are_ordered_by_their_numbers_and_letters():
    from inspect_sparc.report.read.logs import version_order

    # the order the package's versions were released in, each later than the one before
    released = ["0-A", "0-B", "0-Z", "0-AA", "1-A", "1-F", "1-G", "2-C", "9", "10", "10-A"]
    assert sorted(reversed(released), key=version_order) == released
    assert version_order("1-G") == version_order("1-G")
