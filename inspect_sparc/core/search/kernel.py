"""Numba kernel of the compiled engine (see `compiled` and docs/search.md).

Imported only by `compiled`, and only when numba is installed: the one module of the package
that imports numba. Positions are indexed as in `layout` (row stride = columns + 1) and held in
uint8 arrays; cells and lattice nodes are int64 masks. Each pruning rule is a function named as
in docs/search.md and as the pure engine's method for it. The entry point takes a
`compiled.Tables` and unpacks it once: the helpers take plain arrays and ints (handing the
whole tuple to every helper call made the search four times slower, as measured). Every
function is `njit(cache=True)`: numba compiles them once per machine (10-25 s) and loads them
from its on-disk cache afterwards.

Over 500 lines, and one long function on purpose: `enumerate_candidates` is the search as one
explicit-stack loop (enter a node and prune, take the next move, back up) whose state is the
unpacked tables, some 30 scratch and per-depth arrays and a few scalars it rebinds (depth, path
length, used nodes, paths found), all locals. A numba function gets its state as arguments (an
inner function cannot rebind the caller's scalars), so each piece cut out of the loop would take
a dozen of them and hand several back; the rules themselves are already separate functions,
named as in docs/search.md, and the loop is only their order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

Array = Any  # a numpy array (numba reads no annotations)


@njit(cache=True)
def popcount(x: int) -> int:
    """Set bits of a non-negative int64 (branch-free SWAR count).

    Args:
        x: a non-negative int64 mask.

    Returns:
        The number of set bits, 0 to 63."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) & 0x7FFFFFFFFFFFFFFF) >> 56


@njit(cache=True)
def lowest(x: int) -> int:
    """Index of the lowest set bit of a positive int64.

    Args:
        x: a positive int64 mask.

    Returns:
        The bit index, 0 to 62."""
    return popcount((x & -x) - 1)


@njit(cache=True)
def node_flood(seed: int, allowed: int, right: int, down: int, columns: int) -> int:
    """Lattice nodes of `allowed` joined to `seed` along usable edges (`right`, `down`: the
    nodes whose edge that way is usable; `columns` nodes a row).

    Args:
        seed: lattice mask of the nodes the flood starts from (those outside `allowed` are
            dropped).
        allowed: lattice mask of the nodes it may enter.
        right: lattice mask of the nodes whose right edge and right neighbour are usable.
        down: lattice mask of the nodes whose lower edge and lower neighbour are usable.
        columns: lattice nodes per row (bit = node row * columns + node column).

    Returns:
        Lattice mask of the nodes reached, `seed & allowed` included."""
    reach = seed & allowed
    while True:
        grown = reach | allowed & (
            (reach & right) << 1 | (reach >> 1) & right | (reach & down) << columns
        )
        grown |= allowed & (reach >> columns) & down
        if grown == reach:
            return reach
        reach = grown


@njit(cache=True)
def dots_reachable(
    reach: int, used: Array, used_nodes: int, head_node: int, node_dots: int, edge_dots: Array
) -> bool:
    """Every unvisited dot can still be visited: a node dot lies in `reach`, an edge dot has
    both ends in `reach` or at the head (the path must run through it end to end).

    Args:
        reach: lattice mask of the unvisited nodes still joined to E.
        used: uint8 per position: 1 where the path is.
        used_nodes: lattice mask of the nodes on the path.
        head_node: lattice bit of the node the path ends at now.
        node_dots: lattice mask of the nodes holding a dot.
        edge_dots: int64 [dot, 3]: per edge dot, the lattice bit indices of its two end nodes
            and its position index.

    Returns:
        False when some unvisited dot can no longer be reached."""
    if node_dots & ~used_nodes & ~reach:
        return False
    ends = reach | head_node
    for k in range(edge_dots.shape[0]):
        if not used[edge_dots[k, 2]] and not (
            ends >> edge_dots[k, 0] & 1 and ends >> edge_dots[k, 1] & 1
        ):
            return False
    return True


@njit(cache=True)
def flood(seed: int, allowed: Array, out: Array, neighbours: Array, stack: Array) -> None:
    """Mark in `out` (cleared first) the positions of `allowed` joined to `seed`.

    Args:
        seed: the position index to start from; negative, or not allowed, marks nothing.
        allowed: uint8 per position: 1 where the flood may go.
        out: uint8 per position, overwritten: 1 for each position reached.
        neighbours: int64 [position, 4]: the in-grid positions beside each, -1 off the grid.
        stack: int64 scratch, at least one entry per position."""
    out[:] = 0
    if seed < 0 or not allowed[seed]:
        return
    out[seed] = 1
    stack[0] = seed
    top = 1
    while top:
        top -= 1
        p = stack[top]
        for k in range(4):
            q = neighbours[p, k]
            if q >= 0 and allowed[q] and not out[q]:
                out[q] = 1
                stack[top] = q
                top += 1


