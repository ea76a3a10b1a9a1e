"""Paired comparisons of runs on the same puzzles: the 2x2 table, the difference with a paired
interval and the exact McNemar test.

Each run's per-puzzle outcome is indexed by puzzle id once (`outcome_index`); a pair is then
an index join, so the cost grows with runs x runs x puzzles, never samples x samples. Pairs
are formed within a protocol (same task, protocol, source, split and subset) and, per model,
across protocols on the same puzzles (single shot against gym against agent).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from inspect_sparc.report import keys as K
from inspect_sparc.report.frame import SPARC_TASKS, complete_mask
from inspect_sparc.report.stats import BOOTSTRAP, mcnemar_exact, paired_difference

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: Settings that decide which puzzles a run saw (runs compared must share them).
PUZZLE_SETTINGS = ("source", "split", "subset")
WITHIN = "within protocol"
ACROSS = "across protocols (same model)"


def eligible(runs: pd.DataFrame) -> pd.DataFrame:
    """Runs a comparison may use: complete model runs of SPaRC tasks with an accuracy (an
    errored or cancelled run, or a baseline solver, never enters a comparison)."""
    ok = complete_mask(runs) & ~runs["baseline"].astype(bool)
    ok &= runs["task"].isin(SPARC_TASKS) & runs[K.ACCURACY].notna()
    return runs[ok]


def outcome_index(samples: pd.DataFrame) -> dict[str, pd.Series]:
    """Per log: puzzle id -> its outcome (mean of `correct` over epochs), scored puzzles only."""
    if samples is None or samples.empty or K.CORRECT not in samples:
        return {}
    scored = samples.dropna(subset=[K.CORRECT])
    means = scored.groupby(["log", "id"], sort=False)[K.CORRECT].mean()
    return {str(log): series.droplevel(0) for log, series in means.groupby(level=0, sort=False)}


def _puzzle_key(run: Any) -> tuple[str, ...]:
    return tuple(str(run.get(k)) for k in PUZZLE_SETTINGS)


def candidate_pairs(runs: pd.DataFrame) -> list[tuple[Any, Any, str]]:
    """(run a, run b, scope) for every pair within a protocol and, per model, across
    protocols; runs in started order, so a is the earlier."""
    pairs: list[tuple[Any, Any, str]] = []
    records = [row for _, row in runs.iterrows()]
    for a, b in combinations(records, 2):
        if _puzzle_key(a) != _puzzle_key(b):
            continue
        if a["task"] == b["task"] and a["protocol"] == b["protocol"]:
            pairs.append((a, b, WITHIN))
        elif a["model"] == b["model"] and a["protocol"] != b["protocol"]:
            pairs.append((a, b, ACROSS))
    return pairs


def compare(a: pd.Series, b: pd.Series) -> dict[str, Any] | None:
    """The comparison of two runs' outcomes on the puzzles both scored (None: none shared)."""
    import numpy as np

    shared = a.index.intersection(b.index)
    if len(shared) == 0:
        return None
    x, y = a.loc[shared].to_numpy(float), b.loc[shared].to_numpy(float)
    binary = bool(np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all())
    interval = paired_difference(x, y)
    row: dict[str, Any] = {
        "n_shared": len(shared),
        "accuracy_a": 100 * x.mean(),
        "accuracy_b": 100 * y.mean(),
        "difference": 100 * (x.mean() - y.mean()),
        "diff_ci95_low": 100 * interval.low,
        "diff_ci95_high": 100 * interval.high,
        "interval": f"paired {BOOTSTRAP}",
    }
    if binary:
        both, only_a = int((x * y).sum()), int((x * (1 - y)).sum())
        only_b, neither = int(((1 - x) * y).sum()), int(((1 - x) * (1 - y)).sum())
        row.update(both=both, only_a=only_a, only_b=only_b, neither=neither)
        row["mcnemar_p"] = mcnemar_exact(only_a, only_b)
    return row


def paired_table(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """One row per pair of runs sharing puzzles: scope, the runs, how many puzzles each
    scored and how many they share, the 2x2 table (both, only a, only b, neither), accuracy
    of each on the shared puzzles, the difference a - b in points with its paired 95%
    interval, and the exact McNemar p (the 2x2 and p only where every outcome is 0 or 1)."""
    import pandas as pd

    index = outcome_index(samples)
    rows = []
    for a, b, scope in candidate_pairs(eligible(runs)):
        ia, ib = index.get(a["log"]), index.get(b["log"])
        if ia is None or ib is None:
            continue
        found = compare(ia, ib)
        if found is None:
            continue
        rows.append(
            {
                "scope": scope,
                "run_a": a["run"],
                "run_b": b["run"],
                "protocol_a": a["protocol"],
                "protocol_b": b["protocol"],
                "n_a": len(ia),
                "n_b": len(ib),
                **found,
            }
        )
    columns = ["run_a", "run_b", "scope", "protocol_a", "protocol_b", "n_a", "n_b", "n_shared"]
    columns += ["both", "only_a", "only_b", "neither", "accuracy_a", "accuracy_b"]
    columns += ["difference", "diff_ci95_low", "diff_ci95_high", "mcnemar_p", "interval"]
    table = pd.DataFrame(rows)
    return table[[c for c in columns if c in table]] if len(table) else table
