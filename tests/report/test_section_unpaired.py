"""Unpaired comparisons on scripted logs whose truth is known: runs that share no puzzle, and a
run against the published rows, each with Newcombe's interval (checked against statsmodels)."""

from __future__ import annotations

import pytest
from scripted import rolled, rolled_twice, scripted_log

confint_2indep = pytest.importorskip("statsmodels.stats.proportion").confint_proportions_2indep


def newcombe_points(k1, n1, k2, n2):
    low, high = confint_2indep(k1, n1, k2, n2, method="newcomb", compare="diff")
    return 100 * low, 100 * high


def outcomes(base, solved: int) -> dict[str, int]:
    ids = sorted(str(s.id) for s in base.samples)
    return {i: int(k < solved) for k, i in enumerate(ids)}


def test_runs_that_share_no_puzzle_get_newcombes_interval(base, tmp_path):
    from inspect_sparc.report import build_report

    logs = tmp_path / "logs"
    logs.mkdir()
    kw = dict(grid=rolled, source="generated:1", id_prefix="g1-")
    scripted_log(base, outcomes(base, 9), logs / "a.eval", model="m/A", **kw)
    kw = dict(grid=rolled_twice, source="generated:2", id_prefix="g2-")
    scripted_log(base, outcomes(base, 2), logs / "b.eval", model="m/B", **kw)
    # model A on the test puzzles too: against its own fresh run, that is the fresh gap's
    scripted_log(base, outcomes(base, 5), logs / "c.eval", model="m/A", started="2030-01-01")
    report = build_report(logs, tmp_path / "out")
    table = report.tables["unshared"]
    n = len(base.samples)
    pairs = {frozenset((r["run_a"], r["run_b"])): r for r in table.to_dict("records")}
    assert len(pairs) == 2  # A fresh - B fresh, A test - B fresh; never A test - A fresh
    runs = report.runs.set_index("log")["run"]
    a, b = runs[str(logs / "a.eval")], runs[str(logs / "b.eval")]
    row = pairs[frozenset((a, b))]
    sign = 1 if row["run_a"] == a else -1
    assert sign * row["difference"] == pytest.approx(100 * (9 - 2) / n)
    low, high = newcombe_points(9, n, 2, n) if sign == 1 else newcombe_points(2, n, 9, n)
    assert (row["diff_ci95_low"], row["diff_ci95_high"]) == pytest.approx((low, high))
    assert ("excludes 0" in row["reading"]) == (low > 0 or high < 0)
    assert low > 0 or high < 0  # 9 of 10 against 2 of 10: A higher, whichever is a
    assert row["reading"].startswith("a higher" if sign == 1 else "b higher")
    assert "p" not in table  # no test that could disagree with the interval


def test_a_run_on_test_puzzles_is_compared_with_each_published_row(base, tmp_path):
    from inspect_sparc.report import build_report
    from inspect_sparc.report.published import published_results

    path = scripted_log(base, outcomes(base, 6), tmp_path / "o.eval", model="openai/o4-mini")
    report = build_report(path, tmp_path / "out")
    table = report.tables["against_published"]
    rows = published_results(report.runs).dropna(subset=["n"])
    rows = rows[rows["protocol"] == "single_shot"]
    assert len(table) == len(rows)  # every published single-shot row with an n
    [mine] = table[table["same_model"]].to_dict("records")
    assert mine["published"] == "o4-mini" and mine["n_published"] == 500
    n = len(base.samples)
    assert mine["difference"] == pytest.approx(60.0 - 15.8)
    low, high = newcombe_points(6, n, 0.158 * 500, 500)
    assert (mine["diff_ci95_low"], mine["diff_ci95_high"]) == pytest.approx((low, high))
    assert table["accuracy_published"].is_monotonic_decreasing


def test_the_results_table_says_each_run_against_its_own_models_published_figure(base, tmp_path):
    """The first table's vs published: run - the published accuracy of the same model and
    protocol, with Newcombe's interval (statsmodels), on the page too; a dash where the papers
    have no row of the model."""
    import re

    from inspect_sparc.report import build_report

    logs = tmp_path / "logs"
    logs.mkdir()
    scripted_log(base, outcomes(base, 6), logs / "o.eval", model="openai/o4-mini")
    scripted_log(base, outcomes(base, 3), logs / "u.eval", model="lab/unpublished-7b")
    report = build_report(logs, tmp_path / "out")
    rows = report.tables["results"].set_index("model")
    mine, other = rows.loc["openai/o4-mini"], rows.loc["lab/unpublished-7b"]
    n = len(base.samples)
    assert mine["published_model"] == "o4-mini"
    assert mine["vs_published"] == pytest.approx(60.0 - 15.8)
    low, high = newcombe_points(6, n, 0.158 * 500, 500)
    assert (mine["vs_published_ci95_low"], mine["vs_published_ci95_high"]) == pytest.approx(
        (low, high)
    )
    assert other[["vs_published", "vs_published_ci95_low", "published_model"]].isna().all()
    # the page's first table: the column heads, then the difference and its interval in a cell
    page = report.index.read_text(encoding="utf-8")
    first = page.split("<table>", 1)[1].split("</table>", 1)[0]
    assert re.search(r"<th>vs_<wbr>published</th>", first)
    cell = f"{60.0 - 15.8:.1f} ({low:.1f}–{high:.1f})"
    assert cell in re.sub(r"<[^>]+>", "", first)
    without = build_report(logs, tmp_path / "bare", published=False).tables["results"]
    assert without["vs_published"].isna().all()  # --no-published: nothing to set it against


