"""The puzzle generator: published schema, complete solution sets, determinism, shards, CLI.

Oracles: the published records (YAML format, shape ids, symbol vocabulary), the reference tools
(sparc.validation, the sparc-puzzle prompt builder, SPaRC_Gym, sparc_visualization), `check`
and the brute force of tests/rule_oracle.py (the solution sets).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import pytest
from rule_oracle import Board as OracleBoard
from rule_oracle import valid_paths

from inspect_sparc.core import search as search_engines
from inspect_sparc.core.generate import generator
from inspect_sparc.core.generate.generator import (
    LEVEL_COUNTS,
    GenerateError,
    dumps,
    generate_puzzles,
    level_schedule,
    parse_shard,
)
from inspect_sparc.core.puzzle.parse import REQUIRED_FIELDS, parse_puzzle
from inspect_sparc.core.puzzle.records import content_id, text_visualization
from inspect_sparc.core.puzzle.rules import check
from inspect_sparc.evals.sparc.dataset import sparc_dataset
from inspect_sparc.runtime.downloads import CACHE_ENV

SEED = 2  # any seed works; this one's set is quick to build (level-5 searches vary a lot)
N = 10


@pytest.fixture(scope="module")
def generated() -> list[dict[str, Any]]:
    """A small generated set of the published level mix (every level appears)."""
    return generate_puzzles(N, SEED)


@pytest.fixture(scope="module")
def hard() -> list[dict[str, Any]]:
    """Three level-5 puzzles (the largest grids and most rule kinds)."""
    return generate_puzzles(3, SEED, level=5)


# --- schema -----------------------------------------------------------------------------------


def test_yaml_builder_reproduces_every_published_text_visualization(sparc_test_split):
    for record in sparc_test_split:
        puzzle = parse_puzzle(record)
        built = text_visualization(
            record["puzzle_array"], puzzle.width, puzzle.height, puzzle.start, puzzle.end
        )
        assert built == record["text_visualization"], record["id"]


def test_generated_records_have_the_published_fields_in_order(generated, sparc_test_split):
    published = sparc_test_split[0]
    for index, record in enumerate(generated):
        assert list(record) == list(published)
        assert set(REQUIRED_FIELDS) <= set(record)
        assert list(record["grid_size"]) == list(published["grid_size"])
        assert all(list(s) == ["index", "path", "pathLength"] for s in record["solutions"])
        assert [s["index"] for s in record["solutions"]] == list(range(record["solution_count"]))
        assert all(s["pathLength"] == len(s["path"]) for s in record["solutions"])
        assert re.fullmatch(r"[0-9a-f]{16}", record["id"])
        grid, shapes = record["puzzle_array"], json.loads(record["polyshapes"])
        assert record["id"] == content_id(grid, shapes, f"{SEED}:{index}")
        shapes = json.loads(record["polyshapes"])
        assert record["polyshapes"] == json.dumps(shapes, separators=(",", ":"))
        assert list(shapes) == sorted(shapes)
        puzzle = parse_puzzle(record)
        assert record["text_visualization"] == text_visualization(
            record["puzzle_array"], puzzle.width, puzzle.height, puzzle.start, puzzle.end
        )
        assert record["difficulty_level"] == int(record["difficulty_score"]) + 1


def test_generated_symbols_are_only_those_the_published_puzzles_use(
    generated, hard, sparc_test_split
):
    def vocabulary(records):
        parts: set[tuple[str, str]] = set()
        shapes: dict[str, Any] = {}
        for record in records:
            for row in record["puzzle_array"]:
                for value in row:
                    pieces = value.split("-")
                    parts |= {("kind", pieces[0])} | {("colour", c) for c in pieces[1:2]}
            shapes |= json.loads(record["polyshapes"])
        return parts, shapes

    published_parts, published_shapes = vocabulary(sparc_test_split)
    parts, shapes = vocabulary(generated + hard)
    assert parts <= published_parts
    assert all(published_shapes[key] == matrix for key, matrix in shapes.items())
    assert ("kind", "C") not in parts  # triangles of 3 never occur


def test_stored_solutions_are_exactly_the_rule_valid_paths(generated, hard):
    """Judged by the rule oracle's brute force, not by `solve` (which wrote the sets)."""
    for record in generated + hard:
        puzzle = parse_puzzle(record)
        assert 1 <= record["solution_count"] <= generator.MAX_SOLUTIONS
        assert set(puzzle.solutions) == valid_paths(OracleBoard(record)), record["id"]
        assert len(set(puzzle.solutions)) == len(puzzle.solutions)
        assert all(check(puzzle, path).valid for path in puzzle.solutions)


