"""`inspect score` on a log of the step-by-step tasks and of AlgoPuzzleVQA: the same scores and,
to the last bit, the same metrics as the eval gave, in a fresh process through the real CLI
(`sparc`'s: `test_reducer.py`).

The oracle is the eval's own log. Rescoring replays the recorded moves from each sample's store
(or reads the last reply again) and computes the metrics over the samples in log order, where
the eval computed them in the order the samples finished.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import read_eval_log
from mock_outputs import mock_model

from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa
from inspect_sparc.evals.sparc.agent.baselines import agent_random
from inspect_sparc.evals.sparc.agent.tasks import sparc_agent
from inspect_sparc.evals.sparc.gym.solvers import gym_random
from inspect_sparc.evals.sparc.gym.tasks import sparc_gym

#: (task, a no-model solver that plays it, the scorer's registered name).
TASKS = {
    "sparc_gym": (sparc_gym, gym_random, "inspect_sparc/gym_scorer"),
    "sparc_agent": (sparc_agent, agent_random, "inspect_sparc/agent_scorer"),
}


def metric_values(log) -> dict[str, float]:
    return {key: m.value for score in log.results.scores for key, m in score.metrics.items()}


def rescored(log, tmp_path, scorer_name: str, *args: str):
    """The log scored again by `inspect score` in a fresh process."""
    out = tmp_path / "rescored.eval"
    # a log names its scorer unqualified (`gym_scorer`), which `inspect score` cannot find by
    # itself in a package: the registered name is given (docs/scoring.md, re-scoring a log)
    command = [sys.executable, "-m", "inspect_ai", "score", log.location, "--scorer",
               scorer_name, *args, "--action", "overwrite", "--output-file", str(out),
               "--display", "none"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return read_eval_log(str(out))


def scores_by_sample(log) -> dict[tuple[str | int, int], Any]:
    return {(s.id, s.epoch): s.scores for s in log.samples}


@pytest.mark.parametrize("name", sorted(TASKS))
def test_inspect_score_gives_the_evals_scores_and_metrics(tmp_path, name):
    make_task, solver, scorer_name = TASKS[name]
    [log] = eval(
        make_task(source="sample"), solver=solver(), model="mockllm/model", limit=12,
        log_dir=str(tmp_path / "run"), display="none",
    )  # fmt: skip
    assert log.status == "success", log.error
    again = rescored(log, tmp_path, scorer_name)
    assert scores_by_sample(again) == scores_by_sample(log)
    chances = {s.scores[next(iter(s.scores))].metadata["chance_probability"] for s in log.samples}
    assert len(chances) > 3
    assert metric_values(again) == metric_values(log)


def test_inspect_score_reads_algopuzzlevqa_again_with_the_runs_extraction(tmp_path, monkeypatch):
    monkeypatch.setenv("INSPECT_SPARC_CACHE_DIR", str(tmp_path / "cache"))  # not the user's
    # enough replies for every sample and any follow-up the protocol asks
    replies = [f"Comparing the options, the answer is ({'ABCD'[i % 4]})." for i in range(200)]
    [log] = eval(
        algopuzzlevqa(source="sample", extraction="strict"), model=mock_model(replies),
        log_dir=str(tmp_path / "run"), display="none",
    )  # fmt: skip
    assert log.status == "success", log.error
    assert 0 < metric_values(log)["accuracy"] < 1
    again = rescored(log, tmp_path, "inspect_sparc/algopuzzlevqa_scorer", "-S", "extraction=strict")
    assert scores_by_sample(again) == scores_by_sample(log)
    assert metric_values(again) == metric_values(log)
