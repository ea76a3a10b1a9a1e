"""The pure engine: every rule-valid path of a puzzle by pruned depth-first search in Python.

The path grows node by node over the int bitsets of `layout.Layout`; it never enters gaps,
cells or visited positions, and it stops at E. Each pruning rule is a method named as in
docs/search.md (`count_edge`, `flood`, `node_flood`, `dots_reachable`, `sealed_ok`,
`stars_ok`, `conflict`, `landing_walls`, `landings`, `area_walls`, `area_arcs`, `tile`), which
says what each cuts and why that is sound. Every path found is confirmed by
`inspect_sparc.core.puzzle.rules.check`, the single arbiter. `step` is the recursion: `arrive`
(live region, reachability), `excursion_walls` (strips, landing and area walls), `advance` (the
moves). Pure logic.

Over 500 lines on purpose: the engine is one class, `_Search`, whose methods are the rules and
share its state (triangle counts, finished excursions, per-search caches); split into modules,
every rule would take that state as arguments, and each is found here by its docs/search.md name.
"""

from __future__ import annotations

from inspect_sparc.core.puzzle.parse import Path, Puzzle
from inspect_sparc.core.puzzle.rules import board_for, check, polyshape_problem
from inspect_sparc.core.search.layout import Landing, add_walk, build_layout


class _Stop(Exception):
    """Raised inside the search once `limit` paths have been found."""


