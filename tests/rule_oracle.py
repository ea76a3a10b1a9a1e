"""An independent oracle for SPaRC's rules, for tests only: it never imports `inspect_sparc`.

It reads the published record itself (the raw `puzzle_array`, `polyshapes` and `solutions`),
enumerates every simple S-to-E path with the symbols ignored, and says which rules a path
breaks using other algorithms than `inspect_sparc.core.puzzle.rules`: regions are unions of cells
whose shared edge (or a node they touch through free edges) is off the path, and polyshapes
are fitted by plain brute force over every translation. The stored solution sets are complete
(the audit proves it on all 500 test puzzles), so a path this oracle finds rule-free must be
stored, and the other way round: tests assert that first, which checks the oracle against the
dataset before it judges `check`.
"""

from __future__ import annotations

import itertools
import json
from functools import cache
from typing import Any

Point = tuple[int, int]

#: Rules the oracle can name; their names are those of `inspect_sparc.core.puzzle.rules.RULES`.
LINE_FAULTS = ("start", "end", "disconnected", "revisit", "rule_cell")
PLACEMENT_FAULTS = ("off_grid", "gap")
PUZZLE_RULES = ("dot", "square", "star", "triangle", "polyshape")
TRIANGLES = {"A": 1, "B": 2, "C": 3, "D": 4}


