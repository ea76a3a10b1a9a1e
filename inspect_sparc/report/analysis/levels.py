"""Accuracy by level per run: the log's `level_k` with n puzzles and the 95% interval from
the samples of that level, long (one row per run and level) and wide (one row per run)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.contract import scores as K
from inspect_sparc.core.puzzle import LEVELS
from inspect_sparc.report.intervals import ci_fields, puzzle_values
from inspect_sparc.report.read.runs import SPARC_TASKS
from inspect_sparc.report.tabulate import pct, per_log

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def level_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Accuracy (%) by level, long form (run, protocol, model, level, accuracy: the log's
    `level_k`), with n puzzles and the 95% interval from the samples of that level."""
    import pandas as pd

    outcomes = puzzle_values(samples, [K.CORRECT])
    by_log = per_log(outcomes)
    rows = []
    for _, run in runs[runs["task"].isin(SPARC_TASKS)].iterrows():
        group = by_log.get(run["log"])
        for lv in LEVELS:
            value = pct(run.get(K.level_metric(lv)))
            if value is None:
                continue
            at = group.loc[group["level"] == lv, K.CORRECT] if group is not None else []
            rows.append(
                {
                    "log": run["log"],
                    "run": run["run"],
                    "protocol": run["protocol"],
                    "model": run["model"],
                    "baseline": run["baseline"],
                    "level": lv,
                    "accuracy": value,
                    **ci_fields(at),
                }
            )
    return pd.DataFrame(rows)


def wide_levels(levels: pd.DataFrame) -> pd.DataFrame:
    """The long level table as one row per run (`level_k` with its interval and n)."""
    import pandas as pd

    rows = []
    for _, group in levels.groupby("log", sort=False):
        row = {"run": group["run"].iloc[0], "protocol": group["protocol"].iloc[0]}
        for _, at in group.iterrows():
            key = f"level_{int(at['level'])}"
            row[key], row[f"n_{key}"] = at["accuracy"], at["n"]
            row[f"{key}_ci95_low"], row[f"{key}_ci95_high"] = at["ci95_low"], at["ci95_high"]
        rows.append(row)
    return pd.DataFrame(rows)
