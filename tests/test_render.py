"""Text drawing of puzzles, paths and violation marks."""

from __future__ import annotations

import json
from pathlib import Path

from inspect_sparc.core.puzzle import parse_puzzle
from inspect_sparc.core.render import COLOR_WORDS, KIND_WORDS, LATTICE_WORDS, MARK, render

FIXTURES = Path(__file__).parent / "fixtures" / "sparc"
PUZZLES = [
    parse_puzzle(json.loads(line)) for line in (FIXTURES / "puzzles.jsonl").read_text().splitlines()
]


def _grid_lines(text: str, rows: int) -> list[str]:
    """The drawn grid rows (after the x header)."""
    return text.splitlines()[1 : 1 + rows]


def test_first_puzzle_drawing() -> None:
    puzzle = PUZZLES[0]
    text = render(puzzle, puzzle.solutions[0])
    lines = _grid_lines(text, puzzle.rows)
    assert len(lines) == puzzle.rows
    assert lines[4].split()[-1] == "S"
    assert lines[2].split()[-1] == "E"
    assert "oR" in lines[5]
    assert "PR" in lines[3]
    assert "G" in lines[1]
    assert "@" in lines[0]
    assert "1648=.#../.##./.##./...." in text
    legend_line, cells_line = text.splitlines()[-2:]
    assert legend_line.startswith("legend: S start, E end, # path, @ dot on path")
    assert cells_line == "cells = kind + colour: o square, P polyshape; R red"


def test_six_by_six_is_compact() -> None:
    puzzle = next(p for p in PUZZLES if p.width == 6 and p.height == 6)
    text = render(puzzle, puzzle.solutions[0])
    lines = text.splitlines()
    assert len(lines) <= puzzle.rows + 4  # x header, rows, shapes, legend, cell codes
    assert max(len(line) for line in lines[:-3]) <= 60


def test_without_path_shows_no_path_marks() -> None:
    puzzle = PUZZLES[1]
    lines = _grid_lines(render(puzzle), puzzle.rows)
    assert not any("#" in line for line in lines)
    assert "# path" not in render(puzzle)


def test_marks_flag_violations_and_ignore_off_grid() -> None:
    puzzle = next(p for p in PUZZLES if p.dots)
    marks = (sorted(puzzle.dots)[0], (-1, 0))
    text = render(puzzle, [puzzle.start, (-5, 3), (99, 99)], marks)
    dot_x, dot_y = sorted(puzzle.dots)[0]
    row = _grid_lines(text, puzzle.rows)[dot_y]
    prefix = len(str(puzzle.rows - 1)) + 1
    token = row[prefix + 3 * dot_x : prefix + 3 * dot_x + 3]
    assert token == ".! "
    assert "! marked (numbered list above)" in text


def _codes(text: str, puzzle) -> dict[tuple[int, int], str]:
    """The code drawn at every grid position, read back from the drawing."""
    prefix = len(str(puzzle.rows - 1)) + 1
    return {
        (x, y): row[prefix + 3 * x : prefix + 3 * x + 3].strip()
        for y, row in enumerate(_grid_lines(text, puzzle.rows))
        for x in range(puzzle.columns)
    }


def test_every_fixture_draws_its_solution_exactly_where_it_runs() -> None:
    for puzzle in PUZZLES:
        path = puzzle.solutions[0]
        codes = _codes(render(puzzle, path), puzzle)
        assert len(codes) == puzzle.rows * puzzle.columns
        for point, code in codes.items():
            value = puzzle.grid[point[1]][point[0]]
            if point in (puzzle.start, puzzle.end):
                assert code == value, (puzzle.id, point)
            elif point in path:
                assert code == ("@" if value == "." else "#"), (puzzle.id, point, code)
            else:
                assert code not in ("#", "@"), (puzzle.id, point, code)


def test_the_legend_names_every_code_the_drawing_shows() -> None:
    """Each lattice code, cell kind letter and colour letter drawn is explained below the grid."""
    for puzzle in PUZZLES:
        for path, marks in ((None, ()), (puzzle.solutions[0], [puzzle.start, (1, 1)])):
            text = render(puzzle, path, marks)
            grid = _grid_lines(text, puzzle.rows)
            legend = "\n".join(text.splitlines()[1 + puzzle.rows :])
            for y, line in enumerate(grid):
                tokens = [line[len(str(puzzle.rows - 1)) + 1 :][i : i + 3] for i in range(0, 99, 3)]
                for x, token in enumerate(t.strip() for t in tokens[: puzzle.columns]):
                    code = token.rstrip(MARK)
                    if token.endswith(MARK):
                        assert f"{MARK} marked" in legend
                    if not code:
                        continue
                    if x % 2 and y % 2:
                        assert f"{code[0]} {KIND_WORDS[code[0]]}" in legend, (code, legend)
                        assert f"{code[1]} {COLOR_WORDS[code[1]]}" in legend, (code, legend)
                    else:
                        assert code in LATTICE_WORDS and f"{code} " in legend, (code, legend)
