"""Records -> Samples: ids, prompts, targets, metadata, level filter, order and bad records."""

from __future__ import annotations

import copy
import json

import pytest
from sparc.prompts import single_shot_paper

from inspect_sparc.core.ordering import round_robin
from inspect_sparc.core.puzzle.parse import RecordError, parse_levels, parse_puzzle
from inspect_sparc.evals.sparc.dataset import (
    record_to_sample,
    round_robin_by_level,
    sparc_dataset,
)


# Opens like test_answer_parity's tests on one shipped record: alike in shape only.
def test_record_to_sample_on_a_real_record(sparc_records):
    record = sparc_records[0]
    sample = record_to_sample(record)
    reference = single_shot_paper.get_prompt(record)
    assert sample.id == record["id"]
    assert [m.role for m in sample.input] == ["system", "user"]
    assert sample.input[0].content == reference["system"]
    assert sample.input[1].content == reference["user"]
    first = record["solutions"][0]["path"]
    assert sample.target == ", ".join(f"({p['x']},{p['y']})" for p in first)
    assert sample.metadata["level"] == record["difficulty_level"]
    assert sample.metadata["difficulty_score"] == record["difficulty_score"]
    assert sample.metadata["solution_count"] == record["solution_count"]
    assert "text_visualization" not in sample.metadata["puzzle"]
    assert parse_puzzle(sample.metadata["puzzle"]).solutions == parse_puzzle(record).solutions


def test_metadata_solutions_are_moves_from_start_and_round_trip(sparc_records):
    for record in sparc_records:
        sample = record_to_sample(record)
        moves = sample.metadata["puzzle"]["solutions"]
        assert all(set(m) <= set("RLUD") for m in moves)
        assert parse_puzzle(sample.metadata["puzzle"]).solutions == parse_puzzle(record).solutions


def test_metadata_keeps_points_for_a_solution_that_is_not_moves_from_start(sparc_records):
    record = copy.deepcopy(sparc_records[0])
    record["solutions"].append({"index": 1, "path": [{"x": 0, "y": 0}, {"x": 2, "y": 0}]})
    sample = record_to_sample(record)
    assert sample.metadata["puzzle"]["solutions"][-1] == "(0,0), (2,0)"
    assert parse_puzzle(sample.metadata["puzzle"]).solutions[-1] == ((0, 0), (2, 0))


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (None, None),
        (5, (5,)),
        ("5", (5,)),
        ([2, 1], (1, 2)),
        (["1", "2"], (1, 2)),
        ("1,2", (1, 2)),
        ((3, 3), (3,)),
    ],
)
def test_level_argument_forms(given, expected):
    assert parse_levels(given) == expected


@pytest.mark.parametrize("bad", [0, 6, "hard", [1, 9], True, 2.5, [], "", ["x"], "¹", "٣"])
def test_bad_level_is_a_value_error_naming_the_choices(bad):
    with pytest.raises(ValueError, match="1, 2, 3, 4, 5"):
        parse_levels(bad)


def test_round_robin_order_gives_every_level_in_turn(tmp_path, sparc_records):
    path = tmp_path / "puzzles.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in sparc_records))
    samples = list(sparc_dataset(str(path)))
    assert [s.metadata["level"] for s in samples[:10]] == [1, 2, 3, 4, 5] * 2
    level_one = [s.id for s in samples if s.metadata["level"] == 1]
    assert level_one == [r["id"] for r in sparc_records if r["difficulty_level"] == 1]
    assert len(samples) == len(sparc_records)


def test_round_robin_keeps_every_sample_when_levels_are_uneven(sparc_records):
    samples = [record_to_sample(r) for r in sparc_records if r["difficulty_level"] in (1, 5)]
    ordered = round_robin_by_level(samples[:3] + samples[-9:])
    assert sorted(s.id for s in ordered) == sorted(s.id for s in samples[:3] + samples[-9:])


