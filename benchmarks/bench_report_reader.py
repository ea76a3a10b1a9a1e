"""The report's own log reader against Inspect's `inspect_ai.analysis.samples_df` on the same
logs: wall time of each, and the ratio. The report needs, per sample, its scores, metadata and
usage (what sample summaries hold) and, once per puzzle, the puzzle record (rule kinds, grid
hash, baselines), which summaries leave out.

    python benchmarks/bench_report_reader.py LOG_DIR   # e.g. the logs bench_report.py wrote

Three readers are timed, each once after the others have warmed the file cache:
- `report`: `runs_frame` + `samples_frame` (summaries, plus the full sample of each puzzle
  not seen before, and the baselines computed once per puzzle);
- `samples_df`: Inspect's data frame of the same summaries (no puzzle record);
- `samples_df full`: Inspect's data frame of the full samples (messages and events excluded),
  the way to get the puzzle records through it.

Needs the report extra: pip install -e ".[report]"
"""

from __future__ import annotations

import time
from pathlib import Path

from command_line import arguments, fail, needs, run_main


def timed(label: str, run) -> float:
    start = time.perf_counter()
    rows = len(run())
    seconds = time.perf_counter() - start
    print(f"{label:16s} {seconds:6.1f} s  ({rows} rows)")
    return seconds


def main(log_dir: Path) -> None:
    from inspect_ai.analysis import samples_df

    from inspect_sparc.report.read.runs import runs_frame
    from inspect_sparc.report.read.samples import samples_frame

    logs = sorted(str(p) for p in log_dir.glob("*.eval"))
    samples_df(logs[:1], quiet=True)  # imports and file cache warm for every reader

    def ours():
        return samples_frame(logs, runs_frame(logs))

    def theirs():
        return samples_df(logs, quiet=True)

    def theirs_full():
        return samples_df(
            logs, full=True, quiet=True, exclude_fields={"messages", "events", "attachments"}
        )

    report = timed("report", ours)
    summaries = timed("samples_df", theirs)
    full = timed("samples_df full", theirs_full)
    print(
        f"{len(logs)} logs: report / samples_df = {report / summaries:.2f}; "
        f"report / samples_df full = {report / full:.2f}"
    )


if __name__ == "__main__":
    options = arguments(
        __doc__, lambda p: p.add_argument("log_dir", type=Path, help="a folder of .eval logs")
    )
    needs("pandas", install='pip install -e ".[report]"')
    if not list(options.log_dir.glob("*.eval")):
        fail(f"no .eval log in {options.log_dir}")
    run_main(main, options.log_dir)
