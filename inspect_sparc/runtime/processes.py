"""Worker processes: a pool where one can run, this process (saying why) where it cannot.

A pool cannot run in a daemon process (a pool worker, SB3's `SubprocVecEnv`, a PyTorch
DataLoader worker), nor from a script's top level outside `if __name__ == "__main__":` (each
spawned worker re-imports the main script, which would start pools forever). `pool_blocker`
tells both apart by the process's flags and, for the script, by the main thread's stack and
the script's syntax tree.
"""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

__all__ = ["ordered_map", "pool_blocker", "workers_for"]

Job = TypeVar("Job")
Result = TypeVar("Result")


def ordered_map(
    function: Callable[[Job], Result], jobs: Sequence[Job], workers: int, doing: str
) -> Iterator[Result]:
    """`function(job)` for each job, in order, from up to `workers` spawned processes; in this
    process where a pool cannot run, saying so on stderr once (`doing` names the work there).
    `function` must be a module-level function (the workers import it by name).

    Args:
        function: the module-level function to apply.
        jobs: its arguments, one per call.
        workers: the most processes to use (1: this process).
        doing: what the work is, for the line said when a pool cannot run.

    Returns:
        The results, in the order of `jobs`, as they are ready."""
    blocker = pool_blocker() if workers > 1 and len(jobs) > 1 else None
    if blocker is not None:
        print(f"{doing} in this process, not {workers}: {blocker}.", file=sys.stderr)
    if workers == 1 or len(jobs) <= 1 or blocker is not None:
        yield from map(function, jobs)
        return
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(min(workers, len(jobs))) as pool:
        yield from pool.imap(function, jobs, chunksize=1)


def workers_for(n: int, variable: str) -> int:
    """Processes for `n` jobs: the environment variable's count, else one per 50 jobs (a
    process costs an import), at most 8 and the CPU count.

    Args:
        n: the number of jobs.
        variable: the environment variable that sets the count (a whole number >= 1).

    Returns:
        The number of worker processes, at least 1; a bad value of `variable` raises
        ValueError naming it."""
    text = os.environ.get(variable, "").strip()
    if text:
        if not text.isdecimal() or int(text) < 1:
            raise ValueError(f"{variable} must be a whole number >= 1; got {text!r}")
        return int(text)
    return max(1, min(8, os.cpu_count() or 1, n // 50))


def pool_blocker() -> str | None:
    """Why this process cannot start a pool of worker processes, or None when it can.

    Returns:
        The reason (a daemon process, or an unguarded main script and its line), or None."""
    import multiprocessing

    process = multiprocessing.current_process()
    if process.daemon:
        return "this is a daemon process (a pool or vector-env worker), which may not have children"
    if getattr(process, "_inheriting", False):
        return "this process is a worker still importing its main script"
    line = _main_script_line()
    if line is not None and not _guarded(line):
        return (
            "it is called from the main script's top level, outside `if __name__ == "
            '"__main__":`, which each worker process would run again'
        )
    return None


def _main_script_line() -> tuple[str, int] | None:
    """(file, line) of the main script's top-level statement running now; None when the main
    module is no file a worker would re-import (an interactive session, `python -c`)."""
    import threading

    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or not isinstance(path, str):
        return None
    # the main thread's stack: a task may build its dataset in another thread
    frame = sys._current_frames().get(threading.main_thread().ident or 0)
    while frame is not None:
        if frame.f_globals is vars(main) and frame.f_code.co_name == "<module>":
            return (path, frame.f_lineno)
        frame = frame.f_back
    return None


def _guarded(line: tuple[str, int]) -> bool:
    """Whether a line of a script lies inside a top-level `if __name__ == "__main__":` block
    (False when the script cannot be read and parsed: a pool would then be a gamble)."""
    path, number = line
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return False
    for node in tree.body:
        end = node.end_lineno or node.lineno
        if node.lineno <= number <= end:
            return isinstance(node, ast.If) and _is_main_test(node.test) and number > node.lineno
    return False


def _is_main_test(test: ast.expr) -> bool:
    """`__name__ == "__main__"` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    sides = [test.left, *test.comparators]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    texts = [s.value for s in sides if isinstance(s, ast.Constant)]
    return isinstance(test.ops[0], ast.Eq) and names == ["__name__"] and texts == ["__main__"]
