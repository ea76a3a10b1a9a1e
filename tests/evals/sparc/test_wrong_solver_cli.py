"""A baseline solver in another protocol's task: through the real `inspect eval`, its one-line
`WrongTaskError` is the last line on stderr in every display mode and under `--json`, where
before it showed under a traceback only, and under `--display none` not at all."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from inspect_sparc.evals.sparc.protocols import PROTOCOL_TASKS, wrong_task

#: The CLI's display modes and `--json`; `none` (where Inspect showed nothing) runs in the default
#: suite, the others (each a CLI start, ~10 s on 2 cores) with `pytest -m slow`.
QUICK = [["--display", "none"]]
SLOW = [["--json"]] + [["--display", m] for m in ("full", "rich", "plain", "log", "conversation")]
#: The line the user must see, built by the public function the solvers raise through.
LINE = f"WrongTaskError: {wrong_task('gym_astar', 'gym', PROTOCOL_TASKS['single_shot'])}"
#: The agent baselines stop before their first tool call, in a task without the move tool.
AGENT_LINE = f"WrongTaskError: {wrong_task('agent_astar', 'agent', 'a task without its move tool')}"


def run_all(
    outputs: list[list[str]], tmp_path, solver: str = "gym_astar"
) -> list[subprocess.CompletedProcess[str]]:
    """`inspect eval inspect_sparc/sparc --solver inspect_sparc/<solver>` once per output
    option, started together (each is mostly CLI start-up)."""
    started = []
    for n, output in enumerate(outputs):
        command = [sys.executable, "-m", "inspect_ai", "eval", "inspect_sparc/sparc"]
        command += ["-T", "source=sample", "--solver", f"inspect_sparc/{solver}", "--limit", "1"]
        command += ["--model", "mockllm/model", "--log-dir", str(tmp_path / str(n)), *output]
        started.append(
            subprocess.Popen(
                command,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "COLUMNS": "80"},
            )  # fmt: skip
        )
    done = []
    for process in started:
        stdout, stderr = process.communicate(timeout=180)
        done.append(subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr))
    return done


def check_last_line(result: subprocess.CompletedProcess[str], line: str = LINE) -> None:
    """The one line, whole (not wrapped at the 80 columns), is the last of stderr; under
    `--json` stdout holds JSON records only; the log says `error` (the exit code stays 0:
    `inspect eval` reports a task's error in its log, docs/protocols.md)."""
    lines = [text for text in result.stderr.splitlines() if text.strip()]
    assert lines and lines[-1] == line, result.stderr
    assert result.stderr.count(line) == 1
    if "--json" in result.args:
        assert all(line.startswith("{") for line in result.stdout.splitlines() if line.strip())
        assert '"status": "error"' in result.stdout
    assert result.returncode == 0


def test_the_line_is_last_without_a_display(tmp_path):
    for result in run_all(QUICK, tmp_path):
        check_last_line(result)


def test_an_agent_baseline_says_its_line_last_too(tmp_path):
    for result in run_all(QUICK, tmp_path, solver="agent_astar"):
        check_last_line(result, AGENT_LINE)


@pytest.mark.slow
def test_the_line_is_last_in_every_other_display_mode_and_under_json(tmp_path):
    for result in run_all(SLOW, tmp_path):
        check_last_line(result)  # after Inspect's own panel (in `log` mode, cut at its start)


@pytest.mark.slow
def test_python_eval_prints_nothing_at_exit(tmp_path):
    """Outside the CLI the log's error says it; nothing is added at the interpreter's exit."""
    script = (
        "from inspect_ai import eval\n"
        "from inspect_sparc import sparc\n"
        "from inspect_sparc.evals.sparc.gym.solvers import gym_astar\n"
        f"[log] = eval(sparc(source='sample'), solver=gym_astar(), model='mockllm/model',"
        f" limit=1, display='none', log_dir={str(tmp_path)!r})\n"
        "print(log.status)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=180, env=os.environ)  # fmt: skip
    assert result.stdout.strip() == "error", result.stderr
    assert "WrongTaskError" not in result.stderr