class Board:
    """A raw record read directly: grid values, S, E, cell symbols, shapes, stored solutions."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.grid: list[list[str]] = record["puzzle_array"]
        self.rows, self.columns = len(self.grid), len(self.grid[0])
        self.width, self.height = self.columns // 2, self.rows // 2
        self.where: dict[str, list[Point]] = {}
        for y, row in enumerate(self.grid):
            for x, value in enumerate(row):
                self.where.setdefault(value, []).append((x, y))
        (self.start,) = self.where["S"]
        (self.end,) = self.where["E"]
        self.dots = set(self.where.get(".", []))
        self.gaps = set(self.where.get("G", []))
        #: cell (cx, cy) in cell coordinates -> (letter, colour, shape id or None)
        self.symbols: dict[Point, tuple[str, str, str | None]] = {}
        for y in range(1, self.rows, 2):
            for x in range(1, self.columns, 2):
                value = self.grid[y][x]
                if value != "N":
                    parts = value.split("-")
                    shape = parts[2] if len(parts) > 2 else None
                    self.symbols[(x // 2, y // 2)] = (parts[0], parts[1], shape)
        raw = record["polyshapes"]
        shapes = json.loads(raw) if isinstance(raw, str) else raw
        self.shapes: dict[str, frozenset[Point]] = {}
        for shape_id, matrix in (shapes or {}).items():
            cells = [(c, r) for r, row in enumerate(matrix) for c, v in enumerate(row) if v]
            left, top = min(c for c, _ in cells), min(r for _, r in cells)
            self.shapes[str(shape_id)] = frozenset((c - left, r - top) for c, r in cells)
        self._placements: dict[str, list[frozenset[Point]]] = {}
        self.solutions = {
            tuple((p["x"], p["y"]) for p in solution["path"]) for solution in record["solutions"]
        }

    def inside(self, point: Point) -> bool:
        return 0 <= point[0] < self.columns and 0 <= point[1] < self.rows

    def placements(self, shape_id: str) -> list[frozenset[Point]]:
        """Every translation of a shape whose cells all lie in the grid (computed once)."""
        if shape_id not in self._placements:
            self._placements[shape_id] = self._translations(shape_id)
        return self._placements[shape_id]

    def _translations(self, shape_id: str) -> list[frozenset[Point]]:
        cells = self.shapes[shape_id]
        found = []
        for dx in range(-4, self.width + 4):
            for dy in range(-4, self.height + 4):
                moved = frozenset((c + dx, r + dy) for c, r in cells)
                if all(0 <= c < self.width and 0 <= r < self.height for c, r in moved):
                    found.append(moved)
        return found


def simple_paths(board: Board, avoid_gaps: bool = False) -> list[tuple[Point, ...]]:
    """Every simple S-to-E path over the grid's nodes and edges (cells never; gaps too unless
    `avoid_gaps`)."""
    steps = {
        (x, y): [
            q
            for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
            if board.inside(q)
            and not (q[0] % 2 and q[1] % 2)
            and not (avoid_gaps and q in board.gaps)
        ]
        for y in range(board.rows)
        for x in range(board.columns)
    }
    found: list[tuple[Point, ...]] = []
    path = [board.start]
    seen = {board.start}

    def extend(point: Point) -> None:
        if point == board.end:
            found.append(tuple(path))
            return
        for step in steps[point]:
            if step not in seen:
                seen.add(step)
                path.append(step)
                extend(step)
                path.pop()
                seen.discard(step)

    extend(board.start)
    return found


def line_faults(board: Board, path: tuple[Point, ...]) -> set[str]:
    """Faults that make a path no line from S to E (counted over every answer)."""
    faults = set()
    if not path or path[0] != board.start:
        faults.add("start")
    if not path or path[-1] != board.end or board.end in path[:-1]:
        faults.add("end")
    if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 for a, b in zip(path, path[1:], strict=False)):
        faults.add("disconnected")
    if len(set(path)) != len(path):
        faults.add("revisit")
    if any(board.inside(p) and p[0] % 2 == 1 and p[1] % 2 == 1 for p in path):
        faults.add("rule_cell")
    return faults


def placement_faults(board: Board, path: tuple[Point, ...]) -> set[str]:
    """`off_grid` and `gap`."""
    faults = set()
    if any(not board.inside(p) for p in path):
        faults.add("off_grid")
    if any(board.inside(p) and board.grid[p[1]][p[0]] == "G" for p in path):
        faults.add("gap")
    return faults


def cell_regions(board: Board, on_path: set[Point]) -> list[list[Point]]:
    """Cells joined when the edge between them is off the path, or through a node off the path
    (union-find), as cell lists."""
    parent = {(cx, cy): (cx, cy) for cx in range(board.width) for cy in range(board.height)}

    def root(cell: Point) -> Point:
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    for cx, cy in list(parent):
        if cx + 1 < board.width and (2 * cx + 2, 2 * cy + 1) not in on_path:
            parent[root((cx, cy))] = root((cx + 1, cy))
        if cy + 1 < board.height and (2 * cx + 1, 2 * cy + 2) not in on_path:
            parent[root((cx, cy))] = root((cx, cy + 1))
    # Around a node off the path the cells beside its free edges meet. With a whole line this
    # adds nothing (a free node's edges are all free), but a mid-edge S or E inside the grid is
    # on the path while one of its nodes may not be: the cells either side of it then meet
    # around that node, unless the other path end closes the way there too.
    ends_mid_edge = any((x + y) % 2 for x, y in (board.start, board.end))
    for nx in range(0, board.columns if ends_mid_edge else 0, 2):
        for ny in range(0, board.rows, 2):
            if (nx, ny) in on_path:
                continue
            beside = [
                cell
                for ex, ey in ((nx + 1, ny), (nx - 1, ny), (nx, ny + 1), (nx, ny - 1))
                if board.inside((ex, ey)) and (ex, ey) not in on_path
                for cell in (
                    ((ex // 2, ey // 2 - 1), (ex // 2, ey // 2))
                    if ex % 2
                    else ((ex // 2 - 1, ey // 2), (ex // 2, ey // 2))
                )
                if cell in parent
            ]
            for cell in beside[1:]:
                parent[root(cell)] = root(beside[0])
    groups: dict[Point, list[Point]] = {}
    for cell in parent:
        groups.setdefault(root(cell), []).append(cell)
    return list(groups.values())


@cache
def _tiles(
    board: Board, region: frozenset[Point], positive: tuple[str, ...], negative: tuple[str, ...]
) -> bool:
    """Brute force: some translations of the shapes sum to the region (+1 each) and 0 elsewhere."""
    net = sum(len(board.shapes[s]) for s in positive) - sum(len(board.shapes[s]) for s in negative)
    if net < 0 or (net > 0 and net != len(region)):
        return False
    target = region if net > 0 else frozenset()
    # every placement of the negative shapes, then the positive ones must make up the deficit
    for combo in itertools.product(*(board.placements(s) for s in negative)):
        deficit = {cell: 1 for cell in target}
        for cells in combo:
            for cell in cells:
                deficit[cell] = deficit.get(cell, 0) + 1
        # largest shapes first (they fail soonest); copies of one shape in placement order
        ordered = sorted(positive, key=lambda s: (-len(board.shapes[s]), s))
        if _cover(board, deficit, ordered, 0):
            return True
    return False


def _cover(board: Board, deficit: dict[Point, int], shapes: list[str], first: int) -> bool:
    """Do translations of the shapes add up to `deficit` exactly? Every placement of the first
    shape is tried, from number `first` on (a copy of the shape before it takes a later one:
    the same sets of placements in another order add nothing)."""
    if not shapes:
        return not any(deficit.values())
    shape, rest = shapes[0], shapes[1:]
    placements = board.placements(shape)
    for number in range(first, len(placements)):
        cells = placements[number]
        if all(deficit.get(cell, 0) > 0 for cell in cells):
            for cell in cells:
                deficit[cell] -= 1
            fits = _cover(board, deficit, rest, number if rest and rest[0] == shape else 0)
            for cell in cells:
                deficit[cell] += 1
            if fits:
                return True
    return False


def puzzle_faults(board: Board, path: tuple[Point, ...]) -> set[str]:
    """The puzzle rules a line breaks."""
    on_path = {p for p in path if board.inside(p)}
    faults = set()
    if board.dots - on_path:
        faults.add("dot")
    for (cx, cy), (letter, _, _) in board.symbols.items():
        if letter in TRIANGLES:
            x, y = 2 * cx + 1, 2 * cy + 1
            sides = sum(p in on_path for p in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))
            if sides != TRIANGLES[letter]:
                faults.add("triangle")
    for region in cell_regions(board, on_path):
        present = [board.symbols[c] for c in region if c in board.symbols]
        if len({colour for letter, colour, _ in present if letter == "o"}) > 1:
            faults.add("square")
        colours = [colour for _, colour, _ in present]
        if any(letter == "*" and colours.count(colour) != 2 for letter, colour, _ in present):
            faults.add("star")
        positive = tuple(sorted(s for letter, _, s in present if letter == "P" and s))
        negative = tuple(sorted(s for letter, _, s in present if letter == "Y" and s))
        if (positive or negative) and not _tiles(board, frozenset(region), positive, negative):
            faults.add("polyshape")
    return faults


def broken_rules(board: Board, path: tuple[Point, ...]) -> set[str]:
    """Every rule a path breaks; puzzle rules only for a line (no line fault)."""
    faults = line_faults(board, path) | placement_faults(board, path)
    if not faults & set(LINE_FAULTS):
        faults |= puzzle_faults(board, path)
    return faults


def valid_paths(board: Board) -> set[tuple[Point, ...]]:
    """Every rule-valid path of the puzzle, by brute force: the simple S-to-E paths that avoid
    the gaps (a path through one is never valid) and break no puzzle rule."""
    return {path for path in simple_paths(board, avoid_gaps=True) if not puzzle_faults(board, path)}