def test_a_run_whose_grids_are_unknown_is_not_set_against_published_rows(base, tmp_path):
    from inspect_sparc.report import build_report
    from inspect_sparc.report.analysis.unpaired import published_table
    from inspect_sparc.report.published import published_results

    path = scripted_log(base, outcomes(base, 6), tmp_path / "o.eval", model="openai/o4-mini")
    report = build_report(path, tmp_path / "out")
    published = published_results(report.runs)
    assert len(published_table(report.runs, report.samples, published))  # known: test grids
    unknown = report.samples.assign(test_grid=None)  # puzzle records missing: grids unknown
    assert published_table(report.runs, unknown, published).empty


def test_runs_off_the_test_puzzles_are_not_set_against_published_rows(base, tmp_path):
    from inspect_sparc.report import build_report

    kw = dict(grid=rolled, source="generated:1", id_prefix="g-")
    path = scripted_log(base, outcomes(base, 6), tmp_path / "g.eval", model="openai/o4-mini", **kw)
    report = build_report(path, tmp_path / "out")
    assert "against_published" not in report.tables and "unshared" not in report.tables


def test_a_long_published_comparison_shows_the_runs_own_model_or_the_nearest_rows():
    import pandas as pd

    from inspect_sparc.report.analysis.unpaired import PAGE_ROWS, page_rows, same_model

    assert same_model("openai/gpt-oss-120b", "GPT-OSS 120B")
    assert same_model("openai/o4-mini-2025-04-16", "o4-mini")
    assert same_model("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "R1 Distill 32B")
    assert same_model("nvidia/Llama-3_3-Nemotron-Super-49B-v1", "Nemotron 49B")
    assert same_model("qwen/qwen3-32b", "Qwen 3 32B")
    assert not same_model("qwen/qwen3.1-4b", "Qwen 3 14B")
    assert not same_model("openai/o4-mini", "Qwen 3 4B") and not same_model("m/x", "")
    runs = [f"model-{i}" for i in range(16)]
    rivals = {f"published-{j}": 5.0 * j for j in range(14)}  # accuracies 0, 5, ..., 65
    table = pd.DataFrame(
        [
            {"run": run, "published": name, "same_model": False}
            | {"accuracy": 4.0 * i, "accuracy_published": acc}
            for i, run in enumerate(runs)
            for name, acc in rivals.items()
        ]
    )
    assert len(table) > PAGE_ROWS
    shown, which = page_rows(table)
    assert "nearest" in which and len(shown) == 2 * len(runs)
    for run, rows in shown.groupby("run"):
        gaps = (table[table["run"] == run]["accuracy_published"] - rows["accuracy"].iloc[0]).abs()
        assert sorted((rows["accuracy_published"] - rows["accuracy"]).abs()) == sorted(gaps)[:2]
    table.loc[(table["run"] == "model-0") & (table["published"] == "published-3"), "same_model"] = (
        True  # one run's own model is published; the others keep their nearest rows
    )
    shown, which = page_rows(table)
    assert "own model" in which and set(shown["run"]) == set(runs)
    assert shown[shown["run"] == "model-0"]["published"].tolist() == ["published-3"]
    assert (shown["run"] != "model-0").sum() == 2 * (len(runs) - 1)
    assert page_rows(table.head(PAGE_ROWS)) == (None, "")


def test_runs_on_different_levels_are_compared_on_the_levels_both_ran(base, tmp_path):
    from inspect_sparc.report import build_report

    logs = tmp_path / "logs"
    logs.mkdir()
    easy = base.model_copy(deep=True)
    easy.samples = [s for s in easy.samples if s.metadata["level"] in (1, 2)]
    kw = dict(grid=rolled, source="/data/gen.jsonl", id_prefix="l-")
    scripted_log(easy, dict.fromkeys(outcomes(base, 0), 1), logs / "a.eval", model="m/A", **kw)
    kw = dict(grid=rolled_twice, source="generated:2", id_prefix="g2-")
    every = {str(s.id): int(s.metadata["level"] <= 2) for s in base.samples}
    scripted_log(base, every, logs / "b.eval", model="m/B", **kw)
    [row] = build_report(logs, tmp_path / "out").tables["unshared"].to_dict("records")
    n = len(easy.samples)
    assert row["levels"] == "1, 2" and row["n_a"] == row["n_b"] == n
    assert row["difference"] == pytest.approx(0.0)  # both solve every puzzle of levels 1-2
    assert "no difference" in row["reading"]
