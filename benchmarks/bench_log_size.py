"""Log size and eval time of `sparc` beside the upstream task and Inspect's floor, same answers.

    python benchmarks/bench_log_size.py                  # both answer sets, best of 3
    python benchmarks/bench_log_size.py --answers failed --runs 5

Replays the same recorded answers (mockllm) through five evals of the same 500 puzzles, in one
process after a warm-up, runs interleaved, and prints bytes, seconds and ratios to the floor:
the best run of each against the floor's best, and the median over rounds of each round's
ratio (steadier on a shared machine, where the floor's best may be a lucky run); asserts nothing:
  - `ours`: `inspect_sparc/sparc` (answer pictures in the explanations of region failures);
  - `ours, no pictures`: the same with the answer pictures switched off (the text grid instead:
    what pictures cost);
  - `ours, replayed`: the same task with a scorer that returns the scores `ours` gave (made
    before the timing), so it does no scoring work: what Inspect's carrying our scores costs,
    apart from what computing them costs;
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
`--inline` adds `ours, inline` (the pictures encoded on the event loop, not in the worker
thread: what the worker saves); `--gc-off` runs every eval with garbage collection switched off
(the `GC s` column gives each eval's median seconds of collection, by `gc.callbacks`).
With `--pictures`, prints instead what the answer pictures of each set cost one by one: bytes
and milliseconds (drawing and encoding, CPU) per picture as drawn now, drawn at full size
(not at half size and enlarged), without the coordinate labels, with every coordinate labelled
(lanes too), as an optimised palette PNG, and at smaller cell sizes. With `--webp`, what each
lossless WebP method and effort would give on the first 40 pictures of each set (the scorer's
choice: method 1, quality 50).
Needs the `dev` extra (`sparc-puzzle`).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import gzip
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling scripts

from bench_core import at_least
from bench_visual import failing_answer, real_reasonings

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


def replaying(make: Callable[[], object], scores: dict[str, object]) -> Callable[[], object]:
    """`make`'s task with a scorer (same name and metrics) that returns `scores` by sample id."""
    from inspect_ai import task_with
    from inspect_ai.scorer import scorer

    from inspect_sparc.evals.sparc.scorer import sparc_metrics

    @scorer(metrics=sparc_metrics(), name="sparc_scorer")
    def replayed_scorer() -> object:
        async def score(state, target):
            return scores[str(state.sample_id)].model_copy()

        return score

    return lambda: task_with(make(), scorer=replayed_scorer())