def test_two_draws_of_the_same_small_puzzle_are_two_samples(tmp_path):
    # Seed 0 draws the same level-1 grid at indices 28 and 79: ids stay unique, so the set
    # loads as a dataset instead of failing on a duplicate id.
    records = generate_puzzles(80, 0, level=1)
    contents = [(r["puzzle_array"], r["polyshapes"]) for r in records]
    assert contents[79] == contents[28]
    assert len({r["id"] for r in records}) == 80
    path = tmp_path / "repeats.jsonl"
    path.write_text("".join(dumps(r) + "\n" for r in records), encoding="utf-8")
    assert len(sparc_dataset(str(path))) == 80


def test_the_level_mix_is_the_published_one_and_prefix_stable():
    schedule = level_schedule(500)
    assert Counter(schedule) == Counter(LEVEL_COUNTS)
    assert level_schedule(37) == schedule[:37]
    assert set(schedule[:5]) == {1, 2, 3, 4, 5}
    assert level_schedule(4, level=3) == [3, 3, 3, 3]


def test_level_argument_gives_that_level(hard):
    assert [r["difficulty_level"] for r in hard] == [5, 5, 5]
    assert all(4 <= r["difficulty_score"] < 5 for r in hard)


# --- the authors' tools -------------------------------------------------------------------------


def test_reference_validator_accepts_every_stored_solution(generated):
    from sparc.validation import analyze_path, validate_solution

    for record in generated:
        for solution in record["solutions"]:
            assert validate_solution(solution["path"], record)
            assert analyze_path(solution["path"], record)["fully_valid_path"]


def test_reference_prompt_builder_matches_ours(generated):
    from sparc.prompts import single_shot, single_shot_paper

    from inspect_sparc.core.prompts.single_shot import user_prompt

    for record in generated:
        assert user_prompt(record, "paper") == single_shot_paper.get_prompt(record)["user"]
        assert user_prompt(record, "corrected") == single_shot.get_prompt(record)["user"]


def test_reference_gym_plays_every_generated_puzzle_to_a_solved_end(
    generated, sparc_records, monkeypatch
):
    import importlib

    import pandas as pd

    gym_module = importlib.import_module("SPaRC_Gym.SPaRC_Gym")

    # its record processing needs a typed first cell in the first record: lead with a real one
    primer = next(r for r in sparc_records if "type" in r["text_visualization"].split("- ")[1])

    class Local:
        def __init__(self, records):
            self.records = records

        def to_pandas(self):
            return pd.DataFrame(self.records)

    monkeypatch.setattr(gym_module, "load_dataset", lambda *a, **k: Local([primer, *generated]))
    moves = {(1, 0): 0, (0, -1): 1, (-1, 0): 2, (0, 1): 3}
    for record in generated:
        env = gym_module.SPaRC_Gym()  # a fresh one per episode, as the reference does
        env.reset(options={"puzzle_id": record["id"]})
        path = [(p["x"], p["y"]) for p in record["solutions"][-1]["path"]]
        for a, b in zip(path, path[1:], strict=False):
            _, reward, terminated, truncated, _ = env.step(moves[(b[0] - a[0], b[1] - a[1])])
        assert terminated and not truncated and reward == 1, record["id"]


def test_reference_renderer_draws_every_generated_puzzle(generated):
    from sparc_visualization.plot import get_puzzle_image

    for record in generated[:4]:
        image = get_puzzle_image(record)
        assert image.size[0] > 100 and image.size[1] > 100


# --- determinism ------------------------------------------------------------------------------


def test_same_seed_same_bytes_and_another_seed_other_puzzles(generated):
    again = generate_puzzles(N, SEED)
    assert [dumps(r) for r in again] == [dumps(r) for r in generated]
    other = generate_puzzles(3, SEED + 1)
    assert not {r["id"] for r in other} & {r["id"] for r in generated}


@pytest.mark.usefixtures("numba_required")
@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_same_bytes_whichever_search_engine_runs(generated, engine, monkeypatch):
    monkeypatch.setenv(search_engines.ENGINE_VARIABLE, engine)
    assert [dumps(r) for r in generate_puzzles(N, SEED)] == [dumps(r) for r in generated]


