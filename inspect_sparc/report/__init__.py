"""Reports from Inspect logs of this package's tasks: the papers' tables and figures, with the
published results beside the user's runs (`python -m inspect_sparc.report logs/`).

Reads logs only (never imports a task module), so it reports on logs of any task version.
The public names are `__all__`: `build_report` (and the `Report` it returns), `runs_frame` and
`samples_frame`; heavy imports wait until one is called.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_sparc.runtime.lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from inspect_sparc.report.build import Report

__all__ = ["Report", "build_report", "runs_frame", "samples_frame"]

#: Logs to read: a log file, a folder searched for logs, or several of these.
Logs = str | Path | Iterable[str | Path]


def samples_frame(
    logs: Logs,
    runs: pd.DataFrame | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """One row per sample and epoch of every log of our tasks under `logs`.

    Args:
        logs: log files or folders.
        runs: their run frame, where already read (else read here).
        progress: called as `progress(done, total)` per log read.

    Returns:
        The sample frame: log, run, task, model, protocol, id, epoch, level, every score value.
    """
    from inspect_sparc.report.read.samples import samples_frame as frame

    return frame(logs, runs=runs, progress=progress)


def runs_frame(logs: Logs) -> pd.DataFrame:
    """One row per log of our tasks under `logs`: header, settings and the log's own metrics.

    Args:
        logs: log files or folders.

    Returns:
        The run frame: a display label (`run`), the log, task, model, protocol, settings, the
        decided epochs reducer and every metric of the log.
    """
    from inspect_sparc.report.read.runs import runs_frame as frame

    return frame(logs)


def build_report(
    logs: Logs,
    out_dir: str | Path = "sparc-report",
    *,
    published: bool = True,
    rescore: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
) -> Report:
    """Write the page (`index.html`), `figures/` and `tables/` for `logs` to `out_dir`.

    Args:
        logs: log files or folders.
        out_dir: the folder to write to (made if missing).
        published: show the papers' published results beside the runs.
        rescore: score logged answers again with the installed scorers first.
        progress: called as `progress(stage, done, total)` while reading and building.

    Returns:
        A `Report`: where it wrote, the run and sample frames, every table and figure, and a
        summary line per log (`index` is None where no log of our tasks was read).

    Raises:
        FileNotFoundError: a path in `logs` does not exist (nothing is written).
    """
    from inspect_sparc.report.build import build_report as build

    return build(logs, out_dir, published=published, rescore=rescore, progress=progress)


#: `Report` imported on first use (the build module loads pandas).
__getattr__ = lazy_exports(__name__, {"Report": "inspect_sparc.report.build"})
