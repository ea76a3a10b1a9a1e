"""Enumerate every rule-valid path of a SPaRC puzzle by pruned depth-first search.

The grid is held as Python int bitsets (one bit per grid position, rows padded by one column so
shifts never wrap). The path grows node by node; it never enters gaps, cells or visited
positions, and it stops at E. Pruning, all sound (it never drops a valid path):

- forced edges: the edge between side-by-side squares of two colours, and every edge of a
  triangle of 4, must be on the path; they are searched like dots (below);
- triangles: a cell whose touched-edge count already exceeds its number;
- reachability: the *live* region is the set of non-path positions connected to E; the head must
  border it and every unvisited dot must lie in it;
- lattice reachability: E and every unvisited dot must stay reachable from the head along free
  nodes and edges (an edge dot needs both its ends). The component of E among free nodes is
  carried down the search and flooded again only when the new head may be a cut vertex (its
  free neighbours are not joined around it: a per-node table of the 8 surrounding nodes);
- dead dots: an edge dot beside a node the path has passed can never be visited;
- sealed regions: positions that drop out of the live region are final (the path can never reach
  them again), so they are checked at once with the region rules (squares, stars, triangles,
  polyshapes). Free space can only split when the head reaches the border (a line that does not
  touch the border encloses nothing: the edge it cannot close stays open), so that flood fill runs
  only when the free positions around a border node fall into two or more arcs;
- excursions (unless S or E is a mid-edge inside the grid, where a path end can split a strip
  in two regions): between two border visits the path makes an excursion through the interior. Its
  left and right *strips* (the positions around its passed nodes) can never join the path, so
  each lies in one final region: a strip holding squares of two colours, or a star with more
  than two symbols of its colour, is dead at once. Landing at border node b seals the strip on
  one side together with the border arc from the excursion's start to b that avoids E, so b is
  a *wall* when that arc holds an unvisited dot or its cells and the strip break the square or
  star rule. The head never steps onto a wall and must still reach a landing that is not one.
  With E on the border every excursion ends on it, so its two strips end in different
  regions: a star whose colour has only one other symbol in the puzzle is dead once the two lie
  on the two strips.
- lonely stars: a star's region lies within the live cells (off the other strip, for a star on a
  strip when E is on the border), so it is dead once fewer than two symbols of its colour are
  left there; checked for every live star whenever a region is sealed, and for the strips' stars
  at every excursion node.
- area walls (polyshapes, no ylops): the side sealed by landing at b also holds every live cell
  beside the border arc (path or not) and the live side of each finished excursion with both
  ends on the arc (`blocks`); it lies within the live cells off the other strip and off the
  rest of the border. If it holds a shape, its cell count must equal the shapes' area, so b is
  a wall when even every shape it could take in cannot make up the known cells, or its known
  shapes outgrow its room, or when it seals a star in with fewer than two of its colour in room
  (or a star's only partner without the star).

Regions with polyshapes (no ylops) are tiled on cell bitmasks, cached per region and shape set.

Every path found is confirmed by `inspect_sparc.core.rules.check`, the single arbiter. Pure logic.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspect_sparc.core.puzzle import Path, Point, Puzzle
from inspect_sparc.core.rules import board_for, check, polyshape_problem, shape_offsets

#: A move from a node: (edge bit index, edge bit, node bit index or -1 when the edge is E, node
#: bit, triangle numbers the edge touches, (ring mask, split table) of the node when on the border).
_Move = tuple[int, int, int, int, tuple[int, ...], tuple[int, dict[int, bool]]]


class _Areas(dict[int, int]):
    """Total area of a set of polyshapes (a mask of their cells), filled in on first use."""

    def __init__(self, sizes: dict[int, int]) -> None:
        super().__init__()
        self.sizes = sizes  # shape bit -> its size

    def __missing__(self, shapes: int) -> int:
        total, bits = 0, shapes
        while bits:
            low = bits & -bits
            total += self.sizes[low]
            bits ^= low
        self[shapes] = total
        return total


#: A landing for the area rule: (its bit, cells known to be sealed with it, cells that may be).
_Landing = tuple[int, int, int]


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
    dots: int  # dots, and edges that must be on the path as if they held one
    border_nodes: int
    rings: dict[int, tuple[int, dict[int, bool]]]  # border node -> (ring mask, split table)
    triangle_of_edge: dict[int, tuple[int, ...]]  # edge bit index -> triangle numbers
    triangle_bits: list[int]
    triangle_need: list[int]
    square_masks: list[int]
    stars: list[tuple[int, int]]  # (star bit, mask of symbols of its colour)
    shapes: int
    shape_area: dict[int, int] = field(default_factory=dict)  # shape bit -> +size or -size
    pairs: list[int] = field(default_factory=list)  # a star and the one other of its colour
    star_bits: int = 0  # every star
    star_color: dict[int, int] = field(default_factory=dict)  # star bit -> symbols of its colour
    pair_bits: int = 0  # every symbol in `pairs`
    shape_of: dict[int, str] = field(default_factory=dict)  # shape bit -> its shape id
    #: shape id -> {anchor cell bit index: mask of the translate whose first cell is there}
    placement_at: dict[str, dict[int, int]] = field(default_factory=dict)
    tile_cache: dict[tuple[int, tuple[tuple[str, int], ...]], bool] = field(default_factory=dict)
    region_cache: dict[int, bool] = field(default_factory=dict)
    around: dict[int, int] = field(default_factory=dict)  # node -> its 4 neighbouring positions
    nodes: int = 0  # usable nodes
    usable_points: set[Point] = field(default_factory=set)  # usable positions, as points
    right_ok: int = 0  # usable nodes whose right edge and right neighbour are usable
    down_ok: int = 0  # usable nodes whose lower edge and lower neighbour are usable
    link: dict[int, int] = field(default_factory=dict)  # node -> nodes one usable edge away
    cut_tables: dict[int, tuple[int, _CutTable]] = field(default_factory=dict)
    end_seeds: int = 0  # E, or the usable ends of E when E is an edge
    end_nodes: int = 0  # the nodes next to E when E is an edge
    moves: dict[int, tuple[_Move, ...]] = field(default_factory=dict)
    perimeter: tuple[int, ...] = ()  # border positions in clockwise order
    perimeter_at: dict[int, int] = field(default_factory=dict)  # border position -> its place
    #: (border node, +1 clockwise or -1) -> the border positions after it that way, once round,
    #: as (position, its bit, its cell or 0 for a node, that cell's border edges); lazy
    walks: dict[tuple[int, int], tuple[tuple[int, int, int, int], ...]] = field(
        default_factory=dict
    )
    perimeter_mask: int = 0
    perimeter_cell: dict[int, int] = field(default_factory=dict)  # border edge -> its cell
    sides: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    cw_left: dict[tuple[int, int], bool] = field(default_factory=dict)
    walls_cache: dict[tuple[int, int, int, int], int | None] = field(default_factory=dict)
    # Area bound on landings (only when the puzzle has polyshapes and no ylops):
    area_rule: bool = False  # polyshapes, no ylops and E on the border (and `strips`)
    #: Excursion strips are sound: neither S nor E is a mid-edge inside the grid (see `_layout`)
    strips: bool = True
    border_cells: int = 0  # cells with a border edge
    border_edges_of: dict[int, int] = field(default_factory=dict)  # border cell -> its edges
    area_tables: dict[tuple[int, ...], tuple[tuple[_Landing, ...], tuple[_Landing, ...]]] = field(
        default_factory=dict
    )
    area_of: _Areas = field(default_factory=lambda: _Areas({}))  # shapes -> their total area
    conflict_cache: dict[int, bool] = field(default_factory=dict)

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
                layout.usable_points.add(point)
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
            size = sum(map(sum, puzzle.polyshapes[symbol.shape_id or ""]))
            layout.shape_area[1 << index] = size if symbol.kind == "polyshape" else -size
            layout.shape_of[1 << index] = symbol.shape_id or ""
        elif symbol.kind == "triangle":
            triangles.append(point)
    for point, symbol in puzzle.symbols.items():
        if symbol.kind == "star":
            layout.stars.append((1 << layout.bit(point), color_masks[symbol.color]))
            layout.star_bits |= 1 << layout.bit(point)
            layout.star_color[1 << layout.bit(point)] = color_masks[symbol.color]
            if color_masks[symbol.color].bit_count() == 2:
                layout.pairs.append(color_masks[symbol.color])
                layout.pair_bits |= color_masks[symbol.color]
    layout.square_masks = list(squares_by_color.values())
    dots = layout.dots
    for (x, y), symbol in puzzle.symbols.items():
        for dx, dy in ((2, 0), (0, 2)):
            other = puzzle.symbols.get((x + dx, y + dy))
            if (
                symbol.kind == "square"
                and other is not None
                and other.kind == "square"
                and other.color != symbol.color
            ):
                # Squares of two colours side by side: the edge between them must be on the
                # path (else they share a region), so it is searched like a dot.
                layout.dots |= 1 << layout.bit((x + dx // 2, y + dy // 2))
        if symbol.kind == "triangle" and symbol.triangle_count == 4:
            for edge in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                layout.dots |= 1 << layout.bit(edge)  # all four edges are on the path
    # S and E lie on every path: never search them like dots (an edge dot needs both ends free).
    layout.dots = dots | layout.dots & ~(
        1 << layout.bit(puzzle.start) | 1 << layout.bit(puzzle.end)
    )
    for shape_id in {layout.shape_of[bit] for bit in layout.shape_of}:
        layout.placement_at[shape_id] = _placements(layout, shape_id)
    for number, (x, y) in enumerate(sorted(triangles, key=lambda p: (p[1], p[0]))):
        layout.triangle_bits.append(1 << layout.bit((x, y)))
        layout.triangle_need.append(puzzle.symbols[(x, y)].triangle_count)
        for edge in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            key = layout.bit(edge)
            layout.triangle_of_edge[key] = layout.triangle_of_edge.get(key, ()) + (number,)
    for y in range(0, puzzle.rows, 2):
        for x in range(0, puzzle.columns, 2):
            if layout.border_nodes & 1 << layout.bit((x, y)):
                layout.rings[layout.bit((x, y))] = _split_table(_ring(layout, (x, y)))
    for y in range(0, puzzle.rows, 2):
        for x in range(0, puzzle.columns, 2):
            _add_moves(layout, (x, y))
    last_x, last_y = puzzle.columns - 1, puzzle.rows - 1
    cycle = (
        [(x, 0) for x in range(last_x)]
        + [(last_x, y) for y in range(last_y)]
        + [(x, last_y) for x in range(last_x, 0, -1)]
        + [(0, y) for y in range(last_y, 0, -1)]
    )
    layout.perimeter = tuple(layout.bit(p) for p in cycle)
    for number, index in enumerate(layout.perimeter):
        layout.perimeter_mask |= 1 << index
        layout.perimeter_at[index] = number
    for number, (x, y) in enumerate(cycle):
        if (x + y) % 2:
            cell = next(
                c
                for c in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
                if puzzle.in_grid(c) and Puzzle.is_cell(c)
            )
            cell_bit = 1 << layout.bit(cell)
            layout.perimeter_cell[layout.perimeter[number]] = cell_bit
            layout.border_cells |= cell_bit
            layout.border_edges_of[cell_bit] = (
                layout.border_edges_of.get(cell_bit, 0) | 1 << layout.perimeter[number]
            )
    # A strip (the cells along one side of an excursion) is one region only if no path end cuts
    # it: a node S or E does not (cells meet across edges), but a mid-edge S or E inside the grid
    # ends the path between two cells of the strip, which may then lie in two regions.
    layout.strips = not any(
        (x + y) % 2 and 0 < x < puzzle.columns - 1 and 0 < y < puzzle.rows - 1
        for x, y in (puzzle.start, puzzle.end)
    )
    layout.area_rule = (
        layout.strips
        and bool(layout.shapes)
        and min(layout.shape_area.values()) > 0
        and bool(layout.perimeter_mask >> layout.bit(puzzle.end) & 1)
    )
    layout.area_of = _Areas(layout.shape_area)
    for y in range(0, puzzle.rows, 2):
        for x in range(0, puzzle.columns, 2):
            _add_sides(layout, (x, y))
    _add_lattice(layout)
    return layout


def _add_walk(layout: _Layout, touch: int, direction: int) -> tuple[tuple[int, int, int, int], ...]:
    """Fill in `walks` for one border node and direction (see `_Layout.walks`)."""
    perimeter = layout.perimeter
    size, number = len(perimeter), layout.perimeter_at[touch]
    steps = []
    for k in range(1, size):
        index = perimeter[(number + direction * k) % size]
        cell = layout.perimeter_cell.get(index, 0)
        steps.append((index, 1 << index, cell, layout.border_edges_of.get(cell, 0)))
    walk = tuple(steps)
    layout.walks[(touch, direction)] = walk
    return walk


def _placements(layout: _Layout, shape_id: str) -> dict[int, int]:
    """Every translate of a shape inside the grid, as a cell mask keyed by its first cell."""
    puzzle = layout.puzzle
    offsets = shape_offsets(puzzle.polyshapes[shape_id])
    found = {}
    for ay in range(puzzle.height):
        for ax in range(puzzle.width):
            cells = [(ax + dx, ay + dy) for dx, dy in offsets]
            if all(0 <= x < puzzle.width and 0 <= y < puzzle.height for x, y in cells):
                mask = sum(1 << layout.bit((2 * x + 1, 2 * y + 1)) for x, y in cells)
                found[layout.bit((2 * ax + 1, 2 * ay + 1))] = mask
    return found


def _add_lattice(layout: _Layout) -> None:
    """Node-lattice masks for reachability: links, E's seeds and per-node cut tables."""
    puzzle = layout.puzzle
    for y in range(0, puzzle.rows, 2):
        for x in range(0, puzzle.columns, 2):
            index = layout.bit((x, y))
            if not layout.usable >> index & 1:
                continue
            layout.nodes |= 1 << index
            link = 0
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if _linked(layout, (x, y), (x + 2 * dx, y + 2 * dy)):
                    link |= 1 << layout.bit((x + 2 * dx, y + 2 * dy))
            layout.link[index] = link
            if _linked(layout, (x, y), (x + 2, y)):
                layout.right_ok |= 1 << index
            if _linked(layout, (x, y), (x, y + 2)):
                layout.down_ok |= 1 << index
            layout.cut_tables[index] = _cut_table(layout, (x, y))
    ex, ey = puzzle.end
    if ex % 2 == 0 and ey % 2 == 0:
        layout.end_seeds = 1 << layout.bit(puzzle.end)
    else:
        for node in ((ex - 1, ey), (ex + 1, ey), (ex, ey - 1), (ex, ey + 1)):
            if puzzle.in_grid(node) and node[0] % 2 == 0 and node[1] % 2 == 0:
                layout.end_nodes |= 1 << layout.bit(node)
        layout.end_seeds = layout.end_nodes & layout.nodes


