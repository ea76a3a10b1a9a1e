"""What handing scoring work to threads costs the event loop: inline, anyio's pool, one thread.

    python benchmarks/bench_worker.py [--tasks 500] [--runs 5]

Runs `--tasks` coroutines at once, each doing about 0.5 ms of pure-Python work (as scoring an
answer does) inline, through `anyio.to_thread.run_sync` (a pool of up to 40 threads), through
`asyncio.to_thread` and through `inspect_sparc.evals.worker.in_worker` (one thread), and prints
wall and CPU seconds (best of `--runs`) with their ratio to inline; asserts nothing. Threads
only take turns on the GIL for such work: what is worth handing over is work that releases it
(the WebP encoder), and then with as little handing-over cost as possible.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable


def work() -> int:
    """About 0.5 ms of pure Python."""
    total = 0
    for i in range(20_000):
        total += i
    return total


def runners() -> dict[str, Callable[[], Awaitable[int]]]:
    """Each way of running `work` from a coroutine."""
    import anyio.to_thread

    from inspect_sparc.evals.worker import in_worker

    async def inline() -> int:
        return work()

    return {
        "inline": inline,
        "anyio.to_thread": lambda: anyio.to_thread.run_sync(work),
        "asyncio.to_thread": lambda: asyncio.to_thread(work),
        "in_worker (one thread)": lambda: in_worker(work),
    }


async def timed(run: Callable[[], Awaitable[int]], tasks: int) -> tuple[float, float]:
    """Wall and CPU seconds of `tasks` runs at once."""
    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*[run() for _ in range(tasks)])
    return time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ways = runners()
    best: dict[str, tuple[float, float]] = {}
    for _ in range(args.runs):
        for name, run in ways.items():
            wall, cpu = asyncio.run(timed(run, args.tasks))
            old = best.get(name, (wall, cpu))
            best[name] = (min(old[0], wall), min(old[1], cpu))
    base_wall, base_cpu = best["inline"]
    print(f"{args.tasks} tasks of 0.5 ms each, best of {args.runs}")
    for name, (wall, cpu) in best.items():
        print(f"  {name:24s} wall {wall:6.3f} s {wall / base_wall:5.2f}x"
              f"   CPU {cpu:6.3f} s {cpu / base_cpu:5.2f}x")  # fmt: skip


if __name__ == "__main__":
    from command_line import run_main  # the sibling helper (a script's folder is on its path)

    run_main(main)
