"""The floor check's selection (`pytest --inspect-only`, tests/inspect_reach.py): the files it
leaves out really load no Inspect, and the files that run Inspect are in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from inspect_reach import REPO, TESTS, reaches_inspect

TEST_FILES = sorted(TESTS.rglob("test_*.py"))
LEFT_OUT = [path for path in TEST_FILES if not reaches_inspect(path)]


def test_the_files_left_out_load_no_inspect() -> None:
    # a real share is left out (else the selection would save nothing), not everything
    assert 10 <= len(LEFT_OUT) < len(TEST_FILES) / 2
    # import every one of them in a fresh process, as pytest would: Inspect never loads
    code = (
        "import importlib.util, sys\n"
        f"sys.path.insert(0, {str(TESTS)!r})\n"
        f"for path in {[str(p) for p in LEFT_OUT]!r}:\n"
        "    name = 'left_out_' + str(abs(hash(path)))\n"
        "    spec = importlib.util.spec_from_file_location(name, path)\n"
        "    module = importlib.util.module_from_spec(spec)\n"
        "    spec.loader.exec_module(module)\n"
        "    assert 'inspect_ai' not in sys.modules, path\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


@pytest.mark.parametrize(
    "test_file",
    [
        "evals/algopuzzlevqa/test_algopuzzlevqa_eval.py",  # imports inspect_ai
        "core/test_baselines.py",  # imports an evals module, which imports inspect_ai
        "evals/sparc/test_protocols.py",  # `python -m inspect_ai eval` in a subprocess
        "test_task_resolution.py",  # Python code importing inspect_ai, run in a subprocess
        "evals/algopuzzlevqa/test_algopuzzlevqa_imports.py",  # the same, through the package
        "train/test_train_docs_example.py",  # runs docs/training.md's code blocks
        "docs/test_readme_quick_start.py",  # runs the README's commands
    ],
)
def test_the_files_that_run_inspect_are_in(test_file: str) -> None:
    assert reaches_inspect(TESTS / test_file)


def test_a_pure_file_is_left_out() -> None:
    assert not reaches_inspect(TESTS / "core" / "test_rules.py")
    assert Path(TESTS / "core" / "test_rules.py") in LEFT_OUT
