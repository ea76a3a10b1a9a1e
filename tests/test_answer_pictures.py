"""What a reader relies on in an answer picture: readable size, S and E labelled, and each ringed
position numbered as the broken rule listed beside it (pixels checked against the reference
renderer's geometry)."""

from __future__ import annotations

import re

import pytest
from test_visual_explanation import (
    answer,
    close,
    geometry,
    picture_of,
    region_failures,
    rule_blind_line,
)

from inspect_sparc.core.picture import ANSWER_CELL, BADGE_TEXT, MARK_COLOR, answer_drawing
from inspect_sparc.core.puzzle import parse_puzzle
from inspect_sparc.core.rules import check
from inspect_sparc.evals.sparc.scorer import PICTURE_CAPTION, mark_labels, score_answer

#: The smallest grid cell, in pixels, at which every symbol reads at the viewer's normal width.
READABLE_CELL = 60


@pytest.fixture(scope="module")
def region_cases(sparc_records):
    return region_failures(sparc_records)


def near(picture, centre, color, reach: int) -> bool:
    """True when a pixel within `reach` of `centre` has `color`."""
    cx, cy = (int(c) for c in centre)
    width, height = picture.size
    return any(
        close(picture.getpixel((x, y)), color, tolerance=8)
        for x in range(max(0, cx - reach), min(width, cx + reach + 1))
        for y in range(max(0, cy - reach), min(height, cy + reach + 1))
    )


def test_pictures_are_large_enough_to_read(sparc_records):
    assert ANSWER_CELL >= READABLE_CELL
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        picture = answer_drawing(puzzle, rule_blind_line(record))
        width, height = picture.size
        assert width >= READABLE_CELL * puzzle.width and height >= READABLE_CELL * puzzle.height
        assert min(width, height) >= 250, picture.size


def test_s_and_e_are_labelled(sparc_records):
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        where = geometry(record)
        picture = answer_drawing(puzzle, rule_blind_line(record))
        plain = answer_drawing(puzzle, None)
        for point in (puzzle.start, puzzle.end):
            x, y = where.middle_positions[point[1]][point[0]]
            # black letter ink on the badge, by the start disc and by the end's stub
            assert near(picture, (x, y), BADGE_TEXT, int(where.path_size) * 2), (
                record["id"],
                point,
            )
            assert near(plain, (x, y), BADGE_TEXT, int(where.path_size) * 2), (record["id"], point)


def test_ring_numbers_match_the_listed_broken_rules_and_their_positions(region_cases):
    assert len(region_cases) >= 8
    for record, line in region_cases:
        puzzle = parse_puzzle(record)
        verdict = check(puzzle, line)
        explanation = score_answer(puzzle, answer(line)).explanation
        assert explanation.endswith(PICTURE_CAPTION)
        listed = re.findall(r"^(\d+)\. `(\w+)`: (.*)$", explanation, re.M)
        assert [(int(n), rule) for n, rule, _ in listed] == [
            (n, v.rule) for n, v in enumerate(verdict.violations, start=1)
        ]
        labels = mark_labels(verdict.violations)
        for n, violation in enumerate(verdict.violations, start=1):
            for point in violation.positions:
                assert str(n) in labels[point].split(","), (n, point)
                assert f"({point[0]},{point[1]})" in listed[n - 1][2], (n, point)
        # each numbered position is ringed, its number badge beside the ring
        picture = picture_of(explanation)
        where = geometry(record)
        radius = int(where.path_size)
        for (x, y), label in labels.items():
            cx, cy = where.middle_positions[y][x]
            assert near(picture, (cx + radius, cy), MARK_COLOR, 3), (x, y)  # the ring
            corner = (cx + radius * 0.7, cy - radius * 0.7)
            assert near(picture, corner, MARK_COLOR, 8), (x, y, label)  # the badge
        # and no ring where no rule broke
        for y in range(1, puzzle.rows, 2):
            for x in range(1, puzzle.columns, 2):
                if (x, y) not in labels and not any(
                    abs(x - a) + abs(y - b) <= 2 for a, b in labels
                ):
                    cx, cy = where.middle_positions[y][x]
                    assert not near(picture, (cx + radius, cy), MARK_COLOR, 1), (x, y)


