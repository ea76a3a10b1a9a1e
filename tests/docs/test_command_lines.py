"""The `inspect eval` lines of the README and of the pages the README's depth moved to, as a
reader copies them: Inspect's own command line takes their options, their `-T` arguments build
the task they name (on the bundled puzzles: the real sources need the network), and (slow) each
runs to a successful log offline, `--model ...` and any real model swapped for the package's
replay model. (Links are checked by test_links.py.)"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest
from commands import run_together
from inspect_ai.log import read_eval_log

ROOT = Path(__file__).resolve().parents[2]
#: The pages whose `inspect eval` lines are checked here (a page joins when its lines can run).
PAGES = ["README.md", "docs/tasks.md"]
#: Solvers a reader writes themselves (docs/agent.md's example is run by its own test).
OWN_SOLVERS = {"my_agents.py@careful_agent"}


def command_lines(page: str) -> list[str]:
    """The `inspect eval` and `inspect eval-set` lines of the page's bash blocks, comments
    dropped."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.DOTALL):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words[:2] in (["inspect", "eval"], ["inspect", "eval-set"]):
                found.append(" ".join(shlex.quote(word) for word in words))
    return found


LINES = [(page, line) for page in PAGES for line in command_lines(page)]


def test_the_pages_show_command_lines_for_every_task():
    tasks = {
        word for _, line in LINES for word in line.split() if word.startswith("inspect_sparc/")
    }
    names = {"sparc", "sparc_hard", "sparc_gym", "sparc_visual", "sparc_agent", "algopuzzlevqa"}
    assert {f"inspect_sparc/{name}" for name in names} <= tasks
    assert len(LINES) >= 30


def parsed(line: str) -> tuple[list[str], dict[str, object]]:
    """The line's tasks and the parameters Inspect's CLI reads from it (a bad option raises)."""
    from inspect_ai._cli.eval import eval_command, eval_set_command

    words = shlex.split(line)
    command = eval_command if words[1] == "eval" else eval_set_command
    context = command.make_context(words[1], words[2:])
    return list(context.params["tasks"]), context.params


@pytest.mark.parametrize(("page", "line"), LINES)
def test_the_line_parses_and_its_arguments_build_the_task(page, line):
    from inspect_ai._util.config import parse_cli_args

    import inspect_sparc

    tasks, params = parsed(line)
    arguments = parse_cli_args(params["t"])
    arguments["source"] = "sample"  # the line's own source may need the network
    for task in tasks:
        name = task.removeprefix("inspect_sparc/")
        built = getattr(inspect_sparc, name)(**arguments)
        assert len(built.dataset) > 0, (page, line)


def offline(line: str, log_dir: Path) -> list[str]:
    """The line as it runs offline: one bundled puzzle, the replay model, logs in `log_dir`."""
    words = shlex.split(line)
    words[words.index("--model") + 1] = "inspect_sparc/replay"
    if "--solver" in words and words[words.index("--solver") + 1] in OWN_SOLVERS:
        del words[words.index("--solver") : words.index("--solver") + 2]
    for flag in ("--limit", "--log-dir"):
        if flag in words:
            del words[words.index(flag) : words.index(flag) + 2]
    while any(word.startswith("source=") for word in words):  # the line's own `-T source=`
        at = next(i for i, word in enumerate(words) if word.startswith("source="))
        del words[at - 1 : at + 1]
    return [sys.executable, "-m", "inspect_ai", *words[1:], "-T", "source=sample",
            "--limit", "1", "--log-dir", str(log_dir), "--display", "none"]  # fmt: skip


@pytest.mark.slow
def test_every_line_runs_offline_to_a_successful_log(tmp_path):
    commands = {
        index: (offline(line, tmp_path / str(index)), {"cwd": tmp_path})
        for index, (_, line) in enumerate(LINES)
    }
    results = run_together(commands, timeout=600)
    for index, (page, line) in enumerate(LINES):
        result = results[index]
        assert result.returncode == 0, (page, line, result.stderr[-2000:])
        logs = [read_eval_log(str(p)) for p in (tmp_path / str(index)).glob("*.eval")]
        assert logs and all(log.status == "success" for log in logs), (page, line)
