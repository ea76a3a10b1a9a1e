"""Step-by-step environment speed against `SPaRC_Gym`, and a whole 500-puzzle A* eval.

    python benchmarks/bench_gym.py            # the 500 test puzzles shipped with the tests
    python benchmarks/bench_gym.py --quick    # environment only, no eval

Prints figures and ratios (ours / reference: above 1 means we are faster); asserts nothing. The
reference is `SPaRC_Gym` 0.2.7 (`pip install -e ".[dev]"`), fed the same records and the same
action sequences (blind walks: uniformly random actions, illegal ones included, up to 100 steps).
Timings are best of three runs (the machine may be shared).
"""

from __future__ import annotations

import gzip
import importlib
import json
import random
import tempfile
import time
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from command_line import arguments, best_of, needs, run_main

ROOT = Path(__file__).resolve().parent.parent
SPLIT = ROOT / "tests" / "fixtures" / "sparc" / "test_split.jsonl.gz"


def load_split() -> list[dict]:
    with gzip.open(SPLIT, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def walks(records: list[dict], seed: int = 7) -> list[list[int]]:
    rng = random.Random(seed)
    return [[rng.randrange(4) for _ in range(100)] for _ in records]


def ours(records: list[dict], actions: list[list[int]]) -> int:
    from inspect_sparc.core.episode.stepper import Stepper
    from inspect_sparc.core.prompts.episode import observation_text
    from inspect_sparc.core.puzzle.parse import parse_puzzle

    steps = 0
    for record, walk in zip(records, actions, strict=True):
        env = Stepper(parse_puzzle(record))
        for action in walk:
            if env.done:
                break
            observation_text(
                env.steps + 1, env.position_text(), env.legal_actions(), env.grid_text()
            )
            env.step(action)
            steps += 1
    return steps


def reference_env(records: list[dict]):
    """One `SPaRC_Gym` holding every record (the hub loader swapped for them)."""
    import pandas as pd

    module = importlib.import_module("SPaRC_Gym.SPaRC_Gym")
    frame = pd.DataFrame(records)
    original = module.load_dataset
    module.load_dataset = lambda *a, **k: SimpleNamespace(to_pandas=lambda: frame)
    try:
        return module.SPaRC_Gym(observation="SPaRC", max_steps=100)
    finally:
        module.load_dataset = original


def reference(env, records: list[dict], actions: list[list[int]]) -> int:
    """The reference loop's environment work: reset, then per step the observation and a step."""
    names = {0: "RIGHT", 1: "UP", 2: "LEFT", 3: "DOWN"}
    steps = 0
    for record, walk in zip(records, actions, strict=True):
        obs, info = env.reset(options={"puzzle_id": record["id"]})
        for action in walk:
            legal = ", ".join(f"{a}={names[a]}" for a in info["legal_actions"])
            grid = "\n".join(str(row) for row in json.loads(obs))
            _ = f"{info['agent_location']} {legal} {grid}"
            obs, _reward, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                break
    return steps


@contextmanager
def timed_gym_eval(records: list[dict], **options: Any) -> Iterator[tuple[Any, float]]:
    """`sparc_gym` on `records` through Inspect's `eval` with `options` (model, solver, limit):
    its log and the seconds the eval took; the log's file lasts until the block ends."""
    from inspect_ai import eval

    from inspect_sparc.evals.sparc.gym.tasks import sparc_gym

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "test.jsonl"
        source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        started = time.perf_counter()
        [log] = eval(sparc_gym(source=str(source)), log_dir=folder, display="none", **options)
        yield log, time.perf_counter() - started


def astar_eval(records: list[dict]) -> None:
    from inspect_sparc.evals.sparc.gym.solvers import gym_astar

    with timed_gym_eval(records, model="mockllm/model", solver=gym_astar()) as (log, seconds):
        size = Path(log.location).stat().st_size
        with zipfile.ZipFile(log.location) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
        [score] = log.results.scores
        accuracy = score.metrics["accuracy"].value
        print(
            f"A* eval, {len(records)} puzzles: accuracy {accuracy:.3f} "
            f"({round(accuracy * len(records))} solved), {seconds:.1f} s, "
            f"log {size / 1e6:.2f} MB ({unpacked / 1e6:.1f} MB unpacked)"
        )


def model_eval(records: list[dict], limit: int = 50) -> None:
    """A scripted model walking each stored solution: log bytes per step, system prompt copies."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.solver._task_state import sample_state

    from inspect_sparc.core.episode.stepper import path_actions
    from inspect_sparc.core.puzzle.parse import parse_puzzle
    from inspect_sparc.evals.sparc.episode import MOVES_KEY

    by_id = {r["id"]: parse_puzzle(r) for r in records}

    def respond(messages, tools, tool_choice, config):
        state = sample_state()
        step = len(state.store.get(MOVES_KEY, ""))
        action = path_actions(by_id[state.sample_id].solutions[0])[step]
        output = ModelOutput.from_content(model="mockllm/model", content=f"Final: {action}")
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    model = get_model("mockllm/model", custom_outputs=respond)
    with timed_gym_eval(records, model=model, limit=limit) as (log, seconds):
        steps = sum(s.scores["gym_scorer"].value["steps"] for s in log.samples)
        size = Path(log.location).stat().st_size
        marker, copies, unpacked = "You are an autonomous agent controlling", [], 0
        with zipfile.ZipFile(log.location) as archive:
            for name in archive.namelist():
                text = archive.read(name).decode()
                unpacked += len(text)
                if name.startswith("samples/"):
                    copies.append(text.count(marker))
        print(
            f"scripted model, {limit} puzzles walked along a solution: {steps} steps, "
            f"{seconds:.1f} s ({steps / seconds:.0f} steps/s through Inspect), "
            f"log {size / 1e3:.0f} KB ({size / steps:.0f} B a step; "
            f"{unpacked / 1e6:.1f} MB unpacked), "
            f"system prompt copies per sample: {min(copies)}-{max(copies)}"
        )


def main(quick: bool) -> None:
    records = load_split()
    actions = walks(records)
    ours_time, ours_steps = best_of(3, lambda: ours(records, actions))
    # A fresh SPaRC_Gym per run: its reset keeps the previous episode's visited marks.
    ref_time, ref_steps, build = float("inf"), 0, 0.0
    for _ in range(3):
        started = time.perf_counter()
        env = reference_env(records)
        build = time.perf_counter() - started
        seconds, ref_steps = best_of(1, lambda env=env: reference(env, records, actions))
        ref_time = min(ref_time, seconds)
    print(f"blind walks on {len(records)} puzzles: {ours_steps} steps (reference {ref_steps})")
    print(f"ours:      {ours_steps / ours_time:10.0f} steps/s (environment + observation text)")
    print(f"SPaRC_Gym: {ref_steps / ref_time:10.0f} steps/s (plus {build:.1f} s to load records)")
    print(f"ratio ours / reference: {(ours_steps / ours_time) / (ref_steps / ref_time):.1f}x")
    if not quick:
        astar_eval(records)
        model_eval(records)


if __name__ == "__main__":
    options = arguments(
        __doc__, lambda p: p.add_argument("--quick", action="store_true", help="no eval")
    )
    needs("SPaRC_Gym", "pandas", "inspect_sparc")
    run_main(main, options.quick)
