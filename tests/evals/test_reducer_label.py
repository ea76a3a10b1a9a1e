"""What `inspect view` labels every metric card with, read from real logs: the SPaRC tasks'
reducer name (the viewer shows `EvalScore.reducer` whenever it is set), and nothing when the
task is given Inspect's default (docs/scoring.md, "The label on every card")."""

from __future__ import annotations

from inspect_ai import Epochs, eval, task_with
from inspect_ai.log import read_eval_log
from inspect_ai.solver import SolverSpec

from inspect_sparc import sparc
from inspect_sparc.contract.scores import EPOCHS_REDUCER


def run(task, log_dir):
    [log] = eval(task, solver=SolverSpec("inspect_sparc/search_solver"), model="mockllm/model",
                 limit=3, display="none", log_dir=str(log_dir))  # fmt: skip
    return read_eval_log(log.location)


def test_every_card_names_the_reducer_and_task_with_removes_it(tmp_path):
    ours = run(sparc(source="sample"), tmp_path / "ours")
    plain = run(task_with(sparc(source="sample"), epochs=Epochs(1)), tmp_path / "plain")
    assert {score.reducer for score in ours.results.scores} == {EPOCHS_REDUCER}
    assert {score.reducer for score in plain.results.scores} == {None}
    values = [{k: m.value for k, m in s.metrics.items()} for s in ours.results.scores]
    assert values == [{k: m.value for k, m in s.metrics.items()} for s in plain.results.scores]
    # what the label buys: the reductions keep no copy of the explanations
    assert all(s.explanation is None for r in ours.reductions for s in r.samples)
    assert all(s.explanation for r in plain.reductions for s in r.samples)
