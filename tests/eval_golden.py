"""The fingerprint of every task's samples, scores and metrics, for each argument combination the
tests know: what a refactor of the Inspect layer must leave unchanged.

    python tests/eval_golden.py          # rewrite tests/fixtures/evals/golden.json

The fixture is written from the code as it stands; `tests/evals/test_golden.py` recomputes the
fingerprints and compares them. Each combination is a task with arguments (as `-T` gives them)
and, for some, a short offline eval (scripted mockllm replies or the protocol's baseline solvers):
the dataset's samples (id, input, target, metadata) and the task's metadata and version, or the
one-line error it stops with; the eval's per-sample scores and its metrics. Each is kept as the
sha256 of a canonical JSON dump, with a short readable summary beside it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "evals" / "golden.json"
SPLIT = str(ROOT / "tests" / "fixtures" / "sparc" / "test_split.jsonl.gz")
PUZZLES = str(ROOT / "tests" / "fixtures" / "sparc" / "puzzles.jsonl")
#: Generated sets shrunk to this size (the full 500 take minutes without numba).
GENERATED_SIZE = 5

#: (task, arguments, eval): eval is None (dataset only) or (solver name or "model", limit).
Combination = tuple[str, dict[str, Any], tuple[str, int] | None]
COMBINATIONS: list[Combination] = [
    # sparc: levels, prompts, sources, subsets, splits
    ("sparc", {"source": "sample"}, ("model", 10)),
    ("sparc", {"source": "sample", "level": 1}, None),
    ("sparc", {"source": "sample", "level": "5"}, None),
    ("sparc", {"source": "sample", "level": [1, 2]}, None),
    ("sparc", {"source": "sample", "level": "1,2"}, None),
    ("sparc", {"source": "sample", "prompt": "corrected"}, ("model", 5)),
    ("sparc", {"source": "sample", "split": "train"}, None),
    ("sparc", {"source": "sample", "subset": "stars"}, None),
    ("sparc", {"source": PUZZLES}, None),
    ("sparc", {"source": PUZZLES, "level": 3}, None),
    ("sparc", {"source": SPLIT}, None),
    ("sparc", {"source": SPLIT, "puzzles": "informative:50"}, ("model", 10)),
    ("sparc", {"source": SPLIT, "puzzles": "informative:100"}, None),
    ("sparc", {"source": SPLIT, "puzzles": "informative:200"}, None),
    ("sparc", {"source": "generated:3"}, ("model", 5)),
    # sparc errors users see
    ("sparc", {"level": 0}, None),
    ("sparc", {"level": 7, "source": "sample"}, None),
    ("sparc", {"source": "sampel"}, None),
    ("sparc", {"source": "/nonexistent/records.jsonl"}, None),
    ("sparc", {"source": "sample", "prompt": "correct"}, None),
    ("sparc", {"source": "sample", "puzzles": "informative:75"}, None),
    ("sparc", {"source": "sample", "puzzles": "informative:50"}, None),
    ("sparc", {"source": SPLIT, "puzzles": "informative:50", "level": 5}, None),
    ("sparc", {"source": SPLIT, "puzzles": "informative:50", "split": "train"}, None),
    ("sparc", {"source": "generated:x"}, None),
    ("sparc", {"source": "generated:3", "split": "train"}, None),
    ("sparc", {"source": "sample", "levle": 5}, None),
    # sparc_hard
    ("sparc_hard", {"source": "sample"}, ("model", 5)),
    ("sparc_hard", {"source": SPLIT}, None),
    ("sparc_hard", {"source": "sample", "prompt": "corrected"}, None),
    ("sparc_hard", {"source": "generated:3"}, None),
    ("sparc_hard", {"prompt": "correct"}, None),
    ("sparc_hard", {"source": "sample", "sorce": 1}, None),
    # sparc_gym
    ("sparc_gym", {"source": "sample"}, ("model", 5)),
    ("sparc_gym", {"source": "sample", "level": 1}, ("gym_random", 5)),
    ("sparc_gym", {"source": "sample", "level": [1, 2]}, None),
    ("sparc_gym", {"source": "sample", "traceback": True, "max_steps": 20}, ("gym_random", 5)),
    (
        "sparc_gym",
        {"source": "sample", "traceback": "true", "prompt": "corrected", "level": 3},
        None,
    ),
    ("sparc_gym", {"source": "sample", "max_steps": 4, "level": 1}, ("model", 3)),
    (
        "sparc_gym",
        {"source": "sample", "observation": "image", "plot": "path_cell_annotated", "level": 1},
        ("gym_astar", 2),
    ),
    ("sparc_gym", {"source": SPLIT, "puzzles": "informative:50"}, ("gym_astar", 6)),
    ("sparc_gym", {"source": "generated:3"}, None),
    ("sparc_gym", {"max_steps": 0, "source": "sample"}, None),
    ("sparc_gym", {"source": "/nonexistent.jsonl", "observation": "picture"}, None),
    ("sparc_gym", {"source": "sample", "observation": "image", "plot": "orignal"}, None),
    ("sparc_gym", {"source": "sample", "max_step": 3}, None),
    # sparc_visual
    ("sparc_visual", {"source": "sample"}, ("model", 3)),
    ("sparc_visual", {"source": "sample", "level": 1}, None),
    (
        "sparc_visual",
        {"source": PUZZLES, "level": 5, "plot": "path_cell_annotated", "prompt": "corrected"},
        ("model", 2),
    ),
    ("sparc_visual", {"source": "sample", "prompt": "prompt_engineering"}, None),
    ("sparc_visual", {"source": SPLIT, "puzzles": "informative:50"}, None),
    ("sparc_visual", {"source": "sample", "plot": "nope"}, None),
    ("sparc_visual", {"source": "/nonexistent.jsonl", "prompt": "engineering"}, None),
    ("sparc_visual", {"source": "sample", "plott": 1}, None),
    # sparc_agent
    ("sparc_agent", {"source": "sample"}, ("agent_random", 5)),
    ("sparc_agent", {"source": "sample", "max_steps": 3}, ("agent_random", 3)),
    ("sparc_agent", {"source": "sample", "traceback": True}, ("agent_astar", 3)),
    (
        "sparc_agent",
        {"source": "sample", "observation": "image", "plot": "path_cell_annotated"},
        ("agent_astar", 2),
    ),
    ("sparc_agent", {"source": "sample", "level": 2, "prompt": "corrected"}, None),
    ("sparc_agent", {"source": SPLIT, "puzzles": "informative:50"}, None),
    ("sparc_agent", {"source": "sample", "observation": "video"}, None),
    ("sparc_agent", {"source": "sample", "observaton": "text"}, None),
    # algopuzzlevqa
    ("algopuzzlevqa", {"source": "sample"}, ("model", 8)),
    ("algopuzzlevqa", {"source": "sample", "puzzle": "clock"}, None),
    ("algopuzzlevqa", {"source": "sample", "puzzle": "clock,maze"}, None),
    ("algopuzzlevqa", {"source": "sample", "puzzle": ["clock", "maze"]}, None),
    ("algopuzzlevqa", {"source": "sample", "prompt": "cot"}, None),
    ("algopuzzlevqa", {"source": "sample", "extraction": "strict"}, ("model", 8)),
    ("algopuzzlevqa", {"source": "sample", "max_image_size": 0}, None),
    ("algopuzzlevqa", {"source": "sample", "prevent_direct_answer": True}, None),
    ("algopuzzlevqa", {"source": "sample", "puzzle": "nope"}, None),
    ("algopuzzlevqa", {"source": "sample", "puzle": "clock"}, None),
]


def combination_key(combination: Combination) -> str:
    """A readable, unique key: the task, its arguments and the eval's solver."""
    task, args, run = combination
    shown = json.dumps(args, sort_keys=True).replace(str(ROOT), "<root>")
    return f"{task} {shown}" + (f" eval={run[0]}:{run[1]}" if run else "")


