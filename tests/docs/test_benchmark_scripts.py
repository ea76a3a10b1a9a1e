"""Every script under benchmarks/ answers `--help` at once, in a plain install too (saying what
it does and what to install for it), doing no work and writing nothing, and stops on a missing
need or bad input with one line."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from commands import run_together

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
#: Runs a script with only what a plain install (no extras, no dev tools) has.
PLAIN = Path(__file__).resolve().parents[1] / "plain_install.py"
#: What `command_line.needs` names when a script gives no install.
DEV_INSTALL = 'pip install -e ".[dev]"'
#: The scripts (command_line.py is their shared helper, not a script).
SCRIPTS = sorted(p for p in BENCHMARKS.glob("*.py") if p.name != "command_line.py")


@pytest.fixture(scope="module")
def helps(tmp_path_factory) -> dict[str, tuple[subprocess.CompletedProcess[str], Path]]:
    """`python SCRIPT --help` of every script as a plain install runs it, started together,
    each in an empty folder."""
    folders = {script.name: tmp_path_factory.mktemp(script.stem) for script in SCRIPTS}
    commands = {
        script.name: (
            [sys.executable, str(PLAIN), str(script), "--help"],
            {"cwd": folders[script.name]},
        )
        for script in SCRIPTS
    }
    results = run_together(commands, timeout=120)
    return {name: (result, folders[name]) for name, result in results.items()}


def test_there_are_scripts_to_check():
    assert len(SCRIPTS) >= 15


@pytest.mark.parametrize("name", [p.name for p in SCRIPTS])
def test_every_script_answers_help_and_does_nothing_else(helps, name):
    result, folder = helps[name]
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: {name}"), result.stdout
    docstring_start = (BENCHMARKS / name).read_text(encoding="utf-8").split('"""')[1].split()[:4]
    assert " ".join(docstring_start) in " ".join(result.stdout.split())  # says what it does
    assert not list(folder.iterdir())  # took --help for no folder, wrote nothing


def _installs_needed(script: Path) -> set[str]:
    """The install lines of the script's `needs(...)` calls (literal or a module constant)."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    constants = {
        target.id: str(node.value.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    installs: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "needs":
            install = next((k.value for k in node.keywords if k.arg == "install"), None)
            if install is None:
                installs.add(DEV_INSTALL)
            elif isinstance(install, ast.Constant):
                installs.add(str(install.value))
            else:
                installs.add(constants[getattr(install, "id", "")])
    return installs


@pytest.mark.parametrize("name", [p.name for p in SCRIPTS])
def test_help_says_what_to_install_for_what_the_script_needs(helps, name):
    result, _ = helps[name]
    for install in _installs_needed(BENCHMARKS / name):
        command = install.split(" (")[0]  # the command, without the note after it
        assert " ".join(command.split()) in " ".join(result.stdout.split()), install


def test_the_install_lines_are_read_from_the_scripts():
    assert _installs_needed(BENCHMARKS / "bench_visual.py") == {DEV_INSTALL}
    assert "pip install playwright" in next(
        iter(_installs_needed(BENCHMARKS / "screenshot_report.py"))
    )


def _stderr_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.strip()]


def test_a_missing_module_stops_a_script_with_one_line_naming_the_install():
    code = (
        "import sys; sys.argv = ['leaderboard_logs.py']; from command_line import needs; "
        "needs('no_such_module_at_all', install='pip install openai')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BENCHMARKS, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    missing = "needs no_such_module_at_all, which is not installed: pip install openai"
    assert _stderr_lines(result) == [f"leaderboard_logs.py: {missing}"]


@pytest.mark.parametrize(
    ("script", "args", "says"),
    [
        ("bench_report_reader.py", ["EMPTY"], "no .eval log in"),
        ("bench_core.py", ["EMPTY/none.jsonl"], "FileNotFoundError"),
        ("screenshot_report.py", ["EMPTY"], ""),
    ],
)
def test_bad_input_stops_a_script_with_one_line(tmp_path, script, args, says):
    args = [arg.replace("EMPTY", str(tmp_path)) for arg in args]
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    lines = _stderr_lines(result)
    assert result.returncode == 1 and len(lines) == 1, result.stderr
    assert lines[0].startswith(f"{script}: ") and says in lines[0]
    assert "Traceback" not in result.stderr


def test_the_training_recipe_without_its_stack_stops_with_one_line_naming_the_install():
    """`python -S` hides site-packages (sb3-contrib, torch, scipy); the checkout stays found."""
    script = BENCHMARKS / "recipe_maskable_ppo.py"
    result = subprocess.run(
        [sys.executable, "-S", str(script)],
        capture_output=True, text=True, timeout=60,
        env={"PYTHONPATH": str(BENCHMARKS.parent), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    lines = _stderr_lines(result)
    assert result.returncode == 1 and len(lines) == 1, result.stderr
    assert lines[0].startswith("recipe_maskable_ppo.py: needs sb3_contrib, torch, scipy")
    assert lines[0].endswith('pip install -e ".[train-sb3]" scipy')
