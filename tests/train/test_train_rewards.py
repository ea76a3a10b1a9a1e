"""The reward functions against the `sparc` scorer and the reference verdicts on real answers."""

from __future__ import annotations

import json

import pytest

from inspect_sparc.core.puzzle.answer import format_path
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.dataset import compact_record
from inspect_sparc.evals.sparc.scorer import score_answer
from inspect_sparc.train import rule_reward, sparc_reward

HOSTILE = [
    "",
    "####",
    "#### " + "(" * 5000,
    "#### (" + "9" * 5000 + ", 1)",
    "#### " + ", ".join(f"({i % 13},{i % 11})" for i in range(20_000)),
    "(0,0)",
    None,
    17,
    [],
    [{"role": "assistant"}],
    [{"role": "assistant", "content": None}],
    {"content": 3},
]


def answer_cases(records, answers):
    """(completion, record) pairs: the 60 real answers, each stored solution written as an
    answer, the solution with its last point dropped and with one point doubled."""
    by_id = {r["id"]: r for r in records}
    cases = [(a["response"], by_id[a["puzzle_id"]]) for a in answers]
    for record in records:
        for solution in parse_puzzle(record).solutions[:3]:
            cases.append((f"Reasoning...\n#### {format_path(solution)}", record))
            cases.append((f"#### {format_path(solution[:-1])}", record))
            cases.append((f"#### {format_path(solution[:2] + solution[1:])}", record))
    return cases


def test_sparc_reward_is_the_scorer_verdict_on_every_answer(sparc_records, sparc_answers):
    cases = answer_cases(sparc_records, sparc_answers)
    rewards = sparc_reward([c for c, _ in cases], [r for _, r in cases])
    expected = [float(score_answer(parse_puzzle(r), c).value["correct"]) for c, r in cases]
    assert rewards == expected
    assert 0 < sum(rewards) < len(rewards)


def test_sparc_reward_is_the_reference_verdict_on_the_sample_answers(sparc_by_id, sparc_answers):
    completions = [a["response"] for a in sparc_answers]
    puzzles = [json.dumps(sparc_by_id[a["puzzle_id"]]) for a in sparc_answers]
    rewards = sparc_reward(completions, puzzles)
    assert rewards == [float(a["reference"]["solved"]) for a in sparc_answers]


def test_every_puzzle_form_and_completion_form_gives_the_same_reward(sparc_records):
    record = sparc_records[4]
    answer = f"#### {format_path(parse_puzzle(record).solutions[0])}"
    compact = compact_record(record, parse_puzzle(record))  # what the scorer's metadata holds
    conversation = [{"role": "assistant", "content": answer}]
    parts = [{"role": "assistant", "content": [{"type": "text", "text": answer}]}]
    for puzzle in (record, json.dumps(record), compact):
        assert sparc_reward([answer, conversation, parts], puzzle, prompts=None, id=1) == [1.0] * 3


def test_records_that_share_an_id_are_never_confused(sparc_records):
    first, second = sparc_records[0], dict(sparc_records[1], id=sparc_records[0]["id"])
    answers = [f"#### {format_path(parse_puzzle(r).solutions[0])}" for r in (first, second)]
    assert sparc_reward(answers, [first, second]) == [1.0, 1.0]
    assert sparc_reward(answers[::-1], [first, second]) == [0.0, 0.0]


def test_rule_reward_is_one_exactly_when_solved(sparc_records, sparc_answers):
    cases = answer_cases(sparc_records, sparc_answers)
    completions, puzzles = [c for c, _ in cases], [r for _, r in cases]
    shaped = rule_reward(completions, puzzles)
    solved = sparc_reward(completions, puzzles)
    for s, r in zip(solved, shaped, strict=True):
        assert (s == 1.0) == (r == 1.0) and 0.0 <= r <= 1.0


def test_rule_reward_puts_every_line_above_every_invalid_path(sparc_by_id, sparc_answers):
    completions = [a["response"] for a in sparc_answers]
    rewards = rule_reward(completions, [sparc_by_id[a["puzzle_id"]] for a in sparc_answers])
    verdicts = [(r, a["reference"]) for r, a in zip(rewards, sparc_answers, strict=True)]
    lines = [r for r, ref in verdicts if not ref["invalid_path"]]
    paths = [r for r, ref in verdicts if ref["invalid_path"] and ref["extracted_path"]]
    empty = [r for r, ref in verdicts if not ref["extracted_path"]]
    assert lines and paths and empty
    assert min(lines) > max(paths) > 0 and max(paths) > max(empty) == 0.0


def test_rule_reward_falls_with_each_further_broken_rule(sparc_records):
    from inspect_sparc.core.puzzle.rules import check

    found = 0
    for record in sparc_records:
        puzzle = parse_puzzle(record)
        solution = puzzle.solutions[0]
        # a detour-free shortcut that breaks structural rules: one jump, then one jump and a revisit
        one = solution[:2] + solution[3:]
        two = solution[:2] + solution[3:4] + solution[3:]
        broken = [len(check(puzzle, p).broken_rules) for p in (one, two)]
        if broken[0] < broken[1]:
            low, high = rule_reward([f"#### {format_path(p)}" for p in (two, one)], record)
            assert low < high
            found += 1
    assert found >= 10


@pytest.mark.parametrize("completion", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_or_empty_answers_score_zero_and_never_raise(sparc_records, completion):
    record = sparc_records[0]
    assert sparc_reward([completion], [record]) == [0.0]
    assert 0.0 <= rule_reward([completion], [record])[0] < 1.0


def test_a_puzzle_column_of_the_wrong_length_is_a_clear_error(sparc_records):
    with pytest.raises(ValueError, match="one record per completion"):
        sparc_reward(["a", "b"], [sparc_records[0]])
