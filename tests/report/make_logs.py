"""Writes small real logs of every task offline (baselines and scripted mockllm runs), for the
report tests, the benchmark and the demo: `python tests/report/make_logs.py DIR`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import Model, ModelOutput, ModelUsage, get_model


def usage_output(content: str, tokens: int = 10) -> ModelOutput:
    """A mockllm output with usage set (no tokenizer download), `tokens` output tokens."""
    output = ModelOutput.from_content(model="mockllm/model", content=content)
    output.usage = ModelUsage(
        input_tokens=100,
        output_tokens=tokens,
        total_tokens=100 + tokens,
        reasoning_tokens=tokens // 2,
    )
    return output


def sparc_model(correct_every: int = 3) -> Model:
    """Answers each SPaRC prompt with its first solution (every `correct_every`-th call), else
    the solution walked backwards or nothing."""
    calls = {"n": 0}

    def respond(messages, tools, tool_choice, config):
        calls["n"] += 1
        n = calls["n"]
        text = messages[-1].text
        target = _TARGETS.get(text)
        if target is None or n % correct_every == 1:
            answer = f"#### {target}" if target else "I give up."
        elif n % correct_every == 2:
            answer = "#### " + ", ".join(reversed(target.split(", ")))
        else:
            answer = "I give up."
        return usage_output(answer, tokens=20 * (1 + n % 5))

    return get_model("mockllm/model", custom_outputs=respond)


_TARGETS: dict[str, str] = {}


def remember_targets(task) -> None:
    """Index the task's samples by their last user text, for `sparc_model`."""
    for sample in task.dataset:
        last = sample.input[-1]
        text = last.text if hasattr(last, "text") else str(last)
        _TARGETS[text] = sample.target if isinstance(sample.target, str) else sample.target[0]


def gym_model() -> Model:
    """Always moves right, then up (a poor but legal-looking gym player)."""
    calls = {"n": 0}

    def respond(messages, tools, tool_choice, config):
        calls["n"] += 1
        move = ["RIGHT", "UP", "LEFT", "DOWN"][calls["n"] % 4]
        return usage_output(f"I move.\nFinal: {move}", tokens=5)

    return get_model("mockllm/model", custom_outputs=respond)


def algo_model() -> Model:
    """Always answers (A)."""
    return get_model(
        "mockllm/model",
        custom_outputs=lambda messages, tools, tool_choice, config: usage_output(
            "The answer is (A)", tokens=7
        ),
    )


def write_logs(
    log_dir: str | Path, *, visual: bool = True, limit: int | None = None
) -> list[EvalLog]:
    """One log per configuration under `log_dir` (`limit` samples each); returns the EvalLogs."""
    from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa
    from inspect_sparc.evals.sparc.gym.solvers import gym_astar, gym_random
    from inspect_sparc.evals.sparc.gym.tasks import sparc_gym
    from inspect_sparc.evals.sparc.single_shot.solvers import search_solver
    from inspect_sparc.evals.sparc.single_shot.tasks import sparc
    from inspect_sparc.evals.sparc.visual.tasks import sparc_visual

    log_dir = str(log_dir)
    logs: list[EvalLog] = []
    common: dict[str, Any] = dict(log_dir=log_dir, display="none", limit=limit)
    logs += eval(sparc(source="sample"), solver=search_solver(), model="none", **common)
    task = sparc(source="sample")
    remember_targets(task)
    logs += eval(task, model=sparc_model(), **common)
    logs += eval(sparc(source="sample"), model=sparc_model(2), epochs=2, **common)
    logs += eval(sparc_gym(source="sample"), solver=gym_astar(), model="none", **common)
    logs += eval(sparc_gym(source="sample"), solver=gym_random(), model="none", **common)
    logs += eval(sparc_gym(source="sample", max_steps=20), model=gym_model(), **common)
    logs += eval(
        sparc_gym(source="sample", traceback=True, max_steps=20), model=gym_model(), **common
    )
    if visual:
        task = sparc_visual(source="sample", level=1)
        remember_targets(task)
        logs += eval(task, model=sparc_model(), **common)
    logs += eval(algopuzzlevqa(source="sample"), model=algo_model(), epochs=2, **common)
    return logs


if __name__ == "__main__":
    for log in write_logs(sys.argv[1]):
        print(log.eval.task, log.status, log.location)


#: The model name of the log that checks escaping on the page.
HOSTILE_MODEL = "<script>alert(1)</script>"


def write_bad_logs(log_dir: str | Path, good_log: Any) -> dict[str, Path]:
    """Next to real logs: a cancelled run (10 samples kept, no results), a log of another task,
    an errored run (its solver raised: no sample scored), a corrupt file, a truncated log and a
    log whose model name is markup. `good_log` is a finished sparc EvalLog (with samples) to
    derive them from."""
    from inspect_ai import Task
    from inspect_ai.dataset import Sample
    from inspect_ai.log import read_eval_log, write_eval_log
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    log_dir = Path(log_dir)
    paths: dict[str, Path] = {}
    full = read_eval_log(good_log.location)

    cancelled = full.model_copy(deep=True)
    cancelled.status = "cancelled"
    cancelled.samples = (cancelled.samples or [])[:10]
    cancelled.results = None
    paths["cancelled"] = log_dir / "cancelled_sparc.eval"
    write_eval_log(cancelled, str(paths["cancelled"]))

    hostile = full.model_copy(deep=True)
    hostile.eval.model = HOSTILE_MODEL
    paths["hostile"] = log_dir / "hostile_sparc.eval"
    write_eval_log(hostile, str(paths["hostile"]))

    old = full.model_copy(deep=True)
    old.eval.task_version = "0-A"
    paths["old"] = log_dir / "old_version_sparc.eval"
    write_eval_log(old, str(paths["old"]))

    other = Task(dataset=[Sample(input="Say hi", target="hi")], solver=generate(), scorer=match())
    [log] = eval(
        other,
        model=get_model("mockllm/model", custom_outputs=[usage_output("hi")]),
        log_dir=str(log_dir / "other"),
        display="none",
    )
    paths["other"] = Path(log.location)

    from inspect_ai.solver import solver

    from inspect_sparc.evals.sparc.single_shot.tasks import sparc

    @solver
    def crash():
        async def solve(state, generate):
            raise RuntimeError("the solver crashed")

        return solve

    [log] = eval(
        sparc(source="sample"),
        solver=crash(),
        model="none",
        log_dir=str(log_dir / "errored"),
        display="none",
        limit=2,
    )
    paths["errored"] = Path(log.location)  # no sample scored: the run errored

    paths["corrupt"] = log_dir / "corrupt_sparc.eval"
    paths["corrupt"].write_bytes(b"this is not a zip file")
    data = Path(good_log.location).read_bytes()
    paths["truncated"] = log_dir / "truncated_sparc.eval"
    paths["truncated"].write_bytes(data[: len(data) // 2])
    return paths
