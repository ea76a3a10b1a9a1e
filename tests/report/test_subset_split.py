"""A run on a shipped subset reads as the whole split everywhere the report says how good it is.

The run is GPT-OSS 120B's published single-shot verdicts on `informative:100`, answered through
the real `sparc` task (the stored solution where the published run solved the puzzle, a wrong
path elsewhere): 23 of its 100 puzzles are solved, 21.6% of the whole split, estimated at 20.4.
Beside it, a run on the whole split at 21.8% (scripted from a real log): between the estimate and
the subset's own rate, so it ranks above the mimic by the estimate and would rank below by 23.
The numbers are checked against the shipped CSVs read with pandas: the estimator called on the
published verdicts directly, the Horvitz-Thompson sums of the subset weights, the published
accuracy."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from mock_outputs import answers_by_prompt, scripted_model
from scripted import on_puzzles, scripted_log
from shipped_csvs import GPT_OSS, OLMO, published_on, shipped

from inspect_sparc.published_runs.frames import subset_estimates

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = pytest.importorskip("pandas")

#: A 100-puzzle eval and a report on it: about 35 s.
pytestmark = pytest.mark.slow

SPLIT = str(Path(__file__).parents[1] / "fixtures" / "sparc" / "test_split.jsonl.gz")
SUBSET = "informative:100"


def mimic_verdicts() -> dict[str, float]:
    """GPT-OSS's published verdicts on the subset's puzzles, from the CSVs."""
    return published_on(SUBSET, GPT_OSS)


@pytest.fixture(scope="module")
def runs(base, tmp_path_factory) -> dict[str, Any]:
    """The mimic's log (through the real task), the whole-split run, and the report on both."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import write_eval_log

    from inspect_sparc.evals.sparc.single_shot.tasks import sparc
    from inspect_sparc.report import build_report

    folder = tmp_path_factory.mktemp("subset-split")
    solved = mimic_verdicts()
    task = sparc(source=SPLIT, puzzles=SUBSET)
    script = answers_by_prompt(
        task, lambda s: [f"#### {s.target}" if solved[str(s.id)] else "#### (0,0), (0,1)"]
    )
    [log] = inspect_eval(
        task, model=scripted_model(script), display="none", log_dir=str(folder / "raw")
    )
    assert log.status == "success"
    log.eval.model = "openai/gpt-oss-120b"  # named as the published model, for vs published
    write_eval_log(log, str(folder / "logs" / "mimic.eval"))
    # the whole split at 21.8%: OLMo's verdicts (16.2%) with its first 28 failures solved
    verdicts = shipped("verdicts.csv")
    whole = {p: int(v) for p, v in zip(verdicts["puzzle_id"], verdicts[OLMO], strict=True)}
    for p in [p for p, v in whole.items() if not v][:28]:
        whole[p] = 1
    split = on_puzzles(base, verdicts["puzzle_id"].tolist(), verdicts["level"].tolist())
    scripted_log(split, whole, folder / "logs" / "whole.eval", model="m/whole")
    report = build_report(folder / "logs", folder / "report")
    return {"log": log, "report": report, "whole": whole}


def mimic_row(table: pd.DataFrame) -> dict[str, Any]:
    [row] = table[table["run"].str.startswith("openai/gpt-oss-120b")].to_dict("records")
    return dict(row)


def test_the_logs_headline_is_the_split_estimate(runs):
    log = runs["log"]
    [first, *_] = log.results.scores
    names = list(first.metrics)
    expected = subset_estimates(mimic_verdicts(), SUBSET)[0]
    assert names[:4] == ["accuracy", "accuracy_ci95_low", "accuracy_ci95_high", "subset_accuracy"]
    assert "stderr" not in names
    assert first.metrics["accuracy"].value == pytest.approx(expected.value)
    assert first.metrics["accuracy_ci95_low"].value == pytest.approx(expected.low)
    assert first.metrics["accuracy_ci95_high"].value == pytest.approx(expected.high)
    own = sum(mimic_verdicts().values()) / len(mimic_verdicts())
    assert first.metrics["subset_accuracy"].value == pytest.approx(own)
    # the published run's accuracy on the whole split lies in the interval
    truth = shipped("verdicts.csv")[GPT_OSS].mean()
    assert truth == pytest.approx(0.216)
    assert expected.low <= truth <= expected.high
    assert abs(expected.value - own) > 0.01  # the two differ: the test tells them apart
    # levels: each level's Horvitz-Thompson estimate from the shipped weights
    weights = shipped("subsets.csv").dropna(subset=[SUBSET]).set_index("puzzle_id")[SUBSET]
    levels = shipped("verdicts.csv").set_index("puzzle_id")["level"]
    solved = pd.Series(mimic_verdicts())
    for level in range(1, 6):
        at = [p for p in solved.index if levels[p] == level]
        ht = float((weights[at] * solved[at]).sum()) / int((levels == level).sum())
        assert first.metrics[f"level_{level}"].value == pytest.approx(ht, rel=1e-5)