@njit(cache=True)
def conflict(group: int, square_masks: Array, star_cells: Array, star_masks: Array) -> bool:
    """True if cells bound to share one region already break the square or star rule.

    Args:
        group: cell mask of the cells that must end up in one region.
        square_masks: int64 cell mask per square colour.
        star_cells: int64 per star: its cell bit index.
        star_masks: int64 per star: cell mask of the symbols of its colour, itself included.

    Returns:
        True when the group holds squares of two colours, or a star with more than one
        other symbol of its colour."""
    colours = 0
    for mask in square_masks:
        if group & mask:
            colours += 1
    if colours > 1:
        return True
    for s in range(star_cells.shape[0]):
        if group >> star_cells[s] & 1 and popcount(group & star_masks[s]) > 2:
            return True
    return False


@njit(cache=True)
def stars_ok(room: int, within: int, star_cells: Array, star_masks: Array) -> bool:
    """False if a star in `within` has fewer than two symbols of its colour left in `room`.

    Args:
        room: cell mask of the cells the stars' region may still hold.
        within: cell mask of the cells whose stars are tested.
        star_cells: int64 per star: its cell bit index.
        star_masks: int64 per star: cell mask of the symbols of its colour, itself included.

    Returns:
        True when every star in `within` can still have its partner."""
    for s in range(star_cells.shape[0]):
        if within >> star_cells[s] & 1 and popcount(room & star_masks[s]) < 2:
            return False
    return True


@njit(cache=True)
def tile(cells: int, counts: Array, placements: Array) -> bool:
    """True if translates of the shapes counted in `counts` (per kind) tile `cells` exactly.

    The lowest remaining cell must be some shape's first cell: one placement per kind a level.

    Args:
        cells: cell mask of the cells left to cover.
        counts: int64 per shape kind: how many of that shape are left to place (changed
            while searching, restored before returning).
        placements: int64 [kind, anchor cell]: cell mask of the translate whose first cell
            is the anchor, 0 where none fits in the grid.

    Returns:
        True when the shapes cover every cell once and none is left over."""
    if cells == 0:
        for count in counts:
            if count:
                return False
        return True
    anchor = lowest(cells)
    for kind in range(counts.shape[0]):
        if counts[kind] == 0:
            continue
        mask = placements[kind, anchor]
        if mask == 0 or mask & ~cells:
            continue
        counts[kind] -= 1
        fits = tile(cells & ~mask, counts, placements)
        counts[kind] += 1
        if fits:
            return True
    return False


@njit(cache=True)
def shapes_ok(region: int, shape_kind: Array, shape_area: Array, placements: Array) -> bool:
    """Polyshape rule of a region: net area, then (without ylops) an exact tiling. With ylops
    only the area is tested here; `check` decides the rest.

    Args:
        region: cell mask of the region.
        shape_kind: int64 per cell: its shape's kind number, -1 for none.
        shape_area: int64 per cell: +size of a polyshape, -size of a ylop, 0.
        placements: int64 [kind, anchor cell]: as `tile` reads them.

    Returns:
        True when the region holds no shape, or its shapes may fit it."""
    net = 0
    negative = False
    present = False
    counts = np.zeros(placements.shape[0], np.int64)
    bits = region
    while bits:
        cell = lowest(bits)
        bits &= bits - 1
        kind = shape_kind[cell]
        if kind >= 0:
            present = True
            net += shape_area[cell]
            if shape_area[cell] < 0:
                negative = True
            else:
                counts[kind] += 1
    if not present:
        return True
    if net < 0 or (net > 0 and net != popcount(region)):
        return False
    return negative or tile(region, counts, placements)


