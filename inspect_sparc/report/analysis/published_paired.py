"""Each run on SPaRC test puzzles paired with every published run of its protocol on the same
puzzle ids (`published_runs`: the authors' per-puzzle verdicts), overall and per level, with
the paired family of the paired comparisons (`paired.compare`: Tango's interval beside the
McNemar score test for 0/1 outcomes, the paired t for epoch means), each run's values reduced
as its log reduced them; and a run on a shipped subset's two estimates of its full-split
accuracy (design-based, model-based)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.report.analysis.fresh import test_side
from inspect_sparc.report.analysis.outcomes import eligible, outcome_index
from inspect_sparc.report.analysis.paired import compare, reading, reduction
from inspect_sparc.report.analysis.split import subset_name
from inspect_sparc.report.analysis.unpaired import PAGE_ROWS, same_model
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.statistics.score_intervals import ALPHA, holm

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from inspect_sparc.published_runs.pairing import SharedPuzzles
    from inspect_sparc.published_runs.verdicts import PublishedRun

# Repeated code kept: a literal name map, alike in shape only to `report.published.FILES`.
#: compare()'s names for a and b -> this table's (the run is a, the published run b).
RENAMED = {
    "accuracy_a": "accuracy_run",
    "accuracy_b": "accuracy_published",
    "only_a": "only_run",
    "only_b": "only_published",
}


#: The note of a run whose reducer is not the mean, paired with a published run's one attempt.
UNLIKE = (
    "the run's {} reducer against one published attempt: compared as the run's per-puzzle "
    "means of its epochs"
)


def _setting(run: Any, key: str) -> Any:
    """A run's setting, None where missing (NaN in the frame)."""
    value = run.get(key)
    return None if value is None or value != value else value


def paired_runs(runs: pd.DataFrame, samples: pd.DataFrame) -> list[tuple[Any, str, Any]]:
    """(run, its published protocol, its per-puzzle values) for each eligible run whose every
    puzzle is a test puzzle by content and whose task a published per-puzzle run matches.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        one (run's row, published protocol, per-puzzle values by puzzle id) per such run.
    """
    from inspect_sparc.published_runs.pairing import published_protocol

    on_test = set(test_side(runs, samples)[C.LOG])
    index, means = outcome_index(samples, runs), outcome_index(samples)
    found = []
    for _, run in eligible(runs).iterrows():
        protocol = published_protocol(
            str(run["task"]),
            bool(_setting(run, "traceback")),
            str(_setting(run, "observation") or "text"),
        )
        # a published run is one attempt per puzzle: a max-reduced run is compared by its means
        values = (index if reduction(run) == "mean" else means).get(run[C.LOG])
        if protocol is not None and run[C.LOG] in on_test and values is not None:
            found.append((run, protocol, values))
    return found


def _note(shared: SharedPuzzles, n_run: int, split: int) -> str:
    """What a row's shared puzzles are, where they are not the whole split."""
    notes = []
    if not shared.whole_split:
        notes.append(f"shared puzzles only: the run has {n_run} of the {split} test puzzles")
    missing = n_run - len(shared.ids)
    if missing:
        notes.append(f"the published run has no verdict for {missing} of the run's puzzles")
    return "; ".join(notes)


def _pair_row(
    run: Any,
    published: PublishedRun,
    shared: SharedPuzzles,
    level: Any,
    confidence: float | None = None,
    weighted: Weighting | None = None,
) -> dict[str, Any] | None:
    """One run against one published run on their shared puzzles of `level` (None: all);
    with `weighted` (a run on a shipped subset), its difference weighted to the split."""
    import pandas as pd

    keep = slice(None) if level is None else shared.levels == level
    ids = pd.Index(shared.ids)[keep]
    found = compare(
        pd.Series(shared.run[keep], index=ids),
        pd.Series(shared.published[keep], index=ids),
        confidence,
    )
    if found is None:
        return None
    if weighted is not None:
        found = _to_split(found, weighted, published.run_id, level, confidence)
    head = {C.RUN: run[C.RUN], "published": published.model}
    if level is not None:
        head[C.LEVEL] = int(level)
    return {**head, **{RENAMED.get(k, k): v for k, v in found.items()}}


#: A subset run's verdicts (puzzle id -> value) and the shipped subset it ran.
Weighting = tuple[dict[str, float], str]

#: The note of a subset run's row against a published run.
WEIGHTED = (
    "weighted to the {split}-puzzle split from the {n} shared puzzles of {subset} "
    "(stratified Horvitz-Thompson; accuracies are the split's); both / only_run / "
    "only_published / neither count these {n} puzzles"
)


