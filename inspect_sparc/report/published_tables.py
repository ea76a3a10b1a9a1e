"""The published rows the report shows beside the runs: the SPaRC rows (papers, leaderboard and
the authors' rebuttal analyses) for the protocols present, with Wilson intervals from their own
n; the human row beside single shot; and the published models' protocol deltas."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.published import (
    baseline_rows,
    published,
    source_of,
    sparc_rows,
    with_wilson,
)
from inspect_sparc.report.tables import DELTAS, LEVELS, PROTOCOLS

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def published_results(runs: pd.DataFrame) -> pd.DataFrame:
    """The published SPaRC rows for the protocols (and prompts) present in the runs, marked."""
    import pandas as pd

    parts = []
    for protocol in PROTOCOLS:
        present = runs[runs["protocol"] == protocol]
        if present.empty:
            continue
        if protocol == "visual":
            rows = published("sparc_visual")
            rows = rows[rows["protocol"] == "visual"].rename(columns={"source": "paper"})
        else:
            prompts = set(present["prompt"].dropna()) or {"paper"}
            rows = pd.concat([sparc_rows(protocol, p) for p in prompts])
            if protocol == "single_shot":
                rows = pd.concat([rows, human_row()])
        if not rows.empty:
            parts.append(rows.assign(source=[source_of(r) for _, r in rows.iterrows()]))
    if not runs[runs["protocol"].isin(["gym", "gym_traceback"])].empty:
        base = baseline_rows()
        parts.append(base.assign(source=[source_of(r) for _, r in base.iterrows()]))
    if not parts:
        return pd.DataFrame()
    table = with_wilson(pd.concat(parts, ignore_index=True))
    keep = ["protocol", "prompt", "setting", "model", "n", "accuracy", "ci95_low", "ci95_high"]
    keep += [f"level_{lv}" for lv in LEVELS] + ["mean_steps", "source", "named"]
    return table[[c for c in keep if c in table]]


#: How the human row is shown: its study did not use the 500-puzzle split (its level rates
#: are no k/86 or k/89), so it has no n and no interval.
HUMAN_LABEL = "Human (not the 500-puzzle split)"


def human_row() -> pd.DataFrame:
    """The SPaRC human row, shown beside single-shot runs (the leaderboard's protocol)."""
    table = published("sparc")
    rows = table[table["protocol"] == "human"].assign(protocol="single_shot")
    return rows.assign(model=HUMAN_LABEL, prompt="human study")


def published_deltas(runs: pd.DataFrame) -> pd.DataFrame:
    """The protocol deltas of the published models (papers and the authors' rebuttal rows)
    for the deltas your runs show: same model and prompt under both protocols."""
    import pandas as pd

    from inspect_sparc.report.published import sparc_and_rebuttal

    table = sparc_and_rebuttal()
    table = table[table["named"] & ~table["prompt"].astype(str).str.startswith("no-reason")]
    wanted = set(runs["protocol"])
    rows = []
    for name, plus, minus in DELTAS:
        if not {plus, minus} <= wanted:
            continue
        a = table[table["protocol"] == plus].set_index(["model"])
        b = table[table["protocol"] == minus].set_index(["model"])
        for model in a.index.intersection(b.index).unique():
            pa, pb = a.loc[[model]].iloc[0], b.loc[[model]].iloc[0]
            rows.append(
                {"label": f"{model}: {name} (published)", "points": pa["accuracy"] - pb["accuracy"]}
            )
    return pd.DataFrame(rows)
