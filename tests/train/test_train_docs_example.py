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
