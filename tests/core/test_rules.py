"""Rule checker: stored solutions pass, single-rule mutations are caught, structure agrees."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sparc.validation import analyze_path, extract_solution_path

from inspect_sparc.core.puzzle.parse import Point, Puzzle, parse_puzzle
from inspect_sparc.core.puzzle.rules import (
    PUZZLE_RULES,
    RULES,
    SEARCH_PRUNING,
    STRUCTURAL_RULES,
    Verdict,
    board_for,
    check,
    regions,
    shape_offsets,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sparc"
RECORDS = [json.loads(line) for line in (FIXTURES / "puzzles.jsonl").read_text().splitlines()]
PUZZLES = [parse_puzzle(record) for record in RECORDS]
BY_ID = {p.id: p for p in PUZZLES}
ANSWERS = [json.loads(line) for line in (FIXTURES / "answers.jsonl").read_text().splitlines()]


def _as_dicts(path: list[Point] | tuple[Point, ...]) -> list[dict[str, int]]:
    """A path in the reference implementation's format."""
    return [{"x": x, "y": y} for x, y in path]


def _with_grid(record: dict[str, Any], edits: dict[Point, str]) -> Puzzle:
    """A copy of a record with some `puzzle_array` entries replaced."""
    changed = copy.deepcopy(record)
    for (x, y), value in edits.items():
        changed["puzzle_array"][y][x] = value
    return parse_puzzle(changed)


def _solved() -> Iterator[tuple[dict[str, Any], Puzzle, tuple[Point, ...]]]:
    """Every (record, puzzle, stored solution) of the fixtures."""
    for record, puzzle in zip(RECORDS, PUZZLES, strict=True):
        for solution in puzzle.solutions:
            yield record, puzzle, solution


def _first_mutation(
    make: Callable[[dict[str, Any], Puzzle, tuple[Point, ...]], Iterator[Puzzle]],
    rule: str,
) -> tuple[Puzzle, tuple[Point, ...], Verdict]:
    """The first edited puzzle where a stored solution breaks exactly `rule`."""
    for record, puzzle, solution in _solved():
        for edited in make(record, puzzle, solution):
            verdict = check(edited, solution)
            if verdict.broken_rules == (rule,):
                return edited, solution, verdict
    raise AssertionError(f"no mutation breaking only {rule!r} found in the fixtures")


def _empty_cells(puzzle: Puzzle) -> list[Point]:
    """Odd/odd positions without a symbol."""
    return [
        (x, y)
        for y in range(1, puzzle.rows, 2)
        for x in range(1, puzzle.columns, 2)
        if puzzle.grid[y][x] == "N"
    ]


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_every_stored_solution_is_valid(puzzle: Puzzle) -> None:
    for solution in puzzle.solutions:
        verdict = check(puzzle, solution)
        assert verdict.valid, verdict
        assert verdict.is_line
        assert verdict.broken_rules == ()


def test_skipped_dot_is_named() -> None:
    def add_dot(record: dict[str, Any], puzzle: Puzzle, solution: tuple[Point, ...]):
        on_path = set(solution)
        for y in range(0, puzzle.rows, 2):
            for x in range(0, puzzle.columns, 2):
                if (x, y) not in on_path and puzzle.grid[y][x] == "+":
                    yield _with_grid(record, {(x, y): "."})
                    return

    puzzle, _, verdict = _first_mutation(add_dot, "dot")
    (violation,) = verdict.violations
    assert violation.message.startswith("dot at (")
    assert violation.message.endswith("not on the path")
    assert violation.positions[0] in puzzle.dots


def test_mixed_square_region_is_named() -> None:
    def add_square(record: dict[str, Any], puzzle: Puzzle, solution: tuple[Point, ...]):
        for cells in regions(puzzle, set(solution)):
            colors = {puzzle.symbols[c].color for c in cells if c in puzzle.symbols}
            squares = [
                c for c in cells if c in puzzle.symbols and puzzle.symbols[c].kind == "square"
            ]
            empty = [c for c in cells if puzzle.grid[c[1]][c[0]] == "N"]
            if squares and empty:
                other = next(c for c in "RBGYWOPK" if c not in colors)
                yield _with_grid(record, {empty[0]: f"o-{other}"})

    _, _, verdict = _first_mutation(add_square, "square")
    (violation,) = verdict.violations
    assert violation.message.startswith("region with squares of colours")
    assert len(violation.positions) >= 2


