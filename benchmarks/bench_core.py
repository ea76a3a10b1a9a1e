"""Samples built per second, answers scored per second and a whole eval, against sparc-puzzle.

    python benchmarks/bench_core.py                      # the shipped puzzles and answers
    python benchmarks/bench_core.py sparc_test.jsonl     # a full split file (500 puzzles)

Prints figures and ratios (ours / reference: above 1 means we are faster or larger); asserts
nothing. The reference is `sparc-puzzle` 0.7.0 (`pip install -e ".[dev]"`).
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from command_line import arguments, needs, run_main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "sparc"


def rate(work: Callable[[], int], seconds: float = 1.0) -> float:
    """Items per second of `work` (which returns how many items it did), best of a few runs."""
    best = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or best == 0.0:
        started = time.perf_counter()
        count = work()
        best = max(best, count / (time.perf_counter() - started))
    return best


def reference_score(record: dict, text: str) -> tuple:
    """What the upstream scorer computes per answer."""
    from sparc.validation import analyze_path, extract_solution_path, validate_solution

    path = extract_solution_path(text, record)
    return validate_solution(path, record), analyze_path(path, record)


def hostile_answers(records: list[dict]) -> list[str]:
    """A few answers designed to be slow: huge, repetitive, many markers."""
    first = records[0]["solutions"][0]["path"]
    path = ", ".join(f"({p['x']},{p['y']})" for p in first)
    return [
        "x" * 1_000_000,
        "(1, 2) " * 150_000,
        "####" * 250_000 + path,
        "(" * 500_000 + "1," * 250_000,
        "((((1,2" * 100_000,
    ]


def main(puzzle_file: Path) -> None:
    from sparc import tasks as upstream

    from inspect_sparc.core.puzzle.parse import parse_puzzle
    from inspect_sparc.evals.sparc.dataset import record_to_sample
    from inspect_sparc.evals.sparc.scorer import score_answer

    lines = puzzle_file.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line]
    by_id = {r["id"]: r for r in records}
    answer_lines = (FIXTURES / "answers.jsonl").read_text(encoding="utf-8").splitlines()
    answers = [json.loads(line) for line in answer_lines]
    pairs = [(by_id[a["puzzle_id"]], a["response"]) for a in answers if a["puzzle_id"] in by_id]
    if not pairs:  # a split file without the shipped answers' puzzles: answer with targets
        pairs = [(r, "#### " + upstream._path_text(r["solutions"][0]["path"])) for r in records]
    print(f"{len(records)} puzzles from {puzzle_file.name}, {len(pairs)} answers")

    ours = rate(lambda: len([record_to_sample(r) for r in records]))
    ref = rate(lambda: len([upstream.record_to_sample(r, prompt="paper") for r in records]))
    print(f"samples built/s   ours {ours:10.0f}   reference {ref:10.0f}   ratio {ours / ref:5.2f}")

    puzzles = {r["id"]: parse_puzzle(r) for r in records}
    ours = rate(lambda: len([score_answer(puzzles[r["id"]], t) for r, t in pairs]))
    ref = rate(lambda: len([reference_score(r, t) for r, t in pairs]))
    print(f"answers scored/s  ours {ours:10.0f}   reference {ref:10.0f}   ratio {ours / ref:5.2f}")
    print("  (ours also runs the full rule check and draws the explanation)")

    timings = []
    for text in hostile_answers(records):
        started = time.perf_counter()
        score_answer(puzzles[records[0]["id"]], text)
        timings.append((time.perf_counter() - started) * 1000)
    print(
        f"hostile answers (~1 MB): slowest {max(timings):.1f} ms, "
        f"median {statistics.median(timings):.1f} ms"
    )

    whole_eval(*at_least(500, records, pairs))


def at_least(
    count: int, records: list[dict], pairs: list[tuple[dict, str]]
) -> tuple[list[dict], list[tuple[dict, str]]]:
    """Repeat the puzzles (with new ids) and their answers until there are `count`, like a run
    of the full split; timings of a few dozen samples are mostly noise."""
    answers = {r["id"]: t for r, t in pairs}
    grown: list[dict] = []
    grown_pairs: list[tuple[dict, str]] = []
    copy = 0
    while len(grown) < count:
        for record in records[: count - len(grown)]:
            clone = dict(record, id=f"{record['id']}-{copy}" if copy else record["id"])
            grown.append(clone)
            if record["id"] in answers:
                grown_pairs.append((clone, answers[record["id"]]))
        copy += 1
    return grown, grown_pairs


def whole_eval(records: list[dict], pairs: list[tuple[dict, str]]) -> None:
    """One `inspect_ai.eval` of each task on the same puzzles and answers: time and log size."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import MemoryDataset
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.solver import generate
    from sparc import tasks as upstream

    from inspect_sparc.evals.sparc.single_shot.tasks import sparc

    answer_of = {r["id"]: t for r, t in pairs}

    def model_for(prompt_to_id: dict[str, str]):
        def respond(messages, tools, tool_choice, config):
            text = answer_of.get(prompt_to_id[messages[-1].text], "no answer")
            output = ModelOutput.from_content(model="mockllm/model", content=text)
            output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
            return output

        return get_model("mockllm/model", custom_outputs=respond)

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in records))

        def run_once(name: str, run: int) -> tuple[float, int]:
            started = time.perf_counter()
            if name == "ours":
                task = sparc(source=str(path))
            else:
                samples = [upstream.record_to_sample(r, prompt="paper") for r in records]
                task = Task(
                    dataset=MemoryDataset(upstream.interleave_by_difficulty(samples)),
                    solver=generate(),
                    scorer=upstream.sparc_scorer(),
                )
            prompts = {s.input[1].content: str(s.id) for s in task.dataset}
            log_dir = Path(folder) / f"{name}-{run}"
            [log] = eval(task, model=model_for(prompts), log_dir=str(log_dir), display="none")
            assert log.status == "success", log.error
            seconds = time.perf_counter() - started
            return seconds, sum(f.stat().st_size for f in log_dir.iterdir())

        run_once("reference", 0)  # warm-up: the first eval in a process pays Inspect's start-up
        results: dict[str, list[tuple[float, int]]] = {"ours": [], "reference": []}
        for run in range(1, 4):
            for name in ("ours", "reference"):
                results[name].append(run_once(name, run))
        ours_time = min(t for t, _ in results["ours"])
        ref_time = min(t for t, _ in results["reference"])
        ours_size, ref_size = results["ours"][0][1], results["reference"][0][1]
        print(f"whole eval, {len(records)} samples, best of 3")
        print(
            f"                  ours {ours_time:8.2f} s   reference {ref_time:8.2f} s   "
            f"ratio {ours_time / ref_time:5.2f}"
        )
        print(
            f"log size          ours {ours_size:8d} B   reference {ref_size:8d} B   "
            f"ratio {ours_size / ref_size:5.2f}"
        )


if __name__ == "__main__":
    options = arguments(
        __doc__,
        lambda p: p.add_argument(
            "records", nargs="?", type=Path, default=FIXTURES / "puzzles.jsonl",
            help="a .jsonl file of SPaRC records (default: the 53 shipped puzzles)",
        ),
    )  # fmt: skip
    needs("sparc", "inspect_sparc")
    run_main(main, options.records)