@njit(cache=True)
def region_ok(
    region: int,
    counts: Array,
    triangle_cell: Array,
    triangle_need: Array,
    square_masks: Array,
    star_cells: Array,
    star_masks: Array,
    shape_kind: Array,
    shape_area: Array,
    placements: Array,
    cache: Any,
) -> bool:
    """Triangle, square, star and polyshape rules of one final region (a cell mask); the
    polyshape verdict is cached by region.

    Args:
        region: cell mask of the region.
        counts: int64 per triangle: the path edges beside it.
        triangle_cell: int64 per triangle: its cell bit index.
        triangle_need: int64 per triangle: its number.
        square_masks: int64 cell mask per square colour.
        star_cells: int64 per star: its cell bit index.
        star_masks: int64 per star: cell mask of the symbols of its colour.
        shape_kind: int64 per cell: its shape's kind number, -1 for none.
        shape_area: int64 per cell: +size of a polyshape, -size of a ylop, 0.
        placements: int64 [kind, anchor cell]: as `tile` reads them.
        cache: numba dict of region cell mask to polyshape verdict (1 or 0), filled in.

    Returns:
        True when the region breaks none of these rules."""
    for k in range(triangle_cell.shape[0]):
        if region >> triangle_cell[k] & 1 and counts[k] != triangle_need[k]:
            return False
    colours = 0
    for mask in square_masks:
        if region & mask:
            colours += 1
    if colours > 1:
        return False
    for s in range(star_cells.shape[0]):
        if region >> star_cells[s] & 1 and popcount(region & star_masks[s]) != 2:
            return False
    known: int = cache.get(region, -1)
    if known < 0:
        known = 1 if shapes_ok(region, shape_kind, shape_area, placements) else 0
        cache[region] = known
    return known == 1


# Repeats region_ok's tables and docs: numba kernels take flat arrays, not a record or a callback.
@njit(cache=True)
def sealed_ok(
    marked: Array,
    seen: Array,
    stack: Array,
    neighbours: Array,
    symbol: Array,
    cell_index: Array,
    counts: Array,
    triangle_cell: Array,
    triangle_need: Array,
    square_masks: Array,
    star_cells: Array,
    star_masks: Array,
    shape_kind: Array,
    shape_area: Array,
    placements: Array,
    cache: Any,
) -> bool:
    """Every symbol-bearing component of the `marked` positions (final regions) obeys the
    region rules; clears `marked` as it goes (`seen` and `stack` are scratch).

    Args:
        marked: uint8 per position: 1 for the positions of the sealed regions; cleared for
            each component checked.
        seen: uint8 scratch per position.
        stack: int64 scratch, at least one entry per position.
        neighbours: int64 [position, 4]: the in-grid positions beside each, -1 off the grid.
        symbol: uint8 per position: 1 for a cell holding a symbol.
        cell_index: int64 per position: its cell bit index, -1 when not a cell.
        counts: int64 per triangle: the path edges beside it.
        triangle_cell: int64 per triangle: its cell bit index.
        triangle_need: int64 per triangle: its number.
        square_masks: int64 cell mask per square colour.
        star_cells: int64 per star: its cell bit index.
        star_masks: int64 per star: cell mask of the symbols of its colour.
        shape_kind: int64 per cell: its shape's kind number, -1 for none.
        shape_area: int64 per cell: +size of a polyshape, -size of a ylop, 0.
        placements: int64 [kind, anchor cell]: as `tile` reads them.
        cache: numba dict of region cell mask to polyshape verdict, filled in.

    Returns:
        False at the first component that breaks a region rule (then `marked` is left
        partly cleared)."""
    for p in range(marked.shape[0]):
        if marked[p] and symbol[p]:
            flood(p, marked, seen, neighbours, stack)
            region = 0
            for q in range(marked.shape[0]):
                if seen[q]:
                    marked[q] = 0
                    if cell_index[q] >= 0:
                        region |= 1 << cell_index[q]
            if not region_ok(
                region, counts, triangle_cell, triangle_need, square_masks, star_cells,
                star_masks, shape_kind, shape_area, placements, cache,
            ):  # fmt: skip
                return False
    return True


@njit(cache=True)
def landings(
    touch: int,
    group: int,
    direction: int,
    live: Array,
    used: Array,
    end: int,
    node_index: Array,
    dot: Array,
    perimeter: Array,
    perimeter_at: Array,
    perimeter_cell: Array,
    square_masks: Array,
    star_cells: Array,
    star_masks: Array,
) -> int:
    """Border nodes (lattice mask) reachable from `touch` along the border in `direction`
    before E, an unvisited dot, or a cell that breaks the square or star rule with `group`.

    Args:
        touch: position index of the border node where the excursion left the border.
        group: cell mask of the strip on that side (the cells bound to share a region with
            the border cells walked past).
        direction: +1 to walk the border clockwise, -1 counter-clockwise.
        live: uint8 per position: 1 in the live region (joined to E, off the path).
        used: uint8 per position: 1 where the path is.
        end: E's position index.
        node_index: int64 per position: its lattice bit index, -1 when not a node.
        dot: uint8 per position: 1 for a dot or an edge that must be on the path.
        perimeter: int64: the border positions in clockwise order.
        perimeter_at: int64 per position: its place in `perimeter`, -1 off the border.
        perimeter_cell: int64 per position: for a border edge, the mask of the cell beside it.
        square_masks: int64 cell mask per square colour.
        star_cells: int64 per star: its cell bit index.
        star_masks: int64 per star: cell mask of the symbols of its colour.

    Returns:
        Lattice mask of the border nodes where the excursion may land (E included when
        reached and a node)."""
    size = perimeter.shape[0]
    at = perimeter_at[touch]
    allowed = 0
    for j in range(1, size):
        p = perimeter[(at + direction * j) % size]
        if p == end:
            if node_index[p] >= 0:
                allowed |= 1 << node_index[p]
            break
        if used[p] or not live[p]:
            continue
        if node_index[p] >= 0:
            allowed |= 1 << node_index[p]
        else:
            group |= perimeter_cell[p]
            if conflict(group, square_masks, star_cells, star_masks):
                break
        if dot[p]:
            break
    return allowed


