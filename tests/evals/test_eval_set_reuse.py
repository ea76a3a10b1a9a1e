"""A finished eval set run again buys nothing: every log is reused, none is written.

The SPaRC tasks name their own epochs reducer (`inspect_sparc/mean`); an Inspect that compared
it with the plain `mean` it expects of a task (0.3.263 and before) judged every finished SPaRC
log unfinished and ran the task again, every model call paid twice. The oracle is the log folder
itself: the same files, untouched, after the second call. Measured through the command line
too (`inspect eval-set`, offline on the package's replay model): 0.3.262 and 0.3.263 wrote both
SPaRC logs again, 0.3.264 and 0.3.285 reused every log.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from inspect_ai import Task, eval_set, task
from inspect_ai.dataset import Sample
from inspect_ai.model import get_model
from inspect_ai.scorer import match
from inspect_ai.solver import generate
from mock_outputs import mock_output

from inspect_sparc.evals.sparc.single_shot.tasks import sparc, sparc_hard


@task
def echo() -> Task:
    """A task of another package's kind: one sample, Inspect's default reducer."""
    return Task(dataset=[Sample(input="Say yes.", target="yes")], solver=generate(), scorer=match())


def _logs(folder: Path) -> dict[str, int]:
    """Each log file in `folder` with its modification time (ns)."""
    return {path.name: path.stat().st_mtime_ns for path in sorted(folder.glob("*.eval"))}


def test_a_finished_eval_set_with_sparc_and_another_task_is_not_run_again(tmp_path: Path) -> None:
    answered: list[str] = []

    def answer(messages, tools, tool_choice, config):
        answered.append(messages[-1].text)
        return mock_output("yes")

    model = get_model("mockllm/model", custom_outputs=answer)

    def run() -> bool:
        done, _ = eval_set(
            [sparc(source="sample", level=1), sparc_hard(source="sample"), echo()],
            model=model, log_dir=str(tmp_path), display="none",
        )  # fmt: skip
        return done

    assert run()
    first, paid = _logs(tmp_path), len(answered)
    assert len(first) == 3 and paid > 3  # all three ran, SPaRC on several puzzles
    assert run()
    assert _logs(tmp_path) == first  # no new log, none rewritten
    assert len(answered) == paid  # and no model call paid again


#: A task of another package, in a file as `inspect eval-set` takes it.
OTHER_TASK = """
from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import match
from inspect_ai.solver import generate


@task
def other():
    return Task(dataset=[Sample(input="Say yes.", target="yes")], solver=generate(), scorer=match())
"""


def test_the_command_line_eval_set_run_again_reuses_every_log(tmp_path: Path) -> None:
    """`inspect eval-set` as a user types it, twice, in the folder of the other task's file (the
    replay model: offline, no key)."""
    other = tmp_path / "other.py"
    other.write_text(OTHER_TASK, encoding="utf-8")
    logs = tmp_path / "logs"
    command = [
        sys.executable, "-m", "inspect_ai", "eval-set", "inspect_sparc/sparc",
        "inspect_sparc/sparc_hard", other.name, "-T", "source=sample", "--limit", "3",
        "--model", "inspect_sparc/replay", "--log-dir", str(logs), "--display", "none",
    ]  # fmt: skip

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)

    first = run()
    assert first.returncode == 0, first.stderr[-2000:]
    written = _logs(logs)
    assert len(written) == 3
    again = run()
    assert again.returncode == 0, again.stderr[-2000:]
    assert _logs(logs) == written
