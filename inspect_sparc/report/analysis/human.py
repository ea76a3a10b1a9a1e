"""Human runs (the `human` solver's logs): each run's accuracy and time per puzzle beside the
SPaRC paper's human figures (published, unpaired: no per-puzzle human data is public), and one
row per participant where a run had several. Pairing with model runs needs nothing here: a human
run is a run, paired on shared puzzles by `analysis.paired` like any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.statistics.score_intervals import wilson

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: The model name the report gives a human run (`read.runs.model_of`).
HUMAN = "human"
#: The published human row of the SPaRC leaderboard (`data/sparc_published.csv`).
PUBLISHED_HUMAN = "Human"
LEVELS = (1, 2, 3, 4, 5)


def human_samples(samples: pd.DataFrame) -> pd.DataFrame:
    """The scored samples of human runs.

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        the rows answered on the human page with a score (no rows where there are none).
    """
    if samples is None or samples.empty or C.MODEL not in samples:
        return samples.iloc[0:0] if samples is not None else samples
    rows = samples[samples[C.MODEL] == HUMAN]
    return rows.dropna(subset=[K.CORRECT]) if K.CORRECT in rows else rows.iloc[0:0]


def _row(label: str, rows: pd.DataFrame) -> dict[str, object]:
    """Accuracy (%), its Wilson 95% interval, per level, gave-ups and median seconds."""
    n = len(rows)
    solved = float(rows[K.CORRECT].sum())
    interval = wilson(solved, n)
    row: dict[str, object] = {
        "n": n,
        "accuracy": 100 * solved / n if n else None,
        "accuracy_ci95_low": 100 * interval.low,
        "accuracy_ci95_high": 100 * interval.high,
    }
    for level in LEVELS:
        at = rows[rows[C.LEVEL] == level]
        row[f"level_{level}"] = 100 * float(at[K.CORRECT].mean()) if len(at) else None
    row["gave_up"] = int(rows["gave_up"].fillna(False).astype(bool).sum())
    seconds = rows["answer_seconds"].dropna()
    row["median_seconds"] = float(seconds.median()) if len(seconds) else None
    return {"run": label, **row}


def human_table(samples: pd.DataFrame, published: pd.DataFrame | None) -> pd.DataFrame:
    """One row per human run (`reference` empty), then the paper's human figures labelled
    published and unpaired (accuracy and per level as published; n unknown).

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.
        published: the shipped SPaRC table, or None (`--no-published`).

    Returns:
        one row per human run and one published row (accuracy and levels in percent, n, gave_up,
        median_seconds, `reference`); empty without human runs.
    """
    import pandas as pd

    rows = human_samples(samples)
    out = [
        {**_row(str(run), group), "reference": ""} for run, group in rows.groupby(C.RUN, sort=False)
    ]
    if published is not None and not published.empty and "model" in published:
        for _, pub in published[published["model"] == PUBLISHED_HUMAN].iterrows():
            entry: dict[str, object] = {
                "run": f"{PUBLISHED_HUMAN} ({pub.get('paper')})",
                "n": None,
                "accuracy": pub.get("accuracy"),
                **{f"level_{level}": pub.get(f"level_{level}") for level in LEVELS},
                "reference": "published, unpaired",
            }
            out.append(entry)
            break  # one published human row (the protocols share it)
    return pd.DataFrame(out)


def participant_table(samples: pd.DataFrame) -> pd.DataFrame:
    """One row per participant of each human run that had several (empty otherwise).

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        one row per run and participant with the human table's columns and `participant`.
    """
    import pandas as pd

    rows = human_samples(samples)
    out = []
    for run, group in rows.groupby(C.RUN, sort=False):
        people = group["participant"].dropna().unique()
        if len(people) < 2:
            continue
        for person in sorted(people):
            out.append(
                {**_row(str(run), group[group["participant"] == person]), "participant": person}
            )
    return pd.DataFrame(out)


def seconds_by_level(samples: pd.DataFrame) -> pd.DataFrame:
    """Seconds to answer, one row per human answer with its run and level (for the figure).

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        `run`, `level` and `answer_seconds` per answer with a time.
    """
    rows = human_samples(samples)
    columns = [C.RUN, C.LEVEL, "answer_seconds"]
    return rows[columns].dropna().reset_index(drop=True)


def human_runs(table: pd.DataFrame) -> int:
    """The human runs of these logs in the human table (its published rows not counted).

    Args:
        table: the human table (`human_table`).

    Returns:
        their number (0 for an empty table).
    """
    return 0 if table.empty else int((table["reference"] == "").sum())
