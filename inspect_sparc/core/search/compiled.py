"""The compiled engine: the pure engine's enumeration as a numba kernel (`kernel`), 10x faster.

`solve_compiled` converts the puzzle's `layout.Layout` once into numpy `Tables`, runs
`kernel.enumerate_candidates` and confirms each candidate with
`inspect_sparc.core.puzzle.rules.check`, so its paths and their order equal the pure engine's.
The kernel applies every pruning rule of
docs/search.md but the dead-dot check (the reachability test at the next node catches the same
paths one step later). numba is imported only when a search runs here, never by importing this
module. The first search on a machine makes numba compile the kernel (10-25 s, then cached on
disk); one log line (`inspect_sparc.core.search`, WARNING) says so when the cache is cold.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from inspect_sparc.core.search.layout import Layout, build_layout

if TYPE_CHECKING:
    from inspect_sparc.core.puzzle.parse import Path, Puzzle

#: Masks are int64: cells and lattice nodes must fit in 63 bits.
MAX_BITS = 63
#: A cap on candidates this large is no cap (the kernel's counters are int64).
_UNCAPPED = 2**31
#: Where the compile notice goes (`inspect eval` shows WARNING records on its console).
logger = logging.getLogger("inspect_sparc.core.search")


@lru_cache(maxsize=1)
def available() -> bool:
    """True when numba imports (the compiled engine can run); the one import of numba outside
    `kernel`.

    Returns:
        Whether numba is installed (tried once per process)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def fits(puzzle: Puzzle) -> bool:
    """True when the puzzle's cells and lattice nodes fit the engine's 63-bit masks.

    Args:
        puzzle: the puzzle; only its width and height in cells are read.

    Returns:
        True when w x h and (w + 1) x (h + 1) are both at most 63."""
    return (
        puzzle.width * puzzle.height <= MAX_BITS
        and (puzzle.width + 1) * (puzzle.height + 1) <= MAX_BITS
    )


class Tables(NamedTuple):
    """What the kernel reads about one puzzle: position arrays (index = y * stride + x), cell
    masks (bit = cell row * width + cell column) and lattice-node masks (bit = node row *
    node_columns + node column)."""

    stride: int
    inside: Any  # uint8 per position: in the grid (not the padding column)
    usable: Any  # uint8: the path may use it (a node or edge, not a gap)
    cell_index: Any  # int64: the position's cell bit, -1 when not a cell
    node_index: Any  # int64: the position's lattice bit, -1 when not a node
    dot: Any  # uint8: a dot, or an edge that must be on the path (S and E excluded)
    border: Any  # uint8: a node on the grid's border
    symbol: Any  # uint8: a cell holding a symbol
    neighbours: Any  # int64 [position, 4]: the in-grid positions beside it, -1 off grid
    moves: Any  # int64 [node, 4, (edge, node or -1 when the edge is E)], right, left, down, up
    move_count: Any  # int64 per node
    edge_triangles: Any  # int64 [edge, 2]: triangle numbers beside it, -1 for none
    triangle_cell: Any  # int64 per triangle: its cell bit
    triangle_need: Any  # int64 per triangle: its number
    square_masks: Any  # int64 cell mask per square colour
    star_cells: Any  # int64 per star: its cell bit
    star_masks: Any  # int64 per star: the symbols of its colour
    pair_masks: Any  # int64: a star and the only other symbol of its colour
    shape_area: Any  # int64 per cell: +size of a polyshape, -size of a ylop, 0
    shape_kind: Any  # int64 per cell: the shape's kind number, -1 for none
    placements: Any  # int64 [kind, anchor cell]: the translate whose first cell is there
    link: Any  # int64 per node: lattice nodes one usable edge away
    right_ok: int  # nodes whose right edge and neighbour are usable
    down_ok: int  # nodes whose lower edge and neighbour are usable
    lattice_nodes: int  # usable nodes
    border_nodes: int  # usable nodes on the border
    end_seeds: int  # E, or the usable ends of E when E is an edge
    end_nodes: int  # the nodes next to E when E is an edge
    node_dots: int
    edge_dots: Any  # int64 [dot, (end node bit, end node bit, position)]
    node_columns: int
    perimeter: Any  # int64: border positions in clockwise order
    perimeter_at: Any  # int64 per position: its place in `perimeter`, -1 off it
    perimeter_cell: Any  # int64 per border edge: the cell mask beside it
    sides: Any  # int64 [node, incoming slot (4: none), outgoing slot, (left, right)] cells
    cw_left: Any  # uint8 [border node, outgoing slot]: the clockwise border is on the left
    start: int
    end: int
    end_on_border: bool
    area_rule: bool  # polyshapes, no ylops, E on the border: the area walls apply
    border_cells: int  # cells with a border edge
    shape_cells: int  # cells holding a polyshape or ylop
    #: int64 per border edge: another border edge of its cell, or -1 (a corner cell has two; in
    #: a grid one cell wide a cell has three or four and one is kept, which only loosens the
    #: area walls)
    perimeter_twin: Any
    star_all: int  # every star
    pair_all: int  # every symbol of `pair_masks`
    symbol_cells: int  # every cell holding a symbol
    strips: bool  # excursion strips are sound (no mid-edge S or E inside the grid)


