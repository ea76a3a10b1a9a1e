"""Running several commands at once in a test: each is mostly start-up or waiting (Inspect's
import, the package registry), so starting them together costs about the slowest one."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

Key = TypeVar("Key")


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