def test_the_results_row_ranking_and_summary_show_the_estimate(runs):
    report = runs["report"]
    expected = subset_estimates(mimic_verdicts(), SUBSET)[0]
    own = 100 * sum(mimic_verdicts().values()) / len(mimic_verdicts())
    row = mimic_row(report.tables["results"])
    assert row["accuracy"] == pytest.approx(100 * expected.value)
    assert (row["ci95_low"], row["ci95_high"]) == pytest.approx(
        (100 * expected.low, 100 * expected.high)
    )
    assert row["ci95_low"] <= 21.6 <= row["ci95_high"]
    assert row["interval"].startswith("estimate for the 500-puzzle split from 100 puzzles")
    assert row["interval"].endswith(f"{own:.1f} on these 100 puzzles")
    assert row["subset_accuracy"] == pytest.approx(own)
    assert row["estimated_from"] == f"100 puzzles ({SUBSET})"
    # ranked by the estimate: the 21.8% whole-split run first (by the subset's own rate, last)
    from inspect_sparc.report.render.figures import most_accurate_first

    ranked = most_accurate_first(report.tables["results"], report.runs)
    assert 100 * expected.value < ranked["accuracy"].iloc[0] < own
    assert ranked["run"].iloc[0].startswith("m/whole")
    assert ranked["accuracy"].iloc[0] == pytest.approx(100 * sum(runs["whole"].values()) / 500)
    [line] = [s["text"] for s in report.summary if s["text"].startswith("openai/gpt-oss")]
    assert f"accuracy {100 * expected.value:.1f}% (estimate for the whole split" in line
    assert f"{own:.1f}% on the puzzles of {SUBSET} alone" in line
    # the page says what the number is
    page = report.index.read_text(encoding="utf-8")
    assert "split estimate from 100 puzzles" in page or "estimated_from" in page


def test_levels_are_each_levels_estimate_with_its_interval(runs):
    table = runs["report"].tables["levels"]
    mine = table[table["run"].str.startswith("openai/gpt-oss-120b")]
    weights = shipped("subsets.csv").dropna(subset=[SUBSET]).set_index("puzzle_id")[SUBSET]
    verdicts = shipped("verdicts.csv").set_index("puzzle_id")
    solved = pd.Series(mimic_verdicts())
    assert sorted(mine["level"]) == [1, 2, 3, 4, 5]
    for row in mine.to_dict("records"):
        at = [p for p in solved.index if verdicts.loc[p, "level"] == row["level"]]
        population = int((verdicts["level"] == row["level"]).sum())
        ht = 100 * float((weights[at] * solved[at]).sum()) / population
        assert row["accuracy"] == pytest.approx(ht, rel=1e-5)
        assert row["ci95_low"] <= row["accuracy"] <= row["ci95_high"]
        assert row["interval"].startswith("design-based estimate for this level")
        truth = 100 * verdicts.loc[verdicts["level"] == row["level"], GPT_OSS].mean()
        assert row["ci95_low"] <= truth <= row["ci95_high"]


def test_against_the_published_run_itself_it_reads_zero(runs):
    table = runs["report"].tables["published_paired"]
    mine = table[table["run"].str.startswith("openai/gpt-oss-120b")]
    [row] = mine[mine["published_run"] == GPT_OSS].to_dict("records")
    assert row["difference"] == 0 and row["diff_ci95_low"] <= 0 <= row["diff_ci95_high"]
    assert row["accuracy_run"] == pytest.approx(21.6) == row["accuracy_published"]
    assert row["note"].startswith("weighted to the 500-puzzle split from the 100 shared")
    # against OLMo (16.2% on the split): the split difference, 5.4 points, in its interval
    [olmo] = mine[mine["published_run"] == OLMO].to_dict("records")
    assert olmo["accuracy_published"] == pytest.approx(16.2)
    assert olmo["diff_ci95_low"] <= 21.6 - 16.2 <= olmo["diff_ci95_high"]
    levels = runs["report"].tables["published_paired_levels"]
    own = levels[
        levels["run"].str.startswith("openai/gpt-oss") & (levels["published"] == row["published"])
    ]
    assert len(own) == 5 and (own["difference"] == 0).all()


def test_against_published_totals_the_estimate_is_compared(runs):
    report = runs["report"]
    against = report.tables["against_published"]
    mine = against[against["run"].str.startswith("openai/gpt-oss-120b")]
    expected = 100 * subset_estimates(mimic_verdicts(), SUBSET)[0].value
    assert mine["accuracy"].tolist() == pytest.approx([expected] * len(mine))
    assert (mine["n"] == 100).all()
    diff = mine["accuracy"] - mine["accuracy_published"]
    assert (mine["difference"] - diff).abs().max() < 1e-9
    assert ((mine["diff_ci95_low"] <= diff) & (diff <= mine["diff_ci95_high"])).all()
    assert mine["note"].str.startswith("estimate for the 500-puzzle split from 100").all()
    own = mimic_row(report.tables["results"])
    [same] = mine[mine["same_model"]].sort_values("n_published").tail(1).to_dict("records")
    assert own["vs_published"] == pytest.approx(same["difference"])
