"""A run on a shipped subset (`-T puzzles=informative:N`) logs the whole test split's estimate as
its headline metric, with its interval, and the subset's own rate as `subset_accuracy`; a run on
every puzzle keeps `accuracy` and `stderr` over its samples.

The oracle is the estimator called on the published verdicts CSV directly (not on the log), and
the subset's rate counted from the CSV."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest
from mock_outputs import answers_by_prompt, scripted_model
from shipped_csvs import GPT_OSS, published_on

from inspect_sparc.published_runs.frames import subset_estimates

SPLIT = Path(__file__).parents[1] / "fixtures" / "sparc" / "test_split.jsonl.gz"
DATA = files("inspect_sparc.published_runs") / "data"


def csv_rows(name: str) -> list[dict[str, str]]:
    import csv

    with (DATA / name).open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize("subset", ["informative:50"])
def test_a_subset_runs_headline_is_the_split_estimate(tmp_path, subset):
    from inspect_ai import eval as inspect_eval

    from inspect_sparc.evals.sparc.single_shot.tasks import sparc

    solved = published_on(subset, GPT_OSS)
    task = sparc(source=str(SPLIT), puzzles=subset)
    script = answers_by_prompt(
        task, lambda s: [f"#### {s.target}" if solved[str(s.id)] else "#### (0,0), (0,1)"]
    )
    [log] = inspect_eval(task, model=scripted_model(script), display="none", log_dir=str(tmp_path))
    assert log.status == "success" and log.results is not None
    first = log.results.scores[0]
    expected = subset_estimates(solved, subset)[0]
    assert next(iter(first.metrics)) == "accuracy"
    assert first.metrics["accuracy"].value == pytest.approx(expected.value)
    assert first.metrics["accuracy_ci95_low"].value == pytest.approx(expected.low)
    assert first.metrics["accuracy_ci95_high"].value == pytest.approx(expected.high)
    own = sum(solved.values()) / len(solved)
    assert first.metrics["subset_accuracy"].value == pytest.approx(own)
    assert abs(expected.value - own) > 0.01  # the two differ: the test tells them apart
    assert "stderr" not in first.metrics
    assert log.eval.task_version == "1-H"


def test_a_run_on_every_puzzle_keeps_its_plain_accuracy_and_stderr():
    from inspect_ai._util.registry import registry_info

    from inspect_sparc.evals.sparc.agent.scorer import agent_metrics
    from inspect_sparc.evals.sparc.episode_scorer import episode_metrics
    from inspect_sparc.evals.sparc.scorer import sparc_metrics

    for make in (
        sparc_metrics,
        lambda p: episode_metrics(False, p),
        lambda p: agent_metrics(False, p),
    ):
        names = [registry_info(m).name for m in make("all")]
        assert names[:2] == ["inspect_sparc/accuracy", "inspect_sparc/stderr"]
        subset = [registry_info(m).name for m in make("informative:100")]
        assert subset[0] == "inspect_sparc/split_accuracy"
        assert "inspect_sparc/split_accuracy_by_level" in subset
        assert "inspect_sparc/stderr" not in subset


def one_solution(subset: str) -> tuple[str, str]:
    """(puzzle id, answer text) solving the first puzzle of the subset and, being one fixed
    path, almost no other."""
    from inspect_sparc.core.puzzle.answer import format_path

    chosen = {r["puzzle_id"] for r in csv_rows("subsets.csv") if r[subset]}
    with gzip.open(SPLIT, "rt", encoding="utf-8") as handle:
        record = next(r for r in map(json.loads, handle) if r["id"] in chosen)
    path = [(p["x"], p["y"]) for p in record["solutions"][0]["path"]]
    return record["id"], f"#### {format_path(tuple(path))}"


@pytest.mark.slow
def test_the_inspect_cli_shows_the_split_estimate_first(tmp_path):
    # the replay model's one fixed answer on informative:50, as a user runs it
    from inspect_ai.log import list_eval_logs, read_eval_log

    subset = "informative:50"
    _, answer = one_solution(subset)
    (tmp_path / "answer.txt").write_text(answer, encoding="utf-8")
    command = [sys.executable, "-m", "inspect_ai", "eval", "inspect_sparc/sparc"]
    command += ["-T", f"source={SPLIT}", "-T", f"puzzles={subset}"]
    command += ["--model", "inspect_sparc/replay", "-M", f"answer_file={tmp_path / 'answer.txt'}"]
    command += ["--display", "plain", "--log-dir", str(tmp_path / "logs")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert PART_OF_SUBSET not in result.stderr  # the whole subset ran
    [info] = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.samples is not None and log.results is not None
    values = {str(s.id): float(s.scores["sparc_scorer"].value["correct"]) for s in log.samples}
    assert 0 < sum(values.values()) < len(values)
    expected = subset_estimates(values, subset)[0]
    # the first metric printed, and the first in the log, is the split's estimate
    printed = re.findall(r"^(\w+)\s+([\d.]+)\s*$", result.stdout, re.M)
    assert printed[0] == ("accuracy", f"{expected.value:.3f}")
    assert ("subset_accuracy", f"{sum(values.values()) / len(values):.3f}") in printed
    assert list(log.results.scores[0].metrics)[0] == "accuracy"
    assert log.results.scores[0].metrics["accuracy"].value == pytest.approx(expected.value)


PART_OF_SUBSET = "runs part of puzzles=informative:50, not a random part of each stratum"


@pytest.mark.slow
@pytest.mark.parametrize(
    "option, display",
    [(["--limit", "2"], "plain"), (["--sample-id", "x,y"], "plain")]
    + [(["--limit", "1"], mode) for mode in ("full", "rich", "log", "none", "conversation")],
)
def test_the_inspect_cli_says_once_when_part_of_a_subset_runs(tmp_path, option, display):
    subset = "informative:50"
    puzzle, answer = one_solution(subset)
    option = [option[0], option[1].replace("x,y", puzzle)]
    (tmp_path / "answer.txt").write_text(answer, encoding="utf-8")
    command = [sys.executable, "-m", "inspect_ai", "eval", "inspect_sparc/sparc", *option]
    command += ["-T", f"source={SPLIT}", "-T", f"puzzles={subset}"]
    command += ["--model", "inspect_sparc/replay", "-M", f"answer_file={tmp_path / 'answer.txt'}"]
    command += ["--display", display, "--log-dir", str(tmp_path / "logs")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count(PART_OF_SUBSET) == 1
    assert f"inspect-sparc: {' '.join(option)} {PART_OF_SUBSET}" in result.stderr


def test_part_of_a_subset_is_said_only_for_a_subset_under_limit_or_sample_id(capsys):
    import click
    import inspect_ai._cli.main  # noqa: F401 - what makes a run Inspect's command line

    from inspect_sparc.evals.errors import warn_if_part_of_subset

    said = {}
    for puzzles, options in [
        ("informative:50", {"limit": "5"}),
        ("informative:50", {"sample_id": "a,b"}),
        ("informative:50", {"limit": None, "sample_id": None}),
        ("all", {"limit": "5"}),
    ]:
        params = {"tasks": ("inspect_sparc/sparc",), **options}
        with click.Context(click.Command("eval")) as context:
            context.params = params
            warn_if_part_of_subset(puzzles)
        said[(puzzles, tuple(options.items()))] = capsys.readouterr().err
    assert [bool(err) for err in said.values()] == [True, True, False, False]
    assert "--limit 5 runs part of" in said[("informative:50", (("limit", "5"),))]
    assert "--sample-id a,b runs part of" in said[("informative:50", (("sample_id", "a,b"),))]
