"""Audit SPaRC records: does exhaustive search reproduce each puzzle's stored solution set?

One row per puzzle (stored and found counts, what is missing or extra, the time), a table and a
summary line; `python -m inspect_sparc.audit` is the command line over these. A mismatch means
either our rules differ from the dataset's or the stored set is incomplete. Pure: no Inspect.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from inspect_sparc.core.puzzle.parse import RecordError, parse_puzzle
from inspect_sparc.core.search import solve

HEADER = ("id", "level", "size", "stored", "found", "missing", "extra", "seconds", "status")


@dataclass(frozen=True)
class AuditRow:
    """Outcome for one puzzle."""

    puzzle_id: str
    level: int | None
    size: str
    stored: int
    found: int
    missing: int
    extra: int
    seconds: float
    status: str

    @property
    def ok(self) -> bool:
        """True when search found exactly the stored solutions.

        Returns:
            True for status "ok"; False for a mismatch or a bad record."""
        return self.status == "ok"

    def cells(self) -> tuple[str, ...]:
        """The row as table cells.

        Returns:
            One text per `HEADER` column: the level empty when unknown, seconds to 3 decimals."""
        return (
            self.puzzle_id,
            "" if self.level is None else str(self.level),
            self.size,
            str(self.stored),
            str(self.found),
            str(self.missing),
            str(self.extra),
            f"{self.seconds:.3f}",
            self.status,
        )


def audit_record(record: dict[str, Any]) -> AuditRow:
    """Search one record and compare with its stored solutions.

    Args:
        record: a published-schema record.

    Returns:
        The row: stored and found counts, how many are missing or extra, the search time;
        a record that does not parse gives status `bad record: ...` and zero counts."""
    try:
        puzzle = parse_puzzle(record)
    except RecordError as error:
        record_id = str(record.get("id", "?")) if isinstance(record, dict) else "?"
        return AuditRow(record_id, None, "?", 0, 0, 0, 0, 0.0, f"bad record: {error}")
    began = time.perf_counter()
    found = solve(puzzle)
    seconds = time.perf_counter() - began
    stored = set(puzzle.solutions)
    found_set = set(found)
    missing, extra = len(stored - found_set), len(found_set - stored)
    status = "ok" if not missing and not extra else "MISMATCH"
    return AuditRow(
        puzzle.id,
        puzzle.level,
        f"{puzzle.width}x{puzzle.height}",
        len(stored),
        len(found_set),
        missing,
        extra,
        seconds,
        status,
    )


def warm_up(records: Sequence[dict[str, Any]]) -> str:
    """The search engine `solve` runs ("python" or "compiled"). The compiled one is loaded here
    (numba compiles it on a machine's first use, else reads its disk cache) by a search of the
    first record that parses, so that no puzzle's time includes it.

    Args:
        records: the records to be audited; none is searched when the engine is Python.

    Returns:
        "python" or "compiled"."""
    from inspect_sparc.core.search import use_compiled

    if not use_compiled():
        return "python"
    for record in records:
        try:
            puzzle = parse_puzzle(record)
        except RecordError:
            continue
        solve(puzzle, limit=1)
        break
    return "compiled"


def select(
    records: list[dict[str, Any]], levels: Sequence[int] | None, limit: int | None
) -> list[dict[str, Any]]:
    """Records of the chosen levels (all when None), at most `limit` of them.

    Args:
        records: published-schema records, in order.
        levels: the difficulty levels to keep; None for all (records without a numeric
            level are kept only then).
        limit: the most records to keep, the first ones; None for no limit.

    Returns:
        The chosen records, in their order."""
    chosen = [r for r in records if levels is None or _level_of(r) in levels]
    return chosen if limit is None else chosen[:limit]


def _level_of(record: dict[str, Any]) -> int | None:
    """A record's difficulty level, or None when it is not a number."""
    try:
        return int(record.get("difficulty_level"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None


def format_table(rows: Sequence[AuditRow]) -> str:
    """Rows as an aligned plain-text table.

    Args:
        rows: the audit rows, in the order to list them.

    Returns:
        A header line and one line per row, columns padded to their widest cell, without a
        trailing newline."""
    table = [HEADER] + [row.cells() for row in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        for line in table
    )


def summary(rows: Sequence[AuditRow], engine: str | None = None) -> str:
    """One line: counts, total time (and the search engine, when given), the slowest puzzle.

    Args:
        rows: the audit rows.
        engine: the engine name to state ("python", "compiled"); None to leave it out.

    Returns:
        The line, without a newline."""
    total = sum(row.seconds for row in rows)
    failed = sum(not row.ok for row in rows)
    text = f"{len(rows)} puzzle(s): {len(rows) - failed} match, {failed} mismatch"
    text += f"; search {total:.1f} s" + (f" ({engine} engine)" if engine else "")
    if rows:
        slowest = max(rows, key=lambda row: row.seconds)
        text += f"; slowest {slowest.puzzle_id} ({slowest.seconds:.2f} s)"
    return text


def run_audit(
    records: list[dict[str, Any]], progress: Callable[[int], None] | None = None
) -> list[AuditRow]:
    """Audit every record, calling `progress(done)` after each (the command line's bar).

    Args:
        records: published-schema records.
        progress: called with the number audited so far after each record; None for none.

    Returns:
        One row per record, in order."""
    rows = []
    for record in records:
        rows.append(audit_record(record))
        if progress is not None:
            progress(len(rows))
    return rows


def levels_of(records: Sequence[dict[str, Any]]) -> list[int | None]:
    """Each record's level, in order: the progress bar's estimate is per level.

    Args:
        records: published-schema records.

    Returns:
        Each record's `difficulty_level` as an int, or None where it is not a number."""
    return [_level_of(record) for record in records]
