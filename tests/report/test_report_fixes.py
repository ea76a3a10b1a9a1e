"""Runs are kept apart by log whatever their labels; counts, escaping and labels as documented."""

from __future__ import annotations

import io
import os
from types import SimpleNamespace

import pandas as pd
import pytest

from inspect_sparc.core.names import EPOCHS_REDUCER
from inspect_sparc.report.frame import (
    RULE_COLUMNS,
    SETTINGS,
    answer_points,
    label_runs,
    metrics_of,
)
from inspect_sparc.report.logs import find_logs
from inspect_sparc.report.sections.baselines import baselines_table
from inspect_sparc.report.sections.deltas import delta_table
from inspect_sparc.report.sections.endings import behaviour_table, endings_table
from inspect_sparc.report.sections.results import path_lengths, reducer_text, results_table
from inspect_sparc.report.sections.rules import rule_table
from inspect_sparc.report.sections.tokens import tokens_by_level
from inspect_sparc.report.writing import write_table


def run_rows(**differ) -> pd.DataFrame:
    """Two runs of one model and task, alike except in `differ` (column -> two values)."""
    base = {
        "model": "search (exact)",
        "task": "sparc",
        "protocol": "single_shot",
        "baseline": True,
        "epochs": 1,
        "started_at": "2026-01-01",
        "levels": None,
        "puzzles": None,
        **dict.fromkeys(SETTINGS),
        "source": "sample",
        "split": "test",
        "subset": "all",
    }
    rows = []
    for i in range(2):
        row = dict(base, log=f"/logs/{i}.eval")
        row.update({key: values[i] for key, values in differ.items()})
        rows.append(row)
    return pd.DataFrame(rows)


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


def sample_rows(run_label: str = "same label") -> pd.DataFrame:
    """Two logs of 4 puzzles each that share one label: every puzzle has a dot, log 0 solved
    all, log 1 none."""
    rows = []
    for log in range(2):
        for i in range(4):
            rows.append(
                {
                    "log": f"/logs/{log}.eval",
                    "run": run_label,
                    "task": "sparc",
                    "protocol": "single_shot",
                    "model": "m",
                    "baseline": False,
                    "id": f"p{i}",
                    "epoch": 1,
                    "level": 1,
                    "correct": 1.0 - log,
                    "path_length": 10 + 10 * log,
                    "output_tokens": 100 * (log + 1),
                    "reasoning_tokens": None,
                    **{f"has_{k}": k == "dot" for k in RULE_COLUMNS},
                }
            )
    return pd.DataFrame(rows)


def test_tables_group_by_log_not_by_label():
    samples = sample_rows()
    rules = rule_table(samples)
    assert rules["dot"].tolist() == [100.0, 0.0] and rules["n_dot"].tolist() == [4, 4]
    assert path_lengths(samples) == {"/logs/0.eval": 10.0, "/logs/1.eval": 20.0}
    tokens = tokens_by_level(samples)
    assert tokens["output_tokens"].tolist() == [100.0, 200.0]


def test_path_length_averages_each_samples_epochs_first():
    samples = sample_rows().iloc[:2].copy()  # log 0, puzzles p0 and p1
    samples = pd.concat([samples, samples.iloc[[0]]], ignore_index=True)
    samples["epoch"] = [1, 1, 2]
    samples["path_length"] = [10, 60, 20]  # p0: 10 and 20 over two epochs, p1: 60 once
    # per sample first: (15 + 60) / 2, not (10 + 60 + 20) / 3
    assert path_lengths(samples) == {"/logs/0.eval": 37.5}


def test_tables_of_a_run_with_no_scored_sample_do_not_raise():
    samples = sample_rows().drop(columns="correct")
    assert rule_table(samples).empty  # nothing scored: no row, no KeyError
    assert tokens_by_level(samples)["accuracy"].isna().all()


def test_a_log_reached_by_two_paths_is_read_once(report_logs, monkeypatch):
    log_dir, logs, _ = report_logs
    monkeypatch.chdir(log_dir)
    one = os.path.relpath(logs[0].location)
    found, _ = find_logs([str(log_dir), one, f"./{one}", logs[0].location])
    resolved = [os.path.realpath(path) for path in found]
    assert len(resolved) == len(set(resolved))
    assert os.path.realpath(logs[0].location) in resolved


