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
    interval from the samples.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        one row per image run (plot, prompt, n, accuracy and interval in percent); empty without
        image runs.
    """
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


def published_visual(published: pd.DataFrame | None) -> pd.DataFrame | None:
    """The shipped visual table's rows of the visual protocol (None stays None).

    Args:
        published: the shipped `sparc_visual` table, or None (`--no-published`).

    Returns:
        its rows whose protocol is `visual`, or None.
    """
    if published is None:
        return None
    return published[published[C.PROTOCOL] == "visual"]


def published_visual_labels(pub: pd.DataFrame, with_model: bool = True) -> list[str]:
    """`model [plot, prompt, ...] (published)` (without the model when the title names it): the
    published setting that tells the runs apart (`published.visual_settings`).

    Args:
        pub: published visual rows.
        with_model: whether each label starts with the row's model.

    Returns:
        one label per row of `pub`.
    """
    from inspect_sparc.report.published import visual_settings

    settings = pub["setting"] if "setting" in pub else visual_settings(pub)
    return [
        f"{m + ' ' if with_model else ''}[{setting}] (published)"
        for m, setting in zip(pub[C.MODEL], settings, strict=True)
    ]


def chart_rows(visual: pd.DataFrame, published: pd.DataFrame | None) -> tuple[pd.DataFrame, str]:
    """The visual chart's rows: each image run by plot type, then the published visual runs
    with the Wilson 95% interval of their accuracy from their own n (`published.with_wilson`).

    Args:
        visual: the visual table (`visual_table`).
        published: the published visual rows (`published_visual`), or None.

    Returns:
        the rows (`label`, `accuracy` and its interval in percent, `published`), and the one
        model every published row is of where they share one ("" otherwise: each label names
        its model).
    """
    import pandas as pd

    from inspect_sparc.report.published import with_wilson

    rows = visual.assign(
        label=[f"{r} [{p}]" for r, p in zip(visual[C.RUN], visual["plot"], strict=True)],
        published=False,
    )
    if published is None or published.empty:
        return rows, ""
    pub = with_wilson(published).assign(published=True)
    models = set(pub[C.MODEL])
    one_model = len(models) == 1
    pub["label"] = published_visual_labels(pub, with_model=not one_model)
    return pd.concat([rows, pub], ignore_index=True), models.pop() if one_model else ""
