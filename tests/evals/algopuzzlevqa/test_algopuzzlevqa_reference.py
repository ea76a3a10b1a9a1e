"""Parity with the authors' evaluation code, on its own outputs (tests/fixtures/.../reference).

Prompt bytes (every variant and the follow-up) and the resized image for the 36 shipped
instances; the answer reading for 307 crafted replies x two option lists.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from algopuzzlevqa_helpers import (
    fixture_records,
    image_bytes,
    pixels_sha256,
    reference_protocol,
    reference_readings,
)
from PIL import Image

from inspect_sparc.core.algopuzzlevqa.answer import read_answer, read_paper
from inspect_sparc.core.algopuzzlevqa.images import encode_for_sending, sent_size
from inspect_sparc.core.algopuzzlevqa.prompts import build_prompt, paper_follow_up
from inspect_sparc.evals.algopuzzlevqa.dataset import algopuzzlevqa_dataset

RECORDS = {Path(record["image"]).stem: record for record in fixture_records()}
REFERENCE = reference_protocol()
READINGS = reference_readings()


def test_the_reference_covers_every_shipped_instance() -> None:
    assert set(REFERENCE) == set(RECORDS) and len(RECORDS) == 36
    assert len(READINGS) == 614
    assert sum(row["asks_follow_up"] for row in READINGS) == 64


def test_every_prompt_variant_is_byte_identical() -> None:
    for sample_id, row in REFERENCE.items():
        question, options = RECORDS[sample_id]["question"], RECORDS[sample_id]["options"]
        assert build_prompt(question, options, "describe") == row["prompt_describe"]
        assert build_prompt(question, options, "cot") == row["prompt_cot"]
        with_suffix = build_prompt(question, options, "describe", prevent_direct_answer=True)
        assert with_suffix == row["prompt_describe_no_direct_answer"]
        follow_up = row["followup_after_first_reply"]
        sent = paper_follow_up(row["prompt_describe"], follow_up["first_reply"], options)
        assert sent == follow_up["prompt"]


@pytest.mark.parametrize(
    ("prompt", "prevent_direct_answer", "field"),
    [
        ("describe", False, "prompt_describe"),
        ("cot", False, "prompt_cot"),
        ("describe", True, "prompt_describe_no_direct_answer"),
    ],
)
def test_the_task_sends_the_reference_prompts(
    prompt: str, prevent_direct_answer: bool, field: str
) -> None:
    dataset = algopuzzlevqa_dataset(
        source="sample", prompt=prompt, prevent_direct_answer=prevent_direct_answer
    )
    sent = {sample.id: sample.input[0].content[0].text for sample in dataset}  # type: ignore[union-attr]
    assert sent == {sample_id: row[field] for sample_id, row in REFERENCE.items()}


def test_sent_sizes_follow_the_reference_arithmetic() -> None:
    for row in REFERENCE.values():
        width, height = row["original_size"]
        assert list(sent_size(width, height, 1024)) == row["sent_size"]


def test_the_task_sends_the_reference_pixels_as_png(fixture_data: Path) -> None:
    dataset = algopuzzlevqa_dataset(source="sample")
    for sample in dataset:
        row = REFERENCE[sample.id]
        assert sample.metadata is not None
        with Image.open(fixture_data / sample.metadata["image"]) as original:
            assert list(original.size) == row["original_size"]
        data = image_bytes(sample.input[0].content[1].image)  # type: ignore[union-attr]
        size, kind, digest = pixels_sha256(data)
        assert (list(size), kind, digest) == (
            row["sent_size"],
            "PNG",
            row["sent_png_pixels_sha256"],
        )


def test_encoding_from_the_original_file_matches_too(fixture_data: Path) -> None:
    for sample_id in ("water_jugs_0020", "move_box_0018", "checker_move_0024"):  # odd, PNG, small
        record = RECORDS[sample_id]
        size, _, digest = pixels_sha256(encode_for_sending(fixture_data / record["image"], 1024))
        assert (list(size), digest) == (
            REFERENCE[sample_id]["sent_size"],
            REFERENCE[sample_id]["sent_png_pixels_sha256"],
        )


def test_paper_reading_matches_get_answer_on_every_crafted_reply() -> None:
    mismatches = []
    for row in READINGS:
        reading = read_paper(row["reply"], row["options"])
        asks = reading.letter is None
        if (reading.option, asks) != (row["reference_pred"], row["asks_follow_up"]):
            mismatches.append((row, reading))
        assert read_answer(row["reply"], row["options"], "paper") == reading
    assert mismatches == []


def test_paper_and_strict_agree_on_replies_ending_in_a_parenthesised_option() -> None:
    for row in READINGS:
        options = row["options"]
        for letter, option in zip("ABCD", options, strict=False):
            reply = f"{row['reply']} So the answer is ({letter})"
            assert read_answer(reply, options, "paper").option == option
            assert read_answer(reply, options, "strict").option == option
