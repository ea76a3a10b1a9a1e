"""Reports from Inspect logs of this package's tasks: the papers' tables and figures, with the
published results beside the user's runs (`python -m inspect_sparc.report logs/`).

Reads logs only (never imports a task module), so it reports on logs of any task version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["build_report", "runs_frame", "samples_frame"]


def samples_frame(logs: Any, **kwargs: Any) -> pd.DataFrame:
    """One row per sample and epoch of every log of our tasks under `logs` (see `read.samples`)."""
    from inspect_sparc.report.read.samples import samples_frame as frame

    return frame(logs, **kwargs)


def runs_frame(logs: Any, **kwargs: Any) -> pd.DataFrame:
    """One row per log: header, settings and the log's own metrics (see `read.runs`)."""
    from inspect_sparc.report.read.runs import runs_frame as frame

    return frame(logs, **kwargs)


def build_report(logs: Any, out_dir: Any = "sparc-report", **kwargs: Any) -> Any:
    """Write the page, figures and tables for `logs` to `out_dir` (see `build`)."""
    from inspect_sparc.report.build import build_report as build

    return build(logs, out_dir, **kwargs)
