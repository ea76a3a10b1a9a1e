"""Log size and eval time of `sparc` beside the upstream task and Inspect's floor, same answers.

    python benchmarks/bench_log_size.py                  # both answer sets, best of 3
    python benchmarks/bench_log_size.py --answers failed --runs 5

Replays the same recorded answers (mockllm) through four evals of the same 500 puzzles, in one
process after a warm-up, runs interleaved, and prints bytes, seconds (best of `--runs`) and
ratios; asserts nothing:
  - `ours`: `inspect_sparc/sparc` (answer pictures in the explanations of region failures);
  - `ours, no pictures`: the same with the answer pictures switched off (the text grid instead:
    what pictures cost);
  - `upstream`: `sparc-puzzle` 0.7.0's `sparc.tasks` (its samples and scorer);
  - `floor`: our task with its scorer swapped for Inspect's built-in `includes()` and Inspect's
    default epochs reducer (the least a task can log; same samples, same solver, same
    registered task).
Answer sets (`--answers`):
  - `real`: the 53 shipped puzzles repeated under new ids to 500, 473 of them answered with the
    60 shipped real model answers (nearly all failed; `bench_core.py`'s whole-eval set);
  - `failed`: the 500 test puzzles, each answered with real reasoning (the shipped answers' text
    before their `####`, in turn) and then the rule-blind A* line from S to E, so every sample
    fails and most carry a picture (the worst case for pictures; `bench_visual.py`'s set).
With `--pictures`, prints instead what the answer pictures of each set cost one by one: bytes
and milliseconds (drawing and encoding, CPU) per picture as drawn now, without the coordinate
labels, with every coordinate labelled (lanes too), and as an optimised palette PNG.
Needs the `dev` extra (`sparc-puzzle`).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling scripts

from bench_core import at_least  # noqa: E402
from bench_visual import failing_answer, real_reasonings  # noqa: E402

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "sparc"


def real_set() -> tuple[list[dict], dict[str, str]]:
    """The shipped puzzles grown to 500 and the shipped real answers (bench_core's set)."""
    records = [json.loads(line) for line in (FIXTURES / "puzzles.jsonl").open() if line.strip()]
    by_id = {r["id"]: r for r in records}
    answers = [json.loads(line) for line in (FIXTURES / "answers.jsonl").open() if line.strip()]
    pairs = [(by_id[a["puzzle_id"]], a["response"]) for a in answers if a["puzzle_id"] in by_id]
    grown, grown_pairs = at_least(500, records, pairs)
    return grown, {r["id"]: text for r, text in grown_pairs}


def failed_set() -> tuple[list[dict], dict[str, str]]:
    """The 500 test puzzles, each answered with real reasoning and the rule-blind line."""
    with gzip.open(FIXTURES / "test_split.jsonl.gz", "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines if line.strip()]
    reasonings = real_reasonings()
    answers = {
        r["id"]: failing_answer(r, reasonings[i % len(reasonings)]) for i, r in enumerate(records)
    }
    return records, answers


def tasks(source: Path, records: list[dict]) -> dict[str, Callable[[], object]]:
    """Each eval's task, built inside the timing (loading and checking records is its cost)."""
    from inspect_ai import Epochs, Task, task_with
    from inspect_ai.dataset import MemoryDataset
    from inspect_ai.scorer import includes
    from inspect_ai.solver import generate
    from sparc import tasks as upstream

    from inspect_sparc.evals.sparc.single_shot.tasks import sparc

    def reference() -> Task:
        samples = [upstream.record_to_sample(r, prompt="paper") for r in records]
        return Task(
            dataset=MemoryDataset(upstream.interleave_by_difficulty(samples)),
            solver=generate(),
            scorer=upstream.sparc_scorer(),
        )

    def floor() -> Task:
        # the same registered task with the scorer swapped and Inspect's default epochs reducer
        # (`mean`, which keeps a copy of each explanation): Inspect's per-task work (such as
        # finding the installed distribution that ships a task) is paid alike by both
        return task_with(sparc(source=str(source)), scorer=includes(), epochs=Epochs(1))

    return {
        "ours": lambda: sparc(source=str(source)),
        "ours, no pictures": lambda: sparc(source=str(source)),
        "upstream": reference,
        "floor": floor,
    }


def replay(answers: dict[str, str], prompts: dict[str, str]) -> object:
    """mockllm answering each sample (found by its prompt text) with its recorded answer."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    def respond(messages, tools, tool_choice, config):
        text = answers.get(prompts.get(messages[-1].text, ""), "no answer")
        output = ModelOutput.from_content(model="mockllm/model", content=text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=respond)


def run_once(name: str, make: Callable[[], object], answers: dict, folder: Path) -> tuple:
    """Wall and CPU seconds (task built and evaluated) and bytes of the log of one eval."""
    from inspect_ai import eval

    off = mock.patch("inspect_sparc.evals.sparc.scorer.LaterPictures.picture", return_value="")
    patch = off if "no pictures" in name else contextlib.nullcontext()
    log_dir = folder / f"{name.replace(' ', '').replace(',', '-')}-{time.monotonic_ns()}"
    with patch:
        started, cpu = time.perf_counter(), time.process_time()
        task = make()
        prompts = {s.input[-1].text: str(s.id) for s in task.dataset}
        [log] = eval(task, model=replay(answers, prompts), log_dir=str(log_dir), display="none")
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert log.status == "success", log.error
    return seconds, cpu, sum(f.stat().st_size for f in log_dir.iterdir())


def measure(label: str, records: list[dict], answers: dict[str, str], runs: int) -> None:
    """All four evals `runs` times, interleaved; print best times, sizes and ratios."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = folder / "records.jsonl"
        source.write_text("\n".join(json.dumps(r) for r in records))
        makers = tasks(source, records)
        run_once("floor", makers["floor"], answers, folder)  # warm-up: Inspect's start-up
        results: dict[str, list[tuple[float, float, int]]] = {name: [] for name in makers}
        for _ in range(runs):
            for name, make in makers.items():
                results[name].append(run_once(name, make, answers, folder))
    wall = {name: min(r[0] for r in runs_) for name, runs_ in results.items()}
    cpu = {name: min(r[1] for r in runs_) for name, runs_ in results.items()}
    size = {name: runs_[0][2] for name, runs_ in results.items()}
    print(f"{label}: {len(records)} samples, {len(answers)} answered, best of {runs}")
    print(f"  {'eval':18s} {'log bytes':>11s} {'/upstream':>9s} {'/floor':>7s}  "
          f"{'wall s':>7s} {'/floor':>7s}  {'CPU s':>7s} {'/floor':>7s}")  # fmt: skip
    for name in makers:
        print(
            f"  {name:18s} {size[name]:11,d} {size[name] / size['upstream']:9.3f} "
            f"{size[name] / size['floor']:7.3f}  {wall[name]:7.2f} "
            f"{wall[name] / wall['floor']:7.3f}  {cpu[name]:7.2f} {cpu[name] / cpu['floor']:7.3f}"
        )


def picture_calls(records: list[dict], answers: dict[str, str]) -> list[tuple]:
    """The (puzzle, path, marks) of every answer picture the scorer draws for these answers."""
    from inspect_sparc.core.puzzle import parse_puzzle
    from inspect_sparc.evals.sparc import scorer

    calls: list[tuple] = []
    real = scorer.answer_image

    def spy(puzzle, path, marks, *args):
        calls.append((puzzle, path, marks))
        return real(puzzle, path, marks, *args)

    with mock.patch.object(scorer, "answer_image", spy):
        for record in records:
            if record["id"] in answers:
                scorer.score_answer(parse_puzzle(record), answers[record["id"]])
    return calls


def picture_costs(label: str, calls: list[tuple]) -> None:
    """Bytes and CPU milliseconds per picture, now and in variants."""
    import io

    from inspect_sparc.core import picture

    def palette_png(*call: object) -> tuple[str, bytes]:
        buffer = io.BytesIO()
        drawing = picture.answer_drawing(*call).quantize(colors=32, dither=0)
        drawing.save(buffer, format="PNG", optimize=True)
        return "image/png", buffer.getvalue()

    variants: dict[str, Callable[[], contextlib.AbstractContextManager]] = {
        "as drawn now": contextlib.nullcontext,
    }
    if hasattr(picture, "LABEL_EVERY"):  # not in versions before the coordinates
        variants["no coordinates"] = lambda: mock.patch.object(
            picture, "coordinate_spots", lambda *args: []
        )
        variants["every coordinate"] = lambda: mock.patch.object(picture, "LABEL_EVERY", 1)
    print(f"{label}: {len(calls)} answer pictures")
    for name, variant in [*variants.items(), ("palette PNG", contextlib.nullcontext)]:
        draw = palette_png if name == "palette PNG" else picture.answer_image
        with variant():
            draw(*calls[0])  # warm the caches
            started = time.process_time()
            sizes = [len(draw(*call)[1]) for call in calls]
            seconds = time.process_time() - started
        print(
            f"  {name:18s} {sum(sizes) / len(sizes):7.0f} B mean  {max(sizes):6d} B max  "
            f"{seconds / len(calls) * 1000:5.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", choices=("real", "failed", "both"), default="both")
    parser.add_argument("--runs", type=int, default=3, help="runs of each eval (best time kept)")
    parser.add_argument("--pictures", action="store_true", help="picture costs, no evals")
    args = parser.parse_args()
    sets = {"real": real_set, "failed": failed_set}
    for name in ("real", "failed") if args.answers == "both" else (args.answers,):
        records, answers = sets[name]()
        if args.pictures:
            picture_costs(f"{name} answers", picture_calls(records, answers))
        else:
            measure(f"{name} answers", records, answers, args.runs)


if __name__ == "__main__":
    main()
