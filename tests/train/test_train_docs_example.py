"""The example in docs/training.md runs as written (every code block marked `<!-- tested -->`)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "training.md"
TESTED_BLOCK = re.compile(r"<!-- tested -->\n```python\n(.*?)```", re.DOTALL)


def test_the_training_example_runs_as_written(capsys):
    blocks = TESTED_BLOCK.findall(DOC.read_text(encoding="utf-8"))
    assert blocks, "docs/training.md has no tested example"
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {"__name__": "docs_example"})
    assert "steps, return" in capsys.readouterr().out
