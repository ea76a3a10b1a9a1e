"""The README's Quick start as a new user pastes it: one install line, a block of first runs that
needs no network, no key and no model call, and the viewer (which blocks) alone, after them."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

README = Path(__file__).resolve().parents[2] / "README.md"
#: The solvers that never call a model (README's task section lists them).
NO_MODEL = {"search_solver", "gym_astar", "gym_random", "agent_astar", "agent_random"}


def quick_start_blocks() -> list[str]:
    """The bash blocks of the Quick start section, in order."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.*?)```", section, flags=re.DOTALL)


def lines(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.strip()]


def first_runs() -> str:
    """The block of first runs: the one whose every line runs a task on mockllm."""
    [block] = [b for b in quick_start_blocks() if "mockllm/model" in b]
    return block


def test_one_install_line_and_not_editable():
    blocks = quick_start_blocks()
    installs = [line for block in blocks for line in lines(block) if line.startswith("pip ")]
    assert installs == ["pip install ."]  # `-e` belongs to Development, said there


def test_the_viewer_is_alone_and_after_the_runs():
    blocks = quick_start_blocks()
    viewer = [i for i, block in enumerate(blocks) if "inspect view" in block]
    assert len(viewer) == 1 and lines(blocks[viewer[0]]) == ["inspect view"]
    assert viewer[0] > blocks.index(first_runs())


def test_the_first_runs_call_no_model():
    """Every line a no-model solver on the bundled puzzles (so no key, no network, no
    `generate()`, which would make mockllm download tiktoken's file)."""
    for line in lines(first_runs()):
        words = line.split()
        assert words[:2] == ["inspect", "eval"] and "source=sample" in words, line
        solver = words[words.index("--solver") + 1]
        assert solver.removeprefix("inspect_sparc/") in NO_MODEL, line
        assert words[words.index("--model") + 1] == "mockllm/model", line


@pytest.mark.slow
def test_the_first_runs_run_as_pasted(tmp_path):
    """The block through bash, in an empty folder, no key, tiktoken's cache pointed at a folder
    that must stay absent: every eval succeeds into ./logs, and the search solves every puzzle."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("INSPECT_", "OPENAI_"))}
    env = {**keep, "TIKTOKEN_CACHE_DIR": str(tmp_path / "no-tiktoken")}
    block = first_runs()
    result = subprocess.run(["bash", "-e", "-c", block], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    logs = [read_eval_log(str(path)) for path in sorted((tmp_path / "logs").glob("*.eval"))]
    assert len(logs) == len(lines(block))
    assert all(log.status == "success" for log in logs)
    assert not (tmp_path / "no-tiktoken").exists()
    [single_shot] = [log for log in logs if log.eval.task == "inspect_sparc/sparc"]
    assert single_shot.results.scores[0].metrics["accuracy"].value == 1.0


def offline_runs() -> str:
    """The block that calls a model offline: every line on `inspect_sparc/replay`."""
    [block] = [b for b in quick_start_blocks() if "inspect_sparc/replay" in b]
    return block


def test_the_offline_runs_call_the_packages_replay_model_on_bundled_puzzles():
    for line in lines(offline_runs()):
        words = line.split()
        assert words[0] == "inspect" and words[1] in ("eval", "eval-set"), line
        assert "source=sample" in words and "--solver" not in words, line  # generate() itself
        assert words[words.index("--model") + 1] == "inspect_sparc/replay", line


def test_the_offline_runs_run_as_pasted(tmp_path):
    """The block through bash in an empty folder, no key, tiktoken's cache pointed at a folder
    that must stay absent: every eval succeeds, each sample's one model call recorded with its
    usage, the set's logs apart in logs/offline."""
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("INSPECT_", "OPENAI_"))}
    env = {**keep, "TIKTOKEN_CACHE_DIR": str(tmp_path / "no-tiktoken")}
    result = subprocess.run(["bash", "-e", "-c", offline_runs()], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stdout + result.stderr
    paths = sorted((tmp_path / "logs").rglob("*.eval"))
    logs = [read_eval_log(str(path)) for path in paths]
    assert sorted(path.parent.name for path in paths) == ["logs", "offline", "offline"]
    assert all(log.status == "success" for log in logs)
    assert not (tmp_path / "no-tiktoken").exists()
    for log in logs:
        assert log.samples and len(log.samples) == 5
        for sample in log.samples:
            calls = [event for event in sample.events if event.event == "model"]
            assert calls and all(call.output.usage.input_tokens > 0 for call in calls)
            assert {call.output.completion for call in calls} == {"I could not find a path."}
