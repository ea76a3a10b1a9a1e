"""Entries of the package cache built once: a file lock while one process builds an entry
(others wait, then read it), and the entry written whole or not at all."""

from __future__ import annotations

import contextlib
import os
import sys
from contextlib import AbstractContextManager
from pathlib import Path


def building_lock(path: Path, waiting: str) -> AbstractContextManager[object]:
    """The lock one process holds while it builds the entry at `path`, already acquired.

    Args:
        path: the cache entry; the lock is the file beside it named `<path>.lock`.
        waiting: the line printed on stderr when another process holds the lock.

    Returns:
        The acquired lock (a context manager releasing it on leaving `with`), or a no-op
        context where the cache cannot be written (each process then builds the entry)."""
    from filelock import FileLock, Timeout

    lock = FileLock(str(path) + ".lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return lock.acquire(timeout=0)  # a proxy that releases it on leaving `with`
        except Timeout:
            print(waiting, file=sys.stderr)
            return lock.acquire()
    except OSError:  # an unwritable cache (the lock file cannot be made): build here, cache nothing
        return contextlib.nullcontext()


def write_entry(path: Path, text: str, what: str) -> None:
    """Write a cache entry whole (a partial file renamed into place), or say on stderr why not.

    Args:
        path: the cache entry.
        text: its content (UTF-8).
        what: what the entry holds, for the line on stderr when it cannot be written."""
    try:
        partial = path.with_name(path.name + f".{os.getpid()}.partial")
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except OSError as error:  # an unwritable cache costs a rebuild next time, not this run
        print(f"Could not cache {what} in {path}: {error}", file=sys.stderr)