def baseline_run(**values) -> dict:
    return {
        "log": "/logs/r.eval",
        "run": "random baseline | gym x3 epochs",
        "task": "sparc_gym",
        "protocol": "gym",
        "model": "random baseline",
        "baseline": True,
        "samples": 12,  # Inspect's completed_samples: 4 puzzles x 3 epochs
        "epochs": 3,
        "accuracy": 0.25,
        "task_version": "1-B",
        "status": "success",
        **values,
    }


def test_baselines_count_samples_as_results_does():
    runs = pd.DataFrame([baseline_run()])
    [row] = baselines_table(runs).to_dict("records")
    assert row["n"] == 4 == results_table(runs)["n"].item()


def test_agent_runs_have_endings():
    runs = pd.DataFrame(
        [
            baseline_run(
                task="sparc_agent",
                protocol="agent",
                run="m | agent",
                baseline=False,
                reached_end_rate=0.5,
                dead_end_rate=0.25,
                step_limit_rate=0.25,
                cut_rate=0.0,
            )
        ]
    )
    [row] = endings_table(runs).to_dict("records")
    assert row["protocol"] == "agent" and row["dead end"] == 25.0


def test_deltas_pair_only_runs_on_the_same_puzzles():
    base = {"model": "m", "baseline": False, "prompt": "paper", "split": "test"}
    base |= {"subset": "all", "levels": None, "samples": 4, "epochs": 1, "source": "sample"}
    shot = dict(base, task="sparc", protocol="single_shot", max_steps=None)
    gym = dict(base, task="sparc_gym", protocol="gym", max_steps=100)
    runs = pd.DataFrame(
        [
            dict(shot, accuracy=0.1, run="a", started_at="0"),
            dict(gym, accuracy=0.3, run="c", started_at="1"),
            # later, but on other puzzles: another source, or more of them
            dict(gym, accuracy=0.5, run="b", started_at="2", source="other.jsonl"),
            dict(gym, accuracy=0.9, run="d", started_at="3", samples=8),
        ]
    )
    [row] = delta_table(runs).to_dict("records")
    assert (row["run_a"], row["run_b"], row["source"], row["n"]) == ("c", "a", "sample", 4)
    assert row["points"] == pytest.approx(20.0)


def test_answer_cut_at_200_points_counts_its_points():
    points = ", ".join(f"({i}, 0)" for i in range(200))
    assert answer_points(f"{points}, ... (7 more points)") == 207
    assert answer_points("(0, 0), (1, 0)") == 2
    assert answer_points("I give up (sorry)") == 0


def test_with_several_reducers_the_mean_metrics_are_taken_and_named():
    R = EPOCHS_REDUCER

    def score(reducer, value):
        metric = SimpleNamespace(value=value)
        return SimpleNamespace(name="sparc_scorer", reducer=reducer, metrics={"accuracy": metric})

    header = SimpleNamespace(
        results=SimpleNamespace(scores=[score("max", 0.9), score("mean", 0.4)])
    )
    values = metrics_of(header)
    assert values["accuracy"] == 0.4 and values["metrics_reducer"] == "mean"
    run = {"epochs_reducer": "max,mean", "metrics_reducer": "mean"}
    assert reducer_text(run) == "max,mean (metrics: mean)"
    # the SPaRC tasks' own mean (`inspect_sparc/mean`, the default) counts as the mean too
    ours = SimpleNamespace(results=SimpleNamespace(scores=[score("max", 0.9), score(R, 0.4)]))
    assert metrics_of(ours)["accuracy"] == 0.4 and metrics_of(ours)["metrics_reducer"] == R


