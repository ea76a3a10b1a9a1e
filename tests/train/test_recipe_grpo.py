"""The documented GRPO recipe runs end to end on CPU: two GRPO steps of a tiny random model made
here (nothing is downloaded), the checkpoint evaluated through Inspect's `hf/` provider on 3
held-out puzzles and 3 of the bundled test sample; the reward means the trainer logs are the
rule engine's verdicts (`core.rules.check`, the reference's analysis) on the completions it
scored. Slow; skipped without the `train-trl` extra."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from tiny_model import tiny_model

from inspect_sparc.core.puzzle.answer import extract_path
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.rules import check
from inspect_sparc.core.puzzle.verdict import is_solved, reference_analysis

pytestmark = pytest.mark.slow
pytest.importorskip("trl")

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "training.md"
#: What the docs say the test appends to the documented line (a CPU check on 3 puzzles).
SMALL = [
    "--train",
    "8",
    "--held-out",
    "3",
    "--max-steps",
    "2",
    "--batch",
    "4",
    "--max-completion-length",
    "32",
    "--cpu",
    "--eval-limit",
    "3",
    "--test-source",
    "sample",
    "--max-tokens",
    "16",
]
#: The rule-engine names each rule part stands for (docs/training.md's table).
RULES = {
    "gap": {"gap", "off_grid"},
    "dot": {"dot"},
    "square": {"square"},
    "star": {"star"},
    "triangle": {"triangle"},
    "polyshape": {"polyshape"},
}


def engine_verdict(name: str, completion: str, record: dict[str, Any]) -> float:
    """What the rule engine says of one completion, for the reward part `name`."""
    puzzle = parse_puzzle(record)
    path = extract_path(completion, puzzle.end)
    line = reference_analysis(puzzle, path)["fully_valid_path"]
    if name == "sparc_reward":
        return float(is_solved(puzzle, path))
    if name == "format_reward":
        return float(path is not None)
    if name == "line_reward":
        return float(line)
    broken = set(check(puzzle, path).broken_rules) if path else set()
    return float(line and not broken & RULES[name.removesuffix("_reward")])


def test_the_grpo_recipe_trains_logs_the_engines_verdicts_and_evaluates_with_inspect(tmp_path):
    block = re.search(r"<!-- tested: grpo -->\n```bash\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert block, "docs/training.md has no GRPO recipe line marked for this test"
    words = shlex.split(block.group(1).strip())
    assert words[:2] == ["python", "benchmarks/recipe_grpo.py"] and "--model" in words
    words[words.index("--model") + 1] = tiny_model(tmp_path / "tiny", answers_only=True)
    words += ["--out", str(tmp_path / "out"), *SMALL]
    done = subprocess.run(
        [sys.executable, *words[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
        env={**os.environ, "INSPECT_SPARC_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert " ".join(SMALL) in " ".join(DOC.read_text("utf-8").split())  # as the docs say
    out = tmp_path / "out"

    logged = [e for e in json.loads((out / "log_history.json").read_text()) if "reward" in e]
    assert [e["step"] for e in logged] == [1, 2]
    scored: dict[tuple[int, str], list[float]] = defaultdict(list)
    for line in (out / "completions.jsonl").read_text("utf-8").splitlines():
        row = json.loads(line)
        verdict = engine_verdict(row["reward"], row["completion"], json.loads(row["puzzle"]))
        assert row["value"] == verdict, row
        scored[row["step"], row["reward"]].append(verdict)
    names = {name for _, name in scored}
    assert len(names) == 9 and all(len(v) == 4 for v in scored.values())  # 4 completions a step
    for entry in logged:
        for name in names:
            verdicts = scored[entry["step"], name]
            assert entry[f"rewards/{name}/mean"] == pytest.approx(sum(verdicts) / len(verdicts))
    assert sum(scored[1, "format_reward"] + scored[2, "format_reward"]) > 0  # not all zero

    from inspect_ai.log import list_eval_logs, read_eval_log

    logs = [read_eval_log(info) for info in list_eval_logs(str(out / "logs"))]
    held_out = [
        json.loads(line)["id"] for line in (out / "held_out.jsonl").read_text().splitlines()
    ]
    by_source = {log.eval.task_args["source"]: log for log in logs}
    assert set(by_source) == {str(out / "held_out.jsonl"), "sample"}
    for log in logs:
        assert log.status == "success" and log.eval.model == f"hf/{out / 'final'}"
        assert len(log.samples or []) == 3 and all(s.scores for s in log.samples or [])
    held = by_source[str(out / "held_out.jsonl")].samples or []
    assert {s.id for s in held} <= set(held_out)  # the held-out puzzles, no others