def test_moved_star_partner_is_named() -> None:
    def move_partner(record: dict[str, Any], puzzle: Puzzle, solution: tuple[Point, ...]):
        found = regions(puzzle, set(solution))
        for cells in found:
            stars = [c for c in cells if c in puzzle.symbols and puzzle.symbols[c].kind == "star"]
            for star in stars:
                color = puzzle.symbols[star].color
                partner = next(
                    c
                    for c in cells
                    if c != star and c in puzzle.symbols and puzzle.symbols[c].color == color
                )
                for other in found:
                    if other is cells:
                        continue
                    for target in other:
                        if puzzle.grid[target[1]][target[0]] == "N":
                            value = puzzle.grid[partner[1]][partner[0]]
                            yield _with_grid(record, {partner: "N", target: value})

    _, _, verdict = _first_mutation(move_partner, "star")
    assert any("needs exactly 2" in v.message for v in verdict.violations)


def test_miscounted_triangle_is_named() -> None:
    def recount(record: dict[str, Any], puzzle: Puzzle, solution: tuple[Point, ...]):
        for (x, y), symbol in puzzle.symbols.items():
            if symbol.kind == "triangle":
                letter = "ABCD"[symbol.triangle_count % 4]
                yield _with_grid(record, {(x, y): f"{letter}-{symbol.color}"})

    _, _, verdict = _first_mutation(recount, "triangle")
    (violation,) = verdict.violations
    assert "edge(s) on the path, has" in violation.message


