"""Inspect's own errors for a mistake on its command line, in a run of this package's tasks, end
in one line and a non-zero status (before: a 200-line traceback; offline `mockllm/model`, a
250-line traceback per sample and status 0): through the real `inspect eval`."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from commands import run_together

from inspect_sparc.evals.errors import TIKTOKEN_ENCODING

#: The solvers the package registers (its entry point), as the unknown solver's line lists them.
SOLVERS = (
    "inspect_sparc/agent_astar, inspect_sparc/agent_random, inspect_sparc/algopuzzlevqa_solver"
)
UNKNOWN_SOLVER = (
    "Unknown solver inspect_sparc/serch_solver (not registered as a @solver or @agent) "
    f"(did you mean 'inspect_sparc/search_solver'?); this package's solvers: {SOLVERS}"
)
UNKNOWN_MODEL = "Model API nonexist of model 'nonexist/model' not recognized."
MOCKLLM = f"mockllm/model counts tokens with tiktoken, which could not load its {TIKTOKEN_ENCODING}"
#: tiktoken offline whatever the machine: an empty cache and a proxy that refuses connections.
OFFLINE = {"TIKTOKEN_CACHE_DIR": "", "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": ""}
#: The display modes and `--json`: the default suite runs each case in one of the quiet ones (the
#: hook that prints the line is the same in every mode), `pytest -m slow` in all the others.
OUTPUTS = [["--display", m] for m in ("full", "rich", "plain", "log", "none", "conversation")]
OUTPUTS += [["--json"]]
QUICK = {
    "unknown solver": "--display none",
    "unknown model": "--json",
    "mockllm offline": "--json",
    "mockllm offline, --solver generate": "--display plain",
}
CASES = {
    "unknown solver": (
        ["--solver", "inspect_sparc/serch_solver"],
        "mockllm/model",
        {},
        UNKNOWN_SOLVER,
    ),
    "unknown model": ([], "nonexist/model", {}, UNKNOWN_MODEL),
    "mockllm offline": ([], "mockllm/model", OFFLINE, MOCKLLM),
    "mockllm offline, --solver generate": (
        ["--solver", "generate"],
        "mockllm/model",
        OFFLINE,
        MOCKLLM,
    ),
}


def run_cases(
    runs: list[tuple[str, list[str]]], tmp_path
) -> dict[tuple[str, str], subprocess.CompletedProcess[str]]:
    """Each (case of `CASES`, output option) of `runs` through `inspect eval`, started together."""
    commands = {}
    for n, (case, output) in enumerate(runs):
        args, model, env, _ = CASES[case]
        command = [sys.executable, "-m", "inspect_ai", "eval", "inspect_sparc/sparc"]
        command += ["-T", "source=sample", "--limit", "1", "--model", model, *args, *output]
        command += ["--log-dir", str(tmp_path / str(n))]
        options = {"env": {**os.environ, **env, "COLUMNS": "80"}}
        commands[(case, " ".join(output))] = (command, options)
    return run_together(commands, timeout=300)


def check(results: dict[tuple[str, str], subprocess.CompletedProcess[str]]) -> None:
    """Each run: a non-zero status, its message whole as the last line on stderr, once, no
    traceback; under `--json` stdout holds JSON records only."""
    for (case, output), result in results.items():
        message = CASES[case][3]
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.returncode != 0, (case, output)
        assert lines and lines[-1].startswith(message), (case, output, result.stderr)
        assert len(lines) <= 2 and "Traceback" not in result.stderr + result.stdout, result.stderr
        assert message not in result.stdout
        if output == "--json":
            assert all(line.startswith("{") for line in result.stdout.splitlines() if line.strip())
        else:
            assert result.stdout.strip() == ""


def test_inspects_errors_are_one_line(tmp_path):
    check(run_cases([(case, output.split()) for case, output in QUICK.items()], tmp_path))


@pytest.mark.slow
def test_inspects_errors_are_one_line_in_every_display(tmp_path):
    runs = [(case, output) for case in CASES for output in OUTPUTS]
    check(run_cases([(c, o) for c, o in runs if QUICK[c] != " ".join(o)], tmp_path))


def test_a_baseline_solver_with_mockllm_offline_still_runs(tmp_path):
    """The offline check is for the task's own solver, which calls the model; a baseline never
    does (the README's offline quick start)."""
    command = [
        sys.executable,
        "-m",
        "inspect_ai",
        "eval",
        "inspect_sparc/sparc",
        "-T",
        "source=sample",
    ]
    command += [
        "--solver",
        "inspect_sparc/search_solver",
        "--model",
        "mockllm/model",
        "--limit",
        "1",
    ]
    command += ["--display", "none", "--log-dir", str(tmp_path)]
    result = subprocess.run(command, capture_output=True, text=True, env={**os.environ, **OFFLINE})
    assert result.returncode == 0, result.stderr
    assert len(list(tmp_path.glob("*.eval"))) == 1
