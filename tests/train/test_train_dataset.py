"""Prompt datasets: the `sparc` task's input byte for byte, and no test-split puzzle by accident."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspect_sparc.core.generate.generator import generate_puzzles
from inspect_sparc.core.generate.leakage import LeakageError
from inspect_sparc.core.puzzle.answer import format_path
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.dataset import record_to_sample
from inspect_sparc.train import prompt_dataset, sparc_reward
from inspect_sparc.train.dataset import level_counts, main, parse_level_argument


@pytest.fixture(scope="module")
def fresh_records() -> list[dict[str, Any]]:
    """A few generated puzzles of levels 1 and 2 (seconds once the search is compiled)."""
    return generate_puzzles(2, 11, 1) + generate_puzzles(2, 11, 2)


@pytest.mark.parametrize("prompt", ["paper", "corrected"])
def test_prompts_equal_the_sparc_task_input_on_every_fixture(sparc_records, prompt):
    with pytest.warns(UserWarning, match="test-split check off"):
        dataset = prompt_dataset(sparc_records, prompt=prompt, allow_test=True)
    assert len(dataset) == len(sparc_records)
    for row, record in zip(dataset, sparc_records, strict=True):
        sample = record_to_sample(record, prompt)
        assert [m["role"] for m in row["prompt"]] == [m.role for m in sample.input]
        assert [m["content"] for m in row["prompt"]] == [m.content for m in sample.input]
        assert (row["id"], row["level"]) == (sample.id, sample.metadata["level"])
        assert json.loads(row["puzzle"]) == record


def test_the_puzzle_column_feeds_the_reward_functions(fresh_records):
    dataset = prompt_dataset(fresh_records)
    answers = [f"#### {format_path(parse_puzzle(r).solutions[0])}" for r in fresh_records]
    columns = {name: dataset[name] for name in dataset.column_names if name != "puzzle"}
    assert sparc_reward(answers, dataset["puzzle"], **columns) == [1.0] * len(answers)


def test_a_generated_set_with_a_test_puzzle_forced_in_is_rejected(fresh_records, sparc_test_split):
    test_puzzle = sparc_test_split[123]
    with pytest.raises(LeakageError, match=test_puzzle["id"]):
        prompt_dataset([*fresh_records, test_puzzle])
    renamed = dict(test_puzzle, id="not-a-test-id")  # the grid, not the id, gives it away
    with pytest.raises(LeakageError, match="not-a-test-id"):
        prompt_dataset([*fresh_records, renamed])


def test_the_test_split_needs_the_explicit_flag():
    with pytest.raises(ValueError, match="allow_test=True"):
        prompt_dataset("sample")
    with pytest.warns(UserWarning, match="must not be evaluated on SPaRC"):
        dataset = prompt_dataset("sample", n=3, allow_test=True)
    assert len(dataset) == 3


def test_generated_sets_follow_the_curriculum_order():
    dataset = prompt_dataset("generated:5", n=4, level=[2, 1])
    assert dataset["level"] == [2, 2, 1, 1]
    assert set(prompt_dataset("generated:5", n=2, level=3)["level"]) == {3}


def test_level_counts_split_by_list_and_by_weight():
    assert level_counts(10, None) == {None: 10}
    assert level_counts(7, [1, 3]) == {1: 4, 3: 3}
    assert level_counts(10, {1: 0.7, 2: 0.3}) == {1: 7, 2: 3}
    assert sum(level_counts(11, {1: 1, 2: 1, 5: 1}).values()) == 11
    with pytest.raises(ValueError, match="1, 2, 3, 4 or 5"):
        level_counts(3, [0])
    assert parse_level_argument("1:0.7,2:0.3") == {1: 0.7, 2: 0.3}
    assert parse_level_argument("1,2") == [1, 2] and parse_level_argument("4") == 4


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_the_cli_writes_a_file_any_framework_reads(tmp_path, fresh_records, suffix):
    from datasets import load_dataset

    source = tmp_path / "records.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in fresh_records), encoding="utf-8")
    out = tmp_path / f"prompts{suffix}"
    main(["--source", str(source), "--level", "2", "--out", str(out)])
    kind = "parquet" if suffix == ".parquet" else "json"
    written = load_dataset(kind, data_files=str(out), split="train")
    assert written["level"] == [2, 2]
    assert written["prompt"] == prompt_dataset(fresh_records, level=2)["prompt"]


def test_standard_format_is_the_task_input_as_one_text(sparc_records):
    with pytest.warns(UserWarning):
        dataset = prompt_dataset(sparc_records[:3], prompt_format="standard", allow_test=True)
    for row, record in zip(dataset, sparc_records[:3], strict=True):
        system, user = record_to_sample(record, "paper").input
        assert row["prompt"] == f"{system.content}\n\n{user.content}"
    with pytest.raises(ValueError, match="prompt_format must be one of conversational, standard"):
        prompt_dataset(sparc_records[:1], prompt_format="chat", allow_test=True)


def isomorphs(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The record with its colours permuted (each moved three places) and with S and E swapped:
    the same puzzle (written here cell by cell, not with the guard's code)."""
    colours = ("R", "B", "G", "Y", "W", "O", "P", "K")

    def recolour(value: str) -> str:
        parts = value.split("-")
        if len(parts) > 1:
            parts[1] = colours[(colours.index(parts[1]) + 3) % len(colours)]
        return "-".join(parts)

    swap = {"S": "E", "E": "S"}
    recoloured = [[recolour(v) for v in row] for row in record["puzzle_array"]]
    swapped = [[swap.get(v, v) for v in row] for row in record["puzzle_array"]]
    return [
        dict(record, id="recoloured", puzzle_array=recoloured),
        dict(record, id="swapped", puzzle_array=swapped),
    ]


