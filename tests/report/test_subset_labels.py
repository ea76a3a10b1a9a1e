"""A run on a shipped subset says, wherever its numbers are the subset's and not the split's,
that they are: the fresh-puzzle gap (computed on the subset's own puzzles, the fresh set
re-weighted to their level mix) and the results table's n and solved (the subset's counts,
beside an accuracy that is the split estimate). The report is built by the command a user runs
(`python -m inspect_sparc.report`) over a scripted run of `informative:50` (GPT-OSS's published
verdicts on its 50 puzzles, each sample the real test puzzle of its id) and a run of the same
model on generated puzzles; the numbers are checked against the shipped CSVs read with pandas."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from scripted import fresh_log, on_puzzles, scripted_log
from shipped_csvs import GPT_OSS, shipped

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = pytest.importorskip("pandas")

SUBSET = "informative:50"
SPLIT = Path(__file__).parents[1] / "fixtures" / "sparc" / "test_split.jsonl.gz"


def subset_log(base: Any) -> tuple[Any, dict[str, int], pd.DataFrame]:
    """A copy of `base` over the subset's 50 test puzzles (each sample the real puzzle of its
    id, so each is one distinct test grid), recorded as run with `puzzles=informative:50`."""
    from inspect_sparc.evals.sparc.dataset import record_to_sample

    verdicts = shipped("verdicts.csv")
    weights = shipped("subsets.csv").dropna(subset=[SUBSET])
    chosen = verdicts.set_index("puzzle_id").loc[weights["puzzle_id"]]
    log = on_puzzles(base, list(chosen.index), chosen["level"].tolist())
    with gzip.open(SPLIT, "rt", encoding="utf-8") as handle:
        records = {str(r["id"]): r for r in map(json.loads, handle)}
    for sample in log.samples:
        made = record_to_sample(records[str(sample.id)]).metadata
        assert made is not None
        puzzle = made["puzzle"]
        sample.metadata = {**sample.metadata, "puzzle": puzzle}
    log.eval.metadata = {**(log.eval.metadata or {}), "puzzles": SUBSET, "puzzles_version": 1}
    log.eval.task_args = {**(log.eval.task_args or {}), "puzzles": SUBSET}
    solved = {p: int(v) for p, v in chosen[GPT_OSS].items()}
    return log, solved, chosen


@pytest.fixture(scope="module")
def built(base, tmp_path_factory) -> dict[str, Any]:
    """The report written by the command line over the subset run and a fresh run of the same
    model: its terminal output, page text and tables."""
    from inspect_sparc.report.__main__ import main

    folder = tmp_path_factory.mktemp("subset-labels")
    log, solved, chosen = subset_log(base)
    scripted_log(log, solved, folder / "logs" / "subset.eval", model="m/A", started="2026-01-01")
    ids = sorted(str(s.id) for s in base.samples)
    fresh = {i: int(k % 3 == 0) for k, i in enumerate(ids)}
    fresh_log(base, fresh, folder / "logs" / "fresh.eval", started="2026-01-02")
    terminal = io.StringIO()
    with contextlib.redirect_stdout(terminal):
        code = main([str(folder / "logs"), "--out", str(folder / "out")])
    assert code == 0
    tables = folder / "out" / "tables"
    return {
        "terminal": terminal.getvalue(),
        "page": (folder / "out" / "index.html").read_text(encoding="utf-8"),
        "results": pd.read_csv(tables / "results.csv"),
        "results_tex": (tables / "results.tex").read_text(encoding="utf-8"),
        "gaps": pd.read_csv(tables / "fresh_gap.csv"),
        "solved": solved,
        "levels": dict(zip(chosen.index, chosen["level"], strict=True)),
        "fresh": fresh,
        "fresh_levels": {str(s.id): s.metadata["level"] for s in base.samples},
    }


def test_the_fresh_gap_of_a_subset_run_is_labelled_as_on_its_puzzles(built):
    gaps, page = built["gaps"], built["page"]
    solved, levels = built["solved"], built["levels"]
    overall = gaps.iloc[-1]
    on = f"these 50 puzzles of {SUBSET}"
    # the numbers are the subset's own, not split estimates: n, test accuracy, re-weighting
    assert overall["n_test"] == 50 == len(solved)
    assert overall["test_accuracy"] == pytest.approx(100 * sum(solved.values()) / 50)
    mix = pd.Series(levels).value_counts(normalize=True)
    fresh = pd.Series(built["fresh"]).groupby(pd.Series(built["fresh_levels"])).mean()
    assert overall["fresh_accuracy"] == pytest.approx(100 * float((mix * fresh).sum()))
    results = built["results"]
    [estimate] = results.loc[results["estimated_from"].notna(), "accuracy"]
    assert abs(estimate - overall["test_accuracy"]) > 0.5  # the split estimate differs
    # ... and every place a reader meets them says so
    assert (gaps["on_puzzles"] == on).all()
    assert (
        gaps["test_side"].str.endswith(f"test accuracy and gap on {on}, not split estimates").all()
    )
    assert overall["level"] == f"all (fresh re-weighted to the level mix of {on})"
    assert f"Fresh-puzzle gap (points); test accuracy and gap on {on}, not split estimates" in page
    assert f"compared on its own puzzles ({on})" in page
    assert f"on {on}, not split estimates" in page.split('id="fresh"')[1]


def test_a_run_on_the_split_has_no_subset_label(base, tmp_path):
    from inspect_sparc.report import build_report

    ids = sorted(str(s.id) for s in base.samples)
    outcomes = {i: int(k < 4) for k, i in enumerate(ids)}
    scripted_log(base, outcomes, tmp_path / "logs" / "test.eval", model="m/A", started="2026-01-01")
    fresh_log(base, outcomes, tmp_path / "logs" / "fresh.eval", started="2026-01-02")
    report = build_report(tmp_path / "logs", tmp_path / "out")
    gaps = report.tables["fresh_gap"]
    assert "on_puzzles" not in gaps and not gaps["test_side"].str.contains("subset").any()
    page = report.index.read_text(encoding="utf-8") if report.index else ""
    assert "not split estimates" not in page and "n (puzzles run)" not in page


def test_the_results_n_and_solved_of_a_subset_run_are_labelled_the_subsets(built):
    results, page = built["results"], built["page"]
    [row] = results[results["estimated_from"].notna()].to_dict("records")
    # the counts are the subset's: its 50 puzzles and the verdicts solved among them
    assert row["n"] == 50 and row["solved"] == sum(built["solved"].values())
    assert row["estimated_from"] == f"50 puzzles ({SUBSET})"
    # on the page: the columns' labels, and the caption naming the run, its subset and size
    assert "<th>n (puzzles run)</th>" in page
    assert "<th>solved (of puzzles run)</th>" in page
    named = f"{row['run']}: 50 puzzles ({SUBSET})"
    assert "n and solved count the puzzles each run ran, for a subset run its subset" in page
    assert named in page.replace("&#39;", "'")
    assert "not the 500-puzzle split" in page
    assert f"50 puzzles ({SUBSET})" in built["results_tex"]  # the LaTeX caption too
    # in the terminal: the run's row names its subset and size beside its n
    terminal = " ".join(built["terminal"].split())
    assert f"split estimate from 50 puzzles ({SUBSET})" in terminal
    lines = built["terminal"].splitlines()
    [at] = [i for i, t in enumerate(lines) if f"puzzles={SUBSET}" in t]
    assert lines[at].split()[2] == "50"  # the row's n, right of its label
    label = " ".join(" ".join(lines[at : at + 3]).split())
    assert f"split estimate from 50 puzzles ({SUBSET})" in label
