"""Paired comparisons of runs on the same puzzles: the 2x2 table, the difference with a paired
interval that agrees with the test beside it (exact McNemar and its inverted interval; the
paired t where epochs make per-puzzle means), Holm-adjusted p over the family of pairs, the
smallest difference each pair can detect, and each tested pair again per level.

Each run's per-puzzle outcome is indexed by puzzle id once (`outcomes.outcome_index`); a pair
is then an index join, so the cost grows with runs x runs x puzzles, never samples x samples.
Pairs are formed within a protocol (same task, protocol, source, split and subset) and, per
model, across protocols on the same puzzles (single shot against gym against agent).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from inspect_sparc.report.analysis.outcomes import eligible, outcome_index
from inspect_sparc.report.stats import (
    CONFIDENCE,
    MIN_SHARED,
    Interval,
    holm,
    mcnemar_exact,
    paired_exact,
    paired_mdd,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


#: Settings that decide which puzzles a run saw (runs compared must share them).
PUZZLE_SETTINGS = ("source", "split", "subset")


WITHIN = "within protocol"


ACROSS = "across protocols (same model)"


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
    """The comparison of two runs' outcomes on the puzzles both scored (None: none shared):
    counts, the difference, and with at least `MIN_SHARED` shared puzzles an interval and the
    test it agrees with (`paired_test`), and the smallest difference it detects (80% power)."""
    import numpy as np

    shared = a.index.intersection(b.index)
    if len(shared) == 0:
        return None
    x, y = a.loc[shared].to_numpy(float), b.loc[shared].to_numpy(float)
    binary = bool(np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all())
    only_a, only_b = float((x * (1 - y)).sum()), float(((1 - x) * y).sum())
    row: dict[str, Any] = {
        "n_shared": len(shared),
        "accuracy_a": 100 * x.mean(),
        "accuracy_b": 100 * y.mean(),
        "difference": 100 * (x.mean() - y.mean()),
    }
    if binary:
        row.update(both=int((x * y).sum()), only_a=int(only_a), only_b=int(only_b))
        row["neither"] = int(((1 - x) * (1 - y)).sum())
    if len(shared) < MIN_SHARED:
        row["test"] = f"none: fewer than {MIN_SHARED} shared puzzles"
        return row
    interval, p, test = paired_test(x, y, binary)
    row.update(diff_ci95_low=100 * interval.low, diff_ci95_high=100 * interval.high)
    row.update(p=p, test=test)
    row["mdd_80"] = 100 * paired_mdd(len(shared), (only_a + only_b) / len(shared))
    return row


def paired_test(x: Any, y: Any, binary: bool) -> tuple[Interval, float, str]:
    """The paired interval and the p-value of the test it inverts: exact McNemar with its
    inverted (Clopper-Pearson) interval for 0/1 outcomes; for per-puzzle means over epochs
    the paired t test and its interval (the exact pair on rounded counts where every puzzle
    differs alike, so no interval has zero width)."""
    import numpy as np

    diff = x - y
    if binary or np.all(diff == diff[0]):
        only_a = int(round(float((x * (1 - y)).sum())))
        only_b = int(round(float(((1 - x) * y).sum())))
        interval = paired_exact(only_a, only_b, len(x))
        return interval, mcnemar_exact(only_a, only_b), "exact McNemar"
    from scipy.stats import ttest_rel

    result = ttest_rel(x, y)
    ci = result.confidence_interval(CONFIDENCE)
    return Interval(float(ci.low), float(ci.high), "paired t"), float(result.pvalue), "paired t"


def paired_table(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """One row per pair of runs sharing puzzles: scope, the runs, how many puzzles each
    scored, share, and lost to errors, the 2x2 table, accuracy of each on the shared puzzles,
    the difference a - b in points with the interval of the test beside it, its p and the
    Holm-adjusted p over every tested pair (the family), and the smallest difference the test
    detects with 80% power."""
    import pandas as pd

    index = outcome_index(samples)
    ids = samples.groupby("log")["id"].agg(set).to_dict() if len(samples) else {}
    rows = []
    for a, b, scope in candidate_pairs(eligible(runs)):
        ia, ib = index.get(a["log"]), index.get(b["log"])
        if ia is None or ib is None:
            continue
        found = compare(ia, ib)
        if found is None:
            continue
        both_ran = len(ids.get(a["log"], set()) & ids.get(b["log"], set()))
        rows.append(
            {
                "scope": scope,
                "run_a": a["run"],
                "run_b": b["run"],
                "protocol_a": a["protocol"],
                "protocol_b": b["protocol"],
                "n_a": len(ia),
                "n_b": len(ib),
                "dropped_errors": both_ran - found["n_shared"],
                **found,
            }
        )
    columns = ["run_a", "run_b", "scope", "protocol_a", "protocol_b", "n_a", "n_b", "n_shared"]
    columns += ["dropped_errors", "both", "only_a", "only_b", "neither", "accuracy_a"]
    columns += ["accuracy_b", "difference", "diff_ci95_low", "diff_ci95_high", "p", "p_holm"]
    columns += ["test", "mdd_80"]
    table = pd.DataFrame(rows)
    if len(table) and "p" in table:
        table["p_holm"] = holm(table["p"].astype(float).tolist())
        table["reading"] = [reading(r) for _, r in table.iterrows()]
    columns += ["reading"]
    return table[[c for c in columns if c in table]] if len(table) else table


def reading(row: Any) -> str | None:
    """What a tested pair shows in words: a significant difference (Holm), or, where there is
    none, the size of difference that cannot be excluded (mdd_80), never "no difference"."""
    p = row.get("p_holm")
    if p is None or p != p:
        return None
    if p < 0.05:
        return "significant (Holm p < 0.05)"
    return (
        f"not significant: a difference smaller than {row['mdd_80']:.1f} points cannot be excluded"
    )


#: Shares of discordant puzzles the power table shows, and the split's sizes (all; level 5).
DISCORDANCES = (0.05, 0.10, 0.15, 0.20, 0.30)


SPLIT_SIZES = {"all 500 test puzzles": 500, "level 5 alone (89)": 89}


def power_table() -> pd.DataFrame:
    """The smallest paired difference (points) found with 80% power on the 500-puzzle test
    split and on its level 5, by share of discordant puzzles (`stats.paired_mdd`)."""
    import pandas as pd

    rows = [
        {"discordant (%)": 100 * d, **{k: 100 * paired_mdd(n, d) for k, n in SPLIT_SIZES.items()}}
        for d in DISCORDANCES
    ]
    return pd.DataFrame(rows)


def level_pairs(runs: pd.DataFrame, samples: pd.DataFrame, paired: pd.DataFrame) -> pd.DataFrame:
    """Each tested pair again per level (the samples' own level): counts, difference, the
    interval and test of `compare`, and Holm's adjustment within the pair (over its levels)."""
    import pandas as pd

    if paired.empty or "p" not in paired or samples is None or "level" not in samples:
        return pd.DataFrame()
    index = outcome_index(samples)
    levels = samples.dropna(subset=["level"]).groupby(["log", "id"])["level"].first()
    known_logs = set(levels.index.get_level_values(0))
    logs = dict(zip(runs["run"], runs["log"], strict=False))
    rows = []
    for _, pair in paired.dropna(subset=["p"]).iterrows():
        a, b = index.get(logs.get(pair["run_a"], "")), index.get(logs.get(pair["run_b"], ""))
        if a is None or b is None or logs[pair["run_a"]] not in known_logs:
            continue
        level_of = levels.loc[logs[pair["run_a"]]]
        found = []
        for level in sorted(set(level_of.reindex(a.index).dropna().astype(int))):
            ids = level_of.index[level_of == level]
            row = compare(a[a.index.isin(ids)], b[b.index.isin(ids)])
            if row is not None:
                found.append(
                    {"run_a": pair["run_a"], "run_b": pair["run_b"], "level": level, **row}
                )
        tested = [r for r in found if r.get("p") is not None]
        for r, adjusted in zip(tested, holm([float(r["p"]) for r in tested]), strict=True):
            r["p_holm_in_pair"] = adjusted
        rows += found
    columns = ["run_a", "run_b", "level", "n_shared", "both", "only_a", "only_b", "neither"]
    columns += ["difference", "diff_ci95_low", "diff_ci95_high", "p", "p_holm_in_pair", "test"]
    columns += ["mdd_80"]
    table = pd.DataFrame(rows)
    return table[[c for c in columns if c in table]] if len(table) else table
