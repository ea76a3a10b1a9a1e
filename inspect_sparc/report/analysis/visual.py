"""The visual protocols per run: accuracy of the image runs by plot type and prompt, with n and
the 95% interval from the samples."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.statistics.rates import ci_fields, puzzle_values
from inspect_sparc.report.table_values import known, pct, per_log

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def visual_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Accuracy (%) of image runs by plot type and prompt, from the logs, with n and the 95%
    interval from the samples."""
    import pandas as pd

    outcomes = puzzle_values(samples, [K.CORRECT])
    by_log = per_log(outcomes)
    rows = []
    for _, run in runs[runs[C.PROTOCOL].isin(["visual", "gym_visual"])].iterrows():
        group = by_log.get(run[C.LOG])
        values = group[K.CORRECT] if group is not None and known(run[K.ACCURACY]) else []
        rows.append(
            {
                C.RUN: run[C.RUN],
                C.PROTOCOL: run[C.PROTOCOL],
                C.MODEL: run[C.MODEL],
                "plot": run["plot"],
                "prompt": run["prompt"],
                "accuracy": pct(run[K.ACCURACY]),
                **ci_fields(values),
            }
        )
    return pd.DataFrame(rows)
