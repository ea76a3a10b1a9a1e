"""What a reader relies on in an answer picture: readable size, S and E labelled, and each ringed
position numbered as the broken rule listed beside it (pixels checked against the reference
renderer's geometry)."""

from __future__ import annotations

import re

import pytest
from picture_helpers import (
    answer,
    close,
    geometry,
    picture_of,
    region_failures,
    rule_blind_line,
)

from inspect_sparc.core.picture.image import (
    ANSWER_CELL,
    BADGE_FILL,
    BADGE_TEXT,
    MARK_COLOR,
    PATH_COLOR,
    answer_drawing,
)
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.rules import check
from inspect_sparc.evals.sparc.scorer import mark_labels, score_answer

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
        assert explanation.endswith(")")  # the picture last
        listed = re.findall(r"^(\d+)\. `(\w+)`: (.*)$", explanation, re.M)
        assert [(int(n), rule) for n, rule, _ in listed] == [
            (n, v.rule) for n, v in enumerate(verdict.violations, start=1)
        ]
        labels = mark_labels(verdict.violations)
        for n, violation in enumerate(verdict.violations, start=1):
            # a rule naming one or two positions is numbered at each, one naming more at its
            # first only (the others boxed)
            named = list(dict.fromkeys(violation.positions))
            many = len(named) > 2
            for index, point in enumerate(named):
                numbered = str(n) in labels[point].split(",")
                assert numbered == (index == 0 or not many), (n, point, labels[point])
                assert f"({point[0]},{point[1]})" in listed[n - 1][2], (n, point)
        # each named position is ringed, a number badge beside the ring where it is numbered
        picture = picture_of(explanation)
        where = geometry(record)
        radius = int(where.path_size)
        for (x, y), label in labels.items():
            cx, cy = where.middle_positions[y][x]
            assert near(picture, (cx + radius, cy), MARK_COLOR, 3), (x, y)  # the ring
            corner = (cx + radius, cy - radius)
            if label:
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
    from inspect_sparc.core.puzzle.rules import Violation

    violations = (
        Violation("dot", ((0, 0),), "dot at (0,0) not on the path"),
        Violation("star", ((1, 1),), "star"),
        Violation("square", ((1, 1), (3, 1)), "squares"),
    )
    assert mark_labels(violations) == {(0, 0): "1", (1, 1): "2,3", (3, 1): "3"}


def test_a_gym_dead_end_names_and_marks_where_the_agent_got_stuck(sparc_records):
    import random

    from inspect_sparc.core.episode.baselines import random_policy
    from inspect_sparc.core.episode.stepper import DEAD_END, Stepper
    from inspect_sparc.core.picture.text import MARK
    from inspect_sparc.evals.sparc.episode_scorer import score_episode

    found = 0
    for index, record in enumerate(sparc_records):
        env = Stepper(parse_puzzle(record))
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
        assert re.search(r"solve this puzzle: 1 in [\d,]+ \([\d.]+%\)\.", explanation)
    assert found >= 10


def test_small_chances_read_as_odds() -> None:
    from inspect_sparc.evals.sparc.episode_scorer import readable_chance

    assert readable_chance(0.00005) == "1 in 20,000 (0.0050%)"
    assert readable_chance(0.5) == "1 in 2 (50%)"
    assert readable_chance(1.0) == "1 in 1 (100%)"


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


def changed_box(picture, reference, around, reach):
    """The bounding box (x0, y0, x1, y1) of the connected patch of pixels that differ between
    two pictures, within `reach` of `around`, that lies nearest `around` (a badge, not a
    coordinate label a few pixels off it), or None."""
    from PIL import ImageChops

    cx, cy = (int(c) for c in around)
    box = (max(0, cx - reach), max(0, cy - reach), cx + reach + 1, cy + reach + 1)
    diff = ImageChops.difference(picture.crop(box), reference.crop(box)).convert("L")
    width, height = diff.size
    changed = {(x, y) for x in range(width) for y in range(height) if diff.getpixel((x, y))}
    if not changed:
        return None
    seed = min(changed, key=lambda p: (p[0] + box[0] - cx) ** 2 + (p[1] + box[1] - cy) ** 2)
    patch, todo = {seed}, [seed]
    while todo:
        x, y = todo.pop()
        for step in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if step in changed and step not in patch:
                patch.add(step)
                todo.append(step)
    xs, ys = [p[0] for p in patch], [p[1] for p in patch]
    return (min(xs) + box[0], min(ys) + box[1], max(xs) + 1 + box[0], max(ys) + 1 + box[1])


def ink_box(picture, box, color):
    """The bounding box of `color` pixels strictly inside `box` (its outline left out)."""
    x0, y0, x1, y1 = box
    points = [
        (x, y)
        for x in range(x0 + 2, x1 - 2)
        for y in range(y0 + 2, y1 - 2)
        if close(picture.getpixel((x, y)), color, tolerance=8)
    ]
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs) + 1, max(ys) + 1)


