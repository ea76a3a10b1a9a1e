"""Accuracy by level per run: the log's `level_k` with n puzzles and the 95% interval from
the samples of that level (of the value shown: each puzzle's epochs reduced as the log reduced
them), long (one row per run and level) and wide (one row per run)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.contract import scores as K
from inspect_sparc.core.puzzle.parse import LEVELS
from inspect_sparc.report.analysis.split import SPLIT_SIZE, SplitEstimate, split_estimates
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.reducer import reducer_of
from inspect_sparc.report.read.runs import SPARC_TASKS
from inspect_sparc.report.statistics.rates import (
    ci_fields,
    puzzle_values,
    shown_outcomes,
)
from inspect_sparc.report.table_values import pct, per_log

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: How a subset run's level cell's interval starts (`level_label`).
ESTIMATED = "design-based estimate"


def level_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Accuracy (%) by level, long form (run, protocol, model, level, accuracy: the log's
    `level_k`), with n puzzles and the 95% interval from the samples of that level, of the
    value shown (max-reduced epochs: the max-reduced outcomes); no interval, and why, for a
    reducer the report cannot apply.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        one row per SPaRC run and level it has (accuracy and interval in percent, n, `interval`
        saying which); empty without SPaRC runs.
    """
    import pandas as pd

    outcomes = puzzle_values(samples, [K.CORRECT])
    by_log = per_log(outcomes)
    splits = split_estimates(runs, samples) if samples is not None else {}
    rows = []
    for _, run in runs[runs[C.TASK].isin(SPARC_TASKS)].iterrows():
        split = splits.get(str(run[C.LOG]))
        shown = shown_outcomes(by_log.get(run[C.LOG]), samples, run)
        group = shown if shown is not None else by_log.get(run[C.LOG])
        for lv in LEVELS:
            value = pct(run.get(K.level_metric(lv)))
            if value is None:
                continue
            at = group.loc[group[C.LEVEL] == lv, K.CORRECT] if group is not None else []
            ci = ci_fields(at)
            if shown is None and group is not None:  # a reducer the report cannot apply
                reason = f"none: the {reducer_of(run)} reducer has no per-puzzle interval here"
                ci.update(ci95_low=None, ci95_high=None, interval=reason)
            if split is not None and lv in split.levels:  # the level of the whole split
                value, low, high = split.levels[lv]
                ci.update(ci95_low=low, ci95_high=high, interval=level_label(split, ci["n"]))
            rows.append(
                {
                    C.LOG: run[C.LOG],
                    C.RUN: run[C.RUN],
                    C.PROTOCOL: run[C.PROTOCOL],
                    C.MODEL: run[C.MODEL],
                    "baseline": run["baseline"],
                    C.LEVEL: lv,
                    "accuracy": value,
                    **ci,
                }
            )
    return pd.DataFrame(rows)


def level_label(split: SplitEstimate, n: int) -> str:
    """A subset run's level cell: a design-based estimate for the level of the whole split,
    from its n puzzles of the subset.

    Args:
        split: the run's whole-split estimate (`analysis.split.split_estimates`).
        n: the subset's puzzles of the level.

    Returns:
        the words of the cell's `interval`.
    """
    return (
        f"{ESTIMATED} for this level of the {SPLIT_SIZE}-puzzle split from {n} "
        f"puzzles ({split.subset})"
    )


def wide_levels(levels: pd.DataFrame) -> pd.DataFrame:
    """The long level table as one row per run (`level_k` with its interval and n).

    Args:
        levels: the long level table (`level_table`), in the order to show.

    Returns:
        one row per log, in the order first met: run, protocol and per level `level_k`, `n_level_k`
        and its interval columns.
    """
    import pandas as pd

    rows = []
    for _, group in levels.groupby(C.LOG, sort=False):
        row = {C.RUN: group[C.RUN].iloc[0], C.PROTOCOL: group[C.PROTOCOL].iloc[0]}
        for _, at in group.iterrows():
            key = f"level_{int(at['level'])}"
            row[key], row[f"n_{key}"] = at["accuracy"], at["n"]
            row[f"{key}_ci95_low"], row[f"{key}_ci95_high"] = at["ci95_low"], at["ci95_high"]
        rows.append(row)
    return pd.DataFrame(rows)


def estimated(levels: pd.DataFrame) -> pd.Series:
    """Which rows of the level table are a subset run's whole-split estimates.

    Args:
        levels: the long level table (`level_table`).

    Returns:
        a boolean Series on `levels`' index, True for a design-based estimate's row.
    """
    return levels["interval"].astype(str).str.startswith(ESTIMATED)


def panel_order(levels: pd.DataFrame) -> list[str]:
    """The logs of one panel of the difficulty curves, most accurate first over the levels
    shown (each level's accuracy weighted by its n; ties by log path, unknown last):
    the order of the curves' legend.

    Args:
        levels: the long level table's rows of one panel (one protocol).

    Returns:
        the panel's log paths, in that order.
    """
    weight = levels["n"].astype(float).fillna(0)
    solved = (levels["accuracy"].astype(float) * weight).groupby(levels[C.LOG]).sum()
    overall = solved / weight.groupby(levels[C.LOG]).sum().replace(0, float("nan"))
    return [str(log) for log in overall.sort_values(ascending=False, kind="stable").index]


def by_logs(levels: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """`levels` with each log's rows together, the logs in `order` (a stable sort).

    Args:
        levels: the long level table (or any frame with a `log` column).
        order: log paths; a log not named keeps its rows after the named ones.

    Returns:
        the rows reordered.
    """
    rank = {log: i for i, log in enumerate(order)}
    return levels.sort_values(C.LOG, key=lambda c: c.map(rank), kind="stable")


def curve_order(levels: pd.DataFrame, protocols: list[str]) -> pd.DataFrame:
    """`levels` in the curves' order: protocol by protocol as the panels (`protocols` first,
    then any other in the table's order), each panel's runs as its legend (`panel_order`).

    Args:
        levels: the long level table.
        protocols: the protocols in the order the page draws their panels.

    Returns:
        the rows reordered, as a new frame.
    """
    import pandas as pd

    shown = [p for p in protocols if p in set(levels[C.PROTOCOL])]
    shown += [p for p in dict.fromkeys(levels[C.PROTOCOL]) if p not in shown]
    order = [
        log for protocol in shown for log in panel_order(levels[levels[C.PROTOCOL] == protocol])
    ]
    return pd.DataFrame(by_logs(levels, order))
