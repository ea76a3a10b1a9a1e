"""Time and memory of a report over 20 logs of 500 samples (the issue's bar: 30 s on 2 cores,
never every sample in memory). Logs are real logs of every task but the visual one, written
offline, their samples repeated under new ids to 500 (every puzzle new: the worst case).

    python benchmarks/bench_report.py [WORKDIR]   # logs are written once per WORKDIR

Needs the report's and the tests' packages: pip install -e ".[dev]"
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path
from uuid import uuid4

from command_line import arguments, needs, run_main

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "report"))

SAMPLES = 500
LOGS = 20


def grow(log, n: int):
    """`log` with its samples repeated under new ids up to `n` (metrics kept as logged)."""
    samples = []
    while len(samples) < n:
        for sample in log.samples:
            if len(samples) == n:
                break
            copy = sample.model_copy(deep=True)
            copy.id = f"{sample.id}-{len(samples)}"
            copy.uuid = uuid4().hex  # a sample of its own (readers key samples by uuid)
            samples.append(copy)
    big = log.model_copy(deep=True)
    big.eval.eval_id = uuid4().hex  # a log of its own, as every real eval is
    big.samples = samples
    big.results.total_samples = big.results.completed_samples = n
    return big


def main(work: Path) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log
    from make_logs import write_logs

    from inspect_sparc.report import build_report

    seed_dir, log_dir = work / "seed", work / "logs"
    if len(list(log_dir.glob("run*.eval"))) != LOGS:  # written once per work folder
        print(f"writing {LOGS} logs of {SAMPLES} samples into {log_dir} (once per folder)...")
        seeds = [read_eval_log(log.location) for log in write_logs(seed_dir, visual=False)]
        for i in range(LOGS):
            big = grow(seeds[i % len(seeds)], SAMPLES)
            write_eval_log(big, str(log_dir / f"run{i:02d}.eval"))
    size = sum(p.stat().st_size for p in log_dir.glob("*.eval")) / 2**20
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"building the report of {log_dir} ...")
    start = time.perf_counter()
    report = build_report(log_dir, work / "report")
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    import os

    load = os.getloadavg()[0]
    pairs = len(report.tables.get("paired", ()))
    print(
        f"{LOGS} logs x {SAMPLES} samples ({len(report.samples)} rows, {size:.0f} MiB of logs, "
        f"{pairs} paired comparisons): report in {seconds:.1f} s (bar: 30 s, ratio "
        f"{seconds / 30:.2f}); peak RSS {before:.0f} -> {after:.0f} MiB; "
        f"{os.cpu_count()} CPUs, load average {load:.1f} at the end"
    )
    print(f"report written to {work / 'report' / 'index.html'}")


if __name__ == "__main__":
    options = arguments(
        __doc__,
        lambda p: p.add_argument(
            "workdir",
            nargs="?",
            type=Path,
            help="where logs and report go (default: a new temp folder)",
        ),
    )
    needs("matplotlib", "jinja2", "pandas", "scipy", install='pip install -e ".[dev]"')
    run_main(main, options.workdir or Path(tempfile.mkdtemp()))
