"""Prompt datasets: the `sparc` task's input byte for byte, and no test-split puzzle by accident."""

from __future__ import annotations

import json

import pytest

from inspect_sparc.core.answer import format_path
from inspect_sparc.core.generate import generate_puzzles
from inspect_sparc.core.leakage import LeakageError
from inspect_sparc.core.puzzle import parse_puzzle
from inspect_sparc.evals.sparc.dataset import record_to_sample
from inspect_sparc.train import prompt_dataset, sparc_reward
from inspect_sparc.train.dataset import level_counts, main, parse_level_argument


@pytest.fixture(scope="module")
def fresh_records() -> list[dict]:
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
