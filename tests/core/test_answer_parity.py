"""Extraction, exact match and invalid-path verdicts equal sparc.validation (0.7.0) on any text."""

from __future__ import annotations

import random
import sys
from typing import Any, cast

import pytest
from sparc.validation import analyze_path, extract_solution_path, validate_solution

from inspect_sparc.core.puzzle.answer import HUGE, MAX_DIGITS, extract_path, format_path
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.verdict import is_solved, reference_analysis


def reference_verdict(text: str, record: dict[str, Any]) -> tuple[Any, ...]:
    """(path, solved, analysis) as the reference computes them."""
    path = extract_solution_path(text, record)
    points = None if path is None else tuple((p["x"], p["y"]) for p in path)
    return points, validate_solution(path, record), analyze_path(path, record)


def our_verdict(text: str, record: dict[str, Any]) -> tuple[Any, ...]:
    """(path, solved, analysis) as this package computes them."""
    puzzle = parse_puzzle(record)
    path = extract_path(text, puzzle.end)
    return path, is_solved(puzzle, path), reference_analysis(puzzle, path)


def path_text(points, sep: str = ", ") -> str:
    return sep.join(f"({x},{y})" for x, y in points)


def crafted_answers(record: dict[str, Any]) -> list[str]:
    """Answers built from the puzzle: right, nearly right, reformatted, broken and hostile."""
    solutions = [[(p["x"], p["y"]) for p in s["path"]] for s in record["solutions"]]
    first, last = solutions[0], solutions[-1]
    rng = random.Random(record["id"])
    junk = "".join(chr(rng.randrange(0, 0x2FF)) for _ in range(2000))
    columns, rows = len(record["puzzle_array"][0]), len(record["puzzle_array"])
    start, end = first[0], first[-1]
    return [
        # odd/odd points inside (rule cells), just before E, and just past the grid's far edges
        "#### " + path_text([start, (1, 1), end]),
        "#### " + path_text([start, (1, 1), (3, 3), end]),
        "#### " + path_text([start, (1, rows), end]),
        "#### " + path_text([start, (columns, 1), end]),
        "#### " + path_text([start, (columns, rows), end]),
        "",
        "####",
        "no coordinates at all",
        "#### " + path_text(first),
        "####\n" + path_text(last, sep=" -> "),
        "reasoning (9,9)\n####\n" + path_text(first, sep=",\n"),
        "#### " + path_text(first) + " and then (0,0), (1,1)",
        "#### " + path_text(first[:-1]),
        "#### " + path_text(list(reversed(first))),
        "#### " + path_text(first + first[-1:]),
        "#### " + path_text(first[:1]),
        "#### " + path_text(first).replace(",", ", ", 3),
        "#### " + path_text(first).replace("(", "( "),
        path_text(first) + "\n#### no path here",
        "#### " + path_text(first) + "####" + path_text(last),
        "(-1, 2), (3, -4), " + path_text(first),
        "#### (٣, ٤), " + path_text(first),
        "#### ((1,2)) (1,,2) (1 ,2) (1,2",
        "#### (" + "9" * 400 + ", 0), " + path_text(first),
        "#### (0000000000000000000001,0)",
        "#### " * 3000 + path_text(first),
        "(" * 100_000 + "1," * 100_000,
        junk + "#### " + junk + path_text(first[:3]),
        "\x00\x01#### " + path_text(first) + "\x00",
    ]


def test_real_model_answers_match_recorded_reference_verdicts(sparc_answers, sparc_by_id):
    for answer in sparc_answers:
        record = sparc_by_id[answer["puzzle_id"]]
        path, solved, analysis = our_verdict(answer["response"], record)
        expected = answer["reference"]
        assert solved == expected["solved"]
        assert (not analysis["fully_valid_path"]) == expected["invalid_path"]
        assert analysis == expected["analysis"]
        assert (None if path is None else [list(p) for p in path]) == expected["extracted_path"]


def test_real_model_answers_match_the_live_reference(sparc_answers, sparc_by_id):
    for answer in sparc_answers:
        record = sparc_by_id[answer["puzzle_id"]]
        assert our_verdict(answer["response"], record) == reference_verdict(
            answer["response"], record
        )


def test_crafted_answers_match_the_reference_on_every_shipped_puzzle(sparc_records):
    for record in sparc_records:
        for text in crafted_answers(record):
            assert our_verdict(text, record) == reference_verdict(text, record), (
                record["id"],
                text[:80],
            )


def test_every_stored_solution_is_solved(sparc_records):
    for record in sparc_records:
        for solution in record["solutions"]:
            text = "#### " + path_text((p["x"], p["y"]) for p in solution["path"])
            assert our_verdict(text, record)[1] is True


@pytest.mark.parametrize(
    "text",
    [
        "(" + "7" * (MAX_DIGITS + 1) + ", 1)",
        "#### (1, " + "1" * 1_000_000 + ")",
    ],
)
def test_numbers_too_long_for_int_do_not_raise(text: str, sparc_records):
    puzzle = parse_puzzle(sparc_records[0])
    path = extract_path(text, puzzle.end)
    assert path is not None and HUGE in path[0]
    assert reference_analysis(puzzle, path)["fully_valid_path"] is False


