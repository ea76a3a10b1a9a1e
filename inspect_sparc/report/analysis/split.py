"""Runs on a shipped subset of the test split (`-T puzzles=informative:N`): the whole split's
accuracy estimated from their puzzles, which the report shows wherever it says how good a run is
(results, ranking, levels, figures, against published totals). The subset's own rate is kept
beside it as `subset_accuracy`, said to be "on these N puzzles".

The overall estimate is `published_runs.frames.subset_estimates`' first (model-assisted) entry;
each level's is the design-based estimate over that level's strata
(`published_runs.split_paired.level_estimates`). Both are computed here from the samples (each
puzzle's epochs reduced as the log reduced them), so logs written before the tasks logged the
estimate read the same as logs written after.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import scores as K
from inspect_sparc.report.analysis.outcomes import eligible, outcome_index
from inspect_sparc.report.read import columns as C

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: The split the subsets are drawn from (its puzzle count, in the labels).
SPLIT_SIZE = 500


@dataclass(frozen=True)
class SplitEstimate:
    """A subset run's estimate of its whole-split accuracy (points) and what it rests on."""

    subset: str
    n: int
    value: float
    low: float
    high: float
    method: str
    subset_accuracy: float
    #: level -> (estimate, low, high), points; design-based
    levels: dict[int, tuple[float, float, float]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """How the page names the number: an estimate, and from how many puzzles.

        Returns:
            `estimate for the 500-puzzle split from N puzzles`.
        """
        return f"estimate for the {SPLIT_SIZE}-puzzle split from {self.n} puzzles"

    @property
    def source(self) -> str:
        """What the estimate is from, in a few words: `100 puzzles (informative:100)`.

        Returns:
            the subset's size and name.
        """
        return f"{self.n} puzzles ({self.subset})"

    @property
    def interval_text(self) -> str:
        """The results table's `interval` cell of the run: what the number and interval are,
        and the subset's own rate, said to be the subset's.

        Returns:
            the cell's words.
        """
        return (
            f"{self.label} ({self.subset}; {self.method}); "
            f"{self.subset_accuracy:.1f} on these {self.n} puzzles"
        )


def subset_name(run: Any) -> str | None:
    """The shipped subset a run ran (`informative:100`), or None (every puzzle, another
    task's puzzle filter, a name no longer shipped).

    Args:
        run: a run's row of the runs frame (its `puzzles` setting).

    Returns:
        the subset's name, or None.
    """
    from inspect_sparc.published_runs.shipped import check_subset_name

    name = run.get("puzzles")
    if not isinstance(name, str):
        return None
    try:
        return check_subset_name(name)
    except ValueError:
        return None


def split_estimates(runs: pd.DataFrame, samples: pd.DataFrame) -> dict[str, SplitEstimate]:
    """Per log of an eligible run on a shipped subset: its whole-split estimate.

    Args:
        runs: the runs frame (`read.runs.runs_frame`).
        samples: the samples frame.

    Returns:
        log path -> its `SplitEstimate` (no entry for a run on every puzzle)."""
    from inspect_sparc.published_runs.frames import subset_estimates
    from inspect_sparc.published_runs.split_paired import level_estimates

    if "puzzles" not in runs or samples is None or samples.empty:
        return {}
    index = outcome_index(samples, runs)
    found = {}
    for _, run in eligible(runs).iterrows():
        name, values = subset_name(run), index.get(run[C.LOG])
        if name is None or values is None or not len(values):
            continue
        verdicts = {str(k): float(v) for k, v in values.items()}
        first = subset_estimates(verdicts, name)[0]
        levels = {
            lv: (100 * e.value, 100 * e.low, 100 * e.high)
            for lv, e in level_estimates(verdicts, name).items()
        }
        found[str(run[C.LOG])] = SplitEstimate(
            name,
            len(verdicts),
            100 * first.value,
            100 * first.low,
            100 * first.high,
            first.method,
            100 * float(values.mean()),
            levels,
        )
    return found


def with_split_estimates(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """The runs frame with each subset run's `accuracy` and `level_k` (fractions, as the logs
    hold them) set to its whole-split estimates and `subset_accuracy` to the subset's own
    rate, so that every table, ranking and figure reading a run's accuracy reads the split's
    (the frame unchanged where no run is on a subset).

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        a copy with the estimates, or `runs` itself where no run is on a subset.
    """
    found = split_estimates(runs, samples)
    if not found:
        return runs
    out = runs.copy()
    out[K.SUBSET_ACCURACY] = float("nan")
    for at, run in out.iterrows():
        estimate = found.get(str(run[C.LOG]))
        if estimate is None:
            continue
        out.at[at, K.ACCURACY] = estimate.value / 100
        out.at[at, K.SUBSET_ACCURACY] = estimate.subset_accuracy / 100
        for level, (value, _, _) in estimate.levels.items():
            out.at[at, K.level_metric(level)] = value / 100
    return out


def errors_as_failures_estimate(
    samples: pd.DataFrame, log: str, reducer: str, subset: str
) -> dict[str, Any]:
    """A subset run's whole-split estimate with every errored epoch counted as a failure (as
    `statistics.rates.errors_as_failures_fields` counts them), and its interval (points);
    empty where the samples do not say.

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.
        log: the run's log path.
        reducer: the run's epoch reducer.
        subset: the shipped subset the run ran.

    Returns:
        `errors_as_failures` and its interval columns (points), or empty.
    """
    import pandas as pd

    from inspect_sparc.published_runs.frames import subset_estimates
    from inspect_sparc.report.read.reducer import REDUCTIONS

    how = REDUCTIONS.get(reducer)
    rows = samples[samples[C.LOG] == log] if K.CORRECT in samples else samples.iloc[:0]
    if how is None or rows.empty:
        return {}
    failed = pd.to_numeric(rows[K.CORRECT], errors="coerce").fillna(0.0)
    values = rows.assign(_value=failed).groupby(C.ID, sort=False)["_value"].agg(how)
    first = subset_estimates({str(k): float(v) for k, v in values.items()}, subset)[0]
    return {
        "errors_as_failures": 100 * first.value,
        "errors_as_failures_ci95_low": 100 * first.low,
        "errors_as_failures_ci95_high": 100 * first.high,
    }


#: The interval of a subset run's estimate minus a published total, in the row's note.
MOVER = (
    "{label}: the estimate minus the published total, with the MOVER interval (Zou and Donner "
    "2008: the estimate's interval and the published total's Wilson interval combined, as "
    "Newcombe's is from two Wilson intervals)"
)


def against_total(split: SplitEstimate, kb: float, nb: float) -> dict[str, Any]:
    """A subset run's whole-split estimate minus a published total kb/nb, in points: the
    difference, its MOVER 95% interval (the estimate's interval with the published total's
    Wilson interval), a reading and a note saying it is an estimate.

    Args:
        split: the run's estimate.
        kb: the published run's solved count (may be fractional: accuracy x n).
        nb: its puzzles.

    Returns:
        The row's `accuracy`, `n`, `difference`, `diff_ci95_low/high`, `reading`, `note`."""
    from math import sqrt

    from inspect_sparc.report.statistics.score_intervals import wilson

    p1, l1, u1 = split.value / 100, split.low / 100, split.high / 100
    p2, other = kb / nb, wilson(kb, nb)
    low = p1 - p2 - sqrt((p1 - l1) ** 2 + (other.high - p2) ** 2)
    high = p1 - p2 + sqrt((u1 - p1) ** 2 + (p2 - other.low) ** 2)
    if low > 0 or high < 0:
        words = f"{'run' if low > 0 else 'published'} higher (the interval excludes 0)"
    else:
        words = "no difference shown (the interval includes 0)"
    return {
        "n": split.n,
        "accuracy": split.value,
        "difference": 100 * (p1 - p2),
        "diff_ci95_low": 100 * low,
        "diff_ci95_high": 100 * high,
        "reading": words,
        "note": MOVER.format(label=split.label),
    }


def split_deltas(deltas: pd.DataFrame, runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """Protocol deltas (`analysis.deltas`) where both runs ran the same shipped subset: the
    delta weighted to the whole split (`published_runs.split_paired.runs_difference`, the
    stratified Horvitz-Thompson paired difference) with its interval, and a note saying so,
    in place of the shared puzzles' own difference; the table unchanged where no such pair is.

    Args:
        deltas: the deltas with their paired intervals (`with_paired_interval`).
        runs: the runs frame.
        samples: the samples frame.

    Returns:
        `deltas`, its subset pairs weighted to the split (points)."""
    from inspect_sparc.published_runs.split_paired import runs_difference

    if deltas.empty or "puzzles" not in runs:
        return deltas
    by_label = {str(run[C.RUN]): run for _, run in eligible(runs).iterrows()}
    index = outcome_index(samples, runs)
    out, notes = deltas.copy(), []
    for at, row in deltas.iterrows():
        a, b = by_label.get(str(row["run_a"])), by_label.get(str(row["run_b"]))
        name = subset_name(a) if a is not None else None
        if a is None or b is None or name is None or subset_name(b) != name:
            notes.append("")
            continue
        one, two = index.get(str(a[C.LOG])), index.get(str(b[C.LOG]))
        if one is None or two is None:
            notes.append("")
            continue
        found = runs_difference(
            {str(k): float(v) for k, v in one.items()},
            {str(k): float(v) for k, v in two.items()},
            name,
        )
        out.at[at, "points"] = 100 * found.value
        out.at[at, "ci95_low"] = 100 * found.low
        out.at[at, "ci95_high"] = 100 * found.high
        notes.append(
            f"weighted to the {SPLIT_SIZE}-puzzle split from the {found.n} puzzles of {name} "
            "both runs scored (stratified Horvitz-Thompson)"
            + (f"; {found.note}" if found.note else "")
        )
    return out.assign(note=notes) if any(notes) else out
