"""What every script under benchmarks/ shares on its command line: `--help` (its docstring),
a check of what it needs before any work (one line naming the install), and a failure shown as
one line (`BENCH_TRACEBACK=1` shows the traceback instead); and `best_of`, the timing the speed
benchmarks report.

Not a script itself: the others import it (Python puts a script's folder on its path).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def arguments(
    doc: str | None, add: Callable[[argparse.ArgumentParser], None] | None = None
) -> argparse.Namespace:
    """The script's arguments, with `--help` printing `doc` (the script's docstring)."""
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    if add is not None:
        add(parser)
    return parser.parse_args()


def needs(*modules: str, install: str = 'pip install -e ".[dev]"') -> None:
    """Stop with one line when a module the script imports is not installed."""
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        fail(f"needs {', '.join(missing)}, which is not installed: {install}")


def fail(message: str) -> None:
    """Stop the script with `message` as one line on stderr, exit status 1."""
    sys.exit(f"{Path(sys.argv[0]).name}: {' '.join(message.split())}")


def run_main(main: Callable[..., Any], *args: Any) -> None:
    """Call `main(*args)`; an error ends the script as one line (its type and message)."""
    try:
        result = main(*args)
    except Exception as error:
        if os.environ.get("BENCH_TRACEBACK"):
            raise
        fail(f"{type(error).__name__}: {error} (BENCH_TRACEBACK=1 shows where)")
    else:
        sys.exit(result if isinstance(result, int) else 0)


def best_of(runs: int, work: Callable[[], int]) -> tuple[float, int]:
    """The shortest wall time of `work()` over `runs` runs (the machine may be shared: the
    fastest run is the one least disturbed), and the count the last run reported.

    Args:
        runs: how many times to run `work`.
        work: the timed work; returns how many items (steps, completions) it handled.

    Returns:
        The shortest time in seconds, and `work()`'s count."""
    best, count = float("inf"), 0
    for _ in range(runs):
        started = time.perf_counter()
        count = work()
        best = min(best, time.perf_counter() - started)
    return best, count