#: Where this run keeps its cache (a fresh temporary folder), replaced by `<cache>` in dumps.
_CACHE: list[str] = []


def canonical(value: Any) -> str:
    """Canonical JSON, the checkout's and the cache's locations (image paths) replaced."""
    text = json.dumps(value, sort_keys=True, default=str, ensure_ascii=True)
    for cache in _CACHE:
        text = text.replace(cache, "<cache>")
    return text.replace(str(ROOT), "<root>")


def sha(value: Any) -> str:
    """The sha256 of `canonical(value)`."""
    return hashlib.sha256(canonical(value).encode()).hexdigest()


def _without_ids(message: dict[str, Any]) -> dict[str, Any]:
    """A message's dump without its random id."""
    return {key: value for key, value in message.items() if key != "id"}


def sample_record(sample: Any) -> dict[str, Any]:
    """What a sample holds: id, input (message ids left out: random), target, metadata."""
    given = sample.input
    messages = given if isinstance(given, str) else [_without_ids(m.model_dump()) for m in given]
    return {
        "id": sample.id,
        "input": messages,
        "target": sample.target,
        "choices": sample.choices,
        "metadata": sample.metadata,
        "files": sample.files,
        "setup": sample.setup,
    }


def build(task: str, args: dict[str, Any]) -> Any:
    """The task as `-T` builds it (Inspect's registry, so undeclared names meet the wrapper)."""
    from inspect_ai._eval.registry import task_create

    import inspect_sparc  # noqa: F401 - registers the tasks

    return task_create(f"inspect_sparc/{task}", **args)