def _to_split(
    found: dict[str, Any],
    weighted: Weighting,
    published_run: str,
    level: Any,
    confidence: float | None,
) -> dict[str, Any]:
    """`compare`'s row of a subset run made the split's: both accuracies, the difference, its
    design-based interval and p (`published_runs.split_paired`), or none and why; the counts
    stay the shared puzzles'."""
    from inspect_sparc.published_runs.split_paired import METHOD, split_difference

    mine, subset = weighted
    at = None if level is None else int(level)
    d = split_difference(mine, published_run, subset, at, confidence or 0.95)
    row = {k: v for k, v in found.items() if k not in ("mdd_80", "power")}
    if d.value != d.value:  # a stratum without a shared puzzle: nothing to weight
        row.update(diff_ci95_low=None, diff_ci95_high=None, p=None, test=f"none: {d.note}")
        return row
    row.update(
        accuracy_a=100 * (d.published + d.value),
        accuracy_b=100 * d.published,
        difference=100 * d.value,
        diff_ci95_low=100 * d.low,
        diff_ci95_high=100 * d.high,
        p=d.p_value if d.p_value == d.p_value else None,
        test=METHOD,
        power="not computed for the split-weighted difference",
    )
    return row


def _direction(row: dict[str, Any], text: str | None) -> str | None:
    """`paired.reading`'s words with the side that is higher where it finds a difference."""
    if text is None or not text.startswith("differs"):
        return text
    side = "run" if row["difference"] > 0 else "published run"
    return f"{side} higher" + text[len("differs") :]


