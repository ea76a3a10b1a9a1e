"""Running a task in a test and reading its log: the helpers the end-to-end tests share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import Model
from inspect_ai.scorer import Score


def run(task: Task, model: Model | str, log_dir: Path | str, **kwargs: Any) -> EvalLog:
    """Evaluate `task` with `model` into `log_dir`, quietly (no display); the eval must succeed,
    else the test fails showing its error. `kwargs` go to `inspect_ai.eval`."""
    [log] = eval(task, model=model, log_dir=str(log_dir), display="none", **kwargs)
    assert log.status == "success", log.error
    return log


def metrics_of(log: EvalLog) -> dict[str, Any]:
    """Every metric of the log's one scorer, by name."""
    assert log.results is not None
    [score] = log.results.scores
    return {name: metric.value for name, metric in score.metrics.items()}


def score_of(sample: EvalSample) -> Score:
    """A sample's one score."""
    assert sample.scores is not None
    [score] = sample.scores.values()
    return score