def test_shards_concatenate_to_the_whole_set(generated):
    parts = [generate_puzzles(N, SEED, shard=f"{i}/3") for i in (1, 2, 3)]
    assert [len(p) for p in parts] == [3, 3, 4]
    assert [dumps(r) for part in parts for r in part] == [dumps(r) for r in generated]


def test_two_worker_processes_give_the_same_bytes(generated):
    assert [dumps(r) for r in generate_puzzles(N, SEED, workers=2)] == [dumps(r) for r in generated]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 0, "seed": 1}, "n must be a positive"),
        ({"n": "5", "seed": 1}, "n must be a positive"),
        ({"n": 5, "seed": -1}, "seed must be a whole number"),
        ({"n": 5, "seed": 1.5}, "seed must be a whole number"),
        ({"n": 5, "seed": 1, "level": 6}, "level must be one of"),
        ({"n": 5, "seed": 1, "level": True}, "level must be one of"),
        ({"n": 5, "seed": 1, "shard": "4/3"}, "1 <= i <= n"),
        ({"n": 5, "seed": 1, "shard": "0/3"}, "1 <= i <= n"),
        ({"n": 5, "seed": 1, "shard": "half"}, "shard must look like i/n"),
        ({"n": 5, "seed": 1, "workers": 0}, "workers must be"),
        ({"n": 5, "seed": 1, "max_solutions": 0}, "max_solutions must be"),
    ],
)
def test_bad_arguments_are_clear_errors(kwargs, message):
    with pytest.raises(GenerateError, match=message):
        generate_puzzles(**kwargs)


def test_parse_shard_forms():
    assert parse_shard(None) == (1, 1)
    assert parse_shard(" 3/64 ") == (3, 64)
    assert parse_shard((2, 2)) == (2, 2)


# --- the CLI ----------------------------------------------------------------------------------