def test_a_position_named_by_two_rules_shows_both_numbers() -> None:
    from inspect_sparc.core.rules import Violation

    violations = (
        Violation("dot", ((0, 0),), "dot at (0,0) not on the path"),
        Violation("star", ((1, 1),), "star"),
        Violation("square", ((1, 1), (3, 1)), "squares"),
    )
    assert mark_labels(violations) == {(0, 0): "1", (1, 1): "2,3", (3, 1): "3"}


def test_a_gym_dead_end_names_and_marks_where_the_agent_got_stuck(sparc_records):
    import random

    from inspect_sparc.core.baselines import random_policy
    from inspect_sparc.core.gym import DEAD_END, GymEnv
    from inspect_sparc.core.render import MARK
    from inspect_sparc.evals.sparc.gym.scorer import score_episode

    found = 0
    for index, record in enumerate(sparc_records):
        env = GymEnv(parse_puzzle(record))
        policy = random_policy(random.Random(index))
        while not env.done:
            env.step(policy(env))
        if env.ended != DEAD_END:
            continue
        found += 1
        x, y = env.final_path[-1]
        explanation = score_episode(env).explanation
        assert f"1. `dead_end`: stuck at ({x},{y})" in explanation
        grid = explanation.split("```")[1].splitlines()[2:]  # after the x header
        row = grid[y]
        prefix = len(str(env.puzzle.rows - 1)) + 1
        assert row[prefix + 3 * x : prefix + 3 * x + 3].strip().endswith(MARK)
        assert re.search(r"solve this puzzle: 1 in [\d,]+ \([\d.e+-]+\)\.", explanation)
    assert found >= 10


def test_small_chances_read_as_odds() -> None:
    from inspect_sparc.evals.sparc.gym.scorer import readable_chance

    assert readable_chance(0.00005) == "1 in 20,000 (5e-05)"
    assert readable_chance(0.5) == "1 in 2 (0.5)"
    assert readable_chance(1.0) == "1 in 1 (1)"


def stub_direction(record, puzzle) -> tuple[int, int]:
    """The way the end's stub points in the reference renderer's own drawing of the puzzle: the
    side off the grid along which its line colour runs on past the end position."""
    plot = geometry(record)
    plot.render()
    ex, ey = plot.middle_positions[puzzle.end[1]][puzzle.end[0]]
    line = plot._img.getpixel((int(ex), int(ey)))
    found = []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if puzzle.in_grid((puzzle.end[0] + dx, puzzle.end[1] + dy)):
            continue  # a grid line, not the stub
        reach = ANSWER_CELL * 0.45
        if plot._img.getpixel((int(ex + dx * reach), int(ey + dy * reach))) == line:
            found.append((dx, dy))
    assert len(found) == 1, (record["id"], found)
    return found[0]


def test_e_sits_on_the_ends_stub_even_in_a_corner(sparc_records):
    """The E badge is drawn out along the stub the reference draws at the end, also where the
    end is a corner of the grid and two sides lead off it."""
    corners = 0
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        dx, dy = stub_direction(record, puzzle)
        where = geometry(record)
        ex, ey = where.middle_positions[puzzle.end[1]][puzzle.end[0]]
        picture = answer_drawing(puzzle, None)
        along = ANSWER_CELL * 0.6
        assert near(picture, (ex + dx * along, ey + dy * along), BADGE_TEXT, ANSWER_CELL // 4), (
            record["id"],
            puzzle.end,
            (dx, dy),
        )
        x, y = puzzle.end
        corners += x in (0, puzzle.columns - 1) and y in (0, puzzle.rows - 1)
    assert corners >= 3  # the fixtures hold ends in corners
