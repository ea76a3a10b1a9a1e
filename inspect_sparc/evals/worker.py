"""One worker thread for scoring work that would stall the event loop (encoding an answer
picture takes about 3 ms, without the GIL; its drawing, which holds the GIL, stays inline).

One thread, not anyio's pool: on Python's GIL many threads only take turns, and handing work
to a pool of up to 40 threads costs far more than handing it to one
(`benchmarks/bench_worker.py`, figures in docs/benchmarks.md). Under asyncio (Inspect's default)
work goes to that thread; under another backend (trio) to anyio's threads.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

Result = TypeVar("Result")

_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """The package's one worker thread, started on first use."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="inspect_sparc")
        return _POOL


async def in_worker(work: Callable[..., Result], *args: object) -> Result:
    """`work(*args)` in the worker thread, awaited without blocking the event loop.

    Args:
        work: the blocking function to call.
        *args: its positional arguments.

    Returns:
        What `work` returned (what it raised is raised here)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # not asyncio: anyio's worker threads
        import anyio.to_thread

        return await anyio.to_thread.run_sync(work, *args)
    return await loop.run_in_executor(_pool(), functools.partial(work, *args))
