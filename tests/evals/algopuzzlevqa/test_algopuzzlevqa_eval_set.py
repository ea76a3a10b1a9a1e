"""An eval set mixing AlgoPuzzleVQA with SPaRC, each on its shipped sample."""

from __future__ import annotations

from pathlib import Path

from algopuzzlevqa_helpers import mock_output
from inspect_ai import eval_set
from inspect_ai.model import get_model

from inspect_sparc.core.algopuzzlevqa.ontology import CATEGORIES
from inspect_sparc.core.algopuzzlevqa.puzzles import PUZZLES
from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa
from inspect_sparc.evals.sparc.single_shot.tasks import sparc


def test_eval_set_runs_algopuzzlevqa_beside_sparc(tmp_path: Path) -> None:
    def answer(messages, tools, tool_choice, config):
        if "\nOptions:\n(A) " in messages[0].text:
            return mock_output("The answer is (A).")
        return mock_output("I could not find a path.")

    model = get_model("mockllm/model", custom_outputs=answer)
    success, logs = eval_set(
        tasks=[sparc(source="sample"), algopuzzlevqa(source="sample")],
        model=model,
        log_dir=str(tmp_path),
        display="none",
        retry_attempts=0,
    )
    assert success
    by_task = {log.eval.task.split("/")[-1]: log for log in logs}
    assert set(by_task) == {"sparc", "algopuzzlevqa"}
    assert all(log.status == "success" for log in logs)
    puzzle_log = by_task["algopuzzlevqa"]
    assert puzzle_log.results is not None and puzzle_log.results.total_samples == 36
    names = set(puzzle_log.results.scores[0].metrics)
    assert names == {"accuracy", "stderr", *PUZZLES, *CATEGORIES}
    sparc_log = by_task["sparc"]
    assert sparc_log.results is not None and sparc_log.results.total_samples > 0
