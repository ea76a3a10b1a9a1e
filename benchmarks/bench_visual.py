"""Log sizes of a 500-puzzle visual run, and what answer pictures cost a text-mode sparc log.

    python benchmarks/bench_visual.py sparc_test.jsonl            # the 500-puzzle split file
    python benchmarks/bench_visual.py sparc_test.jsonl --plot path_cell_annotated

Every answer is a failed path: the shortest line from S to E ignoring the rules (sparc-puzzle's
own A* ablation path), so every sample carries a picture in its explanation. Prints, asserts
nothing:
  1. sparc_visual: log size with images, and with `--no-log-images` (`log_images=False`);
  2. sparc (text): log size of the upstream task (sparc-puzzle's `sparc.tasks`), ours, and ours
     without answer pictures, with ratios against upstream, twice: with bare answers (the path
     and one line: the worst case for pictures) and with real reasoning (the shipped 60 model
     answers' text before their `####`, in turn, then the failing path).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from unittest import mock

from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate

from inspect_sparc.evals.sparc.single_shot.tasks import sparc
from inspect_sparc.evals.sparc.visual.tasks import sparc_visual

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "sparc"


def failing_answer(
    record: dict, reasoning: str = "I go straight from the start to the end."
) -> str:
    """`reasoning`, then the rule-blind shortest path from S to E."""
    from sparc.process_puzzle import _astar_find_path  # the reference (dev extra)

    path = _astar_find_path(record) or []
    points = ", ".join(f"({x}, {y})" for x, y in path)
    return f"{reasoning}\n####\n[{points}]"


def real_reasonings() -> list[str]:
    """The text before the last `####` of each shipped real model answer."""
    lines = (FIXTURES / "answers.jsonl").read_text().splitlines()
    return [json.loads(line)["response"].rsplit("####", 1)[0] for line in lines if line]


def model_for(answer_of: dict[str, str]):
    """mockllm answering each puzzle (found by its prompt text) with its failing path."""

    def respond(messages, tools, tool_choice, config):
        message = messages[-1]
        text = message.text
        output = ModelOutput.from_content(model="mockllm/model", content=answer_of[text])
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=respond)


def run(task: Task, answers: dict[str, str], folder: Path, name: str, **kwargs) -> tuple:
    """Seconds and bytes of one eval's log."""
    prompts = {s.input[-1].text: answers[str(s.id)] for s in task.dataset}
    log_dir = folder / name
    started = time.perf_counter()
    [log] = eval(task, model=model_for(prompts), log_dir=str(log_dir), display="none", **kwargs)
    assert log.status == "success", log.error
    seconds = time.perf_counter() - started
    return seconds, sum(f.stat().st_size for f in log_dir.iterdir())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog='Needs sparc-puzzle, the reference (in the dev extra): pip install -e ".[dev]"',
    )
    parser.add_argument("puzzles", help="a .jsonl file of SPaRC records (the 500 test puzzles)")
    parser.add_argument("--plot", default="original")
    args = parser.parse_args()
    from command_line import needs

    needs("sparc")  # the reference task and its A* path (sparc-puzzle, in the dev extra)
    records = [
        json.loads(line)
        for line in Path(args.puzzles).read_text(encoding="utf-8").splitlines()
        if line
    ]
    answers = {r["id"]: failing_answer(r) for r in records}
    count = len(records)
    print(f"{count} puzzles from {args.puzzles}, every answer a rule-blind S-to-E path")

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        run(sparc(source=args.puzzles), answers, folder, "warm-up")

        visual = sparc_visual(source=args.puzzles, plot=args.plot)
        seconds, with_images = run(visual, answers, folder, "visual")
        _, without = run(visual, answers, folder, "visual-no-images", log_images=False)
        print(f"sparc_visual -T plot={args.plot}: {seconds:.1f} s")
        for name, size in (("log with images", with_images), ("--no-log-images", without)):
            print(f"  {name:20s} {size:10d} B  ({size / count / 1024:6.1f} KB per sample)")

        reasonings = real_reasonings()
        real = {
            r["id"]: failing_answer(r, reasonings[i % len(reasonings)])
            for i, r in enumerate(records)
        }
        for label, texts in (("bare answers", answers), ("real reasoning", real)):
            text_mode(records, args.puzzles, texts, folder / label.replace(" ", "-"), label)


def text_mode(records: list[dict], source: str, answers: dict, folder: Path, label: str) -> None:
    """Log sizes of upstream, ours and ours without pictures on the same failing answers."""
    from sparc import tasks as upstream

    count = len(records)
    samples = [upstream.record_to_sample(r, prompt="paper") for r in records]
    reference = Task(
        dataset=MemoryDataset(upstream.interleave_by_difficulty(samples)),
        solver=generate(),
        scorer=upstream.sparc_scorer(),
    )
    _, ref_size = run(reference, answers, folder, "upstream")
    _, ours = run(sparc(source=source), answers, folder, "ours")
    with mock.patch("inspect_sparc.evals.sparc.scorer.answer_picture", return_value=""):
        _, plain = run(sparc(source=source), answers, folder, "ours-no-pictures")
    print(f"sparc (text mode), every answer failed, {label}:")
    print(f"  upstream sparc.tasks {ref_size:10d} B")
    print(f"  ours                 {ours:10d} B   ratio {ours / ref_size:5.2f}")
    print(f"  ours, no pictures    {plain:10d} B   ratio {plain / ref_size:5.2f}")
    print(f"  pictures cost        {(ours - plain) / count:10.0f} B per failed answer")


if __name__ == "__main__":
    from command_line import run_main  # the sibling helper (a script's folder is on its path)

    run_main(main)
