"""The runs a comparison may use and each one's per-puzzle outcome: what the paired and the
unpaired comparisons and the fresh-puzzle gap are built from."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.reducer import reducer_of, reduction_of
from inspect_sparc.report.read.runs import SPARC_TASKS, complete_mask
from inspect_sparc.report.statistics.rates import reduced_values

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def eligible(runs: pd.DataFrame) -> pd.DataFrame:
    """Runs a comparison may use: complete model runs of SPaRC tasks with an accuracy (an
    errored or cancelled run, or a baseline solver, never enters a comparison).

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.

    Returns:
        those rows of `runs`.
    """
    ok = complete_mask(runs) & ~runs["baseline"].astype(bool)
    ok &= runs[C.TASK].isin(SPARC_TASKS) & runs[K.ACCURACY].notna()
    return runs[ok]


def outcome_index(samples: pd.DataFrame, runs: pd.DataFrame | None = None) -> dict[str, pd.Series]:
    """Per log: puzzle id -> its outcome over epochs, scored puzzles only: the mean, or with
    `runs`, reduced as each run's log reduced it (`max`: 0/1 again; the value its row shows).
    A log whose reducer the report cannot apply is left out (no comparison of a value that is
    not the one shown).

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.
        runs: the runs frame, for each log's reducer; None reduces by the mean.

    Returns:
        log path -> Series of per-puzzle values (0-1) indexed by puzzle id.
    """
    if samples is None or samples.empty or K.CORRECT not in samples:
        return {}
    scored = samples.dropna(subset=[K.CORRECT])
    means = scored.groupby([C.LOG, "id"], sort=False)[K.CORRECT].mean()
    index = {str(log): series.droplevel(0) for log, series in means.groupby(level=0, sort=False)}
    if runs is None:
        return index
    for _, run in runs.iterrows():
        reducer = reducer_of(run)
        if run[C.LOG] not in index or reduction_of(run) == "mean":
            continue
        reduced = reduced_values(scored, run[C.LOG], reducer)
        if reduced is None:
            del index[run[C.LOG]]
        else:
            index[run[C.LOG]] = reduced
    return index
