"""Fit the generator's calibration from the 500 published test puzzles and write it to the package.

Writes `inspect_sparc/data/generator_calibration.json`:
- `difficulty_model`: a least-squares linear model of `difficulty_score` on simple features
  (`inspect_sparc.core.puzzle.records.FEATURES`), with its 10-fold cross-validated error
  (RMSE of the score, share of puzzles whose predicted level floor(score)+1 is right, and within
  one);
- `profiles`: one row per published puzzle (level, grid size, S and E, how many of each rule
  kind, triangles by number, shortest solution length, solution count): the generator draws a
  row of the target level and builds a fresh puzzle with those counts (layout, path, colours,
  shapes are new);
- `shapes`: the 78 polyshapes the published puzzles use (the generator uses no others).

Run: python benchmarks/fit_generator.py [--check]   (--check: fail if the shipped file differs)
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
from pathlib import Path

import numpy as np

from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.core.puzzle.records import FEATURES, features, rule_counts

ROOT = Path(__file__).resolve().parent.parent
SPLIT = ROOT / "tests" / "fixtures" / "sparc" / "test_split.jsonl.gz"
OUT = ROOT / "inspect_sparc" / "data" / "generator_calibration.json"
FOLDS = 10
PROFILE_KEYS = (
    "level",
    "width",
    "height",
    "start",
    "end",
    "square",
    "star",
    "triangle1",
    "triangle2",
    "triangle4",
    "polyshape",
    "ylop",
    "dot",
    "gap",
    "shortest",
    "solutions",
)


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares coefficients with an intercept first."""
    design = np.hstack([np.ones((len(x), 1)), x])
    coefficients, *_ = np.linalg.lstsq(design, y, rcond=None)
    return coefficients


def predict(coefficients: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Scores of the fitted model."""
    return coefficients[0] + x @ coefficients[1:]


def levels_of(scores: np.ndarray) -> np.ndarray:
    """Level = floor(score) + 1, kept in 1-5."""
    return np.clip(np.floor(scores) + 1, 1, 5)


def cross_validate(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """10-fold cross-validated RMSE and level agreement (fixed fold assignment, seed 0)."""
    order = list(range(len(y)))
    random.Random(0).shuffle(order)
    predicted = np.zeros(len(y))
    for fold in range(FOLDS):
        test = np.array(order[fold::FOLDS])
        train = np.array(sorted(set(order) - set(test.tolist())))
        predicted[test] = predict(fit(x[train], y[train]), x[test])
    truth = levels_of(y)
    guess = levels_of(predicted)
    return {
        "folds": FOLDS,
        "rmse": round(float(np.sqrt(np.mean((predicted - y) ** 2))), 4),
        "r2": round(float(1 - np.sum((predicted - y) ** 2) / np.sum((y - y.mean()) ** 2)), 4),
        "level_exact": round(float(np.mean(guess == truth)), 4),
        "level_within_one": round(float(np.mean(np.abs(guess - truth) <= 1)), 4),
    }


def profile(record: dict) -> list[int]:
    """The published puzzle's row in `profiles` (see `PROFILE_KEYS`)."""
    puzzle = parse_puzzle(record)
    counts = rule_counts(record["puzzle_array"])
    values = {
        "level": puzzle.level,
        "width": puzzle.width,
        "height": puzzle.height,
        "start": list(puzzle.start),
        "end": list(puzzle.end),
        "shortest": min(len(s["path"]) for s in record["solutions"]),
        "solutions": len(record["solutions"]),
        **counts,
    }
    return [values[key] for key in PROFILE_KEYS]


def published_shapes(records: list[dict]) -> dict[str, list[list[int]]]:
    """Every polyshape the published puzzles use, by id (the generator uses only these)."""
    shapes: dict[str, list[list[int]]] = {}
    for record in records:
        shapes.update(json.loads(record["polyshapes"]))
    return {key: shapes[key] for key in sorted(shapes, key=int)}


def calibration(records: list[dict]) -> dict:
    """The whole calibration file's content."""
    x = np.array([features(r) for r in records])
    y = np.array([float(r["difficulty_score"]) for r in records])
    coefficients = fit(x, y)
    return {
        "source": "SPaRC test split (500 puzzles, config all), CC BY-SA 4.0, Kaesberg et al. 2025",
        "difficulty_model": {
            "intercept": round(float(coefficients[0]), 6),
            "coefficients": {
                name: round(float(c), 6) for name, c in zip(FEATURES, coefficients[1:], strict=True)
            },
            "cross_validation": cross_validate(x, y),
            "fit_r2": round(
                float(
                    1 - np.sum((predict(coefficients, x) - y) ** 2) / np.sum((y - y.mean()) ** 2)
                ),
                4,
            ),
        },
        "shapes": published_shapes(records),
        "profile_keys": list(PROFILE_KEYS),
        "profiles": [profile(r) for r in records],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the shipped file differs")
    args = parser.parse_args()
    with gzip.open(SPLIT, "rt", encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines if line.strip()]
    content = calibration(records)
    text = json.dumps(content, separators=(",", ":")) + "\n"
    model = content["difficulty_model"]
    print(f"difficulty model on {len(records)} puzzles: fit R^2 {model['fit_r2']}")
    print("cross-validated:", json.dumps(model["cross_validation"]))
    for name, value in model["coefficients"].items():
        print(f"  {name:14s} {value:+.4f}")
    print(f"  {'intercept':14s} {model['intercept']:+.4f}")
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("shipped file is", "up to date" if same else "STALE")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    from command_line import run_main  # the sibling helper (a script's folder is on its path)

    run_main(main)
