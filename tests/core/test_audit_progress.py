"""`python -m inspect_sparc.audit` shows a progress bar (counts, elapsed, time left) on a
terminal, and none when its stderr is piped or written to a file."""

from __future__ import annotations

import os
import pty
import subprocess
import sys

#: The compiled engine's one-time notice when numba's disk cache is cold (fresh clone, CI).
COMPILING = "compiling the search engine with numba"
COMMAND = [sys.executable, "-m", "inspect_sparc.audit", "--source", "sample", "--limit", "3"]


def test_no_bar_when_piped() -> None:
    result = subprocess.run(COMMAND, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    # nothing but the one-time notice of the compiled engine's first build (a cold numba cache)
    others = [line for line in result.stderr.splitlines() if not line.startswith(COMPILING)]
    assert others == [], result.stderr
    assert "3 puzzle(s): 3 match, 0 mismatch" in result.stdout


def test_a_bar_with_counts_on_a_terminal() -> None:
    """stderr on a pseudo-terminal: the bar is drawn there (and cleared at the end); the table
    still goes to stdout."""
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            COMMAND,
            stdout=subprocess.PIPE,
            stderr=follower,
            env={**os.environ, "TERM": "xterm", "COLUMNS": "100"},
        )
        os.close(follower)
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            drawn += chunk
        stdout, _ = process.communicate(timeout=120)
    finally:
        os.close(leader)
    assert process.returncode == 0
    text = drawn.decode(errors="replace")
    assert "auditing" in text and "3/3" in text and "elapsed," in text and "left" in text, text
    assert b"auditing" not in stdout
