"""Runs paired with the published runs on real logs with scripted per-puzzle outcomes: a run on
the whole test split, one on part of it and one on a shipped subset. The shared n, the
discordant counts, the difference and the McNemar score p are checked against the shipped
verdicts CSV read with pandas and statsmodels (merged on puzzle id), the subset's design-based
estimate against the Horvitz-Thompson weights of the shipped subsets CSV."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from scripted import epochs_log, on_puzzles, scripted_log, sparc_mock_log
from shipped_csvs import GPT_OSS, OLMO, shipped

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = pytest.importorskip("pandas")
mcnemar = pytest.importorskip("statsmodels.stats.contingency_tables").mcnemar


@pytest.fixture(scope="module")
def scripted(base, tmp_path_factory):
    """Three runs and a report over them: "whole" solves OLMo's published puzzles with the
    first 40 flipped (all 500), "part" the 10 puzzles of `base` (the first and third solved),
    "subset" the informative:50 subset as GPT-OSS solved it."""
    from inspect_sparc.report import build_report

    verdicts = shipped("verdicts.csv")
    folder = tmp_path_factory.mktemp("published-paired")
    ids, levels = verdicts["puzzle_id"].tolist(), verdicts["level"].tolist()
    whole = {p: int(v) for p, v in zip(ids, verdicts[OLMO], strict=True)}
    whole.update({p: 1 - whole[p] for p in ids[:40]})
    split = on_puzzles(base, ids, levels)
    scripted_log(split, whole, folder / "whole.eval", model="m/whole", started="2026-01-01T00:00")
    part_ids = sorted(str(s.id) for s in base.samples)
    part = {p: int(k in (0, 2)) for k, p in enumerate(part_ids)}
    scripted_log(base, part, folder / "part.eval", model="m/part", started="2026-01-01T00:01")
    weights = shipped("subsets.csv").dropna(subset=["informative:50"])
    chosen = verdicts.set_index("puzzle_id").loc[weights["puzzle_id"]]
    subset = on_puzzles(base, list(chosen.index), chosen["level"].tolist())
    subset.eval.metadata = {**subset.eval.metadata, "puzzles": "informative:50"}
    subset.eval.metadata["puzzles_version"] = 1
    subset.eval.task_args = {**subset.eval.task_args, "puzzles": "informative:50"}
    solved = {p: int(v) for p, v in chosen[GPT_OSS].items()}
    scripted_log(
        subset, solved, folder / "subset.eval", model="m/subset", started="2026-01-01T00:02"
    )
    report = build_report(folder, tmp_path_factory.mktemp("published-paired-report"))
    return report, {"whole": whole, "part": part, "subset": solved}


def oracle(outcomes: dict[str, int], published: str, level: int | None = None) -> dict[str, Any]:
    """The pair's counts from the verdicts CSV merged with the run's outcomes on puzzle id."""
    verdicts = shipped("verdicts.csv")[["puzzle_id", "level", published]]
    run = pd.DataFrame({"puzzle_id": list(outcomes), "run": list(outcomes.values())})
    both = run.merge(verdicts, on="puzzle_id").dropna(subset=[published])
    if level is not None:
        both = both[both["level"] == level]
    x, y = both["run"].astype(int), both[published].astype(int)
    table = [[int((x & y).sum()), int((x & (1 - y)).sum())]]
    table.append([int(((1 - x) & y).sum()), int(((1 - x) & (1 - y)).sum())])
    return {
        "n_shared": len(both),
        "only_run": table[0][1],
        "only_published": table[1][0],
        "difference": 100 * (x.mean() - y.mean()),
        "p": mcnemar(table, exact=False, correction=False).pvalue,
    }


def rows_of(table: pd.DataFrame, run: str, published: str) -> pd.DataFrame:
    mine = table["run"].str.startswith(f"m/{run} |") & (table["published_run"] == published)
    return table[mine] if "published_run" in table else table


def level_rows(report, run: str, published_model: str) -> pd.DataFrame:
    table = report.tables["published_paired_levels"]
    mine = table["run"].str.startswith(f"m/{run} |") & (table["published"] == published_model)
    return table[mine]


def test_a_whole_split_run_is_paired_with_every_published_single_shot_run(scripted):
    report, outcomes = scripted
    table = report.tables["published_paired"]
    runs = shipped("runs.csv")
    single = runs[(runs["protocol"] == "single_shot") & (runs["prompt"] == "default")]
    mine = table[table["run"].str.startswith("m/whole |")]
    assert sorted(mine["published_run"]) == sorted(single["run_id"])
    for published in (OLMO, GPT_OSS):
        [row] = rows_of(table, "whole", published).to_dict("records")
        expected = oracle(outcomes["whole"], published)
        assert row["n_shared"] == expected["n_shared"] == 500 and row["note"] == ""
        assert (row["only_run"], row["only_published"]) == (
            expected["only_run"],
            expected["only_published"],
        )
        assert row["difference"] == pytest.approx(expected["difference"])
        assert row["p"] == pytest.approx(expected["p"])
        assert row["diff_ci95_low"] < row["difference"] < row["diff_ci95_high"]
        # the interval excludes 0 exactly when the test's p is below 0.05
        assert (row["p"] < 0.05) == (row["diff_ci95_low"] > 0 or row["diff_ci95_high"] < 0)
    # against OLMo itself, the 40 flipped puzzles are the only discordant ones
    [olmo] = rows_of(table, "whole", OLMO).to_dict("records")
    assert olmo["only_run"] + olmo["only_published"] == 40


def test_one_run_against_many_published_runs_names_its_family_and_holds_together(scripted):
    # the family of Holm's adjustment is the run's tested published runs; the simultaneous
    # interval (1 - 0.05 / m) holds the raw one, and one that excludes 0 is a Holm finding
    report, _ = scripted
    table = report.tables["published_paired"]
    mine = table[table["run"].str.startswith("m/whole |") & table["p"].notna()]
    m = len(mine)
    assert m > 10
    for row in mine.to_dict("records"):
        assert row["holm_family"].startswith(f"this run against its {m} tested published run")
        assert row["diff_simultaneous_low"] <= row["diff_ci95_low"] + 1e-9
        assert row["diff_simultaneous_high"] >= row["diff_ci95_high"] - 1e-9
        if row["diff_simultaneous_low"] > 0 or row["diff_simultaneous_high"] < 0:
            assert row["p_holm"] < 0.05
    levels = report.tables["published_paired_levels"]
    tested = levels["p"].notna()
    assert levels[tested]["holm_family"].str.endswith("tested levels of this pair").all()
    assert (levels[~tested]["holm_family"] == "").all()


def test_each_level_is_paired_on_its_own_puzzles(scripted):
    report, outcomes = scripted
    model = shipped("runs.csv").set_index("run_id").loc[GPT_OSS, "model"]
    levels = level_rows(report, "whole", model)
    assert sorted(levels["level"]) == [1, 2, 3, 4, 5]
    for row in levels.to_dict("records"):
        expected = oracle(outcomes["whole"], GPT_OSS, row["level"])
        assert row["n_shared"] == expected["n_shared"]
        assert (row["only_run"], row["only_published"]) == (
            expected["only_run"],
            expected["only_published"],
        )
        assert row["p"] == pytest.approx(expected["p"])
    assert levels["n_shared"].sum() == 500


def test_a_run_on_part_of_the_split_uses_the_shared_puzzles_and_says_so(scripted):
    report, outcomes = scripted
    [row] = rows_of(report.tables["published_paired"], "part", GPT_OSS).to_dict("records")
    expected = oracle(outcomes["part"], GPT_OSS)
    assert row["n_shared"] == expected["n_shared"] == 10
    assert (row["only_run"], row["only_published"]) == (
        expected["only_run"],
        expected["only_published"],
    )
    assert row["difference"] == pytest.approx(expected["difference"])
    assert row["note"].startswith("shared puzzles only: the run has 10 of the 500")
    page = report.index.read_text(encoding="utf-8")
    assert "Paired against the published runs" in page
    assert "compared on the shared puzzles only" in page
    written = pd.read_csv(report.out_dir / "tables" / "published_paired.csv")
    assert set(written["note"].dropna()) == set(report.tables["published_paired"]["note"]) - {""}


def test_a_subset_run_shows_three_estimates_of_the_full_split(scripted):
    report, outcomes = scripted
    table = report.tables["subset_estimate"]
    mine = table[table["run"].str.startswith("m/subset |")]
    methods = [m.split(" ")[0] for m in mine["method"]]
    assert methods == ["model-assisted", "design-based", "model-based"]
    assert (mine["subset"] == "informative:50").all() and (mine["n"] == 50).all()
    assert (mine["estimate_ci95_low"] <= mine["estimate"]).all()
    assert (mine["estimate"] <= mine["estimate_ci95_high"]).all()
    # design-based: the Horvitz-Thompson estimate from the shipped weights
    weights = shipped("subsets.csv").dropna(subset=["informative:50"])
    solved = weights["puzzle_id"].map(outcomes["subset"])
    expected = 100 * float((weights["informative:50"] * solved).sum()) / 500
    assert mine.iloc[1]["estimate"] == pytest.approx(expected)
    # its paired rows are weighted to the split and say so; it reproduces GPT-OSS's verdicts,
    # so against GPT-OSS it reads 0 with an interval holding 0, both at GPT-OSS's split rate
    [row] = rows_of(report.tables["published_paired"], "subset", GPT_OSS).to_dict("records")
    assert row["n_shared"] == 50 and row["note"].startswith("weighted to the 500-puzzle split")
    assert row["only_run"] == row["only_published"] == 0
    split_rate = 100 * shipped("verdicts.csv")[GPT_OSS].mean()
    assert row["accuracy_run"] == pytest.approx(split_rate) == row["accuracy_published"]
    assert row["difference"] == 0 and row["diff_ci95_low"] <= 0 <= row["diff_ci95_high"]


@pytest.mark.parametrize("reducer", ["max", "mean"])
def test_the_pair_compares_the_values_the_log_reduced(report_logs, tmp_path, reducer):
    # two epochs on the 10 sample puzzles, against one published attempt per puzzle: by the
    # mean the run's values are per-puzzle means (the paired t over puzzles); by max (solved
    # in any epoch) they are not like one attempt, so the pair is of the means too, and the
    # row says so
    from scipy.stats import ttest_rel

    from inspect_sparc.report import build_report

    base = sparc_mock_log(report_logs, 2)
    ids = sorted({str(s.id) for s in base.samples})
    solved = {(i, 1): 1 for i in ids[:4]} | {(i, 2): 1 for i in ids[2:7]}
    epochs_log(
        base, solved, tmp_path / "e.eval", model="m/e", started="2026-01-01T00:00", reducer=reducer
    )
    report = build_report(tmp_path, tmp_path / "out")
    [row] = rows_of(report.tables["published_paired"], "e", GPT_OSS).to_dict("records")
    values = {i: [solved.get((i, e), 0) for e in (1, 2)] for i in ids}
    means = {i: sum(v) / 2 for i, v in values.items()}
    verdicts = shipped("verdicts.csv").set_index("puzzle_id")[GPT_OSS]
    x = [means[i] for i in ids]
    y = [int(verdicts[i]) for i in ids]
    assert row["n_shared"] == 10
    assert row["difference"] == pytest.approx(100 * (sum(x) - sum(y)) / 10)
    assert row["p"] == pytest.approx(ttest_rel(x, y).pvalue)
    assert row["test"] == "paired t over per-puzzle means"
    assert ("max reducer against one published attempt" in row["note"]) == (reducer == "max")


def test_the_page_shortens_a_long_table_and_no_published_keeps_only_the_estimates(
    scripted, tmp_path
):
    from inspect_sparc.report.analysis.published_paired import page_rows
    from inspect_sparc.report.context import Context
    from inspect_sparc.report.sections.published_paired import published_paired_section

    report, _ = scripted
    table = report.tables["published_paired"]
    assert len(table) > 40  # three runs against 32 published runs: the page shows fewer
    page = report.index.read_text(encoding="utf-8")
    assert f"(all {len(table)} rows in the CSV)" in page
    assert not table["same_model"].any()  # no run is of a published model: two per run
    shown, _ = page_rows(table)
    assert shown["run"].value_counts().tolist() == [2, 2, 2]
    for run, rows in shown.groupby("run"):  # the two nearest in accuracy on shared puzzles
        gaps = (table["accuracy_published"] - table["accuracy_run"]).abs()[table["run"] == run]
        assert sorted(gaps[rows.index]) == sorted(gaps)[:2]
    ctx = Context(report.runs, report.samples, published=False, out=tmp_path)
    section = published_paired_section(ctx)
    assert section is not None and set(ctx.tables) == {"subset_estimate"}
