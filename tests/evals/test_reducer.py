"""The SPaRC tasks' epochs reducer (`inspect_sparc/mean`): Inspect's `mean`, values and all, but
the reduced scores keep no copy of the explanations (where the answer pictures are).

The oracle is Inspect's own `mean_score` (and, through the CLI, `--epochs-reducer mean`).
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from typing import Any, cast

import pytest
from inspect_ai import Epochs, eval, eval_set
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.scorer import Score, mean_score
from mock_outputs import answers_by_prompt, scripted_model
from picture_helpers import rule_blind_line

from inspect_sparc.contract.scores import EPOCHS_REDUCER
from inspect_sparc.core.puzzle.answer import format_path
from inspect_sparc.evals.reducer import mean_reducer
from inspect_sparc.evals.sparc.single_shot.tasks import sparc

#: Values Inspect's `value_to_float` reads differently: ints, floats, bools, "C"/"I" strings,
#: NaN, infinity and the negative zero `statistics.mean` turns positive.
VALUES: list[Any] = [0, 1, 0.5, 3, 1e-300, -0.0, math.nan, math.inf, True, False, "C", "I"]


def random_scores(rng: random.Random) -> list[Score]:
    """One sample's scores over 1-3 epochs, all dicts, all scalars or all lists."""
    epochs = rng.choice([1, 1, 2, 3])
    keys = rng.sample(["correct", "invalid_path", "breaks_dot", "steps"], rng.randint(1, 4))
    kind = rng.choice(["dict", "dict", "scalar", "list"])
    scores = []
    for _ in range(epochs):
        value: Any
        if kind == "dict":
            value = {key: rng.choice(VALUES) for key in keys}
        elif kind == "list":
            value = [rng.choice(VALUES[:5]) for _ in range(2)]
        else:
            value = rng.choice(VALUES)
        answer = rng.choice(["(0,4), (0,3)", None])
        scores.append(Score(value=value, answer=answer, explanation="why", metadata={"m": 1}))
    return scores


def dumped(score: Score) -> str:
    """A score as JSON without its explanation (NaN written out, so NaN equals NaN)."""
    return json.dumps(score.model_dump(exclude={"explanation"}), default=str)


def test_values_are_inspects_mean_and_explanations_are_dropped():
    ours, inspects = mean_reducer(), mean_score()
    rng = random.Random(25)
    for _ in range(2000):
        scores = random_scores(rng)
        reduced = ours(scores)
        assert dumped(reduced) == dumped(inspects(scores)), [s.value for s in scores]
        assert reduced.explanation is None
        assert inspects(scores).explanation == "why"  # what Inspect's own mean keeps


def eval_logs(tmp_path, epochs: int, reducer: str | None = None):
    """`sparc` on the level-1 sample puzzles: the two epochs answer differently (solved, and the
    rule-blind A* line, pictured where it breaks a region rule), so reduced values are means."""
    task = sparc(source="sample", level=1)
    samples = list(task.dataset)
    answers = {
        s.id: [
            "#### " + cast(str, s.target),
            "#### " + format_path(rule_blind_line(cast("dict[str, Any]", s.metadata)["puzzle"])),
        ]
        for s in samples
    }
    for s in samples[::2]:  # so that one epoch is a mixture too
        answers[s.id].reverse()
    script = answers_by_prompt(task, lambda s: answers[s.id][:epochs])
    asked = Epochs(epochs, reducer) if reducer else epochs  # as `--epochs-reducer` does
    [log] = eval(task, model=scripted_model(script), log_dir=str(tmp_path), display="none",
                 epochs=asked)  # fmt: skip
    assert log.status == "success", log.error
    return log


@pytest.mark.parametrize("epochs", [1, 2])
def test_a_sparc_log_reduces_with_it_and_metrics_equal_inspects_mean(tmp_path, epochs):
    ours = eval_logs(tmp_path / "ours", epochs)
    inspects = eval_logs(tmp_path / "inspect", epochs, reducer="mean")
    assert ours.eval.config.epochs_reducer == [EPOCHS_REDUCER]
    assert inspects.eval.config.epochs_reducer == ["mean"]
    [score], [oracle] = ours.results.scores, inspects.results.scores
    assert score.reducer == EPOCHS_REDUCER
    assert {k: m.value for k, m in score.metrics.items()} == {
        k: m.value for k, m in oracle.metrics.items()
    }
    assert 0 < score.metrics["accuracy"].value < 1
    [reductions] = ours.reductions
    assert all(s.explanation is None for s in reductions.samples)
    pictured = [
        s for s in ours.samples if "data:image/" in (s.scores["sparc_scorer"].explanation or "")
    ]
    assert pictured, "the rule-breaking lines carry their pictures in the samples"
    [oracle_reductions] = inspects.reductions
    values = {(s.sample_id, json.dumps(s.value)) for s in reductions.samples}
    assert values == {(s.sample_id, json.dumps(s.value)) for s in oracle_reductions.samples}


def test_inspect_score_reads_the_reducer_back_from_the_log(tmp_path):
    """`inspect score` rebuilds the reducer a log names, in a fresh process, and gets the
    same metrics."""
    log = eval_logs(tmp_path / "run", 2)
    out = tmp_path / "rescored.eval"
    # the log names its scorer unqualified (`sparc_scorer`), which `inspect score` cannot find
    # by itself; the reducer it must find alone
    command = [sys.executable, "-m", "inspect_ai", "score", log.location, "--scorer",
               "inspect_sparc/sparc_scorer", "--action", "overwrite", "--output-file", str(out),
               "--display", "none"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rescored = read_eval_log(str(out))
    assert rescored.results is not None
    [score], [before] = rescored.results.scores, log.results.scores
    assert score.reducer == EPOCHS_REDUCER
    assert {k: m.value for k, m in score.metrics.items()} == {
        k: m.value for k, m in before.metrics.items()
    }


def test_an_eval_set_run_again_with_epochs_does_not_rerun(tmp_path):
    """`eval-set` compares the logged reducer with the one asked for: the task's own must count
    as unchanged, or every retry of a finished set would run it again."""
    task = sparc(source="sample", level=1)
    script = answers_by_prompt(task, lambda s: ["#### " + s.target] * 4)
    for _ in range(2):
        done, _logs = eval_set(
            sparc(source="sample", level=1), model=scripted_model(script), epochs=2,
            log_dir=str(tmp_path), display="none",
        )  # fmt: skip
        assert done
    assert len(list_eval_logs(str(tmp_path))) == 1
