"""What a reader sees of a step-by-step score, read from real logs: the chance level worded the
same in the explanation and the metadata (odds and a percentage, no exponent), steps counted in
words that agree with the number, and every value still exact (the metrics read the values)."""

from __future__ import annotations

import math
import re
from typing import cast

import pytest
from inspect_ai import eval
from inspect_ai.log import read_eval_log
from inspect_ai.solver import SolverSpec

from inspect_sparc import sparc_gym
from inspect_sparc.core.episode.baselines import chance_of_solving
from inspect_sparc.core.puzzle.parse import parse_puzzle

CHANCE_WORDS = re.compile(r"1 in ([\d,]+) \(([\d.]+)%\)")


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """`sparc_gym` with random legal moves: 5 bundled puzzles (one per level) at the default 100
    steps, and 2 cut at 1 step (so "1 step" is worded too)."""
    found = []
    for max_steps, limit in ((100, 5), (1, 2)):
        [log] = eval(
            sparc_gym(source="sample", max_steps=max_steps),
            solver=SolverSpec("inspect_sparc/gym_random"),
            model="mockllm/model",
            limit=limit,
            display="none",
            log_dir=str(tmp_path_factory.mktemp("logs")),
        )
        found.append(read_eval_log(log.location))
    return found


def scores(logs):
    return [(s, s.scores["gym_scorer"]) for log in logs for s in log.samples]


def test_the_chance_reads_the_same_in_the_explanation_and_the_metadata(logs):
    for _, score in scores(logs):
        words = score.metadata["chance"]
        assert f"solve this puzzle: {words}." in score.explanation
        exact = score.metadata["chance_probability"]
        if exact == 0:  # 1 step cannot reach E on these puzzles
            assert words == "0"
            continue
        odds, percent = cast("re.Match[str]", CHANCE_WORDS.fullmatch(words)).groups()
        assert int(odds.replace(",", "")) == round(1 / exact)
        assert math.isclose(float(percent), exact * 100, rel_tol=0.05)  # two significant digits
        assert not re.search(r"\de-\d", score.explanation)  # no exponent notation anywhere
    assert sum(score.metadata["chance_probability"] > 0 for _, score in scores(logs)) >= 5


def test_steps_are_worded_as_counted(logs):
    for _, score in scores(logs):
        steps = score.value["steps"]
        assert score.metadata["steps"] == steps and isinstance(score.metadata["steps"], int)
        word = "step" if steps == 1 else "steps"
        assert f" {steps} {word}" in score.explanation.splitlines()[0]
    assert any(score.value["steps"] == 1 for _, score in scores(logs))


def test_values_stay_exact_and_the_metric_is_their_mean(logs):
    """The metadata holds the full probability (the oracle: `chance_of_solving` on the record),
    not the value (which the viewer would print as 0.000), and the `chance` metric is their
    exact mean."""
    for log in logs:
        values = []
        for sample, score in scores([log]):
            puzzle = parse_puzzle(sample.metadata["puzzle"])
            max_steps = log.eval.task_args["max_steps"]
            assert score.metadata["chance_probability"] == chance_of_solving(puzzle, max_steps)
            assert "chance" not in score.value  # the viewer would print it as 0.000
            values.append(score.metadata["chance_probability"])
        metric = log.results.scores[0].metrics["chance"].value
        assert metric == math.fsum(values) / len(values)