@njit(cache=True)
def area_of(shapes: int, shape_area: Array) -> int:
    """Total area of the polyshapes in a cell mask.

    Args:
        shapes: cell mask of cells holding shapes.
        shape_area: int64 per cell: +size of a polyshape, -size of a ylop, 0.

    Returns:
        The sum of their areas (ylops count negative)."""
    total = 0
    while shapes:
        total += shape_area[lowest(shapes)]
        shapes &= shapes - 1
    return total


@njit(cache=True)
def area_arcs(  # the walk of the pure engine's `area_arcs`, one direction
    touch: int,
    direction: int,
    live: Array,
    live_cells: int,
    used: Array,
    blocks: Array,
    block_count: int,
    end: int,
    dot: Array,
    node_index: Array,
    perimeter: Array,
    perimeter_at: Array,
    perimeter_cell: Array,
    perimeter_twin: Array,
    border_cells: int,
    landing: Array,
    known_cells: Array,
    inside_cells: Array,
) -> int:
    """Record, for each border node where the excursion from `touch` may land walking the border
    in `direction`, the cells known to be sealed with it and the cells that may be; returns how
    many. Fixed for the whole excursion (the border, the live region and `blocks` only change
    when the path is on the border).

    Landing at b seals one strip with the live cells beside the arc's border edges and the live
    side of each finished excursion with both ends on the arc (`blocks`); that side lies off
    the border cells with an edge beyond b.

    Args:
        touch: position index of the border node where the excursion left the border.
        direction: +1 to walk the border clockwise, -1 counter-clockwise.
        live: uint8 per position: 1 in the live region (joined to E, off the path).
        live_cells: cell mask of the live region's cells.
        used: uint8 per position: 1 where the path is.
        blocks: int64 [excursion, 3]: finished excursions as (the border node it left from,
            the one it landed on, cell mask of its live side), by position index.
        block_count: how many rows of `blocks` are in use.
        end: E's position index.
        dot: uint8 per position: 1 for a dot or an edge that must be on the path.
        node_index: int64 per position: its lattice bit index, -1 when not a node.
        perimeter: int64: the border positions in clockwise order.
        perimeter_at: int64 per position: its place in `perimeter`, -1 off the border.
        perimeter_cell: int64 per position: for a border edge, the mask of the cell beside it.
        perimeter_twin: int64 per border edge: another border edge of its cell, or -1.
        border_cells: cell mask of the cells with a border edge.
        landing: int64 output, one entry per border position: each landing's lattice bit index.
        known_cells: int64 output: each landing's cells known to be sealed with it.
        inside_cells: int64 output: each landing's cells that may be sealed with it.

    Returns:
        The number of landings written to the three outputs."""
    size = perimeter.shape[0]
    at = perimeter_at[touch]
    outside = border_cells
    known = 0
    count = 0
    for j in range(1, size):
        p = perimeter[(at + direction * j) % size]
        if p != end:
            for b in range(block_count):
                if blocks[b, 0] == p or blocks[b, 1] == p:
                    far = blocks[b, 1] if blocks[b, 0] == p else blocks[b, 0]
                    if (perimeter_at[far] - at) * direction % size <= j:
                        known |= blocks[b, 2] & live_cells
            if node_index[p] < 0:
                cell = perimeter_cell[p]
                known |= cell & live_cells
                twin = perimeter_twin[p]
                if twin < 0 or (perimeter_at[twin] - at) * direction % size <= j:
                    outside &= ~cell
        if node_index[p] >= 0 and (p == end or (live[p] and not used[p])):
            landing[count] = node_index[p]
            known_cells[count] = known
            inside_cells[count] = ~outside
            count += 1
        if p == end or (live[p] and not used[p] and dot[p]):
            break
    return count


