"""The search's layout of one puzzle: bit positions, masks and tables both engines read.

Positions are bits of a Python int (index = y * stride + x, stride = columns + 1: the padding
column keeps row shifts from wrapping). `build_layout` computes everything that depends on the
puzzle alone (moves, forced edges, triangles, the border walk, the sides of the path through
each node, lattice links and cut tables); the pure engine (`python`) reads it directly, the
compiled one (`compiled`) converts it once into numpy tables. Each `_add_*` step fills part
of one `Layout` from what the steps before it set; they stay in this one module (about 500
lines) because both engines read that one object. Pure logic, no Inspect import.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspect_sparc.core.puzzle.parse import Point, Puzzle
from inspect_sparc.core.puzzle.rules import shape_offsets

#: A move from a node: (edge bit index, edge bit, node bit index or -1 when the edge is E, node
#: bit, triangle numbers the edge touches, (ring mask, split table) of the node when on the border).
Move = tuple[int, int, int, int, tuple[int, ...], tuple[int, dict[int, bool]]]


class Areas(dict[int, int]):
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
Landing = tuple[int, int, int]


@dataclass
class Layout:
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
    around: dict[int, int] = field(default_factory=dict)  # node -> its 4 neighbouring positions
    nodes: int = 0  # usable nodes
    usable_points: set[Point] = field(default_factory=set)  # usable positions, as points
    right_ok: int = 0  # usable nodes whose right edge and right neighbour are usable
    down_ok: int = 0  # usable nodes whose lower edge and lower neighbour are usable
    link: dict[int, int] = field(default_factory=dict)  # node -> nodes one usable edge away
    cut_tables: dict[int, tuple[int, CutTable]] = field(default_factory=dict)
    end_seeds: int = 0  # E, or the usable ends of E when E is an edge
    end_nodes: int = 0  # the nodes next to E when E is an edge
    moves: dict[int, tuple[Move, ...]] = field(default_factory=dict)
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
    # Area bound on landings (only when the puzzle has polyshapes and no ylops):
    area_rule: bool = False  # polyshapes, no ylops and E on the border (and `strips`)
    #: Excursion strips are sound: no mid-edge S or E inside the grid (see `build_layout`)
    strips: bool = True
    border_cells: int = 0  # cells with a border edge
    border_edges_of: dict[int, int] = field(default_factory=dict)  # border cell -> its edges
    area_of: Areas = field(default_factory=lambda: Areas({}))  # shapes -> their total area

    def bit(self, point: Point) -> int:
        """Bit index of a grid position.

        Args:
            point: an `(x, y)` grid position.

        Returns:
            y * stride + x (stride = columns + 1)."""
        return point[1] * self.stride + point[0]

    def point(self, index: int) -> Point:
        """Grid position of a bit index.

        Args:
            index: a bit index, as `bit` gives it.

        Returns:
            The `(x, y)` grid position."""
        return index % self.stride, index // self.stride


def build_layout(puzzle: Puzzle) -> Layout:
    """Precompute the bitsets the search needs (each step reads what the ones before it set).

    Args:
        puzzle: the puzzle.

    Returns:
        Its layout, every table filled in but the lazy `walks`."""
    stride = puzzle.columns + 1
    layout = Layout(
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
    _add_positions(layout)
    triangles = _add_symbols(layout)
    _add_forced_edges(layout)
    for shape_id in {layout.shape_of[bit] for bit in layout.shape_of}:
        layout.placement_at[shape_id] = _placements(layout, shape_id)
    _add_triangles(layout, triangles)
    for y in range(0, puzzle.rows, 2):
        for x in range(0, puzzle.columns, 2):
            if layout.border_nodes & 1 << layout.bit((x, y)):
                layout.rings[layout.bit((x, y))] = _split_table(_ring(layout, (x, y)))
    for y in range(0, puzzle.rows, 2):
        for x in range(0, puzzle.columns, 2):
            _add_moves(layout, (x, y))
    _add_perimeter(layout)
    _set_strips_and_area_rule(layout)
    for y in range(0, puzzle.rows, 2):
        for x in range(0, puzzle.columns, 2):
            _add_sides(layout, (x, y))
    _add_lattice(layout)
    return layout


def _add_positions(layout: Layout) -> None:
    """Mark every in-grid position by kind: cells, usable nodes and edges, dots, border nodes."""
    puzzle = layout.puzzle
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


def _add_symbols(layout: Layout) -> list[Point]:
    """Record the cell symbols: masks per square colour, shapes with their areas, stars with
    the symbols of their colour (and the pairs: a star with one other of its colour). Returns
    the triangles' positions, numbered by `_add_triangles`."""
    puzzle = layout.puzzle
    squares_by_color: dict[str, int] = {}
    color_masks: dict[str, int] = {}
    triangles: list[Point] = []
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
    return triangles