def test_distinct_overlong_numbers_stay_distinct_and_leading_zeros_are_dropped(sparc_records):
    puzzle = parse_puzzle(sparc_records[0])
    long_a, long_b = "7" * (MAX_DIGITS + 1), "8" * (MAX_DIGITS + 1)
    text = f"({long_a}, 1), ({long_b}, 1), ({long_a}, 1), ({'0' * MAX_DIGITS}12, 3)"
    path = extract_path(text, puzzle.end)
    assert path is not None
    assert path[0] != path[1] and path[0] == path[2]
    assert abs(path[0][0] - path[1][0]) > 1
    assert path[3] == (12, 3)


def test_overlong_zeros_are_zero_and_a_number_at_the_limit_is_exact(sparc_records):
    # Python's int() (the reference's) reads up to 4,300 digits; longer zeros are still 0.
    puzzle = parse_puzzle(sparc_records[0])
    at_limit = "9" * MAX_DIGITS
    text = f"({'0' * (MAX_DIGITS + 1)}, 4), ({at_limit}, 1), ({'5' * (MAX_DIGITS + 1)}, 1)"
    path = extract_path(text, puzzle.end)
    assert path is not None
    assert path[0] == (0, 4)
    assert path[1] == (int(at_limit), 1)
    assert path[2][0] == HUGE


def test_a_lower_digit_limit_set_elsewhere_gives_a_stand_in_without_raising(sparc_records):
    puzzle = parse_puzzle(sparc_records[0])
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        path = extract_path("(1, " + "3" * 700 + "), (2, 4)", puzzle.end)
    finally:
        sys.set_int_max_str_digits(before)
    assert path == ((1, HUGE), (2, 4))


def test_the_shortest_stored_solutions_of_the_split_are_solved(sparc_test_split):
    # Some puzzles have a two-point solution (E next to S): it counts, as in the reference.
    shortest = [
        (record, solution)
        for record in sparc_test_split
        for solution in record["solutions"]
        if len(solution["path"]) == 2
    ]
    assert shortest
    for record, solution in shortest:
        text = "#### " + ", ".join(f"({p['x']}, {p['y']})" for p in solution["path"])
        assert validate_solution(extract_solution_path(text, record), record)
        path = extract_path(text, parse_puzzle(record).end)
        assert is_solved(parse_puzzle(record), path)


def test_no_path_is_written_as_empty_text():
    assert format_path(None) == "" and format_path(()) == ""
    assert format_path(((4, 4), (4, 5))) == "(4,4), (4,5)"


@pytest.mark.parametrize("limit", [640, 0])
def test_a_digit_limit_set_elsewhere_changes_nothing(limit: int, sparc_records):
    # 640 makes int() raise sooner; 0 lifts the limit, where int() of a 1 MB number takes seconds
    puzzle = parse_puzzle(sparc_records[0])
    text = "#### (1, " + "3" * 700 + "), (2, " + "4" * 1_000_000 + ")"
    before = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(limit)
    try:
        path = extract_path(text, puzzle.end)
    finally:
        sys.set_int_max_str_digits(before)
    # under 640 digits the 700-digit number cannot be converted either: it gets a stand-in
    expected = (1, int("3" * 700)) if limit == 0 else (1, HUGE)
    assert path is not None
    assert path[0] == expected and path[1][1] >= HUGE and path[1] != path[0]


def test_parity_holds_on_the_trimmed_record_the_scorer_reads(sparc_records):
    from inspect_sparc.evals.sparc.dataset import record_to_sample

    for record in sparc_records:
        trimmed = cast("dict[str, Any]", record_to_sample(record).metadata)["puzzle"]
        for text in crafted_answers(record)[:12]:
            path, solved, analysis = reference_verdict(text, record)
            puzzle = parse_puzzle(trimmed)
            ours = extract_path(text, puzzle.end)
            assert (ours, is_solved(puzzle, ours), reference_analysis(puzzle, ours)) == (
                path,
                solved,
                analysis,
            )


def test_extraction_stops_at_the_end_node(sparc_records):
    record = sparc_records[0]
    puzzle = parse_puzzle(record)
    end = puzzle.end
    path = extract_path(f"#### (0,0), ({end[0]},{end[1]}), (5,5)", end)
    assert path == ((0, 0), end)


def test_rule_engine_calls_a_path_a_line_exactly_when_the_reference_does(
    sparc_records, sparc_answers, sparc_by_id
):
    from inspect_sparc.core.puzzle.rules import LINE_RULES, check

    cases = [(sparc_by_id[a["puzzle_id"]], a["response"]) for a in sparc_answers]
    cases += [(record, text) for record in sparc_records for text in crafted_answers(record)]
    for record, text in cases:
        puzzle = parse_puzzle(record)
        path = extract_path(text, puzzle.end)
        line = not set(LINE_RULES) & set(check(puzzle, path or ()).broken_rules)
        valid = reference_analysis(puzzle, path)["fully_valid_path"]
        assert line == valid, (record["id"], text[:60])
