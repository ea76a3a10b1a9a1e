"""The reward parts of the GRPO recipe against the reference's verdicts (`sparc-puzzle` 0.7.0,
stored with the 60 real answers) and the `sparc` scorer's per-rule verdicts."""

from __future__ import annotations

import pytest
from test_train_rewards import HOSTILE, answer_cases

from inspect_sparc.core.puzzle.answer import format_path
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.scorer import score_answer
from inspect_sparc.train import reward_parts
from inspect_sparc.train.reward_parts import (
    REWARD_PARTS,
    REWARD_WEIGHTS,
    RULE_PARTS,
    format_reward,
    line_reward,
)


def test_format_and_line_are_the_references_extraction_and_valid_path(sparc_by_id, sparc_answers):
    completions = [a["response"] for a in sparc_answers]
    puzzles = [sparc_by_id[a["puzzle_id"]] for a in sparc_answers]
    found = [float(a["reference"]["extracted_path"] is not None) for a in sparc_answers]
    lines = [float(a["reference"]["analysis"]["fully_valid_path"]) for a in sparc_answers]
    assert format_reward(completions, puzzles) == found
    assert line_reward(completions, puzzles) == lines
    assert 0 < sum(lines) < sum(found) < len(found)  # the real answers hold all three kinds


def test_each_rule_part_is_the_scorers_verdict_on_a_line(sparc_records, sparc_answers):
    cases = answer_cases(sparc_records, sparc_answers)
    completions, records = [c for c, _ in cases], [r for _, r in cases]
    lines = line_reward(completions, records)
    values = [score_answer(parse_puzzle(r), c).value for c, r in cases]
    for rule, names in RULE_PARTS.items():
        rewards = getattr(reward_parts, f"{rule}_reward")(completions, records)
        expected = [
            float(line == 1.0 and not any(v[f"breaks_{n}"] for n in names))
            for line, v in zip(lines, values, strict=True)
        ]
        assert rewards == expected, rule
    broken_lines = [v for line, v in zip(lines, values, strict=True) if line and not v["correct"]]
    assert broken_lines  # lines that break a puzzle rule are among the cases


def test_every_solved_answer_outscores_every_unsolved_one(sparc_records):
    record = next(r for r in sparc_records if parse_puzzle(r).dots)
    solution = parse_puzzle(record).solutions[0]
    solved = f"#### {format_path(solution)}"
    weights = dict(zip((f.__name__ for f in REWARD_PARTS), REWARD_WEIGHTS, strict=True))
    total = sum(
        w * f([solved], record)[0] for f, w in zip(REWARD_PARTS, REWARD_WEIGHTS, strict=True)
    )
    assert total == pytest.approx(sum(weights.values())) and total == pytest.approx(1.65)
    assert sum(weights.values()) - weights["sparc_reward"] < weights["sparc_reward"]
    names = [f.__name__ for f in REWARD_PARTS]
    assert len(set(names)) == len(names) == len(REWARD_WEIGHTS)  # TRL logs each by its name


def test_no_answer_raises_and_hostile_ones_earn_no_line(sparc_records):
    record = sparc_records[0]
    for part in REWARD_PARTS:
        rewards = part(HOSTILE, [record] * len(HOSTILE))
        assert len(rewards) == len(HOSTILE) and set(rewards) <= {0.0, 1.0}
    assert line_reward(HOSTILE, [record] * len(HOSTILE)) == [0.0] * len(HOSTILE)