def replay(answers: dict[str, str], prompts: dict[str, str]) -> object:
    """mockllm answering each sample (found by its prompt text) with its recorded answer."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    def respond(messages, tools, tool_choice, config):
        text = answers.get(prompts.get(messages[-1].text, ""), "no answer")
        output = ModelOutput.from_content(model="mockllm/model", content=text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=respond)


#: Seconds spent collecting garbage since the last reset (timed by `gc.callbacks`).
_GC = {"seconds": 0.0, "started": 0.0}


def _time_gc(phase: str, info: dict) -> None:
    if phase == "start":
        _GC["started"] = time.perf_counter()
    else:
        _GC["seconds"] += time.perf_counter() - _GC["started"]


async def _inline(work: Callable[..., object], *args: object) -> object:
    """`evals.worker.in_worker` without the worker thread: the work on the event loop."""
    return work(*args)


def run_once(name: str, make: Callable[[], object], answers: dict, folder: Path) -> tuple:
    """Wall and CPU seconds (task built and evaluated), bytes, seconds of garbage collection
    and the log of one eval."""
    from inspect_ai import eval

    patches = {
        "no pictures": ("evals.sparc.scorer.LaterPictures.picture", mock.Mock(return_value="")),
        "inline": ("evals.sparc.scorer.in_worker", _inline),
    }
    patch = next(
        (mock.patch(f"inspect_sparc.{target}", new) for key, (target, new) in patches.items()
         if key in name),
        contextlib.nullcontext(),
    )  # fmt: skip
    log_dir = folder / f"{name.replace(' ', '').replace(',', '-')}-{time.monotonic_ns()}"
    with patch:
        _GC["seconds"] = 0.0
        started, cpu = time.perf_counter(), time.process_time()
        task = make()
        prompts = {s.input[-1].text: str(s.id) for s in task.dataset}
        [log] = eval(task, model=replay(answers, prompts), log_dir=str(log_dir), display="none")
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert log.status == "success", log.error
    size = sum(f.stat().st_size for f in log_dir.iterdir())
    return seconds, cpu, size, _GC["seconds"], log


def measure(
    label: str, records: list[dict], answers: dict[str, str], runs: int, inline: bool = False
) -> None:
    """All five evals (six with `inline`) `runs` times, interleaved; print sizes, best times,
    ratios and garbage collection."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = folder / "records.jsonl"
        source.write_text("\n".join(json.dumps(r) for r in records))
        makers = tasks(source, records)
        run_once("floor", makers["floor"], answers, folder)  # warm-up: Inspect's start-up
        *_, log = run_once("ours", makers["ours"], answers, folder)  # the scores to replay
        scores = {str(s.id): s.scores["sparc_scorer"] for s in log.samples}
        variants = {"ours, replayed": replaying(makers["ours"], scores)}
        if inline:
            variants["ours, inline"] = makers["ours"]
        ours, others = ("ours", "ours, no pictures"), ("upstream", "floor")
        makers = {**{n: makers[n] for n in ours}, **variants, **{n: makers[n] for n in others}}
        results: dict[str, list[tuple]] = {name: [] for name in makers}
        for _ in range(runs):
            for name, make in makers.items():
                results[name].append(run_once(name, make, answers, folder)[:4])
    print(f"{label}: {len(records)} samples, {len(answers)} answered, best of {runs}; "
          "ratios to the floor: best / best, and the median of each round's ratio")  # fmt: skip
    times = "{:>7s} {:>7s} {:>7s}"
    print(f"  {'eval':18s} {'log bytes':>11s} {'/upstream':>9s} {'/floor':>7s}  "
          f"{times.format('wall s', '/floor', 'median')}  "
          f"{times.format('CPU s', '/floor', 'median')}  {'GC s':>5s}")  # fmt: skip
    floor = results["floor"]
    for name, rounds in results.items():
        size = rounds[0][2]
        print(
            f"  {name:18s} {size:11,d} {size / results['upstream'][0][2]:9.3f} "
            f"{size / floor[0][2]:7.3f}  {_ratios(rounds, floor, 0)}  {_ratios(rounds, floor, 1)}"
            f"  {statistics.median(r[3] for r in rounds):5.2f}"
        )


def _ratios(rounds: list[tuple], floor: list[tuple], column: int) -> str:
    """Best seconds, best / floor's best, and the median of the rounds' ratios to the floor."""
    best = min(r[column] for r in rounds)
    paired = statistics.median(r[column] / f[column] for r, f in zip(rounds, floor, strict=True))
    return f"{best:7.2f} {best / min(f[column] for f in floor):7.3f} {paired:7.3f}"


def picture_calls(records: list[dict], answers: dict[str, str]) -> list[tuple]:
    """The (puzzle, path, marks, first illegal step) of every answer picture the scorer draws
    for these answers."""
    from inspect_sparc.core.puzzle.parse import parse_puzzle
    from inspect_sparc.evals.sparc import scorer

    calls: list[tuple] = []
    real = scorer.answer_image

    def spy(puzzle, path, marks, step=None):
        calls.append((puzzle, path, marks, step))
        return real(puzzle, path, marks, step=step)

    with mock.patch.object(scorer, "answer_image", spy):
        for record in records:
            if record["id"] in answers:
                scorer.score_answer(parse_puzzle(record), answers[record["id"]])
    return calls


def _at_cell(cell: int, draw: Callable[..., tuple[str, bytes]], call: tuple) -> tuple:
    """`draw` of a picture call (`picture_calls`) at `cell` pixels a grid cell."""
    return draw(*call[:3], cell, step=call[3])


def _drawn(draw: Callable[..., object], call: tuple) -> object:
    """`draw` (`answer_image` or `answer_drawing`) of a picture call (`picture_calls`)."""
    return draw(*call[:3], step=call[3])