def test_latex_cells_are_escaped_once(tmp_path):
    name = "R&D \\ 100% $x #1 a_b {c} ~d ^e"
    table = pd.DataFrame({"model": [name], "n": [4], "accuracy": [12.34]})
    write_table(table, "t", tmp_path, caption="a_b & c")
    tex = (tmp_path / "t.tex").read_text()
    [row] = [line for line in tex.splitlines() if line.startswith("R")]
    # three columns: the cell's own & is escaped; the backslash is not escaped twice
    assert row.replace("\\&", "").count("&") == 2
    assert "\\textbackslash" in row and "\\textbackslash\\{\\}" not in row
    for escaped in ("\\%", "\\$", "\\#", "\\_", "\\{", "\\}"):
        assert escaped in row
    assert "12.3" in row and "\\caption{a\\_b \\& c}" in tex


def test_a_failed_run_added_later_renumbers_no_label():
    good = run_rows()  # two alike runs: #1 and #2
    before = label_runs(good.assign(status="success"))["run"].tolist()
    # earlier than both, and with a setting the good runs do not have
    failed = good.iloc[[0]].assign(status="error", started_at="2025-12-31", levels="5")
    after = label_runs(pd.concat([good.assign(status="success"), failed], ignore_index=True))
    assert after.loc[after["status"] == "success", "run"].tolist() == before
    [label] = after.loc[after["status"] == "error", "run"]
    assert label.endswith("[error]")


def test_the_terminal_summary_fits_80_columns(report):
    from rich.console import Console

    from inspect_sparc.report.__main__ import summary_table

    console = Console(width=80, record=True, file=io.StringIO())
    console.print(summary_table(report.tables["results"]))
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    results = report.tables["results"].dropna(subset=["ci95_low"])
    for _, row in results.iterrows():  # numbers are never split across lines
        assert f"{row['ci95_low']:.1f}-{row['ci95_high']:.1f}" in text


def test_csv_cells_are_rounded_to_what_they_mean(report):
    import csv

    out = report.out_dir / "tables"
    with open(out / "results.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for r in rows:
        for column in ("accuracy", "ci95_low", "level_1", "invalid_path_rate"):
            if r[column]:
                assert len(r[column].partition(".")[2]) <= 1, (column, r[column])
        if r["n"]:
            assert r["n"].isdigit()
    with open(out / "paired.csv", encoding="utf-8") as handle:
        paired = list(csv.DictReader(handle))
    assert paired and all(r["both"].isdigit() for r in paired if r["both"])
    for r in paired:
        for column in ("p", "p_holm"):
            if r.get(column):
                digits = r[column].replace("0.", "").lstrip("0").replace(".", "")
                assert len(digits.rstrip("0")) <= 3, r[column]


def test_behaviour_shows_the_step_and_tool_metrics_and_the_backtracking_ratio():
    agent = baseline_run(
        task="sparc_agent",
        protocol="agent",
        run="m | agent",
        baseline=False,
        max_steps=10,
        illegal_action_rate=0.25,
        unparseable_rate=0.5,
        tool_calls_per_episode=7.0,
        no_tool_call_rate=0.1,
        mean_steps=6.0,
    )
    runs = pd.DataFrame([dict(agent, log="a.eval")])
    # (steps, path points, ending): ratios 6/3 and 4/4 count; a step-limit episode, one that
    # hit the limit exactly and a zero-edge path do not
    episodes = [
        (6, 4, "reached_end"),
        (4, 5, "reached_end"),
        (9, 3, "step_limit"),
        (10, 4, "reached_end"),
        (0, 1, "reached_end"),
    ]
    samples = pd.DataFrame(
        [
            {"log": "a.eval", "id": str(i), "steps": s, "path_length": p, "ended": e}
            for i, (s, p, e) in enumerate(episodes)
        ]
    )
    [row] = behaviour_table(runs, samples).to_dict("records")
    assert row["illegal_action_rate"] == 25.0 and row["unparseable_rate"] == 50.0
    assert row["tool_calls_per_episode"] == 7.0 and row["no_tool_call_rate"] == 10.0
    assert row["n_reached_end"] == 2
    assert row["backtracking_ratio"] == pytest.approx((6 / 3 + 4 / 4) / 2)  # median of two
    assert "too few" in row["backtracking_ratio_interval"]  # no zero-width interval of two
