"""Model answer text -> path, exactly as `sparc.validation.extract_solution_path` (0.7.0) reads it.

The text after the last `####` (the whole text if there is none) is searched for `(x, y)` pairs;
extraction stops at the first pair equal to the puzzle's end node. The reference regex is kept
(it is linear: no nested quantifiers), and a coordinate with more than 4,300 digits (where the
reference raises) becomes a stand-in value off every grid, so any answer text is read quickly
and without raising, whatever `sys.set_int_max_str_digits` says.
Pure logic: no Inspect imports.
"""

from __future__ import annotations

import re
from itertools import chain

from inspect_sparc.core.puzzle.parse import Path, Point

MARKER = "####"
COORDINATE = re.compile(r"\((\d+),\s*(\d+)\)")
#: Longest number converted with `int()` (Python's default limit): longer ones, which make the
#: reference raise, are never converted, since converting them takes seconds where the limit is
#: lifted.
MAX_DIGITS = 4300
#: Stand-ins for numbers too long to convert: multiples of this, one per distinct number, so
#: they lie off every grid and are neither equal nor adjacent to each other.
HUGE = 10**18


def answer_section(text: str) -> str:
    """The part of the answer the reference reads: after the last `####`, or all of it.

    Args:
        text: the model's answer.

    Returns:
        The section read."""
    return text.rpartition(MARKER)[2] if MARKER in text else text


def to_int(digits: str, stand_ins: dict[str, int]) -> int:
    """`int(digits)`, or the stand-in for a number too long to convert (see `HUGE`).

    Args:
        digits: a run of digits.
        stand_ins: the stand-ins given so far, reused for the same digits.

    Returns:
        The number, or its stand-in."""
    if len(digits) > MAX_DIGITS:
        digits = digits.lstrip("0") or "0"
    if len(digits) <= MAX_DIGITS:
        try:
            return int(digits)
        except ValueError:  # a lower digit limit was set in this process
            pass
    return stand_ins.setdefault(digits, HUGE * (len(stand_ins) + 1))


def extract_path(text: str, end: Point | None) -> Path | None:
    """The path an answer gives, stopping at `end`; None when it holds no `(x, y)` pair.

    Args:
        text: the model's answer.
        end: the end node (the path stops at its first occurrence), or None.

    Returns:
        The path's positions, or None."""
    if not isinstance(text, str):
        return None
    pairs = COORDINATE.findall(answer_section(text))
    if not pairs:
        return None
    points: list[Point] | None = None
    if max(map(len, chain.from_iterable(pairs))) <= MAX_DIGITS:
        try:
            points = [(int(x), int(y)) for x, y in pairs]  # the usual case, one fast pass
        except ValueError:
            points = None
    if points is None:
        stand_ins: dict[str, int] = {}
        points = [(to_int(x, stand_ins), to_int(y, stand_ins)) for x, y in pairs]
    if end in points:
        points = points[: points.index(end) + 1]
    return tuple(points)


def format_path(path: Path | None) -> str:
    """A path as `(x,y), (x,y), ...` (the sample target format); empty for no path.

    Args:
        path: the positions, or None.

    Returns:
        The path as text."""
    return ", ".join(f"({x},{y})" for x, y in path) if path else ""
