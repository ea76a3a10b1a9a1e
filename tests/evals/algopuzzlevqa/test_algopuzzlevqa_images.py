"""Image resizing and its cache (pixel parity with the authors' code: test_..._reference)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from inspect_sparc.core.algopuzzlevqa import images
from inspect_sparc.core.algopuzzlevqa.images import encode_for_sending, resized_copies, sent_size
from inspect_sparc.core.algopuzzlevqa.sources import cache_root
from inspect_sparc.evals.algopuzzlevqa.dataset import algopuzzlevqa_dataset


@pytest.mark.parametrize(
    ("size", "limit", "expected"),
    [
        ((1472, 1474), 1024, (1023, 1024)),  # rounded, not truncated
        ((2860, 1400), 1024, (1024, 501)),
        ((1024, 10), 1024, (1024, 10)),  # fits: unchanged
        ((512, 512), 1024, (512, 512)),  # never enlarged
        ((3000, 3000), 0, (3000, 3000)),  # 0: no limit
        ((1000, 3000), 512, (171, 512)),
    ],
)
def test_sent_size(size: tuple[int, int], limit: int, expected: tuple[int, int]) -> None:
    assert sent_size(*size, limit) == expected


def test_rgba_is_sent_as_rgb_png(tmp_path: Path) -> None:
    path = tmp_path / "rgba.png"
    Image.new("RGBA", (2048, 1000), (200, 10, 10, 128)).save(path)
    with Image.open(io.BytesIO(encode_for_sending(path, 1024))) as sent:
        assert (sent.format, sent.mode, sent.size) == ("PNG", "RGB", (1024, 500))


def test_cache_fills_once_and_is_reused(
    fixture_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    originals = [
        fixture_data / "images/move_box/move_box_0018.jpg",  # a PNG named .jpg, small
        fixture_data / "images/checker_move/checker_move_0075.jpg",  # a JPEG, resized
    ]
    first = resized_copies(originals, tmp_path / "root", 1024)
    assert all(copy.is_file() and copy.suffix == ".png" for copy in first.values())
    assert len(list((tmp_path / "root").rglob("*.png"))) == 2

    def fail(path: Path, max_size: int) -> bytes:
        raise AssertionError("resized again")

    monkeypatch.setattr(images, "encode_for_sending", fail)
    assert resized_copies(originals, tmp_path / "root", 1024) == first
    with pytest.raises(AssertionError, match="resized again"):
        resized_copies(originals, tmp_path / "root", 512)  # another limit, another folder


def test_samples_point_into_the_cache() -> None:
    dataset = algopuzzlevqa_dataset(puzzle="maze", source="sample")
    for sample in dataset:
        image = Path(sample.input[0].content[1].image)  # type: ignore[union-attr]
        assert image.is_relative_to(cache_root() / "images") and image.suffix == ".png"