def test_round_robin_takes_one_of_each_group_in_turn_keeping_group_order():
    assert round_robin([[1, 2, 3], [4], [], [5, 6]]) == [1, 4, 5, 2, 6, 3]
    assert round_robin([]) == []
    assert round_robin(iter([("a", "b")])) == ["a", "b"]


def test_level_filter(tmp_path, sparc_records):
    path = tmp_path / "puzzles.json"
    path.write_text(json.dumps(sparc_records))
    samples = list(sparc_dataset(str(path), levels=(2, 4)))
    assert {s.metadata["level"] for s in samples} == {2, 4}
    assert len(samples) == sum(r["difficulty_level"] in (2, 4) for r in sparc_records)


def test_bundled_sample_has_five_puzzles_per_level():
    samples = list(sparc_dataset("sample"))
    levels = [s.metadata["level"] for s in samples]
    assert {level: levels.count(level) for level in set(levels)} == dict.fromkeys(range(1, 6), 5)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.pop("solutions"), "missing field"),
        (lambda r: r.update(solutions=[]), "non-empty"),
        (lambda r: r["puzzle_array"].pop(), "rows"),
        (lambda r: r.update(grid_size="big"), "grid_size"),
        (lambda r: r["puzzle_array"][1].__setitem__(1, "Q-R"), "unknown cell symbol"),
        (lambda r: r.update(polyshapes="{not json"), "polyshapes"),
        (lambda r: r["solutions"][0]["path"].append({"x": "a", "y": 1}), "integer x and y"),
        (lambda r: r["solutions"][0]["path"].append({"x": 1}), "without x and y"),
    ],
)
def test_malformed_record_is_a_clear_error_naming_the_record(sparc_records, mutate, message):
    record = copy.deepcopy(sparc_records[0])
    mutate(record)
    with pytest.raises(RecordError, match=message) as error:
        record_to_sample(record)
    assert sparc_records[0]["id"] in str(error.value)


@pytest.mark.parametrize("bad_id", ["", None, True, 1.5, ["a"]])
def test_a_bad_id_gets_a_message_that_says_what_is_accepted(sparc_records, bad_id):
    record = dict(sparc_records[0], id=bad_id)
    with pytest.raises(RecordError, match="id must be a non-empty string or an integer"):
        parse_puzzle(record)


def test_an_integer_id_is_accepted_as_the_message_says(sparc_records):
    assert record_to_sample(dict(sparc_records[0], id=7)).id == "7"  # read as its text


def test_missing_end_node_is_a_clear_error(sparc_records):
    record = copy.deepcopy(sparc_records[0])
    grid = record["puzzle_array"]
    record["puzzle_array"] = [["+" if v == "E" else v for v in row] for row in grid]
    with pytest.raises(RecordError, match="exactly one start"):
        record_to_sample(record)


def test_duplicate_ids_in_a_file_are_an_error(tmp_path, sparc_records):
    path = tmp_path / "dup.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in sparc_records[:2] + sparc_records[:1]))
    with pytest.raises(RecordError, match="duplicate"):
        sparc_dataset(str(path))


def test_level_with_no_puzzles_is_an_error(tmp_path, sparc_records):
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(sparc_records[0]))
    with pytest.raises(ValueError, match="no puzzles of level"):
        sparc_dataset(str(path), levels=(5,))


def test_a_generated_set_is_named_after_its_seed_and_says_what_it_builds(
    tmp_path, monkeypatch, capsys
):
    from inspect_sparc.core import sources
    from inspect_sparc.runtime.downloads import CACHE_ENV

    monkeypatch.setattr(sources, "GENERATED_SET_SIZE", 5)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    dataset = sparc_dataset("generated:3")
    assert dataset.name == "sparc_generated_seed3" and len(dataset) == 5
    said = capsys.readouterr().err
    assert "source=generated:3: generating the 5 puzzles of seed 3 once" in said
    assert "Generated 5 puzzles in" in said
    # the second run reads the cache and says nothing
    assert sparc_dataset("generated:3").name == "sparc_generated_seed3"
    assert capsys.readouterr().err == ""