def test_s_and_e_badges_are_light_with_dark_readable_letters_where_they_belong(sparc_records):
    """Against the reference's own drawing of the puzzle, what `answer_drawing` adds without a
    path is the two badges: S centred on the start disc, E out along the end's stub; each a light
    badge with a dark capital letter centred inside it (cap height at least 15 px of the pinned
    font, readable at the viewer's width), clear of the badge's edge and of the picture's."""
    checked = 0
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        where = geometry(record)
        sx, sy = where.middle_positions[puzzle.start[1]][puzzle.start[0]]
        ex, ey = where.middle_positions[puzzle.end[1]][puzzle.end[0]]
        if abs(sx - ex) + abs(sy - ey) < 2 * ANSWER_CELL:
            continue  # the two badges would share the neighbourhood read below
        reference = geometry(record)
        reference.render()
        picture = answer_drawing(puzzle, None)
        dx, dy = stub_direction(record, puzzle)
        s_box = changed_box(picture, reference._img, (sx, sy), ANSWER_CELL // 2)
        e_box = changed_box(
            picture, reference._img, (ex + dx * ANSWER_CELL / 2, ey + dy * ANSWER_CELL / 2),
            ANSWER_CELL // 2,
        )  # fmt: skip
        width, height = picture.size
        for box in (s_box, e_box):
            assert box is not None, record["id"]
            ink = ink_box(picture, box, BADGE_TEXT)
            assert ink is not None and ink[3] - ink[1] >= 15, (record["id"], box, ink)
            assert ink_box(picture, box, BADGE_FILL) is not None, (record["id"], box)
            for axis in (0, 1):
                centre = (box[axis] + box[axis + 2]) / 2
                assert abs((ink[axis] + ink[axis + 2]) / 2 - centre) <= 1.5, (
                    record["id"],
                    box,
                    ink,
                )
                assert min(ink[axis] - box[axis], box[axis + 2] - ink[axis + 2]) >= 3
            assert min(ink[0], ink[1], width - ink[2], height - ink[3]) >= 3, (record["id"], ink)
        # S centred on the start
        assert abs((s_box[0] + s_box[2]) / 2 - sx) <= 2 and abs((s_box[1] + s_box[3]) / 2 - sy) <= 2
        # E on the stub's axis, beyond the end position
        out = ((e_box[0] + e_box[2]) / 2 - ex, (e_box[1] + e_box[3]) / 2 - ey)
        along, across = out[0] * dx + out[1] * dy, out[0] * dy - out[1] * dx
        assert along >= 12 and abs(across) <= 2, (record["id"], out, (dx, dy))
        checked += 1
    assert checked >= 40


def test_each_number_badge_sits_at_its_rings_top_right(region_cases):
    """What a label adds to the ringed picture is one badge (magenta with white digits) centred
    on the top right corner of its ring, and each ring is a closed square around the position,
    a few pixels thick on all four sides."""
    from PIL import ImageChops

    for record, line in region_cases[:12]:
        puzzle = parse_puzzle(record)
        labels = mark_labels(check(puzzle, line).violations)
        rings_only = answer_drawing(puzzle, line, dict.fromkeys(labels, ""))
        where = geometry(record)
        radius = int(where.path_size)
        for (x, y), label in labels.items():
            cx, cy = where.middle_positions[y][x]
            # the ring: on all four sides of the centre alike, at least 3 px thick
            for side in (-1, 1):
                row = [
                    rings_only.getpixel((int(cx + side * radius) + d, int(cy)))
                    for d in range(-6, 7)
                ]
                column = [
                    rings_only.getpixel((int(cx), int(cy + side * radius) + d))
                    for d in range(-6, 7)
                ]
                for line_across in (row, column):
                    thick = sum(close(p, MARK_COLOR, 8) for p in line_across)
                    assert thick >= 3, (record["id"], (x, y), side)
            one = answer_drawing(puzzle, line, {**dict.fromkeys(labels, ""), (x, y): label})
            box = ImageChops.difference(one, rings_only).getbbox()
            assert box is not None, (record["id"], (x, y))
            corner = (cx + radius, cy - radius)
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            assert abs(centre[0] - corner[0]) <= 2 and abs(centre[1] - corner[1]) <= 2
            # a magenta badge (not just the ring below it) with white digits of readable size
            added = {
                color: [
                    (i, j)
                    for i in range(box[0], box[2])
                    for j in range(box[1], box[3])
                    if close(one.getpixel((i, j)), color, 8)
                    and not close(rings_only.getpixel((i, j)), color, 8)
                ]
                for color in (MARK_COLOR, PATH_COLOR)
            }
            assert added[MARK_COLOR], (record["id"], (x, y))
            rows = [j for _, j in added[PATH_COLOR]]
            assert rows and max(rows) - min(rows) + 1 >= 12, (record["id"], (x, y), label)


def test_ring_labels_are_cut_to_fit_and_odd_points_skipped():
    """A position named by many broken rules gets a short label ending in `+`, keeping the
    first numbers; points that are not two whole numbers are left out, the rest still drawn."""
    from inspect_sparc.core.picture.image import MAX_LABEL, _labels

    many = ",".join(str(n) for n in range(1, 12))
    labels = _labels({(1, 1): many, (3, 1): "1,2,3", (5, 5): "1234567"})
    assert len(labels[(1, 1)]) == MAX_LABEL and labels[(1, 1)].endswith("+")
    assert many.startswith(labels[(1, 1)][:-1])
    assert labels[(3, 1)] == "1,2,3" and labels[(5, 5)] == "1234567"  # short enough: kept whole
    assert _labels([(1, "x"), None, (2,), [3, 5], (7.0, 1)]) == {(3, 5): "", (7, 1): ""}


def test_a_pictured_explanation_ends_with_one_image_with_alt_text(region_cases):
    """The alt text is short (every sample pays for its words) but never empty: screen readers
    and a viewer that cannot draw the image still say what was there."""
    for record, line in region_cases:
        explanation = score_answer(parse_puzzle(record), answer(line)).explanation
        images = re.findall(r"!\[([^\]]*)\]\((data:image/[a-z]+;[^)]*base64,[^)]+)\)", explanation)
        assert len(images) == 1, record["id"]
        alt, _ = images[0]
        assert "answer" in alt and "path" in alt, alt
        assert explanation.endswith(f"\n\n![{alt}]({images[0][1]})")
