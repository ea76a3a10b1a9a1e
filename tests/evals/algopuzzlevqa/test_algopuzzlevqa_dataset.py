"""Samples from the shipped real instances: ids, images, prompts, gold answers, order, filters."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any, cast

import pytest
from algopuzzlevqa_helpers import fixture_records, image_bytes, reference_protocol
from inspect_ai.dataset import Sample
from inspect_ai.model import Content, ContentImage, ContentText

from inspect_sparc.core.algopuzzlevqa.puzzles import PUZZLES
from inspect_sparc.core.algopuzzlevqa.sources import sample_folder
from inspect_sparc.evals.algopuzzlevqa.dataset import algopuzzlevqa_dataset


def metadata_of(sample: Sample) -> dict[str, Any]:
    """A sample's metadata (every AlgoPuzzleVQA sample has some)."""
    assert sample.metadata is not None
    return sample.metadata


def content_of(sample: Sample) -> list[Content]:
    """The content of a sample's one user message: its text, then its image."""
    assert isinstance(sample.input, list) and isinstance(sample.input[0].content, list)
    return sample.input[0].content


def test_every_record_becomes_its_sample(fixture_data: Path) -> None:
    dataset = algopuzzlevqa_dataset(source=str(fixture_data))
    samples = {sample.id: sample for sample in dataset}
    records = fixture_records()
    reference = reference_protocol()
    assert len(dataset) == len(records) == 36
    for record in records:
        sample = samples[Path(record["image"]).stem]
        assert sample.target == record["answer"]
        assert metadata_of(sample)["puzzle"] == record["_puzzle"]
        assert metadata_of(sample)["options"] == record["options"]
        assert metadata_of(sample)["image"] == record["image"]
        letter = "ABCD"[record["options"].index(record["answer"])]
        assert metadata_of(sample)["answer_letter"] == letter
        text, image = content_of(sample)  # text first, as the OpenAI and Gemini clients
        assert isinstance(text, ContentText) and isinstance(image, ContentImage)
        assert text.text == reference[sample.id]["prompt_describe"]
        assert image.image.endswith(".png")  # Inspect sends it as image/png


def test_max_image_size_0_sends_the_original_files(fixture_data: Path) -> None:
    dataset = algopuzzlevqa_dataset(source="sample", max_image_size=0)
    for sample in dataset:
        image = cast(ContentImage, content_of(sample)[1]).image
        original = (fixture_data / metadata_of(sample)["image"]).read_bytes()
        assert image_bytes(image) == original
        assert isinstance(sample.id, str)
        if sample.id.startswith(("move_box", "rotting_kiwi")):  # PNG files named .jpg
            assert image.startswith("data:image/png;base64,")
        else:
            assert Path(image).is_absolute() and image.endswith(f"{sample.id}.jpg")


def test_ids_are_image_names_and_order_is_round_robin(fixture_data: Path) -> None:
    ids = cast(
        "list[str]", [sample.id for sample in algopuzzlevqa_dataset(source=str(fixture_data))]
    )
    assert ids[:3] == ["board_tile_0057", "calendar_0059", "chain_link_0057"]
    assert [i.rsplit("_", 1)[0] for i in ids[:18]] == list(PUZZLES)
    assert [i.rsplit("_", 1)[0] for i in ids[18:]] == list(PUZZLES)
    assert ids[18] == "board_tile_0071"  # each puzzle in instance order


def test_cot_prompt(fixture_data: Path) -> None:
    sample = algopuzzlevqa_dataset(prompt="cot", source=str(fixture_data))[0]
    assert cast(ContentText, content_of(sample)[0]).text.endswith(
        "\n\nAnswer: Let's think step by step."
    )
    assert metadata_of(sample)["prompt"] == "cot"


