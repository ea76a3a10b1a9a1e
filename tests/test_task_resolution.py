"""The tasks resolve by name from the repository root, where Python imports the checkout itself.

Inspect namespaces a task (`inspect_sparc/sparc`) only if it finds the installed distribution's
metadata for the module; run from the checkout, a stray `inspect_sparc.egg-info` in the source
tree was found first and the tasks registered as plain `sparc` (issue 10).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]

#: Run with `python -c` in the repository root: the checkout is first on `sys.path`, exactly as
#: for a user script saved there or for `python -m pytest`.
SCRIPT = """
import json, sys
from inspect_ai import eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import SolverSpec

def answer(*args):
    output = ModelOutput.from_content(model="mockllm/model", content="The answer is (A).")
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output

log_dir = sys.argv[1]
[sparc] = eval("inspect_sparc/sparc", task_args={"source": "sample", "level": 2}, limit=2,
               solver=SolverSpec("inspect_sparc/search_solver"), model="mockllm/model",
               log_dir=log_dir, display="none")
[puzzles] = eval("inspect_sparc/algopuzzlevqa", task_args={"source": "sample", "puzzle": "clock"},
                 model=get_model("mockllm/model", custom_outputs=answer), log_dir=log_dir,
                 display="none")
print(json.dumps([
    {"task": log.eval.task, "status": log.status, "samples": len(log.samples),
     "accuracy": log.results.scores[0].metrics["accuracy"].value}
    for log in (sparc, puzzles)
]))
"""


def test_a_script_in_the_repository_root_runs_both_tasks_by_name(tmp_path):
    stale = sorted(p.name for p in REPO_ROOT.glob("*.egg-info"))
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    hint = f" (stale build metadata in the checkout, delete it: {stale})" if stale else ""
    assert result.returncode == 0, result.stderr[-3000:] + hint
    sparc, puzzles = json.loads(result.stdout.strip().splitlines()[-1])
    assert sparc == {
        "task": "inspect_sparc/sparc",
        "status": "success",
        "samples": 2,
        "accuracy": 1.0,  # the search solver solves every puzzle
    }
    assert puzzles["task"] == "inspect_sparc/algopuzzlevqa" and puzzles["status"] == "success"
    assert puzzles["samples"] == 2  # the two shipped clock instances