def test_cli_writes_the_library_output_and_no_bar_off_a_terminal(tmp_path, capsys, generated):
    from inspect_sparc.generate import main

    out = tmp_path / "fresh.jsonl"
    assert main(["--n", str(N), "--seed", str(SEED), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == "".join(dumps(r) + "\n" for r in generated)
    err = capsys.readouterr().err
    assert f"wrote {N} puzzles" in err and f"{N}/{N}" not in err  # stderr is no terminal here
    assert not list(tmp_path.glob("*.partial"))


def test_cli_shards_and_stdout(capsys, generated):
    from inspect_sparc.generate import main

    assert main(["--n", str(N), "--seed", str(SEED), "--shard", "2/2", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "".join(dumps(r) + "\n" for r in generated[5:])
    assert captured.err == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--n", "5"], "the following arguments are required: --seed"),
        (["--n", "0", "--seed", "1"], "n must be a positive"),
        (["--n", "x", "--seed", "1"], "invalid int value"),
        (["--seed", "1", "--level", "7"], "level must be one of"),
        (["--seed", "1", "--shard", "3/2"], "1 <= i <= n"),
        (["--seed", "1", "--shard", "1-2"], "shard must look like i/n"),
        (["--seed", "1", "--workers", "0"], "workers must be"),
        (["--seed", "1", "--out", "/no/such/folder/x.jsonl"], "--out folder does not exist"),
    ],
)
def test_cli_bad_arguments_exit_2_with_a_message(argv, message, capsys):
    from inspect_sparc.generate import main

    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


# --- source=generated:SEED --------------------------------------------------------------------


@pytest.fixture
def small_generated_sets(tmp_path, monkeypatch):
    """`generated:SEED` sets of 5 puzzles (the real size is 500), cached under tmp_path."""
    from inspect_sparc.core import sources

    monkeypatch.setattr(sources, "GENERATED_SET_SIZE", 5)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return sources


def test_generated_source_builds_caches_and_reuses(small_generated_sets, monkeypatch, generated):
    sources = small_generated_sets
    records = sources.load_records(f"generated:{SEED}")
    assert [dumps(r) for r in records] == [dumps(r) for r in generated[:5]]
    cached = sources.generated_cache_file(SEED, 5)
    assert cached.is_file() and str(cached).startswith(str(sources.os.environ[CACHE_ENV]))

    def no_generation(*args, **kwargs):
        raise AssertionError("a cached set must be reused")

    monkeypatch.setattr(generator, "generate_puzzles", no_generation)
    assert sources.load_records(f"generated:{SEED}") == records


@pytest.mark.parametrize(
    ("source", "kwargs", "message"),
    [
        ("generated:", {}, "needs a whole number"),
        ("generated:-3", {}, "needs a whole number"),
        ("generated:seven", {}, "needs a whole number"),
        ("generated:1", {"split": "train"}, "mirror the test split"),
        ("generated:1", {"subset": "stars"}, "mirror the test split"),
    ],
)
def test_generated_source_bad_values(small_generated_sets, source, kwargs, message):
    with pytest.raises((ValueError, small_generated_sets.SourceError), match=message):
        small_generated_sets.load_records(source, **kwargs)


def test_sparc_task_runs_on_a_generated_source_with_mockllm(small_generated_sets, tmp_path):
    from inspect_ai import eval
    from inspect_ai.model import get_model
    from mock_outputs import mock_output

    from inspect_sparc.evals.sparc.single_shot.tasks import sparc

    task = sparc(source=f"generated:{SEED}")
    samples = list(task.dataset)
    assert len(samples) == 5
    # answer by prompt, not by call order (samples run concurrently): 3 right, 2 without a path
    answers = {
        s.input[1].content: "#### " + s.target if i % 2 == 0 else "no idea"
        for i, s in enumerate(samples)
    }
    model = get_model(
        "mockllm/model",
        custom_outputs=lambda messages, *rest: mock_output(answers[messages[-1].text]),
    )
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert log.results is not None
    [score] = log.results.scores
    assert score.metrics["accuracy"].value == pytest.approx(3 / 5)


# --- calibration ------------------------------------------------------------------------------


def _benchmark(name: str):
    """A script of benchmarks/ as a module."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_calibration_is_what_the_fit_script_makes(sparc_test_split):
    fit = _benchmark("fit_generator")
    assert generator.calibration() == json.loads(json.dumps(fit.calibration(sparc_test_split)))
    model = generator.calibration()["difficulty_model"]
    assert model["cross_validation"]["level_within_one"] > 0.95


def test_calibration_tables_on_a_small_set(generated, sparc_test_split):
    calibrate = _benchmark("calibrate_generator")
    ours = calibrate.describe(generated, with_baselines=False)
    theirs = calibrate.describe(sparc_test_split, with_baselines=False)
    assert sorted(ours) == [1, 2, 3, 4, 5] and sum(row["n"] for row in ours.values()) == N
    assert theirs[1]["area"] == 6 and theirs[5]["area"] == 18  # the README's published medians
    assert theirs[3]["has_square"] == pytest.approx(0.71, abs=0.005)


@pytest.mark.slow
def test_a_500_puzzle_set_meets_the_calibration_targets(sparc_test_split):
    calibrate = _benchmark("calibrate_generator")
    records = generate_puzzles(500, 7, workers=2)
    assert len({r["id"] for r in records}) == 500
    ours = calibrate.describe(records, with_baselines=False)
    theirs = calibrate.describe(sparc_test_split, with_baselines=False)
    failed = [text for text, ok in calibrate.targets(ours, theirs) if not ok]
    assert not failed
    rate, published = calibrate.overall_astar(records), calibrate.overall_astar(sparc_test_split)
    if rate is not None:
        assert abs(rate - published) <= 0.02


def test_every_task_takes_a_generated_source(small_generated_sets, generated):
    from inspect_sparc.evals.sparc.gym.tasks import sparc_gym
    from inspect_sparc.evals.sparc.single_shot.tasks import sparc_hard

    ids = {r["id"] for r in generated[:5]}
    assert {s.id for s in sparc_gym(source=f"generated:{SEED}").dataset} == ids
    level_five = {r["id"] for r in generated[:5] if r["difficulty_level"] == 5}
    assert {s.id for s in sparc_hard(source=f"generated:{SEED}").dataset} == level_five


@pytest.mark.slow
def test_the_compile_notice_prints_once_with_worker_processes(tmp_path):
    """With a cold numba cache and two workers, the kernel is compiled once, before the pool
    starts, and said once (each worker compiled it and said so)."""
    import os
    import subprocess
    import sys

    pytest.importorskip("numba")
    out = tmp_path / "set.jsonl"
    command = [sys.executable, "-m", "inspect_sparc.generate", "--n", "6", "--seed", "7"]
    command += ["--workers", "2", "--out", str(out)]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "INSPECT_SPARC_SEARCH": "auto"}
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("compiling the search engine with numba") == 1, result.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == 6
