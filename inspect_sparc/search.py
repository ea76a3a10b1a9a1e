"""Enumerate every rule-valid path of a SPaRC puzzle by pruned depth-first search.

The grid is held as Python int bitsets (one bit per grid position, rows padded by one column so
shifts never wrap). The path grows node by node; it never enters gaps, cells or visited
positions, and it stops at E. Pruning, all sound (it never drops a valid path):

- triangles: a cell whose touched-edge count already exceeds its number;
- reachability: the *live* region is the set of non-path positions connected to E; the head must
  border it and every unvisited dot must lie in it;
- sealed regions: positions that drop out of the live region are final (the path can never reach
  them again), so they are checked at once with the region rules (squares, stars, triangles,
  polyshapes). Free space can only split when the new node touches the border or the path, so
  the flood fill runs only then.

Every path found is confirmed by `inspect_sparc.rules.check`, the single arbiter. Pure logic.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from inspect_sparc.puzzle import Path, Point, Puzzle
from inspect_sparc.rules import board_for, check, polyshape_problem


class _Stop(Exception):
    """Raised inside the search once `limit` paths have been found."""


@dataclass
class _Layout:
    """Bit positions and masks for one puzzle (row stride = columns + 1)."""

    puzzle: Puzzle
    stride: int
    usable: int  # nodes and edges the path may use (not cells, not gaps)
    every: int  # every in-grid position
    cells: int
    symbols: int
    dots: int
    border_nodes: int
    rings: dict[int, tuple[int, ...]]  # border node -> its 8 surrounding positions (-1: off grid)
    triangle_of_edge: dict[int, tuple[int, ...]]  # edge bit index -> triangle numbers
    triangle_bits: list[int]
    triangle_need: list[int]
    square_masks: list[int]
    stars: list[tuple[int, int]]  # (star bit, mask of symbols of its colour)
    shapes: int
    region_cache: dict[int, bool] = field(default_factory=dict)

    def bit(self, point: Point) -> int:
        """Bit index of a grid position."""
        return point[1] * self.stride + point[0]

    def point(self, index: int) -> Point:
        """Grid position of a bit index."""
        return index % self.stride, index // self.stride


def _layout(puzzle: Puzzle) -> _Layout:
    """Precompute the bitsets the search needs."""
    stride = puzzle.columns + 1
    layout = _Layout(
        puzzle=puzzle,
        stride=stride,
        usable=0,
        every=0,
        cells=0,
        symbols=0,
        dots=0,
        border_nodes=0,
        rings={},
        triangle_of_edge={},
        triangle_bits=[],
        triangle_need=[],
        square_masks=[],
        stars=[],
        shapes=0,
    )
    squares_by_color: dict[str, int] = {}
    color_masks: dict[str, int] = {}
    triangles: list[Point] = []
    for y in range(puzzle.rows):
        for x in range(puzzle.columns):
            point = (x, y)
            index = layout.bit(point)
            layout.every |= 1 << index
            if Puzzle.is_cell(point):
                layout.cells |= 1 << index
            elif point not in puzzle.gaps:
                layout.usable |= 1 << index
            if point in puzzle.dots:
                layout.dots |= 1 << index
            if (
                x % 2 == 0
                and y % 2 == 0
                and (x in (0, puzzle.columns - 1) or y in (0, puzzle.rows - 1))
            ):
                layout.border_nodes |= 1 << index
    for point, symbol in puzzle.symbols.items():
        index = layout.bit(point)
        layout.symbols |= 1 << index
        color_masks[symbol.color] = color_masks.get(symbol.color, 0) | 1 << index
        if symbol.kind == "square":
            squares_by_color[symbol.color] = squares_by_color.get(symbol.color, 0) | 1 << index
        elif symbol.kind in ("polyshape", "ylop"):
            layout.shapes |= 1 << index
        elif symbol.kind == "triangle":
            triangles.append(point)
    for point, symbol in puzzle.symbols.items():
        if symbol.kind == "star":
            layout.stars.append((1 << layout.bit(point), color_masks[symbol.color]))
    layout.square_masks = list(squares_by_color.values())
    for number, (x, y) in enumerate(sorted(triangles, key=lambda p: (p[1], p[0]))):
        layout.triangle_bits.append(1 << layout.bit((x, y)))
        layout.triangle_need.append(puzzle.symbols[(x, y)].triangle_count)
        for edge in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            key = layout.bit(edge)
            layout.triangle_of_edge[key] = layout.triangle_of_edge.get(key, ()) + (number,)
    for y in range(0, puzzle.rows, 2):
        for x in range(0, puzzle.columns, 2):
            if layout.border_nodes & 1 << layout.bit((x, y)):
                layout.rings[layout.bit((x, y))] = _ring(layout, (x, y))
    return layout


def _ring(layout: _Layout, node: Point) -> tuple[int, ...]:
    """The 8 positions around a node in cyclic order (edges and cells), -1 where off the grid."""
    x, y = node
    around = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
    return tuple(
        layout.bit((x + dx, y + dy)) if layout.puzzle.in_grid((x + dx, y + dy)) else -1
        for dx, dy in around
    )


def _splits(ring: tuple[int, ...], used: int) -> bool:
    """True if the free positions around a node form two or more arcs (free space may split)."""
    free = [index >= 0 and not used >> index & 1 for index in ring]
    arcs = sum(1 for i in range(8) if free[i] and not free[i - 1])
    return arcs >= 2


class _Search:
    """One depth-first enumeration over a puzzle's layout."""

    def __init__(self, puzzle: Puzzle, limit: int | None) -> None:
        self.puzzle = puzzle
        self.layout = _layout(puzzle)
        self.board = board_for(puzzle)
        self.limit = limit
        self.found: list[Path] = []
        self.counts = [0] * len(self.layout.triangle_need)
        self.start = self.layout.bit(puzzle.start)
        self.end = self.layout.bit(puzzle.end)
        self.stride = self.layout.stride

    # --- regions ---------------------------------------------------------------------------

    def flood(self, seed: int, allowed: int) -> int:
        """Positions of `allowed` connected to `seed` (4-neighbourhood)."""
        stride = self.stride
        reach = front = seed & allowed
        while front:
            front = (
                ((front << 1) | (front >> 1) | (front << stride) | (front >> stride))
                & allowed
                & ~reach
            )
            reach |= front
        return reach

    def symbols_ok(self, region: int) -> bool:
        """Squares, stars and shapes of a final region (cached by its cells)."""
        layout = self.layout
        key = region & layout.cells
        cached = layout.region_cache.get(key)
        if cached is not None:
            return cached
        ok = self._symbols_ok(region)
        layout.region_cache[key] = ok
        return ok

    def _symbols_ok(self, region: int) -> bool:
        """Uncached square, star and polyshape rules of one region."""
        layout = self.layout
        if sum(1 for mask in layout.square_masks if region & mask) > 1:
            return False
        for star, same_color in layout.stars:
            if region & star and (region & same_color).bit_count() != 2:
                return False
        if region & layout.shapes:
            return self._shapes_ok(region)
        return True

    def _shapes_ok(self, region: int) -> bool:
        """Polyshape rule of one region, via the checker's fitting."""
        layout, board = self.layout, self.board
        cells: list[int] = []
        positive: list[str] = []
        negative: list[str] = []
        bits = region & layout.cells
        while bits:
            low = bits & -bits
            point = layout.point(low.bit_length() - 1)
            cells.append(board.cell_index(point))
            symbol = self.puzzle.symbols.get(point)
            if symbol is not None and symbol.shape_id is not None:
                (positive if symbol.kind == "polyshape" else negative).append(symbol.shape_id)
            bits ^= low
        problem = polyshape_problem(
            board, frozenset(cells), tuple(sorted(positive)), tuple(sorted(negative))
        )
        return not problem

    def triangles_ok(self, region: int) -> bool:
        """Every triangle of a final region has exactly its count of path edges."""
        layout = self.layout
        for number, bit in enumerate(layout.triangle_bits):
            if region & bit and self.counts[number] != layout.triangle_need[number]:
                return False
        return True

    def sealed_ok(self, sealed: int) -> bool:
        """Check every symbol-bearing component of a newly sealed area."""
        layout = self.layout
        while sealed & layout.symbols:
            low = sealed & layout.symbols
            low &= -low
            component = self.flood(low, sealed)
            sealed &= ~component
            if not (self.triangles_ok(component) and self.symbols_ok(component)):
                return False
        return True

    # --- path growth -----------------------------------------------------------------------

    def add_edge(self, index: int) -> bool:
        """Count an edge on the path for its triangles; False if one is over its number."""
        ok = True
        for number in self.layout.triangle_of_edge.get(index, ()):
            self.counts[number] += 1
            if self.counts[number] > self.layout.triangle_need[number]:
                ok = False
        return ok

    def remove_edge(self, index: int) -> None:
        """Undo `add_edge`."""
        for number in self.layout.triangle_of_edge.get(index, ()):
            self.counts[number] -= 1

    def finish(self, path: list[int], used: int, live: int) -> None:
        """Validate the remaining free space at E, confirm with `check`, record the path."""
        layout = self.layout
        if layout.dots & ~used:
            return
        if not self.sealed_ok(live & ~used):
            return
        points = tuple(layout.point(i) for i in path)
        if not check(self.puzzle, points).valid:
            return
        self.found.append(points)
        if self.limit is not None and len(self.found) >= self.limit:
            raise _Stop

    def step(self, path: list[int], used: int, live: int, touched: bool) -> None:
        """Having arrived at the last node of `path`, prune, then try every continuation."""
        layout = self.layout
        head = path[-1]
        if touched:
            free = live & ~used
            new_live = self.flood(1 << self.end, free)
            stride = self.stride
            head_bit = 1 << head
            around = (head_bit << 1) | (head_bit >> 1) | (head_bit << stride) | (head_bit >> stride)
            if not around & new_live:
                return
            if layout.dots & ~used & ~new_live:
                return
            if not self.sealed_ok(free & ~new_live):
                return
            live = new_live
        for delta in (1, -1, self.stride, -self.stride):
            edge = head + delta
            if edge < 0:
                continue
            edge_bit = 1 << edge
            if not layout.usable & edge_bit & live or used & edge_bit:
                continue
            if edge == self.end:
                self.walk_edge_to_end(path, used, live, edge)
                continue
            node = edge + delta
            if node < 0:
                continue
            node_bit = 1 << node
            if not layout.usable & node_bit or used & node_bit:
                continue
            if self.add_edge(edge):
                path += (edge, node)
                new_used = used | edge_bit | node_bit
                if node == self.end:
                    self.finish(path, new_used, live)
                else:
                    ring = layout.rings.get(node)
                    self.step(path, new_used, live, ring is not None and _splits(ring, new_used))
                del path[-2:]
            self.remove_edge(edge)

    def walk_edge_to_end(self, path: list[int], used: int, live: int, edge: int) -> None:
        """Finish on a mid-edge E."""
        if self.add_edge(edge):
            path.append(edge)
            self.finish(path, used | 1 << edge, live)
            path.pop()
        self.remove_edge(edge)

    def run(self) -> list[Path]:
        """Enumerate from S; S may be a node or a mid-edge on the border."""
        layout = self.layout
        start, start_bit = self.start, 1 << self.start
        live = layout.every
        try:
            if start_bit & layout.usable == 0:
                return []
            x, y = self.puzzle.start
            if x % 2 == 0 and y % 2 == 0:
                self.step([start], start_bit, live, True)
            else:
                self.add_edge(start)
                for delta in (1, -1, self.stride, -self.stride):
                    node = start + delta
                    if node < 0 or not layout.usable & 1 << node:
                        continue
                    node_bit = 1 << node
                    path = [start, node]
                    if node == self.end:
                        self.finish(path, start_bit | node_bit, live)
                    else:
                        self.step(path, start_bit | node_bit, live, True)
                self.remove_edge(start)
        except _Stop:
            pass
        return self.found


def solve(puzzle: Puzzle, limit: int | None = None) -> list[Path]:
    """Every rule-valid path of `puzzle` in a fixed depth-first order (at most `limit`)."""
    if limit is not None and limit <= 0:
        return []
    return _Search(puzzle, limit).run()


def iter_solutions(puzzle: Puzzle) -> Iterator[Path]:
    """The solutions of `puzzle` one by one (computed eagerly, then yielded)."""
    yield from solve(puzzle)