@pytest.mark.parametrize(
    ("puzzle", "expected"),
    [
        ("maze", ["maze"]),
        (["maze", "clock"], ["clock", "maze"]),
        ("maze,clock", ["clock", "maze"]),
        ([" maze", "clock,board_tile"], ["board_tile", "clock", "maze"]),
    ],
)
def test_puzzle_filter(puzzle: object, expected: list[str]) -> None:
    dataset = algopuzzlevqa_dataset(puzzle=puzzle, source="sample")  # type: ignore[arg-type]
    counts = Counter(metadata_of(sample)["puzzle"] for sample in dataset)
    assert sorted(counts) == expected and set(counts.values()) == {2}


@pytest.mark.parametrize("puzzle", ["sudoku", ["maze", "tetris"], "", [], 5, [5]])
def test_unknown_puzzle_lists_valid_names(puzzle: object) -> None:
    with pytest.raises(ValueError, match="Valid puzzles: board_tile, calendar,.*wood_slide"):
        algopuzzlevqa_dataset(puzzle=puzzle, source="sample")  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [-1, 1.5, "1024", True, None])
def test_bad_max_image_size_is_rejected(size: object) -> None:
    with pytest.raises(ValueError, match="max_image_size must be"):
        algopuzzlevqa_dataset(source="sample", max_image_size=size)  # type: ignore[arg-type]


def test_unknown_prompt_and_source() -> None:
    with pytest.raises(ValueError, match="Valid prompts: describe, cot"):
        algopuzzlevqa_dataset(prompt="ecot", source="sample")
    for source in ("kaggle", None, "", 5):
        with pytest.raises(ValueError, match="Valid sources: 'github'.*'sample'"):
            algopuzzlevqa_dataset(source=source)  # type: ignore[arg-type]


def test_bundled_sample_is_the_shipped_real_data(fixture_data: Path) -> None:
    bundled = sample_folder()
    for path in fixture_data.rglob("*"):
        if path.is_file():
            assert (bundled / path.relative_to(fixture_data)).read_bytes() == path.read_bytes()
    assert "MIT" in (bundled / "README.md").read_text()
    assert len(algopuzzlevqa_dataset(source="sample")) == 36


def test_folder_may_be_given_above_data(fixture_data: Path) -> None:
    ids = [s.id for s in algopuzzlevqa_dataset(source=str(fixture_data.parent))]
    assert len(ids) == 36


def copy_data(fixture_data: Path, tmp_path: Path) -> Path:
    """A writable copy of the shipped data folder."""
    folder = tmp_path / "AlgoPuzzleVQA" / "data"
    shutil.copytree(fixture_data, folder)
    return folder


def test_missing_puzzle_file_is_named(fixture_data: Path, tmp_path: Path) -> None:
    folder = copy_data(fixture_data, tmp_path)
    (folder / "maze.json").unlink()
    with pytest.raises(ValueError, match="lacks maze.json"):
        algopuzzlevqa_dataset(source=str(tmp_path))
    assert len(algopuzzlevqa_dataset(puzzle="clock", source=str(tmp_path))) == 2


def test_folder_without_puzzles_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="holds no <puzzle>.json"):
        algopuzzlevqa_dataset(source=str(tmp_path))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"answer": "12:00"}, "is not one of"),
        ({"image": "images/maze/clock_0023.jpg"}, "is not images/clock/clock_NNNN.jpg"),
        ({"image": "images/clock/clock_0999.jpg"}, "is missing"),
        ({"options": "7:29"}, "'options' is missing or not a list"),
        ({"image": "images/clock/clock_0042.jpg"}, "neither a JPEG nor a PNG"),
    ],
)
def test_bad_records_are_rejected(
    fixture_data: Path, tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    folder = copy_data(fixture_data, tmp_path)
    (folder / "images/clock/clock_0042.jpg").write_bytes(b"GIF89a")
    path = folder / "clock.json"
    lines = path.read_text().splitlines()
    lines[0] = json.dumps({**json.loads(lines[0]), **change})
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=message):
        algopuzzlevqa_dataset(puzzle="clock", source=str(folder))