class _Search:
    """One depth-first enumeration over a puzzle's layout."""

    def __init__(self, puzzle: Puzzle, limit: int | None) -> None:
        self.puzzle = puzzle
        self.layout = build_layout(puzzle)
        self.board = board_for(puzzle)
        self.limit = limit
        self.found: list[Path] = []
        self.counts = [0] * len(self.layout.triangle_need)
        self.start = self.layout.bit(puzzle.start)
        self.end = self.layout.bit(puzzle.end)
        self.stride = self.layout.stride
        self.end_bit = 1 << self.end
        #: Border node -> (other end, cells) of finished excursions that end there: the cells
        #: beside each on the side that stayed live (see `register`, `area_arcs`).
        self.blocks: dict[int, list[tuple[int, int]]] = {}
        self.blocks_key: tuple[int, ...] = ()
        # verdicts cached for this search (keys are masks of the current path's state)
        self.region_cache: dict[int, bool] = {}
        self.tile_cache: dict[tuple[int, tuple[tuple[str, int], ...]], bool] = {}
        self.conflict_cache: dict[int, bool] = {}
        self.walls_cache: dict[tuple[int, int, int, int], int | None] = {}
        self.area_tables: dict[
            tuple[int, int, tuple[int, ...]], tuple[tuple[Landing, ...], ...]
        ] = {}

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
        cached = self.region_cache.get(key)
        if cached is not None:
            return cached
        ok = self._symbols_uncached(region)
        self.region_cache[key] = ok
        return ok

    def _symbols_uncached(self, region: int) -> bool:
        """Uncached square, star and polyshape rules of one region."""
        layout = self.layout
        if sum(1 for mask in layout.square_masks if region & mask) > 1:
            return False
        for star, same_color in layout.stars:
            if region & star and (region & same_color).bit_count() != 2:
                return False
        if region & layout.shapes:
            return self.shapes_ok(region)
        return True

    def shapes_ok(self, region: int) -> bool:
        """Polyshape rule of one region: net area first (cheap), then an exact tiling.

        Without ylops the region must be tiled by translates of its shapes; that runs on cell
        bitmasks here (`tile`). With ylops the checker's own fitting decides.
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
            return self.tile(cells, tuple(sorted(shapes.items())))
        return self._fits_with_ylops(region)

    def tile(self, cells: int, shapes: tuple[tuple[str, int], ...]) -> bool:
        """True if translates of `shapes` ((shape id, count) pairs) tile `cells` exactly.

        The lowest remaining cell (first in reading order) must be some shape's first cell, so
        each level tries one placement per shape kind (precomputed masks, `placement_at`).
        """
        if not cells:
            return not shapes
        key = (cells, shapes)
        cache = self.tile_cache
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
            if self.tile(cells & ~mask, rest):
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
            if not self.region_ok(component):
                return False
        return True

    def region_ok(self, region: int) -> bool:
        """Triangle, square, star and polyshape rules of one final region."""
        return self.triangles_ok(region) and self.symbols_ok(region)

    # --- path growth -----------------------------------------------------------------------

    def count_edge(self, index: int) -> bool:
        """Count an edge on the path for its triangles; False if one is over its number."""
        ok = True
        for number in self.layout.triangle_of_edge.get(index, ()):
            self.counts[number] += 1
            if self.counts[number] > self.layout.triangle_need[number]:
                ok = False
        return ok

    def uncount_edge(self, index: int) -> None:
        """Undo `count_edge`."""
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
        cached = self.conflict_cache.get(group)
        if cached is None:
            cached = sum(1 for mask in layout.square_masks if group & mask) > 1 or any(
                group & star and (group & same_color).bit_count() > 2
                for star, same_color in layout.stars
            )
            self.conflict_cache[group] = cached
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
        if key in self.walls_cache:
            return self.walls_cache[key]
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
            allowed = self.landings(touch, free, cw, 1) | self.landings(touch, free, ccw, -1)
            walls = layout.border_nodes & ~allowed
        self.walls_cache[key] = walls
        return walls

    def landings(self, touch: int, free: int, group: int, direction: int) -> int:
        """Border nodes reachable from `touch` along the border in `direction` (see walls)."""
        layout = self.layout
        end, nodes, dots = self.end, layout.border_nodes, layout.dots
        allowed = 0
        walk = layout.walks.get((touch, direction)) or add_walk(layout, touch, direction)
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
        the border arc from `touch` to b (see `area_arcs`); it lies within the live cells off
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
        tables = self.area_tables.get(key)
        if tables is None:
            tables = self.area_arcs(touch, free, 1), self.area_arcs(touch, free, -1)
            self.area_tables[key] = tables
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

    def area_arcs(self, touch: int, free: int, direction: int) -> tuple[Landing, ...]:
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
        walk = layout.walks.get((touch, direction)) or add_walk(layout, touch, direction)
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
        arrived = self.arrive(head, used, live, split, reach)
        if arrived is None:
            return
        live, reach = arrived
        on_border = (1 << head) & layout.border_nodes
        registered = on_border and touch >= 0 and layout.area_rule
        if registered:
            self.register(touch, head, cw, ccw)
        walls = -1
        if not on_border and touch >= 0 and layout.strips:
            guarded = self.excursion_walls(
                head, used, live, touch, cw, ccw, walls_above, wall_reach
            )
            if guarded is None:
                return
            walls, wall_reach = guarded
        self.advance(path, used, live, reach, touch, cw, ccw, cw_left, walls, wall_reach)
        if registered:
            self.unregister(touch, head)

    def arrive(
        self, head: int, used: int, live: int, split: bool, reach: int
    ) -> tuple[int, int] | None:
        """The live region and E's lattice component with the path at `head`, or None when the
        branch is dead (live region, sealed regions, lonely stars, lattice reachability).

        The live region is flooded again only when the last move may have split it (`split`),
        E's component only when the head may be a cut vertex (its `CutTable`)."""
        layout = self.layout
        head_bit = 1 << head
        if split:
            free = live & ~used
            live = self.flood(self.end_bit, free)
            if not layout.around[head] & live or layout.dots & ~used & ~live:
                return None
            if not self.sealed_ok(free & ~live) or not self.stars_ok(live, 0):
                return None
        ring_mask, may_cut = layout.cut_tables[head]
        if split or reach < 0 or may_cut[used & ring_mask]:
            reach = self.node_flood(layout.end_seeds, layout.nodes & ~used)
            if not self.dots_reachable(reach, used, head_bit):
                return None
        else:
            reach &= ~head_bit
        if not (layout.link[head] & reach or head_bit & layout.end_nodes):
            return None
        return live, reach

    def excursion_walls(
        self,
        head: int,
        used: int,
        live: int,
        touch: int,
        cw: int,
        ccw: int,
        walls_above: int,
        wall_reach: int,
    ) -> tuple[int, int] | None:
        """(walls, wall_reach) at an interior node of the excursion from `touch`, or None when
        the branch is dead (strips, lonely stars on the strips, landing walls, area walls).

        `walls` are the border nodes the excursion may not land on, `wall_reach` the free nodes
        still joined to a border node off the walls (flooded again only when the walls changed
        or the head may cut); the head must border that set."""
        layout = self.layout
        walls = self.landing_walls(touch, live & ~used, cw, ccw)
        if walls is None:
            return None
        if (cw | ccw) & layout.star_bits and self.end_bit & layout.perimeter_mask:
            # With E on the border the two strips end in different regions.
            if not (self.stars_ok(live & ~ccw, cw) and self.stars_ok(live & ~cw, ccw)):
                return None
        if layout.area_rule:
            walls = self.area_walls(touch, live & ~used, cw, ccw, walls | max(walls_above, 0))
        if walls:
            ring_mask, may_cut = layout.cut_tables[head]
            if walls != walls_above or wall_reach < 0 or may_cut[(used | walls) & ring_mask]:
                free_nodes = layout.nodes & ~used & ~walls
                wall_reach = self.node_flood(layout.border_nodes & free_nodes, free_nodes)
            else:
                wall_reach &= ~(1 << head)
            if not layout.link[head] & wall_reach:
                return None
        return walls, wall_reach

    def advance(
        self,
        path: list[int],
        used: int,
        live: int,
        reach: int,
        touch: int,
        cw: int,
        ccw: int,
        cw_left: bool,
        walls: int,
        wall_reach: int,
    ) -> None:
        """Try every move from the head (right, left, down, up) that enters a free live edge,
        keeps off the walls and its triangles within their numbers (moves, triangles, dead
        dots); finish at E, else extend the strips and `step` on from the next node."""
        layout = self.layout
        head = path[-1]
        on_border = (1 << head) & layout.border_nodes
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
                            ring != 0 and table[new_used & ring],
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
                self.count_edge(start)
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
                self.uncount_edge(start)
        except _Stop:
            pass
        return self.found


def solve_python(puzzle: Puzzle, limit: int | None = None) -> list[Path]:
    """Every rule-valid path of `puzzle` (at most `limit`), in depth-first order (moves right,
    left, down, up), by the pure engine.

    Args:
        puzzle: the parsed puzzle.
        limit: the most paths to return (None: all).

    Returns:
        The paths, each a list of positions from S to E."""
    if limit is not None and limit <= 0:
        return []
    return _Search(puzzle, limit).run()
