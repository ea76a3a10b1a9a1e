"""Draw a SPaRC puzzle, a path and marked positions as compact monospace text.

Used inside score explanations (stored several times in every log), so it is plain, compact
ASCII: one text row per grid row, three characters per grid position (a code of one or two
characters, then `!` where a rule broke), x coordinates on top and y coordinates on the left,
then a legend naming every code the drawing shows.
Pure logic: no Inspect.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from inspect_sparc.core.puzzle.parse import Point, Puzzle
from inspect_sparc.core.puzzle.records import COLOR_NAMES

#: Width of one grid position in the drawing.
_WIDTH = 3

#: The character after a position's code that marks a broken rule.
MARK = "!"


#: What each lattice code of the drawing means, in the order the legend lists them.
LATTICE_WORDS = {
    "S": "start",
    "E": "end",
    "#": "path",
    "@": "dot on path",
    ".": "dot",
    "G": "gap",
    "+": "node",
    "-": "edge",
    "|": "edge",
}
#: Cell codes are a kind letter then a colour letter (`oR`: a red square).
KIND_WORDS = {
    "o": "square",
    "*": "star",
    "A": "triangle (1 edge)",
    "B": "triangle (2 edges)",
    "C": "triangle (3 edges)",
    "D": "triangle (4 edges)",
    "P": "polyshape",
    "Y": "negative polyshape",
}


def legend(codes: Iterable[str], cells: Iterable[str], has_marks: bool) -> str:
    """The legend of one drawing: every lattice code and cell kind and colour it shows.

    `codes` are the lattice tokens drawn, `cells` the cell codes (kind letter + colour letter).

    Args:
        codes: the lattice tokens drawn.
        cells: the cell codes drawn.
        has_marks: whether the drawing flags positions.

    Returns:
        The legend's text."""
    shown = set(codes)
    entries = [f"{code} {LATTICE_WORDS[code]}" for code in LATTICE_WORDS if code in shown]
    if "-" in shown and "|" in shown:
        entries = [e for e in entries if e not in ("- edge", "| edge")] + ["- | edges"]
    if has_marks:
        entries.append(f"{MARK} marked (numbered list above)")
    line = "legend: " + ", ".join(entries)
    cells = sorted(set(cells))
    if cells:
        kinds = [k for k in KIND_WORDS if any(c[0] == k for c in cells)]
        colors = [k for k in COLOR_NAMES if any(c[1:2] == k for c in cells)]
        line += "\ncells = kind + colour: " + ", ".join(f"{k} {KIND_WORDS[k]}" for k in kinds)
        line += "; " + ", ".join(f"{k} {COLOR_NAMES[k]}" for k in colors)
    return line


def _cell_code(value: str) -> str:
    """Two-character code of a cell symbol: its kind letter and colour (`P-R-1648` -> `PR`)."""
    if value == "N":
        return ""
    parts = value.split("-")
    return (parts[0] + (parts[1] if len(parts) > 1 else ""))[:2]


def _free_code(point: Point, value: str) -> str:
    """What an off-path node or edge shows: its symbol, or a lattice line."""
    if value in ("S", "E", ".", "G"):
        return value
    x, y = point
    if x % 2 == 0 and y % 2 == 0:
        return "+"
    return "-" if y % 2 == 0 else "|"


def _path_code(value: str) -> str:
    """What a node or edge on the path shows."""
    if value in ("S", "E"):
        return value
    return "@" if value == "." else "#"


def _token(code: str, marked: bool) -> str:
    """A fixed-width token for one position: its code, then the mark when a rule broke there."""
    return (code[:2] + (MARK if marked else "")).ljust(_WIDTH)


def _shape_lines(puzzle: Puzzle) -> list[str]:
    """One line listing the polyshapes in use, each as its 4x4 matrix rows (`#` filled)."""
    used = sorted({s.shape_id for s in puzzle.symbols.values() if s.shape_id is not None})
    if not used:
        return []
    parts = []
    for shape_id in used:
        matrix = puzzle.polyshapes.get(shape_id, ())
        rows = ["".join("#" if v else "." for v in row) for row in matrix]
        parts.append(f"{shape_id}={'/'.join(rows)}")
    return ["shapes (rows top to bottom): " + ", ".join(parts)]


def render(
    puzzle: Puzzle,
    path: Sequence[Point] | None = None,
    marks: Iterable[Point] = (),
    shapes: bool = True,
) -> str:
    """Draw the grid with `path` traced and `marks` flagged; off-grid positions are ignored.

    `shapes` adds a line with the 4x4 matrix of each polyshape in use.

    Args:
        puzzle: the parsed puzzle.
        path: the positions to trace, or None.
        marks: positions to flag.
        shapes: add the polyshapes' matrices.

    Returns:
        The drawing, with its legend."""
    on_path = _grid_points(puzzle, path or ())
    marked = _grid_points(puzzle, marks)
    label_width = len(str(puzzle.rows - 1))
    header = " " * (label_width + 1) + "".join(str(x).ljust(_WIDTH) for x in range(puzzle.columns))
    lines = [header.rstrip()]
    codes: set[str] = set()
    cells: set[str] = set()
    for y, row in enumerate(puzzle.grid):
        tokens = []
        for x, value in enumerate(row):
            point = (x, y)
            if x % 2 and y % 2:
                code = _cell_code(value)
                if code:
                    cells.add(code)
            else:
                code = _path_code(value) if point in on_path else _free_code(point, value)
                codes.add(code)
            tokens.append(_token(code, point in marked))
        lines.append(f"{str(y).rjust(label_width)} " + "".join(tokens).rstrip())
    if shapes:
        lines += _shape_lines(puzzle)
    lines.append(legend(codes, cells, bool(marked)))
    return "\n".join(lines)


def _grid_points(puzzle: Puzzle, points: Iterable[object]) -> set[Point]:
    """The distinct (x, y) integer points among `points` that lie in the grid (lists allowed)."""
    try:
        unique = set(points)
    except TypeError:  # unhashable entries, such as [x, y] lists
        unique = {tuple(p) if isinstance(p, list) else p for p in points if not isinstance(p, dict)}
    columns, rows = puzzle.columns, puzzle.rows
    return {
        p
        for p in unique
        if type(p) is tuple
        and len(p) == 2
        and type(p[0]) is int
        and type(p[1]) is int
        and 0 <= p[0] < columns
        and 0 <= p[1] < rows
    }