def solve_compiled(puzzle: Puzzle, limit: int | None) -> list[Path]:
    """Every rule-valid path (at most `limit`), in the pure search's order, by the compiled
    engine; each candidate is confirmed by `check`. With a limit the kernel stops after that
    many candidates and runs again with a larger cap if some were not valid (ylops).

    Args:
        puzzle: the puzzle, small enough for the 63-bit masks (`fits`).
        limit: the most paths to return; None for all of them.

    Returns:
        The paths as `(x, y)` positions from S to E, in depth-first order (right, left,
        down, up at each node)."""
    from inspect_sparc.core.puzzle.rules import board_for, check

    tables = _tables(puzzle)
    board = board_for(puzzle)
    stride = tables.stride
    cap = -1 if limit is None or limit >= _UNCAPPED else limit
    while True:
        paths, lengths, complete = _engine()(cap, tables)
        found: list[Path] = []
        for row, length in zip(paths.tolist(), lengths.tolist(), strict=True):
            points = tuple((i % stride, i // stride) for i in row[:length])
            if check(puzzle, points, board).valid:
                found.append(points)
                if limit is not None and len(found) >= limit:
                    return found
        if complete:
            return found
        cap = -1 if cap * 4 >= _UNCAPPED else cap * 4


def _tables(puzzle: Puzzle) -> Tables:
    """The kernel's tables, converted from the puzzle's layout (the one the pure engine reads)."""
    layout = build_layout(puzzle)
    at = _Renumber(layout)
    return Tables(
        **_position_tables(layout, at),
        **_move_tables(layout),
        **_symbol_tables(layout, at),
        **_shape_tables(layout, at),
        **_lattice_tables(layout, at),
        **_perimeter_tables(layout, at),
        **_side_tables(layout, at),
    )


class _Renumber:
    """Layout bit indexes renumbered for the kernel: cell masks, node masks, position arrays."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.stride = layout.stride
        self.size = layout.puzzle.rows * layout.stride
        self.width, self.node_columns = layout.puzzle.width, layout.puzzle.width + 1
        self.cell_bit = {i: 1 << self.cell_of(i) for i in _bits(layout.cells)}

    def cell_of(self, index: int) -> int:
        """The cell number of a cell position."""
        return (index // self.stride // 2) * self.width + index % self.stride // 2

    def node_of(self, index: int) -> int:
        """The lattice number of a node position."""
        return (index // self.stride // 2) * self.node_columns + index % self.stride // 2

    def cell_mask(self, mask: int) -> int:
        """The cells of a position mask, as a cell mask."""
        return sum(self.cell_bit[i] for i in _bits(mask & self.layout.cells))

    def node_mask(self, mask: int) -> int:
        """The nodes of a position mask, as a lattice-node mask."""
        return sum(1 << self.node_of(i) for i in _bits(mask & self.layout.nodes))

    def flags(self, mask: int) -> Any:
        """A uint8 array over positions, 1 where `mask` has a bit."""
        import numpy as np

        array = np.zeros(self.size, np.uint8)
        array[_bits(mask)] = 1
        return array


def _bits(mask: int) -> list[int]:
    """The set bit indexes of a mask, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def _ints(values: Sequence[int] | Sequence[tuple[int, ...]], shape: tuple[int, ...] = (-1,)) -> Any:
    """An int64 array of `values`, reshaped."""
    import numpy as np

    return np.array(values, np.int64).reshape(shape)


def _position_tables(layout: Layout, at: _Renumber) -> dict[str, Any]:
    """Per-position flags and numbers: in grid, usable, cell and node numbers, neighbours."""
    import numpy as np

    stride, size = at.stride, at.size
    cell_index = np.full(size, -1, np.int64)
    node_index = np.full(size, -1, np.int64)
    neighbours = np.full((size, 4), -1, np.int64)
    for i in _bits(layout.every):
        x, y = i % stride, i // stride
        if x % 2 and y % 2:
            cell_index[i] = at.cell_of(i)
        elif x % 2 == 0 and y % 2 == 0:
            node_index[i] = at.node_of(i)
        for k, delta in enumerate((1, -1, stride, -stride)):
            if 0 <= i + delta < size and layout.every >> (i + delta) & 1:
                neighbours[i, k] = i + delta
    puzzle = layout.puzzle
    return {
        "stride": stride,
        "inside": at.flags(layout.every),
        "usable": at.flags(layout.usable),
        "cell_index": cell_index,
        "node_index": node_index,
        "dot": at.flags(layout.dots),
        "border": at.flags(layout.border_nodes),
        "symbol": at.flags(layout.symbols),
        "neighbours": neighbours,
        "start": layout.bit(puzzle.start),
        "end": layout.bit(puzzle.end),
        "end_on_border": bool(layout.perimeter_mask >> layout.bit(puzzle.end) & 1),
        "strips": layout.strips,
    }


def _move_tables(layout: Layout) -> dict[str, Any]:
    """Each node's moves (edge, next node) and the triangles beside each edge."""
    import numpy as np

    size = layout.puzzle.rows * layout.stride
    moves = np.full((size, 4, 2), -1, np.int64)
    move_count = np.zeros(size, np.int64)
    for index, options in layout.moves.items():
        for k, option in enumerate(options):
            moves[index, k] = option[0], option[2]
        move_count[index] = len(options)
    edge_triangles = np.full((size, 2), -1, np.int64)
    for edge, numbers in layout.triangle_of_edge.items():
        edge_triangles[edge, : len(numbers)] = numbers
    return {"moves": moves, "move_count": move_count, "edge_triangles": edge_triangles}


def _symbol_tables(layout: Layout, at: _Renumber) -> dict[str, Any]:
    """Triangles, squares and stars as cell numbers and cell masks."""
    return {
        "triangle_cell": _ints([at.cell_of(b.bit_length() - 1) for b in layout.triangle_bits]),
        "triangle_need": _ints(layout.triangle_need),
        "square_masks": _ints([at.cell_mask(m) for m in layout.square_masks]),
        "star_cells": _ints([at.cell_of(b.bit_length() - 1) for b, _ in layout.stars]),
        "star_masks": _ints([at.cell_mask(m) for _, m in layout.stars]),
        "pair_masks": _ints([at.cell_mask(m) for m in layout.pairs]),
        "star_all": at.cell_mask(layout.star_bits),
        "pair_all": at.cell_mask(layout.pair_bits),
        "symbol_cells": at.cell_mask(layout.symbols),
    }


def _shape_tables(layout: Layout, at: _Renumber) -> dict[str, Any]:
    """Polyshapes and ylops per cell (area, kind number) and each kind's translates."""
    import numpy as np

    cell_count = layout.puzzle.width * layout.puzzle.height
    kinds = sorted(set(layout.shape_of.values()))
    shape_area = np.zeros(cell_count, np.int64)
    shape_kind = np.full(cell_count, -1, np.int64)
    for bit, area in layout.shape_area.items():
        shape_area[at.cell_of(bit.bit_length() - 1)] = area
        shape_kind[at.cell_of(bit.bit_length() - 1)] = kinds.index(layout.shape_of[bit])
    placements = np.zeros((max(len(kinds), 1), cell_count), np.int64)
    for kind, shape_id in enumerate(kinds):
        for anchor, mask in layout.placement_at[shape_id].items():
            placements[kind, at.cell_of(anchor)] = at.cell_mask(mask)
    return {
        "shape_area": shape_area,
        "shape_kind": shape_kind,
        "placements": placements,
        "area_rule": layout.area_rule,
        "shape_cells": at.cell_mask(layout.shapes),
    }


def _lattice_tables(layout: Layout, at: _Renumber) -> dict[str, Any]:
    """Lattice-node masks for reachability: links, usable directions, E's seeds, dots."""
    import numpy as np

    stride = at.stride
    link = np.zeros(at.node_columns * (layout.puzzle.height + 1), np.int64)
    for index, mask in layout.link.items():
        link[at.node_of(index)] = at.node_mask(mask)
    edge_dots = []
    for i in _bits(layout.dots & ~layout.nodes):
        x = i % stride
        ends = (i - 1, i + 1) if x % 2 else (i - stride, i + stride)
        edge_dots.append((at.node_of(ends[0]), at.node_of(ends[1]), i))
    return {
        "link": link,
        "right_ok": at.node_mask(layout.right_ok),
        "down_ok": at.node_mask(layout.down_ok),
        "lattice_nodes": at.node_mask(layout.nodes),
        "border_nodes": at.node_mask(layout.border_nodes),
        "end_seeds": at.node_mask(layout.end_seeds),
        "end_nodes": at.node_mask(layout.end_nodes),
        "node_dots": at.node_mask(layout.dots),
        "edge_dots": _ints(edge_dots, (-1, 3)),
        "node_columns": at.node_columns,
    }


def _perimeter_tables(layout: Layout, at: _Renumber) -> dict[str, Any]:
    """The border walk: its order, each position's place, and the cells beside its edges."""
    import numpy as np

    size = at.size
    perimeter_at = np.full(size, -1, np.int64)
    perimeter_at[list(layout.perimeter)] = np.arange(len(layout.perimeter))
    perimeter_cell = np.zeros(size, np.int64)
    for index, bit in layout.perimeter_cell.items():
        perimeter_cell[index] = at.cell_mask(bit)
    perimeter_twin = np.full(size, -1, np.int64)
    for index, bit in layout.perimeter_cell.items():
        for other in _bits(layout.border_edges_of[bit] & ~(1 << index)):
            perimeter_twin[index] = other
    return {
        "perimeter": _ints(list(layout.perimeter)),
        "perimeter_at": perimeter_at,
        "perimeter_cell": perimeter_cell,
        "perimeter_twin": perimeter_twin,
        "border_cells": at.cell_mask(layout.border_cells),
    }


def _side_tables(layout: Layout, at: _Renumber) -> dict[str, Any]:
    """The cells left and right of the path through a node, by (incoming, outgoing) edge slot,
    and on which side the clockwise border lies."""
    import numpy as np

    stride, size = at.stride, at.size
    steps = (1, -1, stride, -stride)
    sides = np.zeros((size, 5, 4, 2), np.int64)
    cw_left = np.zeros((size, 4), np.uint8)
    for node in _bits(layout.nodes):
        for out_slot, out_step in enumerate(steps):
            for in_slot in range(5):
                incoming = ~node if in_slot == 4 else node + steps[in_slot]
                pair = layout.sides.get((incoming, node + out_step))
                if pair is not None:
                    sides[node, in_slot, out_slot] = at.cell_mask(pair[0]), at.cell_mask(pair[1])
            cw_left[node, out_slot] = layout.cw_left.get((node, node + out_step), True)
    return {"sides": sides, "cw_left": cw_left}


#: Samples search in worker threads: the first ones must not each announce (and start) the compile.
_ENGINE_LOCK = threading.Lock()


def _engine() -> Any:
    """The compiled enumeration, loaded once per process whichever thread asks first."""
    with _ENGINE_LOCK:
        return _load_engine()


@lru_cache(maxsize=1)
def _load_engine() -> Any:
    """The compiled enumeration (numba compiles it on first use, or loads its disk cache);
    says so once per process when the disk cache is cold, since the pause is otherwise silent."""
    from inspect_sparc.core.search import kernel

    if not cache_is_warm(kernel.enumerate_candidates):
        logger.warning(
            "compiling the search engine with numba (once per machine, about 20 s; "
            "cached on disk afterwards)"
        )
    return kernel.enumerate_candidates


def cache_is_warm(dispatcher: Any) -> bool:
    """True when numba's on-disk cache holds the kernel (an index file for it exists); True
    too when that cannot be told (a numba without these internals), so nothing is printed.

    Args:
        dispatcher: the numba dispatcher of the kernel's entry point
            (`kernel.enumerate_candidates`).

    Returns:
        False only when the cache's index file is known to be missing."""
    try:
        index = dispatcher._cache._cache_file._index_path
    except AttributeError:
        return True
    return bool(os.path.exists(index))