def _add_forced_edges(layout: Layout) -> None:
    """Add to the dots the edges every valid path must use (the forced-edges rule)."""
    puzzle = layout.puzzle
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


def _add_triangles(layout: Layout, triangles: list[Point]) -> None:
    """Number the triangles in reading order: their cells, numbers and the edges around them."""
    puzzle = layout.puzzle
    for number, (x, y) in enumerate(sorted(triangles, key=lambda p: (p[1], p[0]))):
        layout.triangle_bits.append(1 << layout.bit((x, y)))
        layout.triangle_need.append(puzzle.symbols[(x, y)].triangle_count)
        for edge in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            key = layout.bit(edge)
            layout.triangle_of_edge[key] = layout.triangle_of_edge.get(key, ()) + (number,)


def _add_perimeter(layout: Layout) -> None:
    """The border in clockwise order from the top-left node, and the cell beside each of its
    edges."""
    puzzle = layout.puzzle
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


def _set_strips_and_area_rule(layout: Layout) -> None:
    """Decide whether the strip rules (`strips`) and the area walls (`area_rule`) apply."""
    puzzle = layout.puzzle
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
    layout.area_of = Areas(layout.shape_area)


def add_walk(layout: Layout, touch: int, direction: int) -> tuple[tuple[int, int, int, int], ...]:
    """Fill in `walks` for one border node and direction (see `Layout.walks`).

    Args:
        layout: the puzzle's layout; its `walks` gets the new entry.
        touch: the bit index of a border node (a position on `perimeter`).
        direction: +1 to walk the border clockwise, -1 counter-clockwise.

    Returns:
        The border positions after `touch` that way, once round (`touch` itself left out),
        each as (bit index, bit, the bit of the cell beside it or 0 for a node, the mask of
        that cell's border edges)."""
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


def _placements(layout: Layout, shape_id: str) -> dict[int, int]:
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


def _add_lattice(layout: Layout) -> None:
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


def _linked(layout: Layout, a: Point, b: Point) -> bool:
    """True if nodes `a` and `b` are in the grid, usable and joined by a usable edge."""
    points = layout.usable_points
    edge = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    return a in points and b in points and edge in points and edge != layout.puzzle.end


class CutTable(dict[int, bool]):
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


def _cut_table(layout: Layout, node: Point) -> tuple[int, CutTable]:
    """The ring mask and (lazy) cut table of one node, from its static neighbourhood."""
    x, y = node
    points = [(x + 2 * dx, y + 2 * dy) for dx, dy in _RING]
    ring = [layout.bit(p) if _linked(layout, p, p) else -1 for p in points]
    around = [_linked(layout, points[k], points[(k + 1) % 8]) for k in range(8)]
    links = [_linked(layout, node, points[k]) for k in range(0, 8, 2)]
    table = CutTable(ring, around, links)
    return table.mask, table


_RING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def _add_sides(layout: Layout, node: Point) -> None:
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


def _add_moves(layout: Layout, point: Point) -> None:
    """Record the moves and neighbouring positions of one node (or a mid-edge S)."""
    puzzle = layout.puzzle
    x, y = point
    index = layout.bit(point)
    moves: list[Move] = []
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


def _ring(layout: Layout, node: Point) -> tuple[int, ...]:
    """The 8 positions around a node in cyclic order (edges and cells), -1 where off the grid."""
    x, y = node
    around = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
    return tuple(
        layout.bit((x + dx, y + dy)) if layout.puzzle.in_grid((x + dx, y + dy)) else -1
        for dx, dy in around
    )


class SplitTable(dict[int, bool]):
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
    return mask, SplitTable(ring)


def _splits(ring: tuple[int, ...], used: int) -> bool:
    """True if the free positions around a node form two or more arcs (free space may split)."""
    free = [index >= 0 and not used >> index & 1 for index in ring]
    arcs = sum(1 for i in range(8) if free[i] and not free[i - 1])
    return arcs >= 2
