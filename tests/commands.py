"""Running commands in a test: several at once (each is mostly start-up or waiting: Inspect's
import, the package registry; starting them together costs about the slowest one), or one
documented `python ...` line from the repository root."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

Key = TypeVar("Key")
ROOT = Path(__file__).resolve().parents[1]


def run_together(
    commands: Mapping[Key, tuple[Sequence[str], Mapping[str, Any]]], timeout: float
) -> dict[Key, subprocess.CompletedProcess[str]]:
    """Start every `(argv, Popen keywords)` of `commands`, then wait for each (at most
    `timeout` seconds) and return its finished process, output captured as text, by key."""
    started = {
        key: subprocess.Popen(
            list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options
        )
        for key, (argv, options) in commands.items()
    }
    done = {}
    for key, process in started.items():
        stdout, stderr = process.communicate(timeout=timeout)
        done[key] = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    return done


def run_python(
    arguments: Sequence[str], cache: Path, timeout: float
) -> subprocess.CompletedProcess[str]:
    """`python ARGUMENTS` (this interpreter) from the repository root, as the docs' command
    lines run, with the package's cache in `cache` (a test's own folder); output captured as
    text, finished within `timeout` seconds."""
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "INSPECT_SPARC_CACHE_DIR": str(cache)},
    )
