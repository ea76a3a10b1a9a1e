"""Paired comparisons, the fresh-puzzle gap and the count check, on real logs with scripted
per-puzzle outcomes (`scripted.py`), against hand counts and statsmodels."""

from __future__ import annotations

import pytest
from inspect_ai.log import read_eval_log
from scripted import scripted_log

mcnemar = pytest.importorskip("statsmodels.stats.contingency_tables").mcnemar


@pytest.fixture(scope="module")
def base(report_logs):
    """A finished mockllm `sparc` log with its samples (10 puzzles, 2 per level)."""
    _, logs, _ = report_logs
    log = next(
        log
        for log in logs
        if log.eval.task.endswith("/sparc") and log.eval.model == "mockllm/model"
    )
    return read_eval_log(log.location)


def ids_by_level(base) -> dict[int, list[str]]:
    levels: dict[int, list[str]] = {}
    for sample in base.samples:
        levels.setdefault(sample.metadata["level"], []).append(str(sample.id))
    return levels


@pytest.fixture(scope="module")
def scripted(base, tmp_path_factory):
    """Model A and B on the same 10 puzzles (A: 6 solved, B: 3; 2 both), A on two fresh
    seeds, and a report over them."""
    from inspect_sparc.report import build_report

    folder = tmp_path_factory.mktemp("scripted")
    ids = sorted(str(s.id) for s in base.samples)
    a = {i: int(k < 6) for k, i in enumerate(ids)}  # first 6 solved
    b = {i: int(k in (0, 1, 7)) for k, i in enumerate(ids)}  # 2 shared with a, 1 only b
    scripted_log(base, a, folder / "a.eval", model="m/A", started="2026-01-01T00:00:00+00:00")
    scripted_log(base, b, folder / "b.eval", model="m/B", started="2026-01-01T00:01:00+00:00")
    levels = ids_by_level(base)
    fresh = {i: 0 for i in ids}
    for level in (1, 2):  # fresh: level 1 and 2 solved once each per seed, nothing above
        fresh[levels[level][0]] = 1
    for seed in (7, 8):
        scripted_log(
            base,
            fresh,
            folder / f"fresh{seed}.eval",
            model="m/A",
            source=f"generated:{seed}",
            id_prefix=f"gen{seed}-",
            started=f"2026-01-01T00:0{seed}:00+00:00",
        )
    report = build_report(folder, tmp_path_factory.mktemp("scripted-report"))
    return report, a, b, fresh, levels


def test_the_paired_table_counts_each_cell_and_tests_exactly(scripted):
    report, a, b, _, _ = scripted
    paired = report.tables["paired"]
    mine = paired["run_a"].str.startswith("m/A |") & paired["run_b"].str.startswith("m/B |")
    [row] = paired[mine].to_dict("records")
    both = sum(a[i] and b[i] for i in a)
    only_a = sum(a[i] and not b[i] for i in a)
    only_b = sum(b[i] and not a[i] for i in a)
    neither = sum(not a[i] and not b[i] for i in a)
    assert (row["both"], row["only_a"], row["only_b"], row["neither"]) == (2, 4, 1, 3)
    assert (row["both"], row["only_a"], row["only_b"], row["neither"]) == (
        both,
        only_a,
        only_b,
        neither,
    )
    assert row["n_shared"] == row["n_a"] == row["n_b"] == 10
    assert row["difference"] == pytest.approx(100 * (only_a - only_b) / 10)
    table = [[both, only_a], [only_b, neither]]
    assert row["mcnemar_p"] == pytest.approx(mcnemar(table, exact=True).pvalue)
    assert row["diff_ci95_low"] < row["difference"] < row["diff_ci95_high"]


def test_the_fresh_gap_per_level_and_reweighted(scripted):
    report, a, _, fresh, levels = scripted
    gaps = report.tables["fresh_gap"]
    assert set(gaps["seeds"]) == {"7, 8"}  # both seeds pool
    by_level = gaps.set_index("level")
    for level, ids in levels.items():
        test = sum(a[i] for i in ids) / len(ids)
        new = sum(fresh[i] for i in ids) / len(ids)  # the same in both seeds
        row = by_level.loc[level]
        assert row["n_test"] == len(ids) and row["n_fresh"] == 2 * len(ids)
        assert row["gap"] == pytest.approx(100 * (test - new))
    overall = gaps[gaps["level"].astype(str).str.startswith("all")].iloc[0]
    weights = {lv: len(ids) / 10 for lv, ids in levels.items()}
    fresh_mix = sum(
        w * sum(fresh[i] for i in levels[lv]) / len(levels[lv]) for lv, w in weights.items()
    )
    assert overall["test_accuracy"] == pytest.approx(60.0)
    assert overall["fresh_accuracy"] == pytest.approx(100 * fresh_mix)
    assert overall["gap_ci95_low"] <= overall["gap"] <= overall["gap_ci95_high"]
    assert "does not prove" in report.index.read_text(encoding="utf-8")


def test_every_log_the_report_reads_has_counts_that_agree(report_logs, report, scripted):
    from inspect_sparc.report import keys as K
    from inspect_sparc.report.intervals import check_counts, puzzle_values

    for rep in (report, scripted[0]):
        assert check_counts(rep.runs, puzzle_values(rep.samples, [K.CORRECT])) == {}
        results = rep.tables["results"].dropna(subset=["accuracy"])
        assert (results["solved"] - results["n"] * results["accuracy"] / 100).abs().max() < 1e-9


def test_a_log_whose_metric_disagrees_with_its_samples_is_flagged(base, tmp_path):
    from inspect_ai.log import write_eval_log

    from inspect_sparc.report import build_report

    log = base.model_copy(deep=True)
    log.results.scores[0].metrics["accuracy"].value = 0.9  # the samples solve fewer
    write_eval_log(log, str(tmp_path / "bad.eval"))
    report = build_report(tmp_path / "bad.eval", tmp_path / "out")
    [line] = [line for line in report.summary if line["text"].startswith("samples disagree")]
    assert line["problem"] and "0.9000" in line["text"]
    assert "counts disagree" in report.tables["results"]["notes"].item()
