"""Every number of the report equals the logs' own metrics; counts equal a hand count."""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from pathlib import Path
from typing import cast

import pandas as pd
import pytest
from inspect_ai.log import read_eval_log

from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.report.read.puzzles import RULE_COLUMNS, rule_kinds
from inspect_sparc.report.read.samples import BREAK_RULES

SPLIT = Path(__file__).parents[1] / "fixtures" / "sparc" / "test_split.jsonl.gz"
proportion_confint = pytest.importorskip("statsmodels.stats.proportion").proportion_confint


def metrics(log) -> dict[str, float]:
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


def run_of(report, log) -> str:
    [run] = report.runs.loc[report.runs["log"] == log.location, "run"]
    return cast(str, run)


def row_of(table, run):
    [row] = table[table["run"] == run].to_dict("records")
    return row


def test_results_table_equals_each_logs_metrics(report_logs, report):
    _, logs, _ = report_logs
    results = report.tables["results"]
    for log in logs:
        m = metrics(log)
        row = row_of(results, run_of(report, log))
        assert row["accuracy"] == pytest.approx(100 * m["accuracy"])
        # the count behind the interval is the samples' and agrees with the metric
        assert row["solved"] == pytest.approx(row["n"] * m["accuracy"])
        if log.eval.config.epochs == 1:  # Wilson, against statsmodels (an independent oracle)
            low, high = proportion_confint(round(row["solved"]), row["n"], method="wilson")
            assert (row["ci95_low"], row["ci95_high"]) == pytest.approx((100 * low, 100 * high))
        else:  # the bootstrap over per-puzzle means holds the point estimate
            assert row["ci95_low"] <= row["accuracy"] <= row["ci95_high"]
        assert row["epochs"] == log.eval.config.epochs
        assert row["n"] * log.eval.config.epochs == log.results.completed_samples
        for level in range(1, 6):
            if f"level_{level}" in m:
                assert row[f"level_{level}"] == pytest.approx(100 * m[f"level_{level}"])
        if "mean_steps" in m:
            assert row["mean_steps"] == pytest.approx(m["mean_steps"])
        if "invalid_path_rate" in m:
            assert row["invalid_path_rate"] == pytest.approx(100 * m["invalid_path_rate"])
        usage = log.stats.model_usage
        if usage:
            total = sum(u.output_tokens for u in usage.values())
            expected = total / log.results.completed_samples
            assert row["output_tokens_per_sample"] == pytest.approx(expected)


def test_breaks_endings_and_puzzles_equal_the_logs(report_logs, report):
    _, logs, _ = report_logs
    breaks = report.tables["rule_breaks"]
    endings = report.tables["gym_endings"]
    for log in logs:
        m, run = metrics(log), run_of(report, log)
        task = log.eval.task.rsplit("/", 1)[-1]
        if task in ("sparc", "sparc_gym", "sparc_visual"):
            row = row_of(breaks, run)
            for rule in BREAK_RULES:
                if f"breaks_{rule}" not in m:  # the gym's structural rules: an episode is a
                    assert task == "sparc_gym" and pd.isna(row[rule])  # line, never breaks them
                    continue
                assert row[rule] == pytest.approx(100 * m[f"breaks_{rule}"])
        if task == "sparc_gym":
            row = row_of(endings, run)
            assert row["solved"] == pytest.approx(100 * m["accuracy"])
            assert row["dead end"] == pytest.approx(100 * m["dead_end_rate"])
            assert row["step limit"] == pytest.approx(100 * m["step_limit_rate"])
            off = 100 * (m["reached_end_rate"] - m["accuracy"])
            assert row["reached E off the solutions"] == pytest.approx(off)
        if task == "algopuzzlevqa":
            row = row_of(report.tables["algopuzzlevqa_puzzles"], run)
            assert row["board_tile"] == pytest.approx(100 * m["board_tile"])
            assert row["average"] == pytest.approx(100 * m["accuracy"])
            cats = row_of(report.tables["algopuzzlevqa_categories"], run)
            assert cats["visual_colour"] == pytest.approx(100 * m["visual_colour"])


def test_rule_table_equals_a_hand_count_over_epochs(report_logs, report):
    _, logs, _ = report_logs
    rules = report.tables["rule_accuracy"]
    checked = 0
    for log in logs:
        if not log.eval.task.endswith(("/sparc", "/sparc_gym")):
            continue
        full = read_eval_log(log.location)
        correct: dict[str, list[float]] = defaultdict(list)
        kinds: dict[str, set[str]] = {}
        for sample in full.samples:
            puzzle = parse_puzzle(sample.metadata["puzzle"])
            present = {s.kind for s in puzzle.symbols.values()}
            present |= {"dot"} if puzzle.dots else set()
            present |= {"gap"} if puzzle.gaps else set()
            kinds[sample.id] = {"polyshape" if k == "poly" else k for k in present}
            correct[sample.id].append(next(iter(sample.scores.values())).value["correct"])
        row = row_of(rules, run_of(report, log))
        for kind in RULE_COLUMNS:
            having = [sum(c) / len(c) for i, c in correct.items() if kind in kinds[i]]
            assert row[f"n_{kind}"] == len(having), kind
            if having:
                assert row[kind] == pytest.approx(100 * sum(having) / len(having)), kind
        checked += 1
    assert checked >= 4