def picture_costs(label: str, calls: list[tuple]) -> None:
    """Bytes and CPU milliseconds per picture, now and in variants."""
    import io

    from inspect_sparc.core.picture import image as picture

    def palette_png(call: tuple) -> tuple[str, bytes]:
        buffer = io.BytesIO()
        drawing = _drawn(picture.answer_drawing, call).quantize(colors=32, dither=0)
        drawing.save(buffer, format="PNG", optimize=True)
        return "image/png", buffer.getvalue()

    variants: dict[str, Callable[[], contextlib.AbstractContextManager]] = {
        "as drawn now": contextlib.nullcontext,
    }
    if hasattr(picture, "ANSWER_PIXEL"):  # not in versions drawing at full size
        variants["drawn at full size"] = lambda: mock.patch.object(picture, "ANSWER_PIXEL", 1)
    if hasattr(picture, "LABEL_EVERY"):  # not in versions before the coordinates
        variants["no coordinates"] = lambda: mock.patch.object(
            picture, "coordinate_spots", lambda *args: []
        )
        variants["every coordinate"] = lambda: mock.patch.object(picture, "LABEL_EVERY", 1)
    draws: dict[str, Callable[..., tuple[str, bytes]]] = {"palette PNG": palette_png}
    for cell in (56, 52, 48):  # smaller cells: what a smaller picture would save
        draws[f"at {cell} px a cell"] = functools.partial(_at_cell, cell, picture.answer_image)
    print(f"{label}: {len(calls)} answer pictures")
    for name, variant in [*variants.items(), *((n, contextlib.nullcontext) for n in draws)]:
        with variant():
            measured = draws.get(name, functools.partial(_drawn, picture.answer_image))
            measured(calls[0])  # warm the caches
            started = time.process_time()
            sizes = [len(measured(call)[1]) for call in calls]
            seconds = time.process_time() - started
        print(
            f"  {name:18s} {sum(sizes) / len(sizes):7.0f} B mean  {max(sizes):6d} B max  "
            f"{seconds / len(calls) * 1000:5.1f} ms"
        )


def webp_settings(label: str, calls: list[tuple], count: int = 40) -> None:
    """Bytes and CPU milliseconds per picture for each lossless WebP method and three
    qualities (effort), on the first `count` pictures: what the encoder's settings can save."""
    import io

    from inspect_sparc.core.picture import image as picture

    drawings = [_drawn(picture.answer_drawing, call) for call in calls[:count]]
    print(f"{label}: lossless WebP settings, {len(drawings)} pictures")
    for method in range(7):
        for quality in (0, 50, 100):
            started, sizes = time.process_time(), []
            for drawing in drawings:
                buffer = io.BytesIO()
                drawing.save(buffer, format="WEBP", lossless=True, quality=quality, method=method)
                sizes.append(buffer.tell())
            milliseconds = (time.process_time() - started) / len(drawings) * 1000
            print(f"  method {method} quality {quality:3d}  {statistics.mean(sizes):7.0f} B mean"
                  f"  {milliseconds:6.1f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog='Needs sparc-puzzle, the reference (in the dev extra): pip install -e ".[dev]"',
    )
    parser.add_argument("--answers", choices=("real", "failed", "both"), default="both")
    parser.add_argument("--runs", type=int, default=3, help="runs of each eval (best time kept)")
    parser.add_argument("--pictures", action="store_true", help="picture costs, no evals")
    parser.add_argument(
        "--inline", action="store_true", help="also ours with the pictures encoded inline"
    )
    parser.add_argument("--gc-off", action="store_true", help="garbage collection switched off")
    parser.add_argument("--webp", action="store_true", help="WebP settings' costs, no evals")
    args = parser.parse_args()
    from command_line import needs

    needs("sparc")  # the upstream task and its A* path (sparc-puzzle, in the dev extra)
    gc.callbacks.append(_time_gc)
    if args.gc_off:
        gc.disable()
    sets = {"real": real_set, "failed": failed_set}
    for name in ("real", "failed") if args.answers == "both" else (args.answers,):
        records, answers = sets[name]()
        if args.pictures:
            picture_costs(f"{name} answers", picture_calls(records, answers))
        elif args.webp:
            webp_settings(f"{name} answers", picture_calls(records, answers))
        else:
            measure(f"{name} answers", records, answers, args.runs, args.inline)


if __name__ == "__main__":
    from command_line import run_main  # the sibling helper (a script's folder is on its path)

    run_main(main)
