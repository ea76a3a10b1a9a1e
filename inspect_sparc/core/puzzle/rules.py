"""Check a candidate path against a SPaRC puzzle's rules and name every broken rule.

Structural rules (`start`, `end`, `disconnected`, `revisit`, `off_grid`, `gap`, `rule_cell`) are
about the path itself. Five of them (`LINE_RULES`) decide whether it is a *line* from S to E in
the reference's sense (`Verdict.is_line` is exactly `sparc.validation.analyze_path`'s
`fully_valid_path`): right ends, unit steps, no revisit, no rule cell. `gap` and `off_grid` are
faults of a line that the reference does not see.

Puzzle rules (`dot`, `square`, `star`, `triangle`, `polyshape`) say whether the line solves the
puzzle. They are checked for lines only; a gap or an off-grid point does not stop them (regions
are flood-filled over the in-grid positions off the path). Rules of anything less than a line
would be noise: an empty answer does not "miss every dot". `check` never raises.

`SEARCH_PRUNING` says, for every rule, which functions of the search (`core/search/`: the shared
layout, the pure engine, the numba kernel and its driver) prune it: a rule change must visit
each of them, and docs/search.md argues why each cut is sound (tests/core/test_rules.py fails if a
name there stops existing).

Over 500 lines on purpose: this is the single arbiter of the rules (the path faults, the local
rules, the regions with the polyshape fitting the search shares, the verdict), one `Board` and
one set of messages; split, the arbiter would be several modules that must agree.

Pure logic: no Inspect imports.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from inspect_sparc.core.puzzle.parse import Point, Puzzle
from inspect_sparc.core.puzzle.records import COLOR_NAMES

STRUCTURAL_RULES: tuple[str, ...] = (
    "start",
    "end",
    "disconnected",
    "revisit",
    "off_grid",
    "gap",
    "rule_cell",
)
#: The puzzle rules: whether a line solves the puzzle (dots, and the cell symbols' rules).
PUZZLE_RULES: tuple[str, ...] = ("dot", "square", "star", "triangle", "polyshape")
RULES: tuple[str, ...] = STRUCTURAL_RULES + PUZZLE_RULES
#: Structural faults that make a path no line at all (the reference's `fully_valid_path` fails);
#: puzzle rules are checked only for lines, and the scorer counts only these on non-lines.
LINE_RULES: tuple[str, ...] = ("start", "end", "disconnected", "revisit", "rule_cell")


class Pruning(NamedTuple):
    """The functions of `inspect_sparc.core.search` that prune one rule, by module (a method
    as `Class.method`): what a change to the rule must visit in each engine."""

    layout: tuple[str, ...] = ()  # search/layout.py: the tables both engines read
    python: tuple[str, ...] = ()  # search/python.py: the pure engine
    compiled: tuple[str, ...] = ()  # search/compiled.py: the kernel's tables and confirmation
    kernel: tuple[str, ...] = ()  # search/kernel.py: the numba kernel


#: Every path moves only between usable positions, from S, never twice, and ends at E.
_MOVES = Pruning(
    layout=("_add_positions", "_add_moves"),
    python=("_Search.run", "_Search.advance", "_Search.finish"),
    compiled=("_move_tables", "solve_compiled"),
    kernel=("enumerate_candidates",),
)
#: Where each rule is pruned (docs/search.md, "The pruning rules", argues each cut sound);
#: every path either engine returns is also confirmed by `check` (`_Search.finish`,
#: `solve_compiled`).
SEARCH_PRUNING: dict[str, Pruning] = {
    **dict.fromkeys(STRUCTURAL_RULES, _MOVES),
    "dot": Pruning(
        layout=("_add_positions", "_add_forced_edges"),
        python=(
            "_Search.arrive",  # a dot outside E's live region
            "_Search.dots_reachable",
            "_Search.advance",  # dead dots (pure engine only)
            "_Search.landings",  # a dot on the border arc makes walls
            "_Search.area_arcs",
            "_Search.finish",
        ),
        compiled=("_position_tables", "_lattice_tables", "solve_compiled"),
        kernel=("enumerate_candidates", "dots_reachable", "landings", "area_arcs"),
    ),
    "square": Pruning(
        layout=("_add_symbols", "_add_forced_edges"),
        python=(
            "_Search.sealed_ok",
            "_Search.region_ok",
            "_Search._symbols_uncached",
            "_Search.conflict",  # strips
            "_Search.landings",
            "_Search.finish",
        ),
        compiled=("_symbol_tables", "solve_compiled"),
        kernel=("sealed_ok", "region_ok", "conflict", "landings", "enumerate_candidates"),
    ),
    "star": Pruning(
        layout=("_add_symbols",),
        python=(
            "_Search.sealed_ok",
            "_Search.region_ok",
            "_Search._symbols_uncached",
            "_Search.stars_ok",  # lonely stars
            "_Search.arrive",
            "_Search.excursion_walls",
            "_Search.conflict",
            "_Search.landing_walls",  # a star and its only partner on two strips
            "_Search.landings",
            "_Search.area_walls",
            "_Search.finish",
        ),
        compiled=("_symbol_tables", "solve_compiled"),
        kernel=(
            "sealed_ok",
            "region_ok",
            "stars_ok",
            "conflict",
            "landings",
            "area_walls",
            "enumerate_candidates",
        ),
    ),
    "triangle": Pruning(
        layout=("_add_triangles", "_add_forced_edges", "_add_moves"),
        python=(
            "_Search.count_edge",
            "_Search.advance",  # counts each move's triangles inline
            "_Search.sealed_ok",
            "_Search.region_ok",
            "_Search.triangles_ok",
            "_Search.finish",
        ),
        compiled=("_move_tables", "_symbol_tables", "solve_compiled"),
        kernel=("count_edge", "sealed_ok", "region_ok", "enumerate_candidates"),
    ),
    "polyshape": Pruning(
        layout=("_add_symbols", "_placements", "_set_strips_and_area_rule"),
        python=(
            "_Search.sealed_ok",
            "_Search.region_ok",
            "_Search.shapes_ok",
            "_Search.tile",
            "_Search._fits_with_ylops",
            "_Search.register",  # area walls
            "_Search.area_arcs",
            "_Search.area_walls",
            "_Search.finish",
        ),
        compiled=("_shape_tables", "solve_compiled"),
        kernel=(
            "sealed_ok",
            "region_ok",
            "shapes_ok",
            "tile",
            "area_of",
            "area_arcs",
            "area_walls",
            "enumerate_candidates",
        ),
    ),
}

#: How many positions a message lists before eliding the rest.
_MESSAGE_POINTS = 6


@dataclass(frozen=True)
class Violation:
    """One broken rule: its name, the grid positions involved and a short human sentence."""

    rule: str
    positions: tuple[Point, ...]
    message: str


@dataclass(frozen=True)
class Verdict:
    """Every rule a path breaks; the path solves the puzzle when there are none."""

    violations: tuple[Violation, ...] = ()

    @property
    def valid(self) -> bool:
        """True when the path breaks no rule at all.

        Returns:
            True when there are no violations: the path solves the puzzle."""
        return not self.violations

    @property
    def broken_rules(self) -> tuple[str, ...]:
        """Names of the broken rules, unique and sorted.

        Returns:
            Rule names (`RULES`' names) in alphabetical order; empty for a solution."""
        return tuple(sorted({v.rule for v in self.violations}))

    @property
    def is_line(self) -> bool:
        """True when the path is a line from S to E: it breaks none of `LINE_RULES`.

        Returns:
            True when no violation is of a `LINE_RULES` rule (the reference's
            `fully_valid_path`)."""
        return not any(v.rule in LINE_RULES for v in self.violations)

    @property
    def marked_positions(self) -> tuple[Point, ...]:
        """All positions named by violations, in order, without repeats (for rendering).

        Returns:
            `(x, y)` grid positions in the order the violations name them first."""
        return tuple(dict.fromkeys(p for v in self.violations for p in v.positions))


def format_point(point: Point) -> str:
    """Write a position the way prompts and answers do: `(x,y)`.

    Args:
        point: an `(x, y)` position.

    Returns:
        The position without spaces."""
    return f"({point[0]},{point[1]})"


def color_name(letter: str) -> str:
    """A colour letter of the grid spelled out with the letter, as `purple (P)`.

    Args:
        letter: a colour letter of `puzzle_array` (`COLOR_NAMES`' keys).

    Returns:
        The name and letter, or the letter alone when it is not a known colour."""
    name = COLOR_NAMES.get(letter)
    return f"{name} ({letter})" if name else letter


def format_points(points: Sequence[Point]) -> str:
    """Write a few positions, eliding long lists so messages stay short.

    Args:
        points: `(x, y)` positions, in the order to list them.

    Returns:
        The first six as `(x,y), ...`, then `and N more` for the rest; empty for none."""
    shown = ", ".join(format_point(p) for p in points[:_MESSAGE_POINTS])
    extra = len(points) - _MESSAGE_POINTS
    return shown + (f" and {extra} more" if extra > 0 else "")


def shape_offsets(matrix: Sequence[Sequence[int]]) -> tuple[Point, ...]:
    """Cells of a shape matrix (`[row=y][col=x]`) relative to its top-left cell in reading order.

    Args:
        matrix: the shape as rows of 0/1 (truthy: a cell of the shape).

    Returns:
        `(dx, dy)` cell offsets in reading order, the first `(0, 0)`; empty for an empty
        shape. dy >= 0, while dx may be negative (a shape whose first row starts right)."""
    cells = [(x, y) for y, row in enumerate(matrix) for x, v in enumerate(row) if v]
    if not cells:
        return ()
    ax, ay = min(cells, key=lambda c: (c[1], c[0]))
    return tuple(sorted(((x - ax, y - ay) for x, y in cells), key=lambda c: (c[1], c[0])))


@dataclass
class Board:
    """Per-puzzle tables shared by the checker and the search (shape offsets, placements, fits)."""

    puzzle: Puzzle
    shapes: dict[str, tuple[Point, ...]]
    placements: dict[str, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    fit_cache: dict[tuple[Any, ...], bool] = field(default_factory=dict)

    @property
    def cell_count(self) -> int:
        """Number of rule cells (width x height).

        Returns:
            The number of cells (their indices run from 0 to this minus 1)."""
        return self.puzzle.width * self.puzzle.height

    def cell_index(self, point: Point) -> int:
        """Index of an odd/odd grid position among the cells, row-major.

        Args:
            point: a rule cell's `(x, y)` grid position (odd x and y).

        Returns:
            The cell's index, from 0 at the top-left to `cell_count - 1`."""
        return (point[1] // 2) * self.puzzle.width + point[0] // 2

    def shape_placements(self, shape_id: str) -> tuple[tuple[int, ...], ...]:
        """Every translation of a shape inside the grid, as cell-index tuples (anchor first).

        Args:
            shape_id: a shape id of the puzzle's `polyshapes`.

        Returns:
            One tuple of cell indices (`cell_index`) per placement that keeps the shape on the
            grid, anchors in row-major order; cached on the board. Empty when it fits nowhere."""
        cached = self.placements.get(shape_id)
        if cached is not None:
            return cached
        width, height = self.puzzle.width, self.puzzle.height
        offsets = self.shapes[shape_id]
        found = []
        for ay in range(height):
            for ax in range(width):
                cells = [(ax + dx, ay + dy) for dx, dy in offsets]
                if all(0 <= x < width and 0 <= y < height for x, y in cells):
                    found.append(tuple(y * width + x for x, y in cells))
        result = tuple(found)
        self.placements[shape_id] = result
        return result


def board_for(puzzle: Puzzle) -> Board:
    """The rule tables of a puzzle, built afresh: nothing is cached (the scorer parses a new
    `Puzzle` per score, so a cache never hit). Callers checking many paths pass one to `check`.

    Args:
        puzzle: the puzzle.

    Returns:
        A board with the shapes' offsets and empty placement and fit caches."""
    shapes = {sid: shape_offsets(matrix) for sid, matrix in puzzle.polyshapes.items()}
    return Board(puzzle=puzzle, shapes=shapes)


# --- structural rules -------------------------------------------------------------------------


def _as_points(path: Iterable[Any]) -> tuple[list[Point], list[str]]:
    """Coerce a path to integer points; describe entries that are not (x, y) integer pairs."""
    try:
        entries = list(path)
    except TypeError:
        return [], ["path is not a sequence of points"]
    if all(type(e) is tuple and len(e) == 2 for e in entries) and all(
        type(x) is int and type(y) is int for x, y in entries
    ):
        return entries, []  # the usual case (extracted answers): no per-entry work
    points: list[Point] = []
    bad: list[str] = []
    for entry in entries:
        point = _integer_point(entry)
        if point is None:
            bad.append(repr(entry)[:40])
        else:
            points.append(point)
    return points, bad


def _integer_point(entry: Any) -> Point | None:
    """`entry` as an (x, y) pair of ints, or None if it is not a pair of integral numbers."""
    try:
        x, y = entry
        if isinstance(x, bool) or isinstance(y, bool) or int(x) != x or int(y) != y:
            return None
        return (int(x), int(y))
    except (TypeError, ValueError, OverflowError):
        return None


def _endpoint_violations(puzzle: Puzzle, points: list[Point]) -> list[Violation]:
    """`start` and `end`: the path runs from S to E and meets E only at its last point."""
    if not points:
        return [
            Violation("start", (puzzle.start,), "path is empty, so it does not leave the start"),
            Violation("end", (puzzle.end,), "path is empty, so it does not reach the end"),
        ]
    found = []
    if points[0] != puzzle.start:
        found.append(
            Violation(
                "start",
                (points[0],),
                f"path starts at {format_point(points[0])}, "
                f"not at the start {format_point(puzzle.start)}",
            )
        )
    if points[-1] != puzzle.end:
        found.append(
            Violation(
                "end",
                (points[-1],),
                f"path ends at {format_point(points[-1])}, "
                f"not at the end {format_point(puzzle.end)}",
            )
        )
    elif puzzle.end in points[:-1]:
        found.append(
            Violation(
                "end",
                (puzzle.end,),
                f"path passes through the end {format_point(puzzle.end)} before finishing",
            )
        )
    return found


def _step_violations(points: list[Point]) -> list[Violation]:
    """`disconnected` and `revisit`: steps of length 1, no position twice."""
    found = []
    jumps = [
        (points[i - 1], points[i])
        for i in range(1, len(points))
        if abs(points[i - 1][0] - points[i][0]) + abs(points[i - 1][1] - points[i][1]) != 1
    ]
    if jumps:
        pairs = [f"{format_point(a)}->{format_point(b)}" for a, b in jumps[:3]]
        shown = ", ".join(pairs) + (f" and {len(jumps) - 3} more" if len(jumps) > 3 else "")
        found.append(
            Violation(
                "disconnected",
                tuple(dict.fromkeys(p for jump in jumps for p in jump)),
                f"path jumps between non-adjacent positions: {shown}",
            )
        )
    seen: set[Point] = set()
    repeated: dict[Point, None] = {}
    for point in points:
        if point in seen:
            repeated[point] = None
        seen.add(point)
    if repeated:
        found.append(
            Violation(
                "revisit",
                tuple(repeated),
                f"path visits {format_points(list(repeated))} more than once",
            )
        )
    return found


def _placement_violations(puzzle: Puzzle, points: list[Point]) -> list[Violation]:
    """`off_grid`, `gap` and `rule_cell`: every point is a usable in-grid node or edge."""
    columns, rows = puzzle.columns, puzzle.rows
    unique = dict.fromkeys(points)
    inside = [p for p in unique if 0 <= p[0] < columns and 0 <= p[1] < rows]
    off = [p for p in unique if not (0 <= p[0] < columns and 0 <= p[1] < rows)]
    gaps = [p for p in inside if p in puzzle.gaps]
    cells = [p for p in inside if p[0] % 2 and p[1] % 2]
    faults = (
        ("off_grid", off, f"path leaves the {columns}x{rows} grid at {format_points(off)}"),
        ("gap", gaps, f"path crosses a gap at {format_points(gaps)}"),
        ("rule_cell", cells, f"path runs through rule cell(s) {format_points(cells)}"),
    )
    return [Violation(kind, tuple(where), text) for kind, where, text in faults if where]


# --- local rules (dot, triangle) ------------------------------------------------------------------


def _dot_violations(puzzle: Puzzle, on_path: set[Point]) -> list[Violation]:
    """`dot`: every dot lies on the path."""
    return [
        Violation("dot", (dot,), f"dot at {format_point(dot)} not on the path")
        for dot in sorted(puzzle.dots, key=lambda p: (p[1], p[0]))
        if dot not in on_path
    ]


def touched_edges(point: Point, on_path: set[Point]) -> int:
    """How many of a cell's four edges lie on the path.

    Args:
        point: the cell's `(x, y)` grid position.
        on_path: the grid positions the path occupies.

    Returns:
        0 to 4."""
    x, y = point
    return sum(p in on_path for p in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))


def _triangle_violations(puzzle: Puzzle, on_path: set[Point]) -> list[Violation]:
    """`triangle`: each triangle cell has exactly its count of edges on the path."""
    found = []
    for point, symbol in sorted(puzzle.symbols.items(), key=lambda item: item[0][::-1]):
        if symbol.kind != "triangle":
            continue
        touched = touched_edges(point, on_path)
        if touched != symbol.triangle_count:
            found.append(
                Violation(
                    "triangle",
                    (point,),
                    f"triangle at {format_point(point)} needs {symbol.triangle_count} "
                    f"edge(s) on the path, has {touched}",
                )
            )
    return found


# --- regions ------------------------------------------------------------------------------------


def regions(puzzle: Puzzle, on_path: set[Point]) -> list[list[Point]]:
    """The symbol-bearing regions: 4-connected components of non-path positions, cells only.

    Args:
        puzzle: the puzzle; its grid size and symbol positions are read.
        on_path: the in-grid positions the path occupies (the regions' walls).

    Returns:
        One list of rule-cell positions per region holding a symbol, each sorted by row
        then column; the regions in the order of their first symbol (row, then column)."""
    columns, rows = puzzle.columns, puzzle.rows
    seen: set[Point] = set()
    found: list[list[Point]] = []
    for seed in sorted(puzzle.symbols, key=lambda p: (p[1], p[0])):
        if seed in seen or seed in on_path:
            continue
        seen.add(seed)
        stack = [seed]
        cells: list[Point] = []
        while stack:
            x, y = stack.pop()
            if x % 2 and y % 2:
                cells.append((x, y))
            for nxt in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if (
                    0 <= nxt[0] < columns
                    and 0 <= nxt[1] < rows
                    and nxt not in seen
                    and nxt not in on_path
                ):
                    seen.add(nxt)
                    stack.append(nxt)
        found.append(sorted(cells, key=lambda p: (p[1], p[0])))
    return found


def region_violations(board: Board, cells: Sequence[Point]) -> list[Violation]:
    """`square`, `star` and `polyshape` for one region given as its cells.

    Args:
        board: the puzzle's rule tables (its fit cache is filled in).
        cells: the rule-cell `(x, y)` positions of the region (as `regions` gives them).

    Returns:
        The region's violations, squares first, then stars, then one for polyshapes;
        empty when it holds no symbol or breaks none."""
    symbols = board.puzzle.symbols
    present = [(p, symbols[p]) for p in cells if p in symbols]
    if not present:
        return []
    found: list[Violation] = []
    squares = [(p, s) for p, s in present if s.kind == "square"]
    square_colors = sorted({s.color for _, s in squares})
    if len(square_colors) > 1:
        found.append(
            Violation(
                "square",
                tuple(p for p, _ in squares),
                f"region with squares of colours {', '.join(map(color_name, square_colors))}",
            )
        )
    color_counts: dict[str, int] = {}
    for _, symbol in present:
        color_counts[symbol.color] = color_counts.get(symbol.color, 0) + 1
    for point, symbol in present:
        if symbol.kind == "star" and color_counts[symbol.color] != 2:
            found.append(
                Violation(
                    "star",
                    (point,),
                    f"star at {format_point(point)} has {color_counts[symbol.color]} symbol(s) "
                    f"of colour {color_name(symbol.color)} in its region, needs exactly 2",
                )
            )
    shaped = [(p, s) for p, s in present if s.kind in ("polyshape", "ylop")]
    if shaped:
        positive = tuple(sorted(s.shape_id or "" for _, s in shaped if s.kind == "polyshape"))
        negative = tuple(sorted(s.shape_id or "" for _, s in shaped if s.kind == "ylop"))
        region_key = frozenset(board.cell_index(p) for p in cells)
        problem = polyshape_problem(board, region_key, positive, negative)
        if problem:
            found.append(Violation("polyshape", tuple(p for p, _ in shaped), problem))
    return found


def polyshape_problem(
    board: Board, region: frozenset[int], positive: tuple[str, ...], negative: tuple[str, ...]
) -> str:
    """Why the region's shapes cannot tile it (empty string when they can).

    Args:
        board: the puzzle's rule tables (its fit cache is read and filled in).
        region: the region's cells, as cell indices (`Board.cell_index`).
        positive: the shape ids of its polyshapes, sorted (repeats for repeated shapes).
        negative: the shape ids of its ylops, sorted.

    Returns:
        A short sentence for the message, or "" when the shapes fit."""
    sizes = board.shapes
    net = sum(len(sizes[s]) for s in positive) - sum(len(sizes[s]) for s in negative)
    if net < 0:
        return f"region's negative shapes outweigh its shapes ({net} cells net)"
    if net > 0 and net != len(region):
        return f"region of {len(region)} cell(s) but its shapes cover {net}"
    key = (region, positive, negative)
    fits = board.fit_cache.get(key)
    if fits is None:
        fits = _shapes_fit(board, region if net > 0 else frozenset(), positive, negative)
        board.fit_cache[key] = fits
    if fits:
        return ""
    return f"region's shapes ({', '.join(positive + negative)}) cannot be fitted to its cells"


def _shapes_fit(
    board: Board, region: frozenset[int], positive: tuple[str, ...], negative: tuple[str, ...]
) -> bool:
    """True if translated shapes cover `region` net once and every other cell net zero."""
    target = [0] * board.cell_count
    for index in region:
        target[index] = 1
    counts: dict[str, int] = {}
    for shape_id in positive:
        counts[shape_id] = counts.get(shape_id, 0) + 1
    return _place_negatives(board, target, negative, 0, -1, counts)


def _place_negatives(
    board: Board,
    target: list[int],
    negative: tuple[str, ...],
    index: int,
    first_choice: int,
    counts: dict[str, int],
) -> bool:
    """Try every placement of the remaining negative shapes, then cover what is left."""
    if index == len(negative):
        return _cover(board, target, counts)
    shape_id = negative[index]
    same_as_previous = index > 0 and negative[index - 1] == shape_id
    for choice, cells in enumerate(board.shape_placements(shape_id)):
        if same_as_previous and choice < first_choice:
            continue
        for cell in cells:
            target[cell] += 1
        if _place_negatives(board, target, negative, index + 1, choice, counts):
            for cell in cells:
                target[cell] -= 1
            return True
        for cell in cells:
            target[cell] -= 1
    return False


def _cover(board: Board, target: list[int], counts: dict[str, int]) -> bool:
    """Exact cover of `target` multiplicities by the remaining positive shapes (anchor trick)."""
    first = next((i for i, v in enumerate(target) if v), -1)
    if first < 0:
        return not any(counts.values())
    width, height = board.puzzle.width, board.puzzle.height
    ax, ay = first % width, first // width
    for shape_id, remaining in counts.items():
        if not remaining:
            continue
        cells = []
        for dx, dy in board.shapes[shape_id]:
            x, y = ax + dx, ay + dy
            if not (0 <= x < width and 0 <= y < height) or not target[y * width + x]:
                break
            cells.append(y * width + x)
        else:
            for cell in cells:
                target[cell] -= 1
            counts[shape_id] = remaining - 1
            fits = _cover(board, target, counts)
            counts[shape_id] = remaining
            for cell in cells:
                target[cell] += 1
            if fits:
                return True
    return False


# --- the verdict --------------------------------------------------------------------------------


def check(puzzle: Puzzle, path: Iterable[Any], board: Board | None = None) -> Verdict:
    """Check `path` (a sequence of (x, y) points) against every rule of `puzzle`; never raises.

    Args:
        puzzle: the puzzle.
        path: the candidate path: `(x, y)` pairs of ints from S; any other value (not a
            sequence, entries not integer pairs) becomes an `off_grid` violation.
        board: `board_for(puzzle)`, passed by callers that check many paths of one puzzle
            (its caches then carry over); None, or a board of another puzzle, for a new one.

    Returns:
        Every violation, in `RULES` order; the puzzle rules only when the path is a line."""
    points, bad = _as_points(path)
    violations: list[Violation] = []
    if bad:
        violations.append(
            Violation("off_grid", (), f"path has entries that are not (x,y) points: {bad[0]}")
        )
    violations += _endpoint_violations(puzzle, points)
    violations += _step_violations(points)
    violations += _placement_violations(puzzle, points)
    if Verdict(tuple(violations)).is_line:
        columns, rows = puzzle.columns, puzzle.rows
        on_path = {p for p in set(points) if 0 <= p[0] < columns and 0 <= p[1] < rows}
        violations += _dot_violations(puzzle, on_path)
        board = board if board is not None and board.puzzle is puzzle else board_for(puzzle)
        for cells in regions(puzzle, on_path):
            violations += region_violations(board, cells)
        violations += _triangle_violations(puzzle, on_path)
    order = {rule: i for i, rule in enumerate(RULES)}
    violations.sort(key=lambda v: order[v.rule])
    return Verdict(tuple(violations))