def test_recoloured_and_end_swapped_test_puzzles_are_refused(fresh_records, sparc_records):
    record = next(r for r in sparc_records if any("-" in v for v in r["puzzle_array"][1]))
    for variant in isomorphs(record):
        assert variant["puzzle_array"] != record["puzzle_array"]
        with pytest.raises(LeakageError, match=variant["id"]):
            prompt_dataset([*fresh_records, variant])


def test_a_held_out_set_shares_no_grid_with_the_training_set():
    """Another seed is not enough: seed 202's level-1 puzzles repeat grids of seed 101's
    (small grids); `exclude=` drops those and draws further, in the set's own order."""
    from inspect_sparc.core.generate.grid_hashes import grid_hash

    train = prompt_dataset("generated:101", n=500, level=1)
    seen = {grid_hash(json.loads(text)) for text in train["puzzle"]}
    plain = generate_puzzles(160, 202, 1)
    shared = [r for r in plain if grid_hash(r) in seen]
    assert shared  # the reason for the option: a new seed alone repeats training grids
    held = prompt_dataset("generated:202", n=160, level=1, exclude=train["puzzle"])
    held_records = [json.loads(text) for text in held["puzzle"]]
    assert len(held_records) == 160
    assert not {grid_hash(r) for r in held_records} & seen
    kept = [r for r in plain if grid_hash(r) not in seen]
    assert held_records[: len(kept)] == kept  # the plain set, less the shared ones, then more


def test_the_cli_builds_a_held_out_set_from_a_file_of_prompt_rows(tmp_path, fresh_records):
    train = tmp_path / "train.jsonl"
    main(["--source", "generated:11", "--n", "2", "--level", "1", "--out", str(train)])
    source = tmp_path / "records.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in fresh_records), encoding="utf-8")
    held = tmp_path / "held.jsonl"
    main(["--source", str(source), "--exclude", str(train), "--out", str(held)])
    rows = [json.loads(line) for line in held.read_text(encoding="utf-8").splitlines()]
    assert [row["id"] for row in rows] == [r["id"] for r in fresh_records[2:]]  # level 2 only


def test_the_train_split_offline_suggests_no_test_split_source(tmp_path):
    """Offline with an empty hub cache: the ways out are training data, never the test split
    (the sources' own message offers the other hub, the sample and a test file)."""
    import os
    import subprocess
    import sys

    code = "from inspect_sparc.train.puzzles import load_puzzles; load_puzzles('train', 'puzzles')"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path)}
    env |= {"INSPECT_SPARC_CACHE_DIR": str(tmp_path), "MODELSCOPE_CACHE": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    message = result.stderr.strip().splitlines()[-1]
    assert "puzzles='train': the SPaRC train split could not be read" in message
    assert "generated:SEED" in message and "sparc_train.jsonl" in message
    for test_source in ("modelscope", "sample", "sparc_test"):
        assert test_source not in message