@njit(cache=True)
def area_walls(
    walls: int,
    strip: int,
    other: int,
    live_cells: int,
    count: int,
    landing: Array,
    known_cells: Array,
    inside_cells: Array,
    shape_cells: int,
    shape_area: Array,
    star_cells: Array,
    star_masks: Array,
    star_all: int,
    pair_masks: Array,
    pair_all: int,
) -> int:
    """Add to `walls` the landings (from `area_arcs`) whose side sealed with `strip` cannot meet the
    polyshape area rule (holding shapes, its cell count must equal their area) or seals a star
    in without a partner; the side lies within the live cells off the `other` strip.

    Args:
        walls: lattice mask of the border nodes already known to be walls.
        strip: cell mask of the strip on the side checked.
        other: cell mask of the strip on the other side.
        live_cells: cell mask of the live region's cells.
        count: how many landings `area_arcs` wrote for this side.
        landing: int64 per landing: its lattice bit index.
        known_cells: int64 per landing: the cells known to be sealed with it.
        inside_cells: int64 per landing: the cells that may be sealed with it.
        shape_cells: cell mask of the cells holding a polyshape or ylop.
        shape_area: int64 per cell: +size of a polyshape, -size of a ylop, 0.
        star_cells: int64 per star: its cell bit index.
        star_masks: int64 per star: cell mask of the symbols of its colour.
        star_all: cell mask of every star.
        pair_masks: int64 cell masks: a star and the only other symbol of its colour.
        pair_all: cell mask of every symbol in `pair_masks`.

    Returns:
        `walls` with the new walls added (lattice mask)."""
    open_cells = live_cells & ~other
    for j in range(count):
        if walls >> landing[j] & 1:
            continue
        sealed = strip | known_cells[j]
        room = open_cells & inside_cells[j] | sealed
        lonely = False
        if sealed & (star_all | pair_all):
            for s in range(star_cells.shape[0]):
                if sealed >> star_cells[s] & 1 and popcount(room & star_masks[s]) < 2:
                    lonely = True
            for mask in pair_masks:
                if sealed & mask and mask & ~room:
                    lonely = True  # a star's only partner sealed in without it
        sealed_shapes = sealed & shape_cells
        if lonely:
            walls |= 1 << landing[j]
        elif sealed_shapes:
            room_shapes = room & shape_cells
            if popcount(sealed | room_shapes) > area_of(room_shapes, shape_area) or area_of(
                sealed_shapes, shape_area
            ) > popcount(room):
                walls |= 1 << landing[j]
    return walls


@njit(cache=True)
def count_edge(edge: int, counts: Array, edge_triangles: Array, need: Array, delta: int) -> bool:
    """Add `delta` to the counts of the triangles beside `edge`; False if one is over.

    Args:
        edge: position index of the edge the path takes or leaves.
        counts: int64 per triangle: the path edges beside it, changed in place.
        edge_triangles: int64 [position, 2]: the triangle numbers beside each edge, -1 for
            none.
        need: int64 per triangle: its number.
        delta: +1 when the path takes the edge, -1 when it leaves it.

    Returns:
        False when a triangle now has more path edges than its number (the counts are
        changed either way)."""
    fits = True
    for k in edge_triangles[edge]:
        if k >= 0:
            counts[k] += delta
            if counts[k] > need[k]:
                fits = False
    return fits


@njit(cache=True)
def slot(node: int, position: int, stride: int) -> int:
    """Which of a node's four edges (right, left, down, up) `position` is.

    Args:
        node: a node's position index.
        position: the position index of an edge beside it.
        stride: the row stride (columns + 1).

    Returns:
        0 right, 1 left, 2 down, 3 up."""
    delta = position - node
    if delta == 1:
        return 0
    if delta == -1:
        return 1
    return 2 if delta == stride else 3


@njit(cache=True)
def room_for(out: Array, lengths: Array, found: int) -> tuple[Array, Array]:
    """The candidate arrays, doubled when full.

    Args:
        out: int64 [candidate, position]: the candidate paths' position indices.
        lengths: int64 per candidate: how many positions of its row are in use.
        found: how many candidates are stored.

    Returns:
        `out` and `lengths` themselves while there is room for one more, else copies
        with twice `found` rows holding the first `found`."""
    if found < out.shape[0]:
        return out, lengths
    grown = np.zeros((2 * found, out.shape[1]), np.int64)
    grown[:found] = out
    longer = np.zeros(2 * found, np.int64)
    longer[:found] = lengths
    return grown, longer