def test_misfit_shape_is_named() -> None:
    line = [[1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    column = [[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]

    def reshape(record: dict[str, Any], puzzle: Puzzle, solution: tuple[Point, ...]):
        for shape_id, matrix in puzzle.polyshapes.items():
            if sum(map(sum, matrix)) != 4:
                continue
            for replacement in (line, column):
                if [list(row) for row in matrix] != replacement:
                    changed = copy.deepcopy(record)
                    shapes = json.loads(changed["polyshapes"])
                    shapes[shape_id] = replacement
                    changed["polyshapes"] = json.dumps(shapes)
                    yield parse_puzzle(changed)

    _, _, verdict = _first_mutation(reshape, "polyshape")
    assert "cannot be fitted" in verdict.violations[0].message


def test_wrong_shape_size_is_named() -> None:
    puzzle = next(p for p in PUZZLES if any(s.kind == "polyshape" for s in p.symbols.values()))
    record = dict(copy.deepcopy(puzzle.record))
    shapes = json.loads(record["polyshapes"])
    for shape_id in shapes:
        shapes[shape_id] = [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    record["polyshapes"] = json.dumps(shapes)
    verdict = check(parse_puzzle(record), puzzle.solutions[0])
    assert "polyshape" in verdict.broken_rules
    assert any("cover" in v.message for v in verdict.violations)


def test_shape_offsets_anchor_top_left_cell() -> None:
    assert shape_offsets([[0, 1, 0, 0], [0, 1, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0]]) == (
        (0, 0),
        (0, 1),
        (1, 1),
        (0, 2),
        (1, 2),
    )
    assert shape_offsets([[0, 0, 1, 0], [0, 1, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]]) == (
        (0, 0),
        (-1, 1),
        (0, 1),
    )
    # a shape drawn lower in its matrix is the same shape
    assert shape_offsets([[0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 1, 0], [0, 1, 0, 0]]) == (
        (0, 0),
        (1, 0),
        (0, 1),
    )


def test_negative_shapes_cancel_or_fail() -> None:
    puzzle = next(p for p in PUZZLES if any(s.kind == "ylop" for s in p.symbols.values()))
    board = board_for(puzzle)
    from inspect_sparc.core.puzzle.rules import polyshape_problem

    shape = next(s.shape_id for s in puzzle.symbols.values() if s.kind == "ylop")
    assert shape is not None
    region = frozenset({0})
    assert polyshape_problem(board, region, (shape,), (shape,)) == ""
    assert "outweigh" in polyshape_problem(board, region, (), (shape,))


# --- structure: agreement with the reference ---------------------------------------------------


@pytest.mark.parametrize("answer", ANSWERS, ids=[str(i) for i in range(len(ANSWERS))])
def test_structure_agrees_with_reference_on_model_answers(answer: dict[str, Any]) -> None:
    puzzle = BY_ID[answer["puzzle_id"]]
    extracted = extract_solution_path(answer["response"], puzzle.record)
    reference = analyze_path(extracted, puzzle.record)
    assert reference == answer["reference"]["analysis"]
    path = [(p["x"], p["y"]) for p in extracted or []]
    verdict = check(puzzle, path)
    assert verdict.is_line == reference["fully_valid_path"]
    if reference["fully_valid_path"]:
        extra = {v.rule for v in verdict.violations if v.rule in STRUCTURAL_RULES}
        assert extra <= {"gap", "off_grid"}
    if answer["reference"]["solved"]:
        assert verdict.valid


def _adversarial_paths(puzzle: Puzzle) -> Iterator[list[Point]]:
    """Broken and odd paths built from a stored solution."""
    solution = list(puzzle.solutions[0])
    yield []
    yield [puzzle.start]
    yield [puzzle.end]
    yield solution[::-1]
    yield solution[:-1]
    yield solution[1:]
    yield solution[: len(solution) // 2] + solution[len(solution) // 2 + 1 :]
    yield solution[:3] + [solution[1]] + solution[3:]
    yield solution + [solution[-2], solution[-1]]
    yield [(x + 2, y) for x, y in solution]
    yield [(-x, -y) for x, y in solution]
    yield [(10**12, 10**12)] + solution
    yield solution[:-1] + [(puzzle.end[0], puzzle.end[1] + 1), puzzle.end]
    yield [solution[0]] + [(1, 1)] + solution[1:]
    yield [(i % 5, i // 5) for i in range(3000)]
    yield [puzzle.start] * 2000 + [puzzle.end]
    for gap in sorted(puzzle.gaps):
        yield [puzzle.start, gap, puzzle.end]


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_structure_agrees_with_reference_on_adversarial_paths(puzzle: Puzzle) -> None:
    for path in _adversarial_paths(puzzle):
        verdict = check(puzzle, path)
        reference = analyze_path(_as_dicts(path), puzzle.record)
        assert verdict.is_line == reference["fully_valid_path"], path
        assert verdict.valid == (tuple(path) in puzzle.solutions)


def test_gap_and_off_grid_and_early_end_are_structural() -> None:
    puzzle = next(p for p in PUZZLES if p.gaps)
    gap = sorted(puzzle.gaps)[0]
    assert "gap" in check(puzzle, [puzzle.start, gap, puzzle.end]).broken_rules
    assert "off_grid" in check(puzzle, [(-1, 0), puzzle.end]).broken_rules
    path = [puzzle.start, puzzle.end, puzzle.start, puzzle.end]
    assert {"end", "revisit"} <= set(check(puzzle, path).broken_rules)


def test_junk_input_never_raises() -> None:
    puzzle = PUZZLES[0]
    for junk in (None, 5, "abc", [(1, 2, 3)], [("a", "b")], [(1.5, 2)], [{"x": 1, "y": 2}]):
        verdict = check(puzzle, junk)  # type: ignore[arg-type]
        assert not verdict.is_line and not verdict.valid
    assert check(puzzle, [(float(x), float(y)) for x, y in puzzle.solutions[0]]).valid


def test_empty_path_reports_only_that_it_is_no_line() -> None:
    puzzle = next(p for p in PUZZLES if p.dots)
    verdict = check(puzzle, [])
    assert set(verdict.broken_rules) == {"start", "end"}


def test_puzzle_rules_skipped_on_broken_lines() -> None:
    puzzle = next(p for p in PUZZLES if p.dots)
    verdict = check(puzzle, [puzzle.start])
    assert not set(PUZZLE_RULES) & set(verdict.broken_rules)


def test_puzzle_rules_still_checked_on_a_line_through_a_gap() -> None:
    # The reference calls such a path fully valid, so its other rule breaks must be named too.
    puzzle = PUZZLES[0]
    solution = puzzle.solutions[0]
    on_path = set(solution)
    grid = [list(row) for row in puzzle.grid]
    gap = next(p for p in solution[1:-1] if p[0] % 2 != p[1] % 2)
    dot = next(
        (x, y)
        for y, row in enumerate(grid)
        for x, value in enumerate(row)
        if value == "+" and (x, y) not in on_path
    )
    grid[gap[1]][gap[0]] = "G"
    grid[dot[1]][dot[0]] = "."
    verdict = check(parse_puzzle(dict(puzzle.record, puzzle_array=grid)), solution)
    assert {"gap", "dot"} <= set(verdict.broken_rules)
    assert analyze_path([{"x": x, "y": y} for x, y in solution], {"puzzle_array": grid})[
        "fully_valid_path"
    ]


# --- messages and odd inputs: what a reader of an explanation sees ------------------------------


def test_messages_name_positions_as_x_y() -> None:
    puzzle = PUZZLES[0]
    assert (puzzle.start, puzzle.end, puzzle.columns, puzzle.rows) == ((4, 4), (4, 2), 5, 7)
    messages = {v.rule: v.message for v in check(puzzle, [(3, 2), (9, 9), (1, 1)]).violations}
    assert messages == {
        "start": "path starts at (3,2), not at the start (4,4)",
        "end": "path ends at (1,1), not at the end (4,2)",
        "disconnected": "path jumps between non-adjacent positions: (3,2)->(9,9), (9,9)->(1,1)",
        "off_grid": "path leaves the 5x7 grid at (9,9)",
        "rule_cell": "path runs through rule cell(s) (1,1)",
    }


@pytest.mark.parametrize(("count", "suffix"), [(6, ", (25,0)"), (7, ", (25,0) and 1 more")])
def test_long_position_lists_are_elided_after_six(count: int, suffix: str) -> None:
    verdict = check(PUZZLES[0], [(20 + i, 0) for i in range(count)])
    (off_grid,) = [v for v in verdict.violations if v.rule == "off_grid"]
    assert off_grid.message.endswith("(24,0)" + suffix)
    assert len(off_grid.positions) == count


@pytest.mark.parametrize("odd", ["half", "bool_x", "bool_y"])
def test_non_integer_coordinates_never_pass_as_points(odd: str) -> None:
    # A stored solution with one point written as a float or a bool is no solution.
    for puzzle in PUZZLES:
        solution: list[tuple[Any, Any]] = list(puzzle.solutions[0])
        for i, (x, y) in enumerate(solution):
            if odd == "half":
                solution[i] = (x + 0.5, y)
            elif odd == "bool_x" and x == 1:
                solution[i] = (True, y)
            elif odd == "bool_y" and y == 1:
                solution[i] = (x, True)
            else:
                continue
            verdict = check(puzzle, solution)
            assert not verdict.valid
            assert any("not (x,y) points" in v.message for v in verdict.violations)
            return
    raise AssertionError("no fixture solution has a point to rewrite")


def test_shape_placements_are_every_translation_inside_the_grid() -> None:
    for puzzle in PUZZLES:
        board = board_for(puzzle)
        for shape_id, offsets in board.shapes.items():
            placements = board.shape_placements(shape_id)
            for placement in placements:  # each one is the shape itself, nothing wrapped
                cells = [(index % puzzle.width, index // puzzle.width) for index in placement]
                ax, ay = cells[0]
                assert [(x - ax, y - ay) for x, y in cells] == list(offsets), (puzzle.id, shape_id)
                assert ax + max(dx for dx, _ in offsets) < puzzle.width
                assert ax + min(dx for dx, _ in offsets) >= 0
            width = max(dx for dx, _ in offsets) - min(dx for dx, _ in offsets) + 1
            height = max(dy for _, dy in offsets) + 1
            assert len(set(placements)) == len(placements)
            assert len(placements) == (puzzle.width - width + 1) * (puzzle.height - height + 1)


def _defined_names(module: str) -> set[str]:
    """Top-level functions and classes of a search module, and its classes' methods as
    `Class.method`, read from its source (the kernel imports numba, which may be absent)."""
    import ast

    import inspect_sparc.core.search as search

    source = (Path(search.__file__).parent / f"{module}.py").read_text()
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names |= {f"{node.name}.{d.name}" for d in node.body if isinstance(d, ast.FunctionDef)}
    return names


def test_every_rule_names_where_both_engines_prune_it() -> None:
    # The map a rule change follows: it must cover every rule, name a place in each engine,
    # and name only functions that exist (a rename in the search fails here, not silently).
    assert set(SEARCH_PRUNING) == set(RULES)
    for rule, pruning in SEARCH_PRUNING.items():
        assert pruning.python and pruning.kernel, rule
        for module, names in pruning._asdict().items():
            missing = sorted(set(names) - _defined_names(module))
            assert not missing, f"{rule}: {module} has no {', '.join(missing)}"
