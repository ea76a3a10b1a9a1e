"""The image as the authors' code sent it: longer side at most 1024 px, LANCZOS, PNG (pure).

The authors' `EvalModel.resize_image` (declare-lab/LLM-PuzzleTest, AlgoPuzzleVQA/modeling.py)
scales both sides by `max_size / longer side`, rounds them, resizes with LANCZOS, converts RGBA to
RGB, and the image is sent PNG-encoded. Resized files are cached on disk (keyed by the original
bytes, the size limit and the Pillow major version), so only the first run pays for resizing.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DEFAULT_MAX_IMAGE_SIZE = 1024
"""The authors' limit on the longer side, in pixels."""


def check_max_image_size(max_image_size: object) -> int:
    """`max_image_size` as an int >= 0 (0: send the original files), else a ValueError.

    Args:
        max_image_size: the size as given.

    Returns:
        The size in pixels."""
    if isinstance(max_image_size, bool) or not isinstance(max_image_size, int):
        raise ValueError(f"max_image_size must be an integer >= 0, got {max_image_size!r}.")
    if max_image_size < 0:
        raise ValueError(
            f"max_image_size must be >= 0 (0 sends the original files), got {max_image_size}."
        )
    return max_image_size


def sent_size(width: int, height: int, max_size: int) -> tuple[int, int]:
    """The (width, height) sent: unchanged if the longer side fits `max_size` (0: no limit).

    Rounding mode only matters when a side lands on an exact half, which with a 1024 limit needs
    a longer side that is a multiple of 2048; no AlgoPuzzleVQA image size seen is.

    Args:
        width: the image's width in pixels.
        height: its height.
        max_size: the longest side allowed (0: no limit).

    Returns:
        The size sent, aspect kept."""
    if max_size == 0 or max(width, height) <= max_size:
        return width, height
    scale = max_size / max(width, height)
    return round(width * scale), round(height * scale)


def encode_for_sending(path: Path, max_size: int) -> bytes:
    """The PNG bytes the authors' code would send for the image file at `path`.

    Args:
        path: the image file.
        max_size: the longest side allowed (0: the file's bytes as they are).

    Returns:
        The PNG bytes."""
    import io

    from PIL import Image

    with Image.open(path) as original:
        original.load()
        image = original
        width, height = image.size
        size = sent_size(width, height, max_size)
        if size != image.size:
            image = image.resize(size, Image.Resampling.LANCZOS)
        if image.mode == "RGBA":
            image = image.convert("RGB")
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
    return buffer.getvalue()


def resized_folder(cache_root: Path, max_size: int) -> Path:
    """Where the PNGs for `max_size` are cached (per Pillow major version: pixels may change).

    Args:
        cache_root: the AlgoPuzzleVQA cache.
        max_size: the longest side allowed.

    Returns:
        The folder."""
    import PIL

    return cache_root / "images" / f"pillow-{PIL.__version__.split('.')[0]}" / f"max-{max_size}"


def resized_copy(path: Path, folder: Path, max_size: int) -> Path:
    """The cached PNG to send for the image at `path`, made (atomically) if missing.

    Args:
        path: the original image.
        folder: the resized images' folder (`resized_folder`'s).
        max_size: the longest side allowed.

    Returns:
        The cached PNG."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    target = folder / f"{digest}.png"
    if not target.is_file():
        data = encode_for_sending(path, max_size)
        folder.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        temporary.write_bytes(data)
        os.replace(temporary, target)
    return target


def resized_copies(paths: Iterable[Path], cache_root: Path, max_size: int) -> dict[Path, Path]:
    """Original path -> the cached PNG to send, resizing the missing ones on all cores.

    Args:
        paths: the original images.
        cache_root: the AlgoPuzzleVQA cache.
        max_size: the longest side allowed.

    Returns:
        Each original path -> its cached PNG."""
    folder = resized_folder(cache_root, max_size)
    unique = list(dict.fromkeys(paths))
    workers = max(1, min(8, os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        copies = list(pool.map(lambda path: resized_copy(path, folder, max_size), unique))
    return dict(zip(unique, copies, strict=True))
