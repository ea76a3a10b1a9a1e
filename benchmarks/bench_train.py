"""Training interfaces' speed: reward functions over real answers, the Gymnasium environment
against Spatial-Gym (`SPaRC_Gym` 0.2.7) on the same 500 episodes.

    python benchmarks/bench_train.py                       # the test split shipped with the tests
    python benchmarks/bench_train.py --split PATH.jsonl    # any file of records
    python benchmarks/bench_train.py --repeats 2 --puzzles 20 --rounds 1   # a quick check


Prints figures and ratios (above 1 means ours is faster); asserts nothing. Rewards: the 60 real
answers of tests/fixtures (each scored `REPEATS` times, as a GRPO group scores many completions of
one prompt), the puzzle column as JSON text (what `prompt_dataset` writes). The scorer's path
re-parses the puzzle for every answer (`score_answer` without its explanation). Environment: per
puzzle one blind walk of 100 uniformly random actions (illegal ones included), the same actions
for both, per observation kind; the two run interleaved (ours, then a fresh reference: its reset
keeps old marks), best of three rounds each, and episodes of different lengths are counted
(0: the same games). One process (one core).
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

from command_line import best_of

ROOT = Path(__file__).resolve().parent.parent
SPLIT = ROOT / "tests" / "fixtures" / "sparc" / "test_split.jsonl.gz"
FIXTURES = ROOT / "tests" / "fixtures" / "sparc"
REPEATS = 50


def read_records(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def scorer_path(completions: list[str], puzzles: list[str], rules: bool) -> int:
    """What the `sparc` scorer computes per answer, the puzzle parsed each time."""
    from inspect_sparc.core.puzzle.answer import extract_path
    from inspect_sparc.core.puzzle.parse import parse_puzzle
    from inspect_sparc.core.puzzle.rules import check
    from inspect_sparc.core.puzzle.verdict import is_solved, reference_analysis

    for completion, text in zip(completions, puzzles, strict=True):
        puzzle = parse_puzzle(json.loads(text))
        path = extract_path(completion, puzzle.end)
        is_solved(puzzle, path)
        if rules:
            reference_analysis(puzzle, path)
            check(puzzle, path or ())
    return len(completions)


def bench_rewards(repeats: int) -> None:
    """Completions per second of both reward functions and of the scorer's path."""
    from inspect_sparc.train import rule_reward, sparc_reward

    by_id = {r["id"]: r for r in read_records(FIXTURES / "puzzles.jsonl")}
    answers = read_records(FIXTURES / "answers.jsonl")
    completions = [a["response"] for a in answers for _ in range(repeats)]
    puzzles = [json.dumps(by_id[a["puzzle_id"]]) for a in answers for _ in range(repeats)]
    records = [json.loads(text) for text in puzzles]  # a new dict per row, as `datasets` gives
    print(f"rewards: {len(completions)} completions ({len(answers)} real answers x {repeats})")
    for name, reward, rules in (
        ("sparc_reward", sparc_reward, False),
        ("rule_reward", rule_reward, True),
    ):
        seconds, count = best_of(3, lambda f=reward: len(f(completions, puzzles)))
        as_dicts, _ = best_of(3, lambda f=reward: len(f(completions, records)))
        base, _ = best_of(3, lambda r=rules: scorer_path(completions, puzzles, r))
        ours, theirs = count / seconds, count / base
        print(
            f"  {name:12} {ours:8.0f} completions/s ({count / as_dicts:6.0f}/s with dicts); "
            f"scorer path {theirs:6.0f}/s: {ours / theirs:.1f}x"
        )


def reference_env(records: list[dict], observation: str):
    """One `SPaRC_Gym` holding every record (its hub loader swapped for them)."""
    import pandas as pd

    module = importlib.import_module("SPaRC_Gym.SPaRC_Gym")
    frame = pd.DataFrame(records)
    original = module.load_dataset
    module.load_dataset = lambda *a, **k: SimpleNamespace(to_pandas=lambda: frame)
    try:
        return module.SPaRC_Gym(observation=observation, max_steps=100)
    finally:
        module.load_dataset = original


def run_episodes(env, records: list[dict], walks: list[list[int]], option: str) -> list[int]:
    """Reset on each record, step its walk until the episode ends; the steps of each episode."""
    counts = []
    for record, walk in zip(records, walks, strict=True):
        env.reset(options={option: record["id"] if option == "puzzle_id" else record})
        steps = 0
        for action in walk:
            steps += 1
            if any(env.step(action)[2:4]):
                break
        counts.append(steps)
    return counts


def timed(work: Callable[[], list[int]]) -> tuple[float, list[int]]:
    """Wall time of `work()` and what it returns."""
    started = time.perf_counter()
    counts = work()
    return time.perf_counter() - started, counts


def bench_env(records: list[dict], rounds: int) -> None:
    """Per observation: ours and Spatial-Gym interleaved (ours, then a fresh reference, `rounds`
    times, so a load change on a shared machine hits both), the same actions; the best round
    of each, and the episodes whose lengths differ (a check that both played the same game)."""
    from inspect_sparc.train.env import SparcEnv

    rng = random.Random(7)
    walks = [[rng.randrange(4) for _ in range(100)] for _ in records]
    print(f"environment: {len(records)} episodes, blind walks of up to 100 actions")
    for ours_mode, theirs_mode in (("array", "new"), ("vector", "new"), ("text", "SPaRC")):
        env = SparcEnv(observation=ours_mode)
        best_ours, best_theirs, mismatches = float("inf"), float("inf"), 0
        for _ in range(rounds):
            seconds, ours_counts = timed(lambda e=env: run_episodes(e, records, walks, "puzzle"))
            reference = reference_env(records, theirs_mode)
            ref_seconds, ref_counts = timed(
                lambda e=reference: run_episodes(e, records, walks, "puzzle_id")
            )
            best_ours, best_theirs = min(best_ours, seconds), min(best_theirs, ref_seconds)
            mismatches += sum(a != b for a, b in zip(ours_counts, ref_counts, strict=True))
        steps = sum(ours_counts)
        ours, theirs = steps / best_ours, steps / best_theirs
        print(
            f"  observation {ours_mode:6} (Spatial-Gym {theirs_mode!r:7}): {ours:8.0f} steps/s, "
            f"Spatial-Gym {theirs:6.0f} steps/s ({steps} steps, {mismatches} episodes of "
            f"another length): {ours / theirs:.1f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", type=Path, default=SPLIT, help="records for the environment")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per mode")
    parser.add_argument("--env-only", action="store_true", help="skip the reward functions")
    parser.add_argument(
        "--repeats", type=int, default=REPEATS, help="times each real answer is scored"
    )
    parser.add_argument("--puzzles", type=int, help="the first N records only (default: all)")
    args = parser.parse_args()
    if not args.env_only:
        bench_rewards(args.repeats)
    bench_env(read_records(args.split)[: args.puzzles], args.rounds)


if __name__ == "__main__":
    main()
