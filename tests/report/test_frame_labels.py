"""Run labels, log finding and reading (report.read): labels differ where settings differ and
stay put when a run is added; a log is read once; answers are counted."""

from __future__ import annotations

import os

import pandas as pd
import pytest
from report_rows import run_rows

from inspect_sparc.report.read.logs import find_logs
from inspect_sparc.report.read.runs import label_runs
from inspect_sparc.report.read.samples import answer_points


@pytest.mark.parametrize(
    "differ",
    [
        {"source": ["sample", "/data/other.jsonl"]},
        {"split": ["test", "train"]},
        {"subset": ["all", "stars"]},
        {"levels": [None, 1]},
        {"extraction": ["paper", "strict"]},
    ],
)
def test_runs_differing_in_one_setting_get_different_labels(differ):
    labels = label_runs(run_rows(**differ))["run"]
    assert labels.nunique() == 2
    assert all(f"{next(iter(differ))}=" in label for label in labels)
    assert "#" not in "".join(labels)  # told apart by the setting, not by a number


def test_an_all_levels_run_reads_levels_all():
    labels = label_runs(run_rows(levels=[None, 1]))["run"].tolist()
    assert any(label.endswith("levels=all") for label in labels)
    assert not any("levels=-" in label for label in labels)


def test_repeated_label_text_is_always_numbered():
    labels = label_runs(run_rows())["run"].tolist()
    assert labels == ["search (exact) | single_shot #1", "search (exact) | single_shot #2"]


def test_a_failed_run_added_later_renumbers_no_label():
    good = run_rows()  # two alike runs: #1 and #2
    before = label_runs(good.assign(status="success"))["run"].tolist()
    # earlier than both, and with a setting the good runs do not have
    failed = good.iloc[[0]].assign(status="error", started_at="2025-12-31", levels="5")
    after = label_runs(pd.concat([good.assign(status="success"), failed], ignore_index=True))
    assert after.loc[after["status"] == "success", "run"].tolist() == before
    [label] = after.loc[after["status"] == "error", "run"]
    assert label.endswith("[error]")


def test_a_log_reached_by_two_paths_is_read_once(report_logs, monkeypatch):
    log_dir, logs, _ = report_logs
    monkeypatch.chdir(log_dir)
    one = os.path.relpath(logs[0].location)
    found, _ = find_logs([str(log_dir), one, f"./{one}", logs[0].location])
    resolved = [os.path.realpath(path) for path in found]
    assert len(resolved) == len(set(resolved))
    assert os.path.realpath(logs[0].location) in resolved


def test_answer_cut_at_200_points_counts_its_points():
    points = ", ".join(f"({i}, 0)" for i in range(200))
    assert answer_points(f"{points}, ... (7 more points)") == 207
    assert answer_points("(0, 0), (1, 0)") == 2
    assert answer_points("I give up (sorry)") == 0


def test_a_run_limited_to_sample_ids_says_which_puzzles_ran_not_all_levels(tmp_path):
    # `--sample-id a,b` beside a whole run of the same model and task: its label names the ids
    from golden import LOGS
    from inspect_ai.log import read_eval_log, write_eval_log

    from inspect_sparc.report import runs_frame

    log = read_eval_log(str(LOGS / "01_mock.eval"))
    ids = [str(s.id) for s in log.samples]
    write_eval_log(log, str(tmp_path / "whole.eval"))
    log.eval.config.sample_id = ids[:3]
    log.eval.config.limit = None
    log.stats.started_at = "2026-01-03T00:00:00+00:00"
    write_eval_log(log, str(tmp_path / "some.eval"))
    log.eval.config.sample_id = None
    log.eval.task_args = {**(log.eval.task_args or {}), "level": 2}
    write_eval_log(log, str(tmp_path / "level2.eval"))
    runs = runs_frame(tmp_path)
    labels = {
        log.rsplit("/", 1)[-1]: run for log, run in zip(runs["log"], runs["run"], strict=True)
    }
    assert f"sample_ids={ids[0]},{ids[1]} +1" in labels["some.eval"]
    assert "levels=all" not in labels["some.eval"] and "#" not in "".join(labels.values())
    assert "levels=2" in labels["level2.eval"]