def published_paired(
    runs: pd.DataFrame, samples: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(overall, per level): one row per run and published run of its protocol and prompt on
    their shared puzzles (counts, both accuracies, run - published in points with the interval
    of the test beside it, p, Holm over the run's published runs, the smallest difference found
    with 80% power, a reading, what the shared puzzles are, the source); per level the same
    with Holm within the pair over its levels.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        (overall, per level), percent and points; two empty frames where no run pairs with a
        published run.
    """

    from inspect_sparc.published_runs.pairing import matching_runs, shared_puzzles_with
    from inspect_sparc.published_runs.verdicts import load_verdicts

    verdicts = load_verdicts()
    split = set(verdicts.puzzle_ids)
    overall: list[dict[str, Any]] = []
    levels: list[dict[str, Any]] = []
    for run, protocol, values in paired_runs(runs, samples):
        prompt = _setting(run, "prompt") or "default"
        mine = {str(k): float(v) for k, v in values.items() if str(k) in split}
        subset = subset_name(run)
        weighted = None if subset is None else (mine, subset)
        rows = []
        for published in matching_runs(protocol, str(prompt), verdicts):
            shared = shared_puzzles_with(mine, published, verdicts)
            row = _pair_row(run, published, shared, None, weighted=weighted)
            if row is None:
                continue
            source = f"{published.source_repo}@{published.commit[:7]} {published.path}"
            note = _note(shared, len(mine), len(split))
            if subset is not None:
                note = WEIGHTED.format(split=len(split), n=row["n_shared"], subset=subset)
            if reduction(run) != "mean":
                note = "; ".join(x for x in (note, UNLIKE.format(reduction(run))) if x)
            row.update(note=note, source=source)
            row.update(published_run=published.run_id, protocol=protocol)
            row["same_model"] = same_model(str(run["model"]), published.model)
            rows.append(row)
            found = (
                _pair_row(run, published, shared, lv, weighted=weighted)
                for lv in sorted(set(shared.levels))
            )
            in_pair = [r for r in found if r is not None]
            _holm(in_pair)
            count = sum(r.get("p") is not None for r in in_pair)
            for r in in_pair:
                r["holm_family"] = (
                    f"the {count} tested levels of this pair" if "p_holm" in r else ""
                )
            levels += in_pair
        _holm(rows)
        tested = sum(r.get("p") is not None for r in rows)
        family = _family(tested, protocol, str(prompt))
        for row in rows:
            row["reading"] = _direction(row, reading(row, tested))
            row["holm_family"] = family if row.get("p") is not None else ""
        _simultaneous(rows, run, verdicts, mine, tested, weighted)
        overall += rows
    return _ordered(overall, OVERALL), _ordered(levels, LEVEL_COLUMNS)


def _family(tested: int, protocol: str, prompt: str) -> str:
    """The family a row's Holm adjustment and simultaneous interval cover, in words."""
    return (
        f"this run against its {tested} tested published run(s) of {protocol}, prompt {prompt} "
        "(not adjusted across runs)"
    )


def _simultaneous(
    rows: list[dict[str, Any]],
    run: Any,
    verdicts: Any,
    mine: dict[str, float],
    tested: int,
    weighted: Weighting | None = None,
) -> None:
    """Each tested row's interval at 1 - 0.05 / m over the run's m tested published runs
    (Bonferroni: the m intervals of one run against many hold together; one that excludes 0
    is a comparison Holm marks too)."""
    from inspect_sparc.published_runs.pairing import shared_puzzles_with

    if tested < 1:
        return
    level = 1 - ALPHA / tested
    for row in rows:
        if row.get("p") is None:
            continue
        shared = shared_puzzles_with(mine, verdicts.run(row["published_run"]), verdicts)
        published = verdicts.run(row["published_run"])
        found = _pair_row(run, published, shared, None, level, weighted)
        row["diff_simultaneous_low"] = found["diff_ci95_low"] if found else None
        row["diff_simultaneous_high"] = found["diff_ci95_high"] if found else None


def _holm(rows: list[dict[str, Any]]) -> None:
    """Each tested row's Holm-adjusted p over `rows` (the family)."""
    tested = [r for r in rows if r.get("p") is not None]
    for row, adjusted in zip(tested, holm([float(r["p"]) for r in tested]), strict=True):
        row["p_holm"] = adjusted


#: The columns of the two tables, in order (those no row has are left out).
OVERALL = [C.RUN, "published", "published_run", C.PROTOCOL, "same_model", "n_shared", "both"]
OVERALL += ["only_run", "only_published", "neither", "accuracy_run", "accuracy_published"]
OVERALL += ["difference", "diff_ci95_low", "diff_ci95_high", "p", "p_holm", "holm_family"]
OVERALL += ["diff_simultaneous_low", "diff_simultaneous_high", "test", "mdd_80"]
OVERALL += ["power", "reading", "note", "source"]
LEVEL_COLUMNS = [C.RUN, "published", C.LEVEL, "n_shared", "both", "only_run", "only_published"]
LEVEL_COLUMNS += ["neither", "difference", "diff_ci95_low", "diff_ci95_high", "p", "p_holm"]
LEVEL_COLUMNS += ["holm_family", "test"]
LEVEL_COLUMNS += ["mdd_80", "power"]


def _ordered(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    import pandas as pd

    table = pd.DataFrame(rows)
    return table[[c for c in columns if c in table]] if len(table) else table


def subset_estimates(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """For each eligible run on a shipped subset (`-T puzzles=informative:N`): its estimate of
    the full-split accuracy and 95% interval (points) by both estimators side by side, from its
    per-puzzle values reduced as its log reduced them.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        one row per run and estimator (run, method, subset, n, estimate and its interval in percent,
        note); empty without subset runs.
    """
    import pandas as pd

    from inspect_sparc.published_runs.frames import subset_estimate_frame
    from inspect_sparc.published_runs.shipped import check_subset_name

    if "puzzles" not in runs:
        return pd.DataFrame()
    index = outcome_index(samples, runs)
    tables = []
    for _, run in eligible(runs).iterrows():
        name, values = _setting(run, "puzzles"), index.get(run[C.LOG])
        if name is None or values is None:
            continue
        try:
            check_subset_name(str(name))
        except ValueError:
            continue  # not a shipped subset (another task's puzzle filter)
        found = subset_estimate_frame({str(k): float(v) for k, v in values.items()}, str(name))
        renamed = {"puzzles": "n", "ci95_low": "estimate_ci95_low"}
        found = found.rename(columns={**renamed, "ci95_high": "estimate_ci95_high"})
        found.insert(0, C.RUN, run[C.RUN])
        tables.append(found)
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()


def page_rows(overall: pd.DataFrame) -> tuple[pd.DataFrame | None, str]:
    """What the page shows of a long table (None: all of it): for each run, its rows against
    published runs of its own model where it has any, else the two nearest in accuracy on the
    shared puzzles (the CSV has every row).

    Args:
        overall: the paired-with-published table (`published_paired`'s first frame).

    Returns:
        the rows kept (in the table's order; None where the table has at most `PAGE_ROWS`
        rows) and the words that say which they are ("" with None).
    """
    import pandas as pd

    if len(overall) <= PAGE_ROWS:
        return None, ""
    gap = (overall["accuracy_published"] - overall["accuracy_run"]).abs()
    ranked = overall.assign(_gap=gap).sort_values("_gap", kind="stable")
    kept = [
        rows[rows["same_model"]] if rows["same_model"].any() else rows.head(2)
        for _, rows in ranked.groupby("run", sort=False)
    ]
    shown = pd.concat(kept).drop(columns="_gap").sort_index()
    return shown, "each run's rows against its own model, or else the two nearest in accuracy"


def differing(overall: pd.DataFrame) -> tuple[int, int, int] | None:
    """How many tested pairs differ (Holm p < 0.05 over each run's published runs), and in how
    many of them the run is the higher.

    Args:
        overall: the paired-with-published table.

    Returns:
        (tested pairs, pairs that differ, of those where the run is higher), or None where
        the table has no adjusted p.
    """
    if "p_holm" not in overall:
        return None
    tested = overall.dropna(subset=["p_holm"])
    differ = tested[tested["p_holm"] < 0.05]
    return len(tested), len(differ), int((differ["difference"] > 0).sum())