def _metric_names(metrics: Any) -> Any:
    """The registered names and arguments of a task's metrics (a list, or a dict of lists)."""
    from inspect_ai._util.registry import registry_info, registry_params

    if isinstance(metrics, dict):
        return {key: _metric_names(value) for key, value in metrics.items()}
    return [[registry_info(m).name, registry_params(m)] for m in metrics or []]


def dataset_fingerprint(task_object: Any) -> dict[str, Any]:
    """The task's samples and what it says about itself."""
    samples = [sample_record(sample) for sample in task_object.dataset]
    about = {
        "dataset_name": task_object.dataset.name,
        "dataset_location": task_object.dataset.location,
        "metadata": task_object.metadata,
        "version": task_object.version,
        "message_limit": task_object.message_limit,
        "metrics": _metric_names(task_object.metrics),
        "config": task_object.config.model_dump(exclude_none=True),
    }
    return {
        "samples": sha(samples),
        "about": sha(about),
        "n": len(samples),
        "ids": [s["id"] for s in samples[:3]],
    }


def _answer_for(text: str) -> int:
    """A stable pick (0..3) from a prompt's text: which kind of reply the mock gives."""
    return int(hashlib.sha256(text.encode()).hexdigest(), 16) % 4


def scripted_model(task_object: Any) -> Any:
    """A mockllm model with a fixed reply for every prompt of the task: per prompt, right, wrong,
    unreadable or a first legal move (the gym), chosen from the prompt's hash."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    targets = {sample.input[-1].text: str(sample.target) for sample in task_object.dataset}

    def reply(text: str) -> str:
        pick = _answer_for(text)
        if "Legal Actions: [" in text:  # a gym observation
            legal = text.split("Legal Actions: [", 1)[1].split("]", 1)[0]
            actions = [a.strip() for a in legal.split(",") if a.strip()]
            return f"Final: {actions[pick % len(actions)]}" if actions else "Final: 0"
        target = targets.get(text)
        if target is not None and len(target) <= 2:  # AlgoPuzzleVQA: a letter
            return ["Answer: (A)", f"The answer is ({target})", "(C)", "I cannot tell."][pick]
        return ["#### (0,0)", f"####\n{target}", "no idea", f"Path: {target}"][pick]

    def respond(messages, tools, tool_choice, config):
        output = ModelOutput.from_content(model="mockllm/model", content=reply(messages[-1].text))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=respond)


def _solver(name: str) -> Any:
    """A baseline solver of the package, by name."""
    from inspect_sparc.evals.sparc.agent.baselines import agent_astar, agent_random
    from inspect_sparc.evals.sparc.gym.solvers import gym_astar, gym_random

    solvers: dict[str, Callable[[], Any]] = {
        "gym_random": gym_random,
        "gym_astar": gym_astar,
        "agent_random": agent_random,
        "agent_astar": agent_astar,
    }
    return solvers[name]()


def _score(score: Any) -> dict[str, Any]:
    """A score's value, answer, explanation and metadata."""
    return {
        "value": score.value,
        "answer": score.answer,
        "explanation": score.explanation,
        "metadata": score.metadata,
    }


