"""The example in docs/training.md runs as written (every code block marked `<!-- tested -->`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "training.md"
TESTED_BLOCK = re.compile(r"<!-- tested -->\n```python\n(.*?)```", re.DOTALL)


def test_the_training_example_runs_as_written(capsys):
    blocks = TESTED_BLOCK.findall(DOC.read_text(encoding="utf-8"))
    assert blocks, "docs/training.md has no tested example"
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {"__name__": "docs_example"})
    assert "steps, return" in capsys.readouterr().out


SLOW_BLOCK = re.compile(r"<!-- tested: slow -->\n```python\n(.*?)```", re.DOTALL)
README = DOC.parents[1] / "README.md"


@pytest.mark.slow
def test_the_slow_examples_and_the_readme_training_lines_run(tmp_path, monkeypatch):
    """The prompt-dataset examples and the README's training block build leak-free sets (the
    README's once stopped with a LeakageError: the generator drew a test grid)."""
    monkeypatch.setenv("INSPECT_SPARC_CACHE_DIR", str(tmp_path))
    blocks = SLOW_BLOCK.findall(DOC.read_text(encoding="utf-8"))
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index("## Training") :]
    blocks.append(re.search(r"```python\n(.*?)```", section, re.DOTALL).group(1))
    for block in blocks:
        scope: dict = {"__name__": "docs_example"}
        exec(compile(block, str(DOC), "exec"), scope)
    assert scope["train"].num_rows == 1000 and set(scope["train"]["level"]) == {1, 2}


@pytest.mark.slow
def test_the_documented_command_pipeline_runs_end_to_end(tmp_path):
    """The four command lines, as written, in a fresh folder: a file of fresh puzzles, a
    training set, a set of levels 4 and 5 from the file, and a held-out set."""
    import json
    import os
    import shlex
    import subprocess
    import sys

    from datasets import load_dataset

    from inspect_sparc.core.generate.grid_hashes import grid_hash

    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- tested: cli -->\n```bash\n(.*?)```", text, re.DOTALL)
    assert block, "docs/training.md has no command block marked cli"
    env = {**os.environ, "INSPECT_SPARC_CACHE_DIR": str(tmp_path / "cache")}
    for line in block.group(1).strip().splitlines():
        words = shlex.split(line)
        assert words[0] == "python"
        done = subprocess.run(
            [sys.executable, *words[1:]], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, f"{line}\n{done.stderr[-2000:]}"

    def rows(name: str) -> list[dict]:
        kind = "parquet" if name.endswith(".parquet") else "json"
        return list(load_dataset(kind, data_files=str(tmp_path / name), split="train"))

    train, hard, held = rows("train.parquet"), rows("hard.jsonl"), rows("held_out.jsonl")
    assert [len(train), len(hard), len(held)] == [1000, 160, 200]
    assert [r["level"] for r in hard] == [4] * 80 + [5] * 80
    seen = {grid_hash(json.loads(r["puzzle"])) for r in train}
    assert not seen & {grid_hash(json.loads(r["puzzle"])) for r in held}


def test_the_line_with_every_default_runs_and_keeps_the_defaults():
    """The line as written, with the bundled sample in place of the train split (offline)."""
    import gymnasium

    import inspect_sparc.train  # noqa: F401 - registers the environment

    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- tested: defaults -->\n```python\n(.*?)```", text, re.DOTALL)
    assert block, "docs/training.md has no defaults line marked for this test"
    code = block.group(1).replace('puzzles="train"', 'puzzles="sample"')  # the one change
    scope: dict = {"gymnasium": gymnasium}
    exec(compile(code, str(DOC), "exec"), scope)
    written = scope["env"].unwrapped
    default = gymnasium.make("inspect_sparc/SPaRC-v0", puzzles="sample").unwrapped
    assert written.observation_space == default.observation_space
    assert written.action_space == default.action_space
    observation, info = written.reset(seed=0)
    again, info_again = default.reset(seed=0)
    assert (observation == again).all() and info["puzzle_id"] == info_again["puzzle_id"]
