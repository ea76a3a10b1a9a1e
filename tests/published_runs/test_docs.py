"""Every code block of docs/published_runs.md runs: the Python as written, the subset eval line
on the bundled test split with a solver that needs no model, and (slow) the benchmark command,
whose table must be the one the page shows."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

SPARC_TEST_SPLIT = Path(__file__).parents[1] / "fixtures" / "sparc" / "test_split.jsonl.gz"


ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "published_runs.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)


def printed_by(command: str, *extra: str) -> str:
    """What the page's `python benchmarks/<command>...` line prints, run with this Python."""
    [line] = [b.strip() for b in blocks("bash") if command in b]
    words = shlex.split(line)
    assert words[0] == "python"
    return subprocess.run(
        [sys.executable, *words[1:], *extra], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout


def test_the_python_example_runs_and_prints_the_paired_rows(capsys):
    [code] = blocks("python")
    exec(compile(code, str(PAGE), "exec"), {})
    printed = capsys.readouterr().out
    assert "GPT-OSS 120B" in printed and "n_shared" in printed


def test_the_subset_eval_line_runs_the_subset(tmp_path):
    [line] = [b.strip() for b in blocks("bash") if "puzzles=" in b]
    words = shlex.split(line)
    words[words.index("--model") + 1] = "mockllm/model"  # no key: the search solver answers
    words += ["-T", f"source={SPARC_TEST_SPLIT}", "--solver", "inspect_sparc/search_solver"]
    words += ["--log-dir", str(tmp_path), "--display", "none"]
    subprocess.run(words, cwd=ROOT, check=True, capture_output=True)
    [log_file] = tmp_path.glob("*.eval")
    log = read_eval_log(str(log_file))
    assert log.eval.task_args["puzzles"] == "informative:100"
    assert log.eval.metadata is not None
    assert log.eval.metadata["puzzles"] == "informative:100"
    assert log.results is not None and log.results.total_samples == 100


@pytest.mark.slow
def test_the_benchmark_command_prints_the_table_on_the_page(tmp_path):
    out = printed_by("published_subset_loro", "--out", str(tmp_path))
    assert out.strip() in PAGE.read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_validation_command_prints_the_figures_on_the_page():
    # the page's leave-one-family-out and shipped-subset rows are what the command prints
    out = printed_by("published_subset_validation")
    page = PAGE.read_text(encoding="utf-8")
    family = out.split("## Leave one family out")[1]
    shipped = out.split("## The shipped subsets")[1].split("## Simulated")[0]
    for part, printed in (
        ("leave one family out, 100", family),
        ("shipped informative:100", shipped),
    ):
        for method in ("model-assisted", "design-based", "model-based"):
            [row] = [r for r in printed.splitlines() if r.startswith(f"| {method} | 100 |")]
            cells = [c.strip() for c in row.strip("|").split("|")]
            mae, bias, coverage, width = cells[3:7]
            expected = f"| {part} | {method} | {mae} | {bias} | {coverage} | {width} |"
            assert expected in page, expected


@pytest.mark.slow
def test_the_predictor_command_prints_the_tables_on_the_page():
    # every row it prints (leave-one-family-out per prediction, and the residual variances)
    out = printed_by("published_subset_predictors")
    rows = [r for r in out.splitlines() if r.startswith("| ") and "---" not in r]
    assert len(rows) == 2 + 5 + 3  # two headers, five predictions, three variances
    page = PAGE.read_text(encoding="utf-8")
    assert [r for r in rows if r not in page] == []
