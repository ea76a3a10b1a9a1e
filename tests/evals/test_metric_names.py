"""Every metric is logged under its plain name, as Inspect's built-in ones are (issue 10).

`inspect view` and log tools show `EvalMetric.name`; a float-valued metric gets the registered
name, package prefix included (INSPECT_SPARC/ACCURACY), so the shared metrics report dicts.
Checked on real runs of both tasks, with and without epochs, and after `recompute_metrics`
(which rebuilds the metrics from their registered names in the log header).
"""

from __future__ import annotations

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, recompute_metrics
from inspect_ai.model import get_model
from inspect_ai.scorer import match
from mock_outputs import mock_output

from inspect_sparc.core.puzzle.rules import RULES
from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa
from inspect_sparc.evals.sparc.single_shot.solvers import search_solver
from inspect_sparc.evals.sparc.single_shot.tasks import sparc

SPARC_METRICS = [
    "accuracy",
    "stderr",
    "invalid_path_rate",
    *(f"level_{level}" for level in range(1, 6)),
    *(f"breaks_{rule}" for rule in RULES),
]

#: The group of each metric above (the registered name, shown as a heading by `inspect view`).
SPARC_GROUPS = [
    "accuracy",
    "stderr",
    "invalid_path_rate",
    *["accuracy_by_level"] * 5,
    *["rule_break_rates"] * len(RULES),
]


def metric_names(log: EvalLog) -> list[tuple[str, str]]:
    """(key, name) of every metric of every score of the log, in order."""
    assert log.status == "success", log.error
    assert log.results is not None
    return [(key, m.name) for score in log.results.scores for key, m in score.metrics.items()]


@pytest.fixture(scope="module")
def builtin_names(tmp_path_factory) -> list[str]:
    """The names Inspect's own accuracy and stderr get in a log: the oracle for "plain"."""
    task = Task(dataset=[Sample(input="q", target="a")], scorer=match())
    model = get_model("mockllm/model", custom_outputs=[mock_output("a")])
    log_dir = tmp_path_factory.mktemp("builtin")
    [log] = eval(task, model=model, log_dir=str(log_dir), display="none")
    return [name for _, name in metric_names(log)]


@pytest.mark.parametrize("epochs", [1, 2])
def test_sparc_metrics_have_plain_names(tmp_path, epochs, builtin_names):
    model = get_model("mockllm/model", custom_outputs=lambda *a: pytest.fail("model called"))
    [log] = eval(
        sparc(source="sample"),
        solver=search_solver(),
        model=model,
        limit=10,  # two puzzles per level: every level metric appears
        epochs=epochs,
        log_dir=str(tmp_path),
        display="none",
    )
    pairs = metric_names(log)
    assert [name for _, name in pairs] == SPARC_METRICS
    # `inspect view` heads a dict metric's entries with its group: a name saying what it counts
    groups = [m.group for score in log.results.scores for m in score.metrics.values()]
    assert groups == SPARC_GROUPS
    assert all(key == name for key, name in pairs)
    assert SPARC_METRICS[:2] == builtin_names
    assert log.results.scores[0].metrics["accuracy"].value == 1.0  # the solver solves them all
    before = log.results.model_dump()
    recompute_metrics(log)
    assert log.results.model_dump() == before


@pytest.mark.parametrize("epochs", [1, 2])
def test_algopuzzlevqa_metrics_have_plain_names(tmp_path, epochs, builtin_names):
    model = get_model("mockllm/model", custom_outputs=lambda *a: mock_output("(A)"))
    [log] = eval(
        algopuzzlevqa(source="sample", puzzle="clock,maze"),
        model=model,
        epochs=epochs,
        log_dir=str(tmp_path),
        display="none",
    )
    pairs = metric_names(log)
    names = [name for _, name in pairs]
    # Other metrics may follow (per-category ones); these must be there, plainly named.
    assert names[:2] == builtin_names
    assert {"clock", "maze"} <= set(names)
    assert all(key == name and "/" not in name for key, name in pairs)
    before = log.results.model_dump()
    recompute_metrics(log)
    assert log.results.model_dump() == before
