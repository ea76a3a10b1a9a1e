"""End-to-end: the sparc tasks run through inspect_ai.eval with mockllm, metrics and epochs."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from eval_runs import run
from inspect_ai import eval
from inspect_ai.model import get_model
from mock_outputs import answers_by_prompt, mock_output, scripted_model

import inspect_sparc as sparc_module
from inspect_sparc.core.puzzle.answer import format_path
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.rules import RULES, check
from inspect_sparc.core.search import solve
from inspect_sparc.evals.sparc.single_shot.tasks import TASK_VERSION, sparc, sparc_hard


def reversed_target(sample) -> str:
    """The first solution walked backwards; extraction stops at its first point, E."""
    return "#### " + ", ".join(reversed(sample.target.split(", ")))


def plan(sample_index: int, sample) -> str:
    """Correct, no path, or reversed, in turn."""
    answers: list[str] = ["#### " + sample.target, "I give up.", reversed_target(sample)]
    return answers[sample_index % 3]


def metric_values(log) -> dict[str, float]:
    [score] = log.results.scores
    return {name: m.value for name, m in score.metrics.items()}


def test_eval_on_the_bundled_sample_reports_exact_metrics(tmp_path):
    task = sparc(source="sample")
    samples = list(task.dataset)
    planned = {s.id: plan(i, s) for i, s in enumerate(samples)}
    model = scripted_model(answers_by_prompt(task, lambda s: [planned[s.id]]))
    log = run(task, model, tmp_path)
    metrics = metric_values(log)

    correct = {s.id: planned[s.id].startswith("#### " + s.target) for s in samples}
    by_level = defaultdict(list)
    for s in samples:
        by_level[s.metadata["level"]].append(correct[s.id])
    assert list(metrics)[:2] == ["accuracy", "stderr"]
    assert metrics["accuracy"] == pytest.approx(sum(correct.values()) / len(samples))
    for level, flags in by_level.items():
        assert metrics[f"level_{level}"] == pytest.approx(sum(flags) / len(flags))
    assert metrics["invalid_path_rate"] == pytest.approx(1 - metrics["accuracy"])
    rule_metrics = [name for name in metrics if name.startswith("breaks_")]
    assert rule_metrics == [f"breaks_{r}" for r in RULES]
    assert metrics["breaks_start"] == pytest.approx(metrics["invalid_path_rate"])
    assert log.eval.task_version == TASK_VERSION
    assert log.results.headline.metric == "accuracy"

    by_id = {s.id: s for s in log.samples}
    solved = next(s for s in samples if correct[s.id])
    score = by_id[solved.id].scores["sparc_scorer"]
    assert score.value["correct"] == 1 and score.answer == solved.target
    assert "**Solved**" in score.explanation and score.metadata["rule_violations"] == []
    empty = by_id[samples[1].id].scores["sparc_scorer"]
    assert empty.answer == "" and "No `(x, y)` coordinates" in empty.explanation
    backwards = by_id[samples[2].id].scores["sparc_scorer"]
    assert backwards.value["invalid_path"] == 1
    assert backwards.answer == reversed_target(samples[2])[5:].split(", ")[0]
    assert "start" in backwards.metadata["rule_violations"]
    assert "`start`" in backwards.explanation  # pictured, its first step named as the fault
    assert "in magenta in the picture: the path starts at" in backwards.explanation


def rule_breaking_line(record: dict[str, Any]) -> tuple[tuple[int, int], ...] | None:
    """A line from S to E that the reference calls valid but that misses a dot, if any."""
    grid = [["+" if v == "." else v for v in row] for row in record["puzzle_array"]]
    stored = set(parse_puzzle(record).solutions)
    relaxed = parse_puzzle(dict(record, puzzle_array=grid))
    return next((p for p in solve(relaxed, limit=50) if p not in stored), None)


def test_metrics_are_right_under_epochs(tmp_path):
    task = sparc(source="sample", level=1)
    samples = list(task.dataset)
    with_dots, line = next(
        (s, line) for s in samples if (line := rule_breaking_line(s.metadata["puzzle"]))
    )
    broken = set(check(parse_puzzle(with_dots.metadata["puzzle"]), line).broken_rules)
    always_right = next(s for s in samples if s is not with_dots)
    # Answers differ between the two epochs, so metrics read from Score.metadata (which keeps
    # the first epoch only) would be wrong; per-sample accuracies differ, so stderr is not 0.
    plans = {s.id: ["#### " + s.target, "no path"] for s in samples}
    plans[with_dots.id] = ["#### " + with_dots.target, "#### " + format_path(line)]
    plans[always_right.id] = ["#### " + always_right.target] * 2
    script = answers_by_prompt(task, lambda s: plans[s.id])
    log = run(task, scripted_model(script), tmp_path, epochs=2)
    metrics = metric_values(log)
    per_sample = [1.0] + [0.5] * (len(samples) - 1)
    mean = sum(per_sample) / len(per_sample)
    spread = sum((v - mean) ** 2 for v in per_sample) / (len(per_sample) - 1)
    assert metrics["accuracy"] == pytest.approx(mean)
    assert metrics["level_1"] == pytest.approx(mean)
    assert metrics["stderr"] == pytest.approx((spread / len(per_sample)) ** 0.5)
    assert metrics["invalid_path_rate"] == pytest.approx(0.5 * (len(samples) - 2) / len(samples))
    assert "dot" in broken
    for rule in ("gap", "off_grid", "dot", "square", "star", "triangle", "polyshape"):
        expected = 0.5 / len(samples) if rule in broken else 0.0
        assert metrics[f"breaks_{rule}"] == pytest.approx(expected), rule
    # "no path" answers (one epoch of every other sample but the always-right one) break start
    assert metrics["breaks_start"] == pytest.approx(metrics["invalid_path_rate"])


def test_limit_takes_two_puzzles_per_level(tmp_path):
    task = sparc(source="sample")
    log = run(task, scripted_model(answers_by_prompt(task, lambda s: ["x"])), tmp_path, limit=10)
    levels = sorted(s.metadata["level"] for s in log.samples)
    assert levels == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


def test_sparc_hard_is_level_five(tmp_path):
    assert {s.metadata["level"] for s in sparc_hard(source="sample").dataset} == {5}
    assert [s.id for s in sparc_hard(source="sample").dataset] == [
        s.id for s in sparc(source="sample", level="5").dataset
    ]


def test_corrected_prompt_changes_only_the_user_message():
    paper = list(sparc(source="sample").dataset)[0]
    corrected = list(sparc(source="sample", prompt="corrected").dataset)[0]
    assert paper.input[0].content == corrected.input[0].content
    assert paper.input[1].content != corrected.input[1].content


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"prompt": "fancy"}, "prompt must be one of paper, corrected"),
        ({"level": 9}, "level must be one of 1, 2, 3, 4, 5"),
        ({"split": "dev"}, "split must be one of test, train"),
        ({"subset": "mazes"}, "subset must be one of all, dots"),
        ({"source": "kaggle"}, "source must be one of modelscope, huggingface, sample"),
        ({"source": None}, "source must be one of modelscope, huggingface, sample"),
    ],
)
def test_bad_task_arguments_are_value_errors_listing_the_choices(args, message):
    with pytest.raises(ValueError, match=message):
        sparc(**{"source": "sample", **args})


def test_tasks_are_registered_under_the_package_namespace(tmp_path):
    names = [ep.name for ep in entry_points(group="inspect_ai")]
    assert "inspect_sparc" in names
    model = get_model("mockllm/model", custom_outputs=lambda *a: mock_output("#### (0,0)"))
    [log] = eval(
        "inspect_sparc/sparc",
        task_args={"source": "sample", "level": "2"},
        model=model,
        limit=2,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success" and log.eval.task == "inspect_sparc/sparc"
    assert metric_values(log)["accuracy"] == 0.0


def test_registry_import_is_cheap():
    code = (
        "import sys, inspect_sparc._registry; "
        "heavy = [m for m in ('datasets', 'modelscope', 'pyarrow', 'huggingface_hub', 'PIL', "
        "'numpy') "
        "if m in sys.modules]; print(','.join(heavy))"
    )
    command = [sys.executable, "-c", code]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_every_task_has_its_card_version_and_the_readme_states_it():
    # eval.yaml is the one source of the versions (the tasks read it); the README repeats them
    import yaml

    from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa
    from inspect_sparc.evals.sparc.agent.tasks import sparc_agent
    from inspect_sparc.evals.sparc.gym.tasks import sparc_gym
    from inspect_sparc.evals.sparc.visual.tasks import sparc_visual

    card = yaml.safe_load((Path(sparc_module.__file__).parent / "eval.yaml").read_text())
    versions = {t["name"]: t["version"] for t in card["tasks"]}
    tasks = {
        "sparc": sparc(source="sample"),
        "sparc_hard": sparc_hard(source="sample"),
        "sparc_gym": sparc_gym(source="sample"),
        "sparc_visual": sparc_visual(source="sample"),
        "algopuzzlevqa": algopuzzlevqa(source="sample"),
        "sparc_agent": sparc_agent(source="sample"),
    }
    assert versions == {name: task.version for name, task in tasks.items()}
    assert versions["sparc"] == TASK_VERSION
    # The README's task table states the same versions.
    readme = (Path(sparc_module.__file__).parent.parent / "README.md").read_text()
    for name, version in versions.items():
        assert re.search(rf"^\| \[?`{name}`.*\| {version} \|$", readme, re.M), name


def test_search_solver_solves_every_bundled_puzzle_without_a_model(tmp_path):
    from inspect_sparc.evals.sparc.single_shot.solvers import search_solver

    model = get_model("mockllm/model", custom_outputs=lambda *a: pytest.fail("model called"))
    log = run(sparc(source="sample"), model, tmp_path, solver=search_solver())
    metrics = metric_values(log)
    assert metrics["accuracy"] == 1.0 and metrics["invalid_path_rate"] == 0.0
    assert all(metrics[f"level_{level}"] == 1.0 for level in range(1, 6))
    assert all(s.scores["sparc_scorer"].metadata["rule_violations"] == [] for s in log.samples)


def test_a_rule_valid_path_missing_from_the_stored_set_is_flagged_unlisted_valid(sparc_records):
    from inspect_sparc.evals.sparc.scorer import score_answer

    record = next(r for r in sparc_records if r["solution_count"] >= 2)
    withheld = record["solutions"][-1]["path"]
    trimmed = dict(record, solutions=record["solutions"][:-1])
    answer = "#### " + ", ".join(f"({p['x']},{p['y']})" for p in withheld)
    score = score_answer(parse_puzzle(trimmed), answer)
    assert score.value["correct"] == 0 and score.value["invalid_path"] == 0
    assert score.metadata["unlisted_valid"] is True
    assert score.metadata["rule_violations"] == []
    assert "unlisted_valid" in score.explanation
    stored = score_answer(parse_puzzle(record), answer)
    assert stored.value["correct"] == 1 and stored.metadata["unlisted_valid"] is False