def eval_fingerprint(task_object: Any, solver: str, limit: int, log_dir: str) -> dict[str, Any]:
    """Scores per sample and the metrics of a short offline eval."""
    from inspect_ai import eval as inspect_eval

    model = scripted_model(task_object)
    extra = {} if solver == "model" else {"solver": _solver(solver)}
    [log] = inspect_eval(
        task_object, model=model, limit=limit, log_dir=log_dir, display="none", **extra
    )
    assert log.status == "success", log.error
    scores = {
        f"{s.id}/{s.epoch}": {name: _score(score) for name, score in (s.scores or {}).items()}
        for s in log.samples or []
    }
    assert log.results is not None
    metrics: list[dict[str, Any]] = [
        {
            "name": result.name,
            "scorer": result.scorer,
            "reducer": result.reducer,
            "metrics": {name: metric.value for name, metric in result.metrics.items()},
        }
        for result in log.results.scores
    ]
    headline = {
        f"{result['name']}/{name}": round(value, 4) if isinstance(value, float) else value
        for result in metrics[:1]
        for name, value in list(result["metrics"].items())[:3]
    }
    return {"scores": sha(scores), "metrics": sha(metrics), "headline": headline}


@contextmanager
def isolated_cache() -> Iterator[None]:
    """A fresh cache folder and shrunk generated sets, for the length of the fingerprinting."""
    from inspect_sparc.core import sources
    from inspect_sparc.runtime.downloads import CACHE_ENV

    before_size, before_env = sources.GENERATED_SET_SIZE, os.environ.get(CACHE_ENV)
    with tempfile.TemporaryDirectory() as cache:
        sources.GENERATED_SET_SIZE = GENERATED_SIZE
        os.environ[CACHE_ENV] = cache
        _CACHE[:] = [cache]
        try:
            yield
        finally:
            _CACHE.clear()
            sources.GENERATED_SET_SIZE = before_size
            if before_env is None:
                os.environ.pop(CACHE_ENV, None)
            else:
                os.environ[CACHE_ENV] = before_env


def _error_kinds() -> tuple[type[BaseException], ...]:
    """The error types a caller catches, most specific first."""
    from inspect_sparc.core.puzzle.parse import RecordError
    from inspect_sparc.runtime.downloads import SourceError

    return (RecordError, SourceError, TypeError, ValueError, Exception)


_ERROR_KINDS = _error_kinds()


def fingerprint(combination: Combination, log_dir: str) -> dict[str, Any]:
    """One combination's fingerprint: its dataset and eval, or the error it stops with."""
    task, args, run = combination
    try:
        task_object = build(task, args)
    except Exception as error:  # noqa: BLE001 - the error is what is pinned
        kind = next(k for k in _ERROR_KINDS if isinstance(error, k)).__name__
        return {"error": f"{kind}: {' '.join(str(error).split())}"}
    found = dataset_fingerprint(task_object)
    if run is not None:
        found["eval"] = eval_fingerprint(task_object, run[0], run[1], log_dir)
    return found


def fingerprints(combinations: list[Combination] = COMBINATIONS) -> dict[str, dict[str, Any]]:
    """Every combination's fingerprint, by key."""
    with isolated_cache(), tempfile.TemporaryDirectory() as log_dir:
        return {combination_key(c): fingerprint(c, log_dir) for c in combinations}


def main() -> None:
    """Write the fixture from the code as it stands."""
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    found = fingerprints()
    FIXTURE.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(found)} fingerprints to {FIXTURE}")


if __name__ == "__main__":
    main()
