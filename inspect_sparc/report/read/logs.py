"""Finding and opening logs: every log under the paths given, each one's header (never its
samples), and in words why a file could not be read (not a log at all, or where it stops).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_sparc import TASK_MODULES

if TYPE_CHECKING:  # pragma: no cover
    from inspect_ai.log import EvalLog

#: The tasks this report knows, by registry name without the package prefix (the package's
#: exported tasks: one list, so a new task reaches the report without a second edit).
TASKS = tuple(TASK_MODULES)


@dataclass
class LogEntry:
    """One log file found under the paths given, with what its header said (or why not)."""

    path: str
    task: str | None = None
    header: EvalLog | None = None
    problem: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ours(self) -> bool:
        """True for a readable log of one of our tasks.

        Returns:
            Whether the header was read and its `eval.task` (without the package prefix) is one of
            `TASKS`."""
        return self.header is not None and self.task in TASKS


def short_task(name: str) -> str:
    """`inspect_sparc/sparc_gym` -> `sparc_gym` (other packages' names are left as they are).

    Args:
        name: a registry name as a log's `eval.task` or a scorer's name holds it, with or
            without the `inspect_sparc/` prefix.

    Returns:
        The name without the package prefix; another package's name whole."""
    prefix, _, rest = name.rpartition("/")
    return rest if prefix in ("inspect_sparc", "") else name


def find_logs(paths: str | Path | Iterable[str | Path]) -> tuple[list[str], list[str]]:
    """Every log file under `paths` (files or folders, recursive), and one line per path that
    held none. Uses Inspect's own listing, so it finds what `inspect view` finds.

    Args:
        paths: a log file or folder, or several; a file is taken as a log whatever its name.

    Returns:
        (the log paths, each file once however many paths reach it, in the order given and
        sorted within a folder; one line per path that does not exist or holds no log)."""
    from inspect_ai.log import list_eval_logs

    if isinstance(paths, str | Path):
        paths = [paths]
    found: list[str] = []
    problems: list[str] = []
    seen: set[str] = set()

    def add(name: str) -> None:
        # one log reached by two paths (a folder and a file in it, `a/../a`) is read once
        key = os.path.realpath(name)
        if key not in seen:
            seen.add(key)
            found.append(name)

    for raw in paths:
        path = Path(raw)
        if path.is_file():
            add(str(path))
            continue
        if not path.exists():
            problems.append(f"{raw}: no such file or folder")
            continue
        logs = [info.name.removeprefix("file://") for info in list_eval_logs(str(path))]
        if not logs:
            problems.append(f"{raw}: no Inspect logs found")
        for log in sorted(logs):
            add(log)
    return found, problems


def read_headers(
    paths: str | Path | Iterable[str | Path],
    progress: Callable[[int, int], None] | None = None,
) -> tuple[list[LogEntry], list[str]]:
    """Each log's header (never its samples), or the reason it cannot be read, and the lines
    for paths that held no logs. A bad log becomes a `problem`, never an exception.

    Args:
        paths: log files or folders, as `find_logs` takes them.
        progress: called after each log with (logs read, logs found), or None.

    Returns:
        (one `LogEntry` per log found, with its `header` where it is readable and one of our
        tasks (its `eval.task`), a `problem` otherwise, and `notes` for a run whose `status` is
        not "success" or whose `eval.task_version` is older; the lines of `find_logs`)."""
    from inspect_ai.log import read_eval_log

    files, problems = find_logs(paths)
    entries: list[LogEntry] = []
    for i, path in enumerate(files):
        entry = LogEntry(path)
        try:
            header = read_eval_log(path, header_only=True)
        except Exception:  # noqa: BLE001 - any unreadable log is reported, not raised
            entry.problem = unreadable_reason(path)
        else:
            entry.task = short_task(header.eval.task)
            if entry.task not in TASKS:
                entry.problem = f"not one of our tasks ({header.eval.task}): skipped"
            else:
                entry.header = header
                if header.status != "success":
                    entry.notes.append(failure_note(header))
        entries.append(entry)
        if progress:
            progress(i + 1, len(files))
    mark_old_versions(entries)
    return entries, problems


def failure_note(header: EvalLog) -> str:
    """Why a run is incomplete: its status and the first line of Inspect's error.

    Args:
        header: the log's header (`status`: "started", "error", "cancelled"; `error.message`:
            Inspect's error, if any).

    Returns:
        "<status>: <first line of the error>", or "<status>: incomplete" without a message."""
    error = getattr(header, "error", None)
    message = (getattr(error, "message", None) or "").strip()
    if message:
        return f"{header.status}: {message.splitlines()[0]}"
    return f"{header.status}: incomplete"


#: How a zip (.eval) and a JSON (.json) Inspect log begin.
ZIP_MAGIC = b"PK\x03\x04"
#: A zip's local entry header: signature, then the name's length at byte 26.
ZIP_NAME_AT = 26


def unreadable_reason(path: str) -> str:
    """Why Inspect could not read a log's header, in words: not a log at all, or a log that
    stops early (and where).

    Args:
        path: the log file Inspect failed on.

    Returns:
        One line: the file cannot be opened, a truncated .eval (`zip_stop`), a truncated or
        damaged JSON log with the line, column and byte it stops at, or "not an Inspect log"."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        return f"unreadable: {error.strerror or type(error).__name__}"
    if data.startswith(ZIP_MAGIC):
        return zip_stop(data)
    if data.lstrip()[:1] == b"{":
        try:
            json.loads(data)
        except ValueError as error:
            line, col = getattr(error, "lineno", "?"), getattr(error, "colno", "?")
            return (
                f"truncated or damaged JSON log: it stops at line {line}, column {col} "
                f"(byte {getattr(error, 'pos', len(data))} of {len(data)})"
            )
    return "not an Inspect log: no header"


def zip_stop(data: bytes) -> str:
    """Where a damaged .eval log stops: its size and the last entry it began.

    Args:
        data: the whole file's bytes (starting with a zip entry's signature).

    Returns:
        One line with the byte the file stops at, how many zip entries it began and the name
        of the last (e.g. `samples/12_epoch_1.json`)."""
    names = []
    at = data.find(ZIP_MAGIC)
    while at >= 0 and at + ZIP_NAME_AT + 4 <= len(data):
        size = int.from_bytes(data[at + ZIP_NAME_AT : at + ZIP_NAME_AT + 2], "little")
        start = at + ZIP_NAME_AT + 4
        names.append(data[start : start + size].decode("utf-8", "replace"))
        at = data.find(ZIP_MAGIC, start + size)
    last = f", in or after entry {names[-1]!r}" if names else ""
    return (
        f"truncated .eval log: it stops at byte {len(data)} with no zip directory "
        f"({len(names)} entries begun{last})"
    )


def version_order(version: str) -> tuple[tuple[int, int, str], ...]:
    """A task version's place among its task's versions: its parts split at `-` and `.`, a
    number by value (so 10 comes after 9) and a letter run by length, then text (so Z comes
    before AA), a number before a letter run.

    Args:
        version: the log header's `eval.task_version`, as text ("1-G", "2", "0-A").

    Returns:
        The sort key; a later version's is larger."""
    import re

    return tuple(
        (0, int(part), "") if part.isdigit() else (1, len(part), part)
        for part in re.split(r"[-.]", version)
    )


def mark_old_versions(entries: list[LogEntry]) -> None:
    """Note logs written by an older task version than the newest here (their score keys or
    metrics may differ; `--rescore` scores their answers with the installed scorer).

    Args:
        entries: the entries `read_headers` made; each readable one of ours whose header's
            `eval.task_version` is not the newest of its task here (`version_order`) gets a
            note in its `notes`, in place."""
    newest: dict[str, str] = {}
    ours = [
        (e, str(e.task), str(e.header.eval.task_version)) for e in entries if e.header and e.ours
    ]
    for _, task, version in ours:
        newest[task] = max(newest.get(task, version), version, key=version_order)
    for entry, task, version in ours:
        if version_order(version) < version_order(newest[task]):
            entry.notes.append(f"older task version {version} (newest here {newest[task]})")
