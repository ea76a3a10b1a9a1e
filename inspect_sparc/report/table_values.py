"""What every table of the report shares: percentages, a run's
puzzle count, per-sample means over epochs and per-log grouping (no section's own logic)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.report.read import columns as C

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["per_log", "known", "pct", "run_n", "sample_means"]


#: Rates closer than this to 0 or 1 are floating error of an exact 0 or 1 (n is at most
#: millions, so a true rate is never that close).
ZERO_BELOW = 1e-12


def pct(value: Any) -> float | None:
    """A 0-1 rate as a percentage (None stays None).

    Args:
        value: a rate (0-1) or anything else.

    Returns:
        the percentage, or None for None, NaN and what is no number.
    """
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    if number != number:
        return None
    # a zero (or one) left by floating sums (1.39e-17 as a rule-break rate) is a zero
    for exact in (0.0, 1.0):
        if abs(number - exact) < ZERO_BELOW:
            return 100 * exact
    return 100 * number


def sample_means(samples: pd.DataFrame, keys: list[str], values: list[str]) -> pd.DataFrame:
    """Each sample's values averaged over its epochs (Inspect's `mean` reducer), per run (per
    log: runs are never merged, whatever their labels). A value no sample has (no sample of
    an errored run was scored) is missing, never an error.

    Args:
        samples: the samples frame.
        keys: columns grouped by beside the log, run and sample id (each constant within a
            sample).
        values: columns averaged over epochs.

    Returns:
        one row per log and sample.
    """
    samples = samples.assign(**{v: float("nan") for v in values if v not in samples})
    return samples.groupby([C.LOG, C.RUN, C.ID, *keys], dropna=False)[values].mean().reset_index()


def run_n(run: Any) -> int | None:
    """Samples in a run, each counted once whatever its epochs (Inspect's completed_samples
    counts sample-epochs).

    Args:
        run: a run's row of the runs frame (`samples`, `epochs`).

    Returns:
        the count, or None where the header has none.
    """
    per = run.get("samples") or None
    epochs = int(run.get("epochs") or 1)
    return int(per) // epochs if per is not None and known(per) else None


def known(value: Any) -> bool:
    """True for a value that is neither None nor NaN.

    Args:
        value: anything.

    Returns:
        whether it is a known value.
    """
    return value is not None and not (isinstance(value, float) and value != value)


def per_log(frame: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """`frame`'s rows per log (in the frame's order); empty for an empty frame.

    Args:
        frame: a frame with a `log` column.

    Returns:
        log path -> its rows.
    """
    if not len(frame):
        return {}
    return {str(log): group for log, group in frame.groupby(C.LOG, sort=False)}
