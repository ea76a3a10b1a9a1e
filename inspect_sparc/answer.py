"""Model answer text -> path, exactly as `sparc.validation.extract_solution_path` (0.7.0) reads it.

The text after the last `####` (the whole text if there is none) is searched for `(x, y)` pairs;
extraction stops at the first pair equal to the puzzle's end node. The reference regex is kept
(it is linear: no nested quantifiers), and a coordinate with more digits than `int()` accepts
(4,300 by default, see `sys.set_int_max_str_digits`; the reference raises there) becomes `HUGE`,
a value off every grid, so any answer text is read quickly and without raising.
Pure logic: no Inspect imports.
"""

from __future__ import annotations

import re

from inspect_sparc.puzzle import Path, Point

MARKER = "####"
COORDINATE = re.compile(r"\((\d+),\s*(\d+)\)")
#: Stand-in for a coordinate longer than Python converts; lies off every grid.
HUGE = 10**18


def answer_section(text: str) -> str:
    """The part of the answer the reference reads: after the last `####`, or all of it."""
    return text.rpartition(MARKER)[2] if MARKER in text else text


def to_int(digits: str) -> int:
    """`int(digits)`, or `HUGE` for a number too long to convert (the reference raises there)."""
    try:
        return int(digits)
    except ValueError:
        return HUGE


def extract_path(text: str, end: Point | None) -> Path | None:
    """The path an answer gives, stopping at `end`; None when it holds no `(x, y)` pair."""
    if not isinstance(text, str):
        return None
    pairs = COORDINATE.findall(answer_section(text))
    if not pairs:
        return None
    try:
        points = [(int(x), int(y)) for x, y in pairs]
    except ValueError:  # a number too long for int(): the reference raises here
        points = [(to_int(x), to_int(y)) for x, y in pairs]
    if end in points:
        points = points[: points.index(end) + 1]
    return tuple(points)


def format_path(path: Path | None) -> str:
    """A path as `(x,y), (x,y), ...` (the sample target format); empty for no path."""
    return ", ".join(f"({x},{y})" for x, y in path) if path else ""