def _linked(layout: _Layout, a: Point, b: Point) -> bool:
    """True if nodes `a` and `b` are in the grid, usable and joined by a usable edge."""
    points = layout.usable_points
    edge = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    return a in points and b in points and edge in points and edge != layout.puzzle.end


class _CutTable(dict[int, bool]):
    """For each way the 8 lattice nodes around a node can be blocked: may the node cut?

    Removing the node keeps every other node's connectivity when its free neighbours are joined
    to each other around it (through the ring of 8 surrounding nodes); otherwise it may cut, and
    the caller floods again. Keyed by `blocked & mask`; entries are filled in on first use (a
    puzzle meets only a few of the 256 patterns per node, and small puzzles must stay cheap).
    """

    def __init__(self, ring: list[int], around: list[bool], links: list[bool]) -> None:
        super().__init__()
        self.ring = ring  # bit index of each ring node, -1 when absent (off grid or unusable)
        self.around = around  # ring[k] joined to ring[k + 1] by a usable edge
        self.links = links  # the node joined to ring[0], ring[2], ring[4], ring[6]
        self.mask = sum(1 << index for index in ring if index >= 0)

    def __missing__(self, blocked: int) -> bool:
        free = [index >= 0 and not blocked >> index & 1 for index in self.ring]
        group = list(range(8))
        for k in range(8):
            after = (k + 1) % 8
            if free[k] and free[after] and self.around[k]:
                old, new = group[after], group[k]
                group = [new if g == old else g for g in group]
        neighbours = {group[k] for k in range(0, 8, 2) if free[k] and self.links[k // 2]}
        cuts = len(neighbours) > 1
        self[blocked] = cuts
        return cuts


def _cut_table(layout: _Layout, node: Point) -> tuple[int, _CutTable]:
    """The ring mask and (lazy) cut table of one node, from its static neighbourhood."""
    x, y = node
    points = [(x + 2 * dx, y + 2 * dy) for dx, dy in _RING]
    ring = [layout.bit(p) if _linked(layout, p, p) else -1 for p in points]
    around = [_linked(layout, points[k], points[(k + 1) % 8]) for k in range(8)]
    links = [_linked(layout, node, points[k]) for k in range(0, 8, 2)]
    table = _CutTable(ring, around, links)
    return table.mask, table


_RING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def _add_sides(layout: _Layout, node: Point) -> None:
    """Record, for every way through a node, the positions around it on each side of the path.

    Keyed by (incoming edge, outgoing edge); a path's first node has no incoming edge and
    uses ~node instead. Walking the ring of 8 positions from the
    outgoing edge away from it, "left" goes against ring order (ring order is clockwise on screen),
    "right" with it; each walk stops at the incoming edge or the grid's edge. For a border node
    also record whether the clockwise border direction lies on the left of the outgoing edge.
    """
    puzzle = layout.puzzle
    x, y = node
    ring = [
        layout.bit((x + dx, y + dy)) if puzzle.in_grid((x + dx, y + dy)) else -1 for dx, dy in _RING
    ]
    index = layout.bit(node)
    position = layout.perimeter.index(index) if index in layout.perimeter else -1
    for out in range(0, 8, 2):
        if ring[out] < 0:
            continue
        for incoming in (-1, 0, 2, 4, 6):
            if incoming == out or (incoming >= 0 and ring[incoming] < 0):
                continue
            masks = []
            for direction in (-1, 1):
                mask, k = 0, (out + direction) % 8
                while k != incoming and k != out and ring[k] >= 0:
                    mask |= 1 << ring[k]
                    k = (k + direction) % 8
                masks.append(mask)
            key = (ring[incoming] if incoming >= 0 else ~index, ring[out])
            layout.sides[key] = (masks[0], masks[1])
        if position >= 0:
            dx, dy = _RING[out]
            cx, cy = layout.point(layout.perimeter[(position + 1) % len(layout.perimeter)])
            cx, cy = cx - x, cy - y
            layout.cw_left[(index, ring[out])] = cx * dy - cy * dx > 0


def _add_moves(layout: _Layout, point: Point) -> None:
    """Record the moves and neighbouring positions of one node (or a mid-edge S)."""
    puzzle = layout.puzzle
    x, y = point
    index = layout.bit(point)
    moves = []
    around = 0
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        edge, node = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
        if not puzzle.in_grid(edge):
            continue
        around |= 1 << layout.bit(edge)
        if edge in puzzle.gaps or Puzzle.is_cell(edge):
            continue
        triangles = layout.triangle_of_edge.get(layout.bit(edge), ())
        if edge == puzzle.end:
            moves.append((layout.bit(edge), 1 << layout.bit(edge), -1, 0, triangles, (0, {})))
        elif layout.usable >> layout.bit(node) & 1 if puzzle.in_grid(node) else False:
            node_index = layout.bit(node)
            ring = layout.rings.get(node_index, (0, {}))
            moves.append(
                (
                    layout.bit(edge),
                    1 << layout.bit(edge),
                    node_index,
                    1 << node_index,
                    triangles,
                    ring,
                )
            )
    layout.around[index] = around
    layout.moves[index] = tuple(moves)


def _ring(layout: _Layout, node: Point) -> tuple[int, ...]:
    """The 8 positions around a node in cyclic order (edges and cells), -1 where off the grid."""
    x, y = node
    around = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
    return tuple(
        layout.bit((x + dx, y + dy)) if layout.puzzle.in_grid((x + dx, y + dy)) else -1
        for dx, dy in around
    )


class _SplitTable(dict[int, bool]):
    """`_splits` of one ring for each way the path occupies it (keyed by `used & mask`), filled
    in on first use: a puzzle meets only a few patterns, and small puzzles must stay cheap."""

    def __init__(self, ring: tuple[int, ...]) -> None:
        super().__init__()
        self.ring = ring

    def __missing__(self, used: int) -> bool:
        splits = _splits(self.ring, used)
        self[used] = splits
        return splits


def _split_table(ring: tuple[int, ...]) -> tuple[int, dict[int, bool]]:
    """The ring's mask and its (lazy) `_splits` table, looked up per move."""
    mask = sum(1 << index for index in ring if index >= 0)
    return mask, _SplitTable(ring)


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
        self.end_bit = 1 << self.end
        #: Border node -> (other end, cells) of finished excursions that end there: the cells
        #: beside each on the side that stayed live (see `_landings`).
        self.blocks: dict[int, list[tuple[int, int]]] = {}
        self.blocks_key: tuple[int, ...] = ()

    # --- regions ---------------------------------------------------------------------------

    def flood(self, seed: int, allowed: int) -> int:
        """Positions of `allowed` connected to `seed` (4-neighbourhood).

        Each round also fills whole runs towards higher bits along rows in one addition (the
        carry runs through a row's allowed positions and stops at the first disallowed one; the
        padding column keeps it inside the row), which saves most horizontal rounds.
        """
        stride = self.stride
        reach = seed & allowed
        while True:
            grown = (
                (allowed & ~(allowed + reach))
                | reach
                | ((reach >> 1) | (reach << stride) | (reach >> stride)) & allowed
            )
            if grown == reach:
                return reach
            reach = grown

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
        """Polyshape rule of one region: net area first (cheap), then an exact tiling.

        Without ylops the region must be tiled by translates of its shapes; that runs on cell
        bitmasks here (`_tile`). With ylops the checker's own fitting decides.
        """
        layout = self.layout
        net, bits, negative = 0, region & layout.shapes, False
        while bits:
            low = bits & -bits
            size = layout.shape_area[low]
            net += size
            negative = negative or size < 0
            bits ^= low
        cells = region & layout.cells
        if net < 0 or (net > 0 and net != cells.bit_count()):
            return False
        if not negative:
            shapes: dict[str, int] = {}
            bits = region & layout.shapes
            while bits:
                low = bits & -bits
                shape_id = layout.shape_of[low]
                shapes[shape_id] = shapes.get(shape_id, 0) + 1
                bits ^= low
            return self._tile(cells, tuple(sorted(shapes.items())))
        return self._fits_with_ylops(region)

    def _tile(self, cells: int, shapes: tuple[tuple[str, int], ...]) -> bool:
        """True if translates of `shapes` ((shape id, count) pairs) tile `cells` exactly.

        The lowest remaining cell (first in reading order) must be some shape's first cell, so
        each level tries one placement per shape kind (precomputed masks, `placement_at`).
        """
        if not cells:
            return not shapes
        key = (cells, shapes)
        cache = self.layout.tile_cache
        cached = cache.get(key)
        if cached is not None:
            return cached
        anchor = (cells & -cells).bit_length() - 1
        fits = False
        for number, (shape_id, count) in enumerate(shapes):
            mask = self.layout.placement_at[shape_id].get(anchor)
            if mask is None or mask & ~cells:
                continue
            rest = (
                shapes[:number] + ((shape_id, count - 1),) + shapes[number + 1 :]
                if count > 1
                else shapes[:number] + shapes[number + 1 :]
            )
            if self._tile(cells & ~mask, rest):
                fits = True
                break
        cache[key] = fits
        return fits

    def _fits_with_ylops(self, region: int) -> bool:
        """The checker's polyshape fitting, for a region holding ylops."""
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
        if not check(self.puzzle, points, self.board).valid:
            return
        self.found.append(points)
        if self.limit is not None and len(self.found) >= self.limit:
            raise _Stop

    def stars_ok(self, room: int, within: int) -> bool:
        """False if a star of `within` (every star in `room` when 0) has fewer than two symbols
        of its colour (itself included) left in `room`, the cells its region can still hold."""
        layout = self.layout
        stars = (within or room) & layout.star_bits
        while stars:
            star = stars & -stars
            if (room & layout.star_color[star]).bit_count() < 2:
                return False
            stars ^= star
        return True

    def conflict(self, group: int) -> bool:
        """True if positions bound to share one region already break the square or star rule."""
        layout = self.layout
        group &= layout.symbols
        cached = layout.conflict_cache.get(group)
        if cached is None:
            cached = sum(1 for mask in layout.square_masks if group & mask) > 1 or any(
                group & star and (group & same_color).bit_count() > 2
                for star, same_color in layout.stars
            )
            layout.conflict_cache[group] = cached
        return cached

    def landing_walls(self, touch: int, free: int, cw: int, ccw: int) -> int | None:
        """Border nodes where the excursion that left the border at `touch` may not land.

        Landing at border node b seals the side bounded by the excursion and the border arc from
        `touch` to b that avoids E: every free live position on that arc, and the excursion's
        strip on that side (`cw` or `ccw`), end up in one region. So b is a wall when that arc
        holds an unvisited dot before b, or when the arc's cells and the strip already break the
        square or star rule. None when a strip alone breaks them (no landing can help).
        `free` is the live free set; walls are 0 (no pruning) when E is not on the border.
        """
        layout = self.layout
        perimeter = layout.perimeter_mask
        key = (touch, free & perimeter, cw & layout.symbols, ccw & layout.symbols)
        if key in layout.walls_cache:
            return layout.walls_cache[key]
        walls: int | None = 0
        on_border = (1 << self.end) & perimeter
        if (
            self.conflict(cw)
            or self.conflict(ccw)
            or on_border
            and any(cw & pair and ccw & pair for pair in layout.pairs)
        ):
            walls = None  # also: a star and its only partner on the two sides of a cut
        elif on_border:
            allowed = self._landings(touch, free, cw, 1) | self._landings(touch, free, ccw, -1)
            walls = layout.border_nodes & ~allowed
        layout.walls_cache[key] = walls
        return walls

    def _landings(self, touch: int, free: int, group: int, direction: int) -> int:
        """Border nodes reachable from `touch` along the border in `direction` (see walls)."""
        layout = self.layout
        end, nodes, dots = self.end, layout.border_nodes, layout.dots
        allowed = 0
        walk = layout.walks.get((touch, direction)) or _add_walk(layout, touch, direction)
        for index, bit, _, _ in walk:
            if index == end:
                allowed |= bit & nodes
                break
            if not free & bit:
                continue
            if bit & nodes:
                allowed |= bit
            else:
                group |= layout.perimeter_cell[index]
                if self.conflict(group):
                    break
            if bit & dots:
                break
        return allowed

    def area_walls(self, touch: int, free: int, cw: int, ccw: int, walls: int) -> int:
        """Add to `walls` the landings whose sealed side cannot meet the polyshape area rule.

        The side sealed by landing at b holds the strip on that side and the known cells of
        the border arc from `touch` to b (see `_area_table`); it lies within the live cells off
        the other strip and off the rest of the border. When it holds a shape, its cell count
        must equal its shapes' total area (there are no ylops): the count is at least its known
        cells plus one for each further shape it takes in, the area at most that of every shape
        it can hold, and the area of its known shapes at most its room. Walls only grow with
        the strips, so those of the node before (`walls`) are kept.
        """
        layout = self.layout
        cells, shapes, area_of = layout.cells, layout.shapes, layout.area_of
        star_bits, pairs, pair_bits = layout.star_bits, layout.pairs, layout.pair_bits
        star_color, star_pair_bits = layout.star_color, layout.star_bits | layout.pair_bits
        free_cells = free & cells
        key = (touch, free & (layout.perimeter_mask | cells), self.blocks_key)
        tables = layout.area_tables.get(key)
        if tables is None:
            tables = self._area_table(touch, free, 1), self._area_table(touch, free, -1)
            layout.area_tables[key] = tables
        for strip, other, entries in ((cw, ccw, tables[0]), (ccw, cw, tables[1])):
            group = strip & cells
            open_cells = free_cells & ~other
            for bit, arc, inside in entries:
                if walls & bit:
                    continue
                known = group | arc
                known_shapes = known & shapes
                if known & star_pair_bits:
                    room = open_cells & inside | known
                    lonely = False
                    sealed_stars = known & star_bits
                    while sealed_stars:
                        star = sealed_stars & -sealed_stars
                        if (room & star_color[star]).bit_count() < 2:
                            lonely = True
                            break
                        sealed_stars ^= star
                    if not lonely and known & pair_bits:
                        for pair in pairs:
                            if known & pair and pair & ~room:
                                lonely = True
                                break
                    if lonely:
                        walls |= bit  # a star (or its only partner) sealed in without the other
                        continue
                if not known_shapes:
                    continue
                room = open_cells & inside | known
                room_shapes = room & shapes
                if (known | room_shapes).bit_count() > area_of[room_shapes] or area_of[
                    known_shapes
                ] > room.bit_count():
                    walls |= bit
        return walls

    def _area_table(self, touch: int, free: int, direction: int) -> tuple[_Landing, ...]:
        """(landing bit, known cells, possible cells) for the landings from `touch` one way.

        Walking the border from `touch` in `direction` up to E or an unvisited dot, the known
        cells of landing b's sealed side are the live cells beside the arc's border edges (free
        or on the path) and the live side of each finished excursion with both ends on the arc
        (`blocks`); a border cell with an edge beyond b lies outside it.
        """
        layout = self.layout
        end, nodes, dots = self.end, layout.border_nodes, layout.dots
        blocks = self.blocks
        walked, outside, known = 1 << touch, layout.border_cells, 0
        entries = []
        walk = layout.walks.get((touch, direction)) or _add_walk(layout, touch, direction)
        for index, bit, cell, cell_edges in walk:
            if index == end:
                if bit & nodes:
                    entries.append((bit, known, ~outside))
                break
            walked |= bit
            if blocks and index in blocks:
                for other_end, block in blocks[index]:
                    if walked >> other_end & 1:
                        known |= block & free
            if not cell:
                if free & bit:
                    entries.append((bit, known, ~outside))
            else:
                known |= cell & free
                if not cell_edges & ~walked:
                    outside &= ~cell
            if free & bit & dots:
                break
        return tuple(entries)

    def node_flood(self, seed: int, allowed: int) -> int:
        """Nodes of `allowed` joined to `seed` along usable edges (lattice reachability)."""
        layout = self.layout
        right, down, rows = layout.right_ok, layout.down_ok, 2 * self.stride
        reach = seed & allowed
        while True:
            grown = reach | allowed & (
                (reach & right) << 2
                | (reach >> 2) & right
                | (reach & down) << rows
                | (reach >> rows) & down
            )
            if grown == reach:
                return reach
            reach = grown

    def dots_reachable(self, reach: int, used: int, head_bit: int) -> bool:
        """Every unvisited dot can still be visited: a node dot lies in `reach`, an edge dot has
        both ends in `reach` or at the head (the path must run through it end to end)."""
        layout = self.layout
        dots = layout.dots & ~used
        if dots & layout.nodes & ~reach:
            return False
        if dots & ~layout.nodes:
            ends = reach | head_bit
            stride = self.stride
            through = (ends & ends >> 2) << 1 | (ends & ends >> 2 * stride) << stride
            if dots & ~layout.nodes & ~through:
                return False
        return True

    def register(self, touch: int, landing: int, cw: int, ccw: int) -> None:
        """Record the live side's cells of the excursion from `touch` that landed here."""
        at = self.layout.perimeter_at
        size = len(at)
        start = at[touch]
        ahead = (at[landing] - start) % size
        sealed_cw = ahead < (at[self.end] - start) % size
        cells = (ccw if sealed_cw else cw) & self.layout.cells
        for one, other in ((touch, landing), (landing, touch)):
            self.blocks.setdefault(one, []).append((other, cells))
        self.blocks_key += (touch, landing, cells)

    def unregister(self, touch: int, landing: int) -> None:
        """Undo `register`."""
        for one in (touch, landing):
            self.blocks[one].pop()
            if not self.blocks[one]:
                del self.blocks[one]
        self.blocks_key = self.blocks_key[:-3]

    def step(
        self,
        path: list[int],
        used: int,
        live: int,
        split: bool,
        reach: int = -1,
        touch: int = -1,
        cw: int = 0,
        ccw: int = 0,
        cw_left: bool = True,
        walls_above: int = -1,
        wall_reach: int = -1,
    ) -> None:
        """Having arrived at the last node of `path`, prune, then try every continuation.

        `reach` is the lattice component of E among free nodes as of the previous node (-1:
        unknown); it only needs a new flood when the head may be a cut vertex. `touch` is the
        border node the current excursion left from (-1 before the path first meets the
        border), `cw`/`ccw` the excursion's strips on the side of the clockwise and
        counter-clockwise border arcs (`cw_left`: the clockwise side is the path's left),
        `walls_above` the landing walls the previous node was checked against (-1: none) and
        `wall_reach` the free nodes that could reach a landing then.
        """
        layout = self.layout
        head = path[-1]
        head_bit = 1 << head
        on_border = head_bit & layout.border_nodes
        ring_mask, may_cut = layout.cut_tables[head]
        if split:
            free = live & ~used
            live = self.flood(self.end_bit, free)
            if not layout.around[head] & live or layout.dots & ~used & ~live:
                return
            if not self.sealed_ok(free & ~live) or not self.stars_ok(live, 0):
                return
        if split or reach < 0 or may_cut[used & ring_mask]:
            reach = self.node_flood(layout.end_seeds, layout.nodes & ~used)
            if not self.dots_reachable(reach, used, head_bit):
                return
        else:
            reach &= ~head_bit
        if not (layout.link[head] & reach or head_bit & layout.end_nodes):
            return
        registered = on_border and touch >= 0 and layout.area_rule
        if registered:
            self.register(touch, head, cw, ccw)
        walls = -1
        if not on_border and touch >= 0 and layout.strips:
            walls = self.landing_walls(touch, live & ~used, cw, ccw)
            if walls is None:
                return
            if (cw | ccw) & layout.star_bits and self.end_bit & layout.perimeter_mask:
                # With E on the border the two strips end in different regions.
                if not (self.stars_ok(live & ~ccw, cw) and self.stars_ok(live & ~cw, ccw)):
                    return
            if layout.area_rule:
                walls = self.area_walls(touch, live & ~used, cw, ccw, walls | max(walls_above, 0))
            if walls:
                if walls != walls_above or wall_reach < 0 or may_cut[(used | walls) & ring_mask]:
                    free_nodes = layout.nodes & ~used & ~walls
                    wall_reach = self.node_flood(layout.border_nodes & free_nodes, free_nodes)
                else:
                    wall_reach &= ~head_bit
                if not layout.link[head] & wall_reach:
                    return
        counts, need, end = self.counts, layout.triangle_need, self.end
        incoming = path[-2] if len(path) > 1 else ~head
        sides, dots = layout.sides, layout.dots
        blocked = used | walls if walls > 0 else used  # landing on a wall is doomed
        for edge, edge_bit, node, node_bit, triangles, (ring, table) in layout.moves[head]:
            if used & edge_bit or not live & edge_bit:
                continue
            if edge != end and blocked & node_bit:
                continue
            fits = True
            for number in triangles:
                counts[number] += 1
                if counts[number] > need[number]:
                    fits = False
            if fits:
                if edge == end:
                    path.append(edge)
                    self.finish(path, used | edge_bit, live)
                    path.pop()
                else:
                    path += (edge, node)
                    new_used = used | edge_bit | node_bit
                    left, right = sides[(incoming, edge)]
                    if (left | right) & dots & ~new_used:
                        pass  # a dot beside the finished node can no longer be reached
                    elif node == end:
                        self.finish(path, new_used, live)
                    else:
                        if on_border:
                            child_left = layout.cw_left.get((head, edge), True)
                            child_cw, child_ccw = (left, right) if child_left else (right, left)
                        else:
                            child_left = cw_left
                            child_cw = cw | (left if cw_left else right)
                            child_ccw = ccw | (right if cw_left else left)
                        self.step(
                            path,
                            new_used,
                            live,
                            ring and table[new_used & ring],
                            reach,
                            head if on_border else touch,
                            child_cw,
                            child_ccw,
                            child_left,
                            walls,
                            wall_reach,
                        )
                    del path[-2:]
            for number in triangles:
                counts[number] -= 1
        if registered:
            self.unregister(touch, head)

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


def solve(puzzle: Puzzle, limit: int | None = None, *, engine: str | None = None) -> list[Path]:
    """Every rule-valid path of `puzzle` (at most `limit`), in depth-first order: from each node
    the moves are tried right, left, down, up, so a smaller `limit` gives a prefix.

    `engine` is "python" (this module), "compiled" (`search_compiled`, needs numba) or None: the
    ``INSPECT_SPARC_SEARCH`` variable decides, by default "auto" (compiled when numba is
    installed). Both give the same paths in the same order; a grid too large for the compiled
    engine's masks always runs here.
    """
    from inspect_sparc.core import search_compiled

    if limit is not None and limit <= 0:
        return []
    if search_compiled.use_compiled(engine) and search_compiled.fits(puzzle):
        return search_compiled.solve_compiled(puzzle, limit)
    return _Search(puzzle, limit).run()
