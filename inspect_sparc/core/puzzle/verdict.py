"""Exact match and the reference's invalid-path analysis (`sparc.validation`, 0.7.0).

`is_solved` is `validate_solution` and `reference_analysis` is `analyze_path`, computed on a
parsed `Puzzle` and a path of `(x, y)` tuples, with the same keys and the same verdicts.
The rule engine (`rules.py`) says *why* a path fails; this module keeps the published metric.
Pure logic: no Inspect imports.
"""

from __future__ import annotations

from inspect_sparc.core.puzzle.parse import Path, Puzzle

ANALYSIS_KEYS = (
    "starts_at_start_ends_at_exit",
    "connected_line",
    "non_intersecting_line",
    "start_to_exit_connected",
    "no_rule_crossing",
    "fully_valid_path",
)


def is_solved(puzzle: Puzzle, path: Path | None) -> bool:
    """True iff the path has two or more points and equals a stored solution.

    Args:
        puzzle: the parsed puzzle, with its stored solutions.
        path: the extracted path, or None.

    Returns:
        Whether the answer solves the puzzle."""
    return path is not None and len(path) >= 2 and tuple(path) in puzzle.solutions


def reference_analysis(puzzle: Puzzle, path: Path | None) -> dict[str, bool]:
    """The reference's structural analysis of a path (all False for no path).

    Args:
        puzzle: the parsed puzzle.
        path: the extracted path, or None.

    Returns:
        `ANALYSIS_KEYS` (ends, connected, non-intersecting, no rule crossing) -> whether
        each holds."""
    if not path:
        return dict.fromkeys(ANALYSIS_KEYS, False)
    ends_ok = path[0] == puzzle.start and path[-1] == puzzle.end
    connected = all(
        abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(path, path[1:], strict=False)
    )
    non_intersecting = len(set(path)) == len(path)
    no_rule_crossing = not any(
        x % 2 == 1 and y % 2 == 1 and 0 <= x < puzzle.columns and 0 <= y < puzzle.rows
        for x, y in path[1:-1]
    )
    return {
        "starts_at_start_ends_at_exit": ends_ok,
        "connected_line": connected,
        "non_intersecting_line": non_intersecting,
        "start_to_exit_connected": ends_ok and connected,
        "no_rule_crossing": no_rule_crossing,
        "fully_valid_path": ends_ok and connected and non_intersecting and no_rule_crossing,
    }
