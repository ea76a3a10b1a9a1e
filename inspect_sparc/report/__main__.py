"""`python -m inspect_sparc.report LOGS... [--out DIR] [--no-published] [--rescore]`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from rich.table import Table


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line: log files or folders, where to write, what to show.

    Args:
        argv: the arguments after the program name, or None for `sys.argv[1:]`.

    Returns:
        `logs` (a list of paths), `out` (the output folder), `no_published` and `rescore`."""
    parser = argparse.ArgumentParser(
        prog="python -m inspect_sparc.report",
        description="Tables and figures from Inspect logs of the SPaRC and AlgoPuzzleVQA tasks, "
        "with the published results beside them.",
    )
    parser.add_argument("logs", nargs="+", help="log files or folders (searched recursively)")
    parser.add_argument(
        "--out", default="sparc-report", help="output folder (default: %(default)s)"
    )
    parser.add_argument(
        "--no-published", action="store_true", help="hide the papers' published results"
    )
    parser.add_argument(
        "--rescore",
        action="store_true",
        help="score the logged answers with the installed scorer (for logs of older versions)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Build the report with a progress bar, print the summary table; 1 if nothing was read.

    Args:
        argv: the arguments after the program name, or None for `sys.argv[1:]`.

    Returns:
        The exit status: 0 with at least one run read, 1 with none, 2 where a package the
        report needs is missing or a path in the arguments does not exist."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeRemainingColumn,
    )

    from inspect_sparc.report.build import build_report

    args = parse_args(argv)
    console = Console(stderr=False, width=max(WIDTH, Console().width))
    needed = ("matplotlib", "jinja2", "pandas", "scipy")
    missing = [name for name in needed if not _importable(name)]
    if missing:
        console.print(
            f"The report needs {', '.join(missing)}: pip install {', '.join(missing)} "
            "(from a checkout: pip install -e '.[report]')",
            markup=False,
        )
        return 2
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    # a bar with counts and the time left on a terminal; nothing in a pipe or a log file
    with Progress(
        *columns, console=console, transient=True, disable=not console.is_terminal
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(STAGES.get(stage, stage), total=total)
            bar.update(tasks[stage], completed=done)

        try:
            report = build_report(
                args.logs,
                args.out,
                published=not args.no_published,
                rescore=args.rescore,
                progress=progress,
            )
        except FileNotFoundError as error:
            console.print(f"{error}; no report written", markup=False, soft_wrap=True)
            return 2
    results = report.tables.get("results")
    if results is not None and len(results):
        console.print(summary_table(results, console.width), markup=False)
    for line in report.summary:
        if line["problem"] or "older task version" in line["text"]:
            console.print(f"[!] {line['path']}: {line['text']}", markup=False, highlight=False)
    others = sum(1 for line in report.summary if "not one of our tasks" in line["text"])
    if others:
        console.print(f"{others} log(s) of other tasks skipped.", markup=False)
    if report.index is not None:
        console.print(f"Wrote {report.index}", markup=False, soft_wrap=True)
    else:
        console.print("No log of these tasks was read: no report written.", markup=False)
    return 0 if len(report.runs) else 1


#: What each stage of `build_report` is called on the progress bar.
STAGES = {
    "headers": "reading headers",
    "samples": "reading samples",
    "sections": "building sections",
    "page": "writing the page",
}

#: The summary's narrowest width: it fits an 80-column terminal (a wider one is used whole).
WIDTH = 80


def summary_table(results: Any, width: int = WIDTH) -> Table:
    """The runs as a table `width` columns wide (at least 80), most accurate first: labels
    without what every run shares (`distinct_labels`), wrapped between words where they are
    longer than the room left, never cut inside a word; numbers never split; `vs pub` (the
    accuracy minus the published one of the same model, points) where any run has one.

    Args:
        results: the report's results table (`run`, `status`, `n`, `accuracy`, `ci95_low`,
            `ci95_high`, `level_1` ... `level_5` in percent; `vs_published`,
            `estimated_from` where present).
        width: the terminal's width in characters.

    Returns:
        A `rich.table.Table`; an unfinished run's row in yellow."""
    from rich.table import Table

    from inspect_sparc.report.render.figures import distinct_labels

    compared = "vs_published" in results and results["vs_published"].notna().any()
    headers = ("n", "acc", "95% CI", *(["vs pub"] if compared else []), "L1", "L2", "L3")
    headers += ("L4", "L5")
    width = max(width, WIDTH)
    table = Table(title="Runs", show_lines=False, width=width, padding=(0, 1), box=None)
    table.add_column("run", overflow="fold", ratio=1)
    for column in headers:
        table.add_column(column, no_wrap=True, justify="right")
    ordered = results.sort_values("accuracy", ascending=False, kind="stable", na_position="last")
    rows = [
        [
            _text(row["n"], "{:.0f}"),
            _text(row["accuracy"]),
            _interval(row["ci95_low"], row["ci95_high"]),
            *([_signed(row["vs_published"])] if compared else []),
            *[_text(row[f"level_{lv}"], "{:.0f}") for lv in range(1, 6)],
        ]
        for _, row in ordered.iterrows()
    ]
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]
    room = max(width - sum(w + 2 for w in widths) - 2, 12)  # each column padded a side
    names = distinct_labels([str(r) for r in ordered["run"]])
    if "estimated_from" in ordered:  # a run on a shipped subset: its numbers are estimates
        names = [
            f"{name} [split estimate from {source}]" if isinstance(source, str) and source else name
            for name, source in zip(names, ordered["estimated_from"], strict=True)
        ]
    labels = [wrap_label(label, room) for label in names]  # between words, never inside one
    for label, cells, status in zip(labels, rows, ordered["status"], strict=True):
        table.add_row(label, *cells, style=None if status == "success" else "yellow")
    return table


def wrap_label(label: str, room: int) -> str:
    """`label` in lines of at most `room` characters, broken only after a space, a hyphen or a
    slash (a piece longer than `room` keeps a line of its own, whole).

    Args:
        label: the run's label.
        room: the column's width in characters.

    Returns:
        The label with newlines between its lines (trailing spaces dropped)."""
    import re

    lines = [""]
    for piece in re.split(r"(?<=[-/ ])", label):
        if lines[-1] and len(lines[-1]) + len(piece.rstrip()) > room:
            lines.append("")
        lines[-1] += piece
    return "\n".join(line.rstrip() for line in lines)


def _importable(name: str) -> bool:
    from importlib.util import find_spec

    return find_spec(name) is not None


def _interval(low: object, high: object) -> str:
    if _text(low) == "-" or _text(high) == "-":
        return "-"
    return f"{_text(low)}-{_text(high)}"


def _signed(value: object) -> str:
    """A difference with its sign (`+1.2`, `-0.4`), and `0.0` where it rounds to none."""
    text = _text(value, "{:+.1f}")
    return "0.0" if text in ("+0.0", "-0.0") else text


def _text(value: object, fmt: str = "{:.1f}") -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "-"
    return fmt.format(value)


if __name__ == "__main__":
    sys.exit(main())
