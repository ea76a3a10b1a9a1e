"""Protocol deltas per model: the accuracy difference between runs of two protocols on the same
puzzles, with the paired interval of the paired comparisons, and the published models' deltas."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.contract import protocols as P
from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.runs import SPARC_TASKS, complete_mask
from inspect_sparc.report.table_values import pct, run_n

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


#: (name, minuend protocol, subtrahend protocol): the deltas the report shows per model.
DELTAS = (
    ("gym - single shot", "gym", "single_shot"),
    ("traceback - no traceback", "gym_traceback", "gym"),
    ("image - text (single shot)", "visual", "single_shot"),
    ("image - text (gym)", "gym_visual", "gym"),
)


#: Settings two runs must share to be compared in a delta (max_steps too between two gym runs).
DELTA_MATCH = ("prompt", "source", "split", "subset", "levels")


def delta_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per model with runs of both protocols on the same puzzles: accuracy difference in
    points. Runs are paired only when prompt, source, split, subset, levels and the number of
    puzzles match (and max_steps, between two gym protocols); of several such runs the latest
    of each protocol is taken, named in the row.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.

    Returns:
        one row per model and pair of protocols: the two runs, their accuracies, `points` (a - b)
        and the settings they share; empty where no model has such a pair.
    """
    import pandas as pd

    sparc = runs[runs[C.TASK].isin(SPARC_TASKS) & ~runs["baseline"].astype(bool)]
    sparc = sparc[(sparc[C.TASK] != P.SPARC_HARD) & complete_mask(sparc)]
    keys = [k for k in DELTA_MATCH if k in sparc]
    sparc = sparc.assign(**{k: sparc[k].astype(str) for k in keys})
    # the same number of puzzles too (`--limit`): the same selection then gives the same ones
    sparc = sparc.assign(n=[run_n(run) for _, run in sparc.iterrows()])
    keys.append("n")
    rows = []
    for match, group in sparc.groupby([C.MODEL, *keys], dropna=False, sort=False):
        model = match[0]
        group = group.sort_values("started_at")
        for name, plus, minus in DELTAS:
            a_runs, b_runs = group[group[C.PROTOCOL] == plus], group[group[C.PROTOCOL] == minus]
            if a_runs.empty or b_runs.empty:
                continue
            a = a_runs.iloc[-1]
            if plus in P.GYM_PROTOCOLS and minus in P.GYM_PROTOCOLS:
                b_runs = b_runs[b_runs["max_steps"].astype(str) == str(a["max_steps"])]
                if b_runs.empty:
                    continue
            b = b_runs.iloc[-1]
            rows.append(
                {
                    C.MODEL: model,
                    **{k: a[k] for k in keys},
                    "delta": name,
                    "points": difference(pct(a[K.ACCURACY]), pct(b[K.ACCURACY])),
                    "accuracy_a": pct(a[K.ACCURACY]),
                    "accuracy_b": pct(b[K.ACCURACY]),
                    "run_a": a[C.RUN],
                    "run_b": b[C.RUN],
                }
            )
    return pd.DataFrame(rows)


def difference(a: float | None, b: float | None) -> float | None:
    """a - b, or None where either is missing.

    Args:
        a: a value, or None.
        b: a value, or None.

    Returns:
        a - b, or None.
    """
    return a - b if a is not None and b is not None else None


def published_deltas(runs: pd.DataFrame) -> pd.DataFrame:
    """The protocol deltas of the published models (papers and the authors' rebuttal rows)
    for the deltas your runs show: same model and prompt under both protocols.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.

    Returns:
        one row per published model with both protocols: its label, `points` (the published
        difference) and no interval; empty where none matches.
    """
    import pandas as pd

    from inspect_sparc.report.published import sparc_and_rebuttal

    table = sparc_and_rebuttal()
    table = table[table["named"] & ~table["prompt"].astype(str).str.startswith("no-reason")]
    wanted = set(runs[C.PROTOCOL])
    rows = []
    for name, plus, minus in DELTAS:
        if not {plus, minus} <= wanted:
            continue
        a = table[table[C.PROTOCOL] == plus].set_index([C.MODEL])
        b = table[table[C.PROTOCOL] == minus].set_index([C.MODEL])
        for model in a.index.intersection(b.index).unique():
            pa, pb = a.loc[[model]].iloc[0], b.loc[[model]].iloc[0]
            rows.append(
                {"label": f"{model}: {name} (published)", "points": pa["accuracy"] - pb["accuracy"]}
            )
    return pd.DataFrame(rows)


def with_paired_interval(deltas: pd.DataFrame, paired: pd.DataFrame) -> pd.DataFrame:
    """Deltas with the paired 95% interval of the two runs (from the paired table, its sign
    turned when the pair was formed the other way round).

    Args:
        deltas: the deltas table (`delta_table`).
        paired: the paired table (`analysis.paired.paired_table`).

    Returns:
        `deltas` with `ci95_low` and `ci95_high` (points; None where the two runs were not tested as
        a pair).
    """
    lows, highs = [], []
    index = {}
    if not paired.empty:
        for _, row in paired.iterrows():
            low, high = row.get("diff_ci95_low"), row.get("diff_ci95_high")
            if low is None or high is None or low != low or high != high:
                continue
            index[(row["run_a"], row["run_b"])] = (low, high)
            index[(row["run_b"], row["run_a"])] = (-high, -low)
    for a, b in zip(deltas["run_a"], deltas["run_b"], strict=True):
        low, high = index.get((a, b), (None, None))
        lows.append(low)
        highs.append(high)
    return deltas.assign(ci95_low=lows, ci95_high=highs)


def deltas_shown(
    deltas: pd.DataFrame, paired: pd.DataFrame, runs: pd.DataFrame, samples: pd.DataFrame
) -> pd.DataFrame:
    """The protocol deltas as the section shows them: each with the paired interval of its two
    runs (`with_paired_interval`) and, for a pair of subset runs, the whole split's estimate
    (`split.split_deltas`).

    Args:
        deltas: the deltas table (`delta_table`), not empty.
        paired: the paired table (`analysis.paired.paired_table`).
        runs: the runs frame.
        samples: the samples frame.

    Returns:
        the deltas with their intervals (points).
    """
    from inspect_sparc.report.analysis.split import split_deltas

    return split_deltas(with_paired_interval(deltas, paired), runs, samples)


def chart_rows(deltas: pd.DataFrame, published: pd.DataFrame | None = None) -> pd.DataFrame:
    """The deltas chart's rows: each model's delta labelled `model: delta`, then the published
    deltas (`published` True), the difference in `value` (points).

    Args:
        deltas: the deltas as shown (`deltas_shown`).
        published: the published models' deltas (`published_deltas`), or None.

    Returns:
        one row per point, with its label, value and interval.
    """
    import pandas as pd

    rows = deltas.assign(
        label=[f"{m}: {d}" for m, d in zip(deltas[C.MODEL], deltas["delta"], strict=True)],
        published=False,
    )
    if published is not None and not published.empty:
        rows = pd.concat([rows, published.assign(published=True)], ignore_index=True)
    return rows.rename(columns={"points": "value"})