@njit(cache=True)
def enumerate_candidates(cap: int, t: Any) -> tuple[Array, Array, bool]:
    """Depth-first enumeration of candidate paths (position indices) in the pure search's
    order; at most `cap` of them (no cap when negative).

    At each node it prunes as the pure search does (docs/search.md): the live region
    flooded again on the border and what it sealed checked, lattice reachability of E and the
    dots, then for an excursion its strips and landing walls.

    Args:
        cap: the most candidates to return; negative for no cap.
        t: the puzzle's tables (`compiled.Tables`), unpacked once here.

    Returns:
        (paths, lengths, complete): paths is int64 [candidate, position] of position indices
        (index = y * stride + x) from S, row i using its first `lengths[i]` entries;
        `complete` is False when the cap stopped the search."""
    # the tables, unpacked once
    stride, inside, usable, cell_index, node_index = (
        t.stride, t.inside, t.usable, t.cell_index, t.node_index
    )  # fmt: skip
    dot, border, symbol, neighbours, moves, move_count = (
        t.dot, t.border, t.symbol, t.neighbours, t.moves, t.move_count
    )  # fmt: skip
    edge_triangles, triangle_cell, need = t.edge_triangles, t.triangle_cell, t.triangle_need
    square_masks, star_cells, star_masks, pair_masks = (
        t.square_masks, t.star_cells, t.star_masks, t.pair_masks
    )  # fmt: skip
    shape_area, shape_kind, placements = t.shape_area, t.shape_kind, t.placements
    link, right_ok, down_ok, node_columns = t.link, t.right_ok, t.down_ok, t.node_columns
    lattice_nodes, border_nodes, end_seeds, end_nodes = (
        t.lattice_nodes, t.border_nodes, t.end_seeds, t.end_nodes
    )  # fmt: skip
    node_dots, edge_dots = t.node_dots, t.edge_dots
    perimeter, perimeter_at, perimeter_cell = t.perimeter, t.perimeter_at, t.perimeter_cell
    sides, cw_left, start, end, end_on_border = t.sides, t.cw_left, t.start, t.end, t.end_on_border
    area_rule, border_cells, shape_cells, perimeter_twin = (
        t.area_rule, t.border_cells, t.shape_cells, t.perimeter_twin
    )  # fmt: skip
    star_all, pair_all, symbol_cells, strips = t.star_all, t.pair_all, t.symbol_cells, t.strips

    size = inside.shape[0]
    cache = {np.int64(-1): np.int64(0)}  # region cell mask -> polyshape verdict
    used = np.zeros(size, np.uint8)
    depth = popcount(lattice_nodes) + 2
    live = np.zeros((depth, size), np.uint8)  # live[live_ref[d]]: live region at depth d
    live_ref = np.zeros(depth, np.int64)
    live_cells = np.zeros(depth, np.int64)
    allowed = np.zeros(size, np.uint8)
    marked = np.zeros(size, np.uint8)
    seen = np.zeros(size, np.uint8)
    stack = np.zeros(size + 1, np.int64)
    counts = np.zeros(need.shape[0], np.int64)
    path = np.zeros(2 * depth + 2, np.int64)
    head = np.zeros(depth, np.int64)
    arrived = np.full(depth, -1, np.int64)  # the edge taken to the node
    next_move = np.zeros(depth, np.int64)
    touch = np.full(depth, -1, np.int64)  # where the current excursion left the border
    strip_cw = np.zeros(depth, np.int64)
    strip_ccw = np.zeros(depth, np.int64)
    left_is_cw = np.ones(depth, np.uint8)
    walls = np.zeros(depth, np.int64)
    landings_of = np.zeros(depth, np.int64)  # where the strips' symbols let the excursion land
    blocks = np.zeros((depth, 3), np.int64)  # finished excursions: (from, to, live side cells)
    block_count = np.zeros(depth, np.int64)  # how many of them node d sees
    # per excursion and direction (row arcs_ref[d]): its landings for the area walls (`area_arcs`)
    arcs_ref = np.zeros(depth, np.int64)
    arc_count = np.zeros((depth, 2), np.int64)
    arc_landing = np.zeros((depth, 2, perimeter.shape[0]), np.int64)
    arc_known = np.zeros((depth, 2, perimeter.shape[0]), np.int64)
    arc_inside = np.zeros((depth, 2, perimeter.shape[0]), np.int64)
    out = np.zeros((64 if cap < 0 else min(max(cap, 1), 64), path.shape[0]), np.int64)
    lengths = np.zeros(out.shape[0], np.int64)
    found = 0
    if not usable[start]:
        return out[:0], lengths[:0], True
    # S is a node, or a mid-edge whose path goes on to a neighbouring node
    firsts = np.full(4, -1, np.int64)
    if node_index[start] >= 0:
        firsts[0] = start
    else:
        count = 0
        for delta in (1, -1, stride, -stride):
            q = start + delta
            if 0 <= q < size and usable[q] and node_index[q] >= 0:
                firsts[count] = q
                count += 1
    for first in firsts:
        if first < 0:
            continue
        used[:] = 0
        counts[:] = 0
        used[start] = 1
        path[0] = start
        plen = 1
        if first != start:
            count_edge(start, counts, edge_triangles, need, 1)
            used[first] = 1
            path[1] = first
            plen = 2
        used_nodes = 1 << node_index[first]
        head[0] = first
        d = 0
        entering = first != end
        if first == end:
            next_move[0] = 4
            finished = True
            for p in range(size):
                if dot[p] and not used[p]:
                    finished = False
            if finished:  # S beside E; `check` judges the regions
                if found == cap:
                    return out, lengths, False
                out, lengths = room_for(out, lengths, found)
                out[found, :2] = path[:2]
                lengths[found] = 2
                found += 1
        while True:
            h = head[d]
            if entering:
                entering = False
                alive = True
                walls[d] = 0
                head_node = 1 << node_index[h]
                if border[h] or d == 0:
                    # free space may have split: flood the live region again from E, and
                    # check every symbol-bearing component it sealed
                    for p in range(size):
                        was_live = live[live_ref[d - 1], p] if d > 0 else inside[p]
                        allowed[p] = 1 if was_live and not used[p] else 0
                    live_ref[d] = d
                    current = live[d]
                    flood(end, allowed, current, neighbours, stack)
                    alive = False
                    for k in range(4):
                        q = neighbours[h, k]
                        if q >= 0 and current[q]:
                            alive = True  # the head borders the live region
                    for p in range(size):
                        if dot[p] and not used[p] and not current[p]:
                            alive = False
                        marked[p] = 1 if allowed[p] and not current[p] else 0
                    alive = alive and sealed_ok(
                        marked, seen, stack, neighbours, symbol, cell_index, counts,
                        triangle_cell, need, square_masks, star_cells, star_masks, shape_kind,
                        shape_area, placements, cache,
                    )  # fmt: skip
                    cells = 0
                    for p in range(size):
                        if current[p] and cell_index[p] >= 0:
                            cells |= 1 << cell_index[p]
                    live_cells[d] = cells
                    alive = alive and stars_ok(cells, cells, star_cells, star_masks)
                else:
                    live_ref[d] = live_ref[d - 1]
                    live_cells[d] = live_cells[d - 1]
                if alive:
                    # lattice reachability of E and of every unvisited dot
                    reach = node_flood(
                        end_seeds, lattice_nodes & ~used_nodes, right_ok, down_ok, node_columns
                    )
                    if not dots_reachable(reach, used, used_nodes, head_node, node_dots, edge_dots):
                        alive = False
                    if not (link[node_index[h]] & reach or end_nodes & head_node):
                        alive = False
                block_count[d] = block_count[d - 1] if d > 0 else 0
                if alive and area_rule and border[h] and touch[d] >= 0:
                    # an excursion ended here: remember its live side for the area walls
                    at = perimeter_at[touch[d]]
                    ahead = (perimeter_at[h] - at) % perimeter.shape[0]
                    sealed_cw = ahead < (perimeter_at[end] - at) % perimeter.shape[0]
                    n = block_count[d]
                    blocks[n, 0], blocks[n, 1] = touch[d], h
                    blocks[n, 2] = strip_ccw[d] if sealed_cw else strip_cw[d]
                    block_count[d] = n + 1
                if alive and not border[h] and touch[d] >= 0 and strips:
                    # an excursion: its strips, then (E on the border) the landing walls
                    cw, ccw = strip_cw[d], strip_ccw[d]
                    if conflict(cw, square_masks, star_cells, star_masks) or conflict(
                        ccw, square_masks, star_cells, star_masks
                    ):
                        alive = False
                    elif end_on_border:
                        for mask in pair_masks:
                            if cw & mask and ccw & mask:
                                alive = False  # a star and its only partner on two sides
                        cells = live_cells[d]
                        if not (
                            stars_ok(cells & ~ccw, cw, star_cells, star_masks)
                            and stars_ok(cells & ~cw, ccw, star_cells, star_masks)
                        ):
                            alive = False
                        if alive:
                            current = live[live_ref[d]]
                            if (
                                head[d - 1] != touch[d]
                                and not ((cw ^ strip_cw[d - 1]) | (ccw ^ strip_ccw[d - 1]))
                                & symbol_cells
                            ):
                                reachable = landings_of[d - 1]  # the strips took in no symbol
                            else:
                                reachable = landings(
                                    touch[d], cw, 1, current, used, end, node_index, dot,
                                    perimeter, perimeter_at, perimeter_cell, square_masks,
                                    star_cells, star_masks,
                                ) | landings(
                                    touch[d], ccw, -1, current, used, end, node_index, dot,
                                    perimeter, perimeter_at, perimeter_cell, square_masks,
                                    star_cells, star_masks,
                                )  # fmt: skip
                            landings_of[d] = reachable
                            walls[d] = border_nodes & ~reachable
                            if area_rule:  # walls only grow along an excursion
                                if head[d - 1] == touch[d]:  # its first node: walk the border
                                    arcs_ref[d] = d
                                    for side in range(2):
                                        arc_count[d, side] = area_arcs(
                                            touch[d], 1 - 2 * side, current, live_cells[d], used,
                                            blocks, block_count[d], end, dot, node_index,
                                            perimeter, perimeter_at, perimeter_cell,
                                            perimeter_twin, border_cells, arc_landing[d, side],
                                            arc_known[d, side], arc_inside[d, side],
                                        )  # fmt: skip
                                else:
                                    arcs_ref[d] = arcs_ref[d - 1]
                                row = arcs_ref[d]
                                walls[d] |= walls[d - 1]
                                for side in range(2):
                                    walls[d] = area_walls(
                                        walls[d], cw if side == 0 else ccw,
                                        ccw if side == 0 else cw, live_cells[d],
                                        arc_count[row, side], arc_landing[row, side],
                                        arc_known[row, side], arc_inside[row, side], shape_cells,
                                        shape_area, star_cells, star_masks, star_all, pair_masks,
                                        pair_all,
                                    )  # fmt: skip
                            if walls[d]:
                                free = lattice_nodes & ~used_nodes & ~walls[d]
                                reach = node_flood(
                                    border_nodes & free, free, right_ok, down_ok, node_columns
                                )
                                if not link[node_index[h]] & reach:
                                    alive = False  # no landing left that is not a wall
                next_move[d] = 0 if alive else 4  # 4: no move left, go back
            k = next_move[d]
            if k >= move_count[h]:
                if d == 0:
                    break
                edge = arrived[d]  # back to the parent node
                used[edge] = 0
                used[h] = 0
                used_nodes &= ~(1 << node_index[h])
                count_edge(edge, counts, edge_triangles, need, -1)
                plen -= 2
                d -= 1
                continue
            next_move[d] = k + 1
            edge = moves[h, k, 0]
            node = moves[h, k, 1]
            current = live[live_ref[d]]
            if used[edge] or not current[edge]:
                continue
            if edge != end and (used[node] or walls[d] >> node_index[node] & 1):
                continue  # landing on a wall is doomed
            if not count_edge(edge, counts, edge_triangles, need, 1):
                count_edge(edge, counts, edge_triangles, need, -1)
                continue
            if edge == end or node == end:
                # at E: every dot visited, every remaining component obeys the region rules
                used[edge] = 1
                path[plen] = edge
                total = plen + 1
                if edge != end:
                    used[node] = 1
                    path[plen + 1] = node
                    total += 1
                finished = True
                for p in range(size):
                    if dot[p] and not used[p]:
                        finished = False
                    marked[p] = 1 if current[p] and not used[p] else 0
                finished = finished and sealed_ok(
                    marked, seen, stack, neighbours, symbol, cell_index, counts, triangle_cell,
                    need, square_masks, star_cells, star_masks, shape_kind, shape_area,
                    placements, cache,
                )  # fmt: skip
                if finished:
                    if found == cap:
                        return out, lengths, False
                    out, lengths = room_for(out, lengths, found)
                    out[found, :total] = path[:total]
                    lengths[found] = total
                    found += 1
                used[edge] = 0
                if edge != end:
                    used[node] = 0
                count_edge(edge, counts, edge_triangles, need, -1)
                continue
            # descend to `node`; the strips grow by the cells beside `h`
            used[edge] = 1
            used[node] = 1
            used_nodes |= 1 << node_index[node]
            path[plen] = edge
            path[plen + 1] = node
            plen += 2
            incoming = 4 if d == 0 and first == start else slot(h, path[plen - 4], stride)
            outslot = slot(h, edge, stride)
            left = sides[h, incoming, outslot, 0]
            right = sides[h, incoming, outslot, 1]
            c = d + 1
            head[c] = node
            arrived[c] = edge
            if border[h]:
                touch[c] = h
                left_is_cw[c] = cw_left[h, outslot]
                strip_cw[c] = left if left_is_cw[c] else right
                strip_ccw[c] = right if left_is_cw[c] else left
            else:
                touch[c] = touch[d]
                left_is_cw[c] = left_is_cw[d]
                strip_cw[c] = strip_cw[d] | (left if left_is_cw[d] else right)
                strip_ccw[c] = strip_ccw[d] | (right if left_is_cw[d] else left)
            d = c
            entering = True
    return out[:found], lengths[:found], True