def test_rule_kinds_count_the_published_rule_table_denominators():
    # the Spatial-Gym README: Dot 292, Gap 313, Polyomino 305, Ylop 25, Star 210, Square 355,
    # Triangle 233 of the 500 test puzzles
    counts: dict[str, int] = defaultdict(int)
    with gzip.open(SPLIT, "rt", encoding="utf-8") as lines:
        for line in lines:
            for kind in rule_kinds(json.loads(line)):
                counts[kind] += 1
    expected = dict(dot=292, gap=313, polyshape=305, ylop=25, star=210, square=355, triangle=233)
    assert dict(counts) == expected


def test_levels_and_deltas_come_from_the_logs(report_logs, report):
    _, logs, _ = report_logs
    runs = report.runs
    for log in logs:
        m = metrics(log)
        run = run_of(report, log)
        if "level_1" in m:
            assert runs.loc[runs["run"] == run, "level_1"].item() == m["level_1"]
    deltas = report.tables["protocol_deltas"]
    for _, row in deltas.iterrows():
        assert row["points"] == pytest.approx(row["accuracy_a"] - row["accuracy_b"])


def test_samples_frame_has_one_row_per_sample_and_epoch(report_logs, report):
    _, logs, _ = report_logs
    frame = report.samples
    for log in logs:
        rows = frame[frame["log"] == log.location]
        assert len(rows) == log.results.completed_samples
        assert set(rows["epoch"]) == set(range(1, log.eval.config.epochs + 1))
    gym = frame[frame["task"] == "sparc_gym"]
    assert gym["ended"].notna().all() and gym["steps"].notna().all()
    assert {"breaks_dot", "correct", "output_tokens", "working_time", "rules"} <= set(frame)
    assert "dot" not in frame.columns  # rule keys are always spelled breaks_<rule>


def test_baselines_on_the_logged_puzzles_equal_the_baseline_logs(report_logs, report):
    _, logs, _ = report_logs
    table = report.tables["baselines"]
    gym = [log for log in logs if log.eval.task.endswith("/sparc_gym")]
    astar = next(log for log in gym if log.eval.solver.endswith("gym_astar"))
    random_run = next(log for log in gym if log.eval.solver.endswith("gym_random"))
    shot = next(
        log
        for log in logs
        if log.eval.task.endswith("/sparc") and log.eval.model.startswith("mock")
    )
    assert {s.id for s in astar.samples} == {s.id for s in shot.samples}
    # a single-shot run has no step limit: its baselines are at the gym default (100), as the
    # baseline logs ran
    # the same reference on the same puzzles is shown once, named after one of the runs
    same = (table["protocol"] == "single_shot") & (table["n"] == len(shot.samples))
    rows = table[same].set_index("reference")
    assert rows.loc["A* baseline, max_steps=100, on these puzzles", "accuracy"] == pytest.approx(
        100 * metrics(astar)["accuracy"]
    )
    chance = "chance (random legal walk, exact), max_steps=100, on these puzzles"
    assert rows.loc[chance, "accuracy"] == pytest.approx(100 * metrics(random_run)["chance"])


def test_baselines_are_computed_at_each_runs_own_max_steps(report_logs, report):
    # the gym scorer's own `chance` metric at max_steps=20 is the oracle: the report's computed
    # chance for that run must be the same number, not the one at 100 steps
    _, logs, _ = report_logs
    table = report.tables["baselines"]
    mock_gym = next(
        log
        for log in logs
        if log.eval.task.endswith("/sparc_gym")
        and log.eval.model.startswith("mock")
        and not log.eval.task_args.get("traceback")
    )
    assert log_steps(mock_gym) == 20
    rows = table[table["from"] == run_of(report, mock_gym)].set_index("reference")
    chance = "chance (random legal walk, exact), max_steps=20, on these puzzles"
    assert rows.loc[chance, "accuracy"] == pytest.approx(100 * metrics(mock_gym)["chance"])
    at_100 = table[table["reference"].str.contains("max_steps=100") & (table["from"] == "x")]
    assert at_100.empty
    assert not table["reference"].str.contains("traceback").any() or all(
        "A* baseline" in r for r in table["reference"] if "traceback" in r
    )  # with traceback only A* is computed: the exact chance is not computable


def log_steps(log) -> int:
    return cast(int, log.eval.task_args["max_steps"])
