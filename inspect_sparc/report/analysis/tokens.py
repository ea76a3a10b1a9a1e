"""Tokens by level: mean output (and reasoning) tokens per sample, each puzzle's epochs averaged
first, with the output tokens' t interval over puzzles, and accuracy on the same puzzles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.runs import SPARC_TASKS
from inspect_sparc.report.statistics.score_intervals import mean_interval

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def tokens_by_level(samples: pd.DataFrame) -> pd.DataFrame:
    """Mean output (and reasoning) tokens per sample by level, per model run with tokens: each
    puzzle's epochs averaged first, then the puzzles, with the output tokens' t interval over
    puzzles (`output_tokens_ci95_low/high`); accuracy over the same puzzles.

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        one row per run and level with tokens (means per sample, the output tokens' interval,
        accuracy in percent); empty where no sample logged tokens.
    """
    import pandas as pd

    sparc = samples[samples[C.TASK].isin(SPARC_TASKS)] if not samples.empty else samples
    if sparc.empty or sparc["output_tokens"].isna().all():
        return pd.DataFrame()
    sparc = sparc[sparc["output_tokens"].notna()]
    cols = ["output_tokens", "reasoning_tokens", K.CORRECT]
    sparc = sparc.assign(**{c: float("nan") for c in cols if c not in sparc})
    keys = [C.LOG, C.RUN, C.PROTOCOL, C.LEVEL]
    puzzles = sparc.groupby([*keys, C.ID], sort=False)[cols].mean()
    table = puzzles.groupby(level=keys, sort=False)[cols].mean()
    bounds = puzzles.groupby(level=keys, sort=False)["output_tokens"].apply(_bounds)
    table = table.join(pd.DataFrame(bounds.tolist(), index=bounds.index, columns=CI_COLUMNS))
    table = table.reset_index().sort_values([C.LOG, C.LEVEL], kind="stable")
    table[K.CORRECT] = 100 * table[K.CORRECT]
    return table.rename(columns={K.CORRECT: "accuracy"}).reset_index(drop=True)


#: The interval columns of `tokens_by_level` (the output tokens' t interval over puzzles).
CI_COLUMNS = ["output_tokens_ci95_low", "output_tokens_ci95_high"]


def _bounds(values: pd.Series) -> tuple[float, float]:
    """The t interval over puzzles of a level's per-puzzle mean tokens (NaN where none)."""
    interval = mean_interval(values.to_numpy(), lowest=0.0)
    return interval.low, interval.high
