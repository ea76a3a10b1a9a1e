"""Logs -> page, figures and tables: read headers, stream samples, draw, write, summarise."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import scores as K
from inspect_sparc.report.analysis.split import with_split_estimates
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.logs import LogEntry, read_headers
from inspect_sparc.report.read.runs import runs_frame
from inspect_sparc.report.read.samples import samples_frame

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

Progress = Callable[[str, int, int], None]


@dataclass
class Report:
    """What `build_report` wrote and read: paths, the frames, and one summary line per log."""

    out_dir: Path
    index: Path | None
    runs: pd.DataFrame
    samples: pd.DataFrame
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    figures: dict[str, Path] = field(default_factory=dict)
    summary: list[dict[str, Any]] = field(default_factory=list)


def summary_lines(
    entries: list[LogEntry], problems: list[str], runs: pd.DataFrame, samples: pd.DataFrame
) -> list[dict[str, Any]]:
    """One line per path without logs and per log: what it is, or why it was left out.

    Args:
        entries: each log's header (`read.logs.read_headers`).
        problems: `path: why` for each path that gave no log.
        runs: the runs frame.
        samples: the samples frame.

    Returns:
        one dict per line: `path`, `text` and `problem` (True where it was left out, failed or did
        not finish).
    """
    lines = []
    for problem in problems:
        path, _, text = problem.partition(": ")
        lines.append({"path": path, "text": text, "problem": True})
    by_log = {row[C.LOG]: row for row in runs.to_dict("records")} if len(runs) else {}
    counts = samples.groupby(C.LOG).size().to_dict() if len(samples) else {}
    for entry in entries:
        if entry.problem:
            lines.append({"path": entry.path, "text": entry.problem, "problem": True})
            continue
        run = by_log.get(entry.path)
        if run is None:
            continue
        held = counts.get(entry.path, run.get("samples"))
        acc = run.get(K.ACCURACY)
        text = f"{run['run']} ({run['task']} {run['task_version']}), {held} samples"
        if acc is not None and acc == acc:
            text += f", accuracy {100 * acc:.1f}%"
            own = run.get(K.SUBSET_ACCURACY)
            if own is not None and own == own:  # a shipped subset: the split's estimate
                text += (
                    f" (estimate for the whole split; {100 * own:.1f}% on the puzzles of "
                    f"{run.get('puzzles')} alone)"
                )
        if run.get("notes"):
            text += f"; {run['notes']}"
        lines.append({"path": entry.path, "text": text, "problem": not run["complete"]})
    return lines


def build_report(
    logs: str | Path | Iterable[str | Path],
    out_dir: str | Path = "sparc-report",
    *,
    published: bool = True,
    rescore: bool = False,
    progress: Progress | None = None,
) -> Report:
    """Read every log of our tasks under `logs` and write `index.html`, `figures/` and
    `tables/` to `out_dir` (the sections `contents.SECTIONS` lists, in order), telling
    `progress(stage, done, total)` how far reading and building are. Never raises on
    a bad log: it becomes a summary line; where no log of our tasks was read, nothing is
    written (`index` is None).

    Args:
        logs: a log file or folder (searched recursively), or several.
        out_dir: where the page, `figures/` and `tables/` are written.
        published: show the papers' published results beside the runs.
        rescore: score the logged answers with the installed scorers (logs of older versions).
        progress: called with (stage, done, total) as the build goes; None for silence.

    Returns:
        what was written and read (`Report`).
    """
    from inspect_sparc.report.contents import build_sections
    from inspect_sparc.report.context import Context
    from inspect_sparc.report.render.page import render_page

    missing = missing_paths(logs)
    if missing:  # a mistyped path writes no report (nothing half-done to mistake for one)
        raise FileNotFoundError(f"no such file or folder: {', '.join(missing)}")
    out = Path(out_dir)
    entries, problems = read_entries(logs, out, rescore, progress)
    runs = runs_frame(entries) if any(e.ours for e in entries) else runs_frame([])
    samples = samples_frame(
        entries,
        runs=runs,
        progress=(lambda i, n: progress("samples", i, n)) if progress else None,
        problems=problems,
    )
    if len(runs) and len(samples):
        _fill_incomplete_counts(runs, samples)
        problems += count_problems(runs, samples)
        # a run on a shipped subset: its accuracy and levels read as the whole split's
        runs = with_split_estimates(runs, samples)
    report = Report(out, None, runs, samples)
    report.summary = summary_lines(entries, problems, runs, samples)
    if runs.empty:  # nothing of our tasks was read: no page to mistake for a report
        return report
    ctx = Context(runs, samples, published, out, report.tables, report.figures)
    sections = build_sections(
        ctx, progress=(lambda i, n: progress("sections", i, n)) if progress else None
    )
    if progress:
        progress("page", 0, 1)
    out.mkdir(parents=True, exist_ok=True)
    report.index = out / "index.html"
    page = render_page(
        sections,
        report.summary,
        n_logs=len(entries),
        show_published=published,
        rescored=rescore,
    )
    report.index.write_text(page, encoding="utf-8")
    if progress:
        progress("page", 1, 1)
    return report


def missing_paths(logs: str | Path | Iterable[str | Path]) -> list[str]:
    """The paths given that do not exist.

    Args:
        logs: a path or several.

    Returns:
        those that do not exist, as given.
    """
    paths = [logs] if isinstance(logs, str | Path) else list(logs)
    return [str(p) for p in paths if not Path(p).exists()]


def count_problems(runs: pd.DataFrame, samples: pd.DataFrame) -> list[str]:
    """One line per log whose samples disagree with its metrics (n x accuracy must equal the
    solved count behind every interval); the run is also noted in the results table.

    Args:
        runs: the runs frame (its `notes` get the disagreement).
        samples: the samples frame.

    Returns:
        one `path: why` line per such log.
    """
    from inspect_sparc.report.statistics.rates import check_counts, puzzle_values

    found = check_counts(runs, puzzle_values(samples, [K.CORRECT]), samples)
    for log, why in found.items():
        at = runs[C.LOG] == log
        note = f"counts disagree with the metrics: {why}"
        runs.loc[at, "notes"] = [f"{n}; {note}" if n else note for n in runs.loc[at, "notes"]]
    return [f"{log}: samples disagree with the log's metrics ({why})" for log, why in found.items()]


def read_entries(
    logs: str | Path | Iterable[str | Path], out: Path, rescore: bool, progress: Progress | None
) -> tuple[list[LogEntry], list[str]]:
    """Every log's header (rescored copies with `--rescore`) and the lines for bad paths.

    Args:
        logs: a path or several.
        out: the report's folder (rescored copies go under `rescored/`).
        rescore: rescore each log first.
        progress: called with (`headers`, done, total); None for silence.

    Returns:
        (the logs' headers, `path: why` lines for paths and logs that could not be used).
    """
    entries, problems = read_headers(
        logs, progress=(lambda i, n: progress("headers", i, n)) if progress else None
    )
    if rescore:
        from inspect_sparc.report.read.rescore import rescore_logs

        foreign = [e for e in entries if not e.ours]
        rescored, lines = rescore_logs(entries, out / "rescored")
        entries, _ = read_headers(rescored)
        entries += foreign
        problems += lines
    return entries, problems


def _fill_incomplete_counts(runs: pd.DataFrame, samples: pd.DataFrame) -> None:
    """A cancelled run's header may have no results: count what its samples hold."""
    counts = samples.groupby(C.LOG).size()
    missing = runs["samples"].isna()
    if missing.any():
        runs["samples"] = runs["samples"].astype(object)
        runs.loc[missing, "samples"] = runs.loc[missing, C.LOG].map(counts).astype(object)
