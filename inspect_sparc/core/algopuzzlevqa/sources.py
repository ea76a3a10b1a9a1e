"""Where the AlgoPuzzleVQA files come from: the pinned GitHub commit, the bundled sample, a folder.

Every source ends as a local folder in the authors' repository layout (see `layout`). The remote
source downloads the pinned commit's `AlgoPuzzleVQA/data` files once into a cache folder, which
then has that same layout, so later runs read it offline.
"""

from __future__ import annotations

import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from inspect_sparc.core.algopuzzlevqa.layout import data_folder, image_mime_type
from inspect_sparc.core.suggest import did_you_mean
from inspect_sparc.runtime.downloads import SourceError, cache_base, unreachable

__all__ = ["resolve_source"]

GITHUB_REPO = "declare-lab/LLM-PuzzleTest"
GITHUB_COMMIT = "9b3a074cca0cfe3f06ef57acae425992fe98a8fb"
GITHUB_FOLDER = "AlgoPuzzleVQA/data"
RAW_URL = "https://raw.githubusercontent.com/{repo}/{commit}/{folder}/{path}"

DOWNLOAD_WORKERS = 8
ATTEMPTS = 3
TIMEOUT_S = 30.0
IMAGE_PATH = re.compile(r"images/(?P<puzzle>[a-z_]+)/(?P=puzzle)_\d+\.jpg")


def sample_folder() -> Path:
    """The 36 bundled instances (two per puzzle), in the repository layout.

    Returns:
        The bundled data folder."""
    return Path(__file__).parent / "data"


def cache_root() -> Path:
    """The AlgoPuzzleVQA cache (`cache_base()`, then algopuzzlevqa).

    Returns:
        The folder (not created here)."""
    return cache_base() / "algopuzzlevqa"


def cache_folder() -> Path:
    """Where the pinned GitHub files are cached, in the repository layout.

    Returns:
        The folder (not created here)."""
    return cache_root() / f"{GITHUB_REPO.replace('/', '__')}@{GITHUB_COMMIT}" / "data"


def raw_url(path: str) -> str:
    """The URL of a file of the pinned commit's `AlgoPuzzleVQA/data` folder.

    Args:
        path: the file's path inside `AlgoPuzzleVQA/data`.

    Returns:
        The URL."""
    return RAW_URL.format(repo=GITHUB_REPO, commit=GITHUB_COMMIT, folder=GITHUB_FOLDER, path=path)


def fetch(url: str) -> bytes:
    """The bytes at `url`; retries HTTP 429/5xx and dropped connections, fails at once otherwise.

    Args:
        url: the address.

    Returns:
        The response's body."""
    import http.client
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers={"User-Agent": "inspect-sparc"})
    for attempt in range(1, ATTEMPTS + 1):
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                data: bytes = response.read()
                return data
        except urllib.error.HTTPError as error:
            if (error.code < 500 and error.code != 429) or attempt == ATTEMPTS:
                raise
        except (ConnectionResetError, http.client.IncompleteRead):
            if attempt == ATTEMPTS:
                raise
        time.sleep(2.0**attempt)
    raise AssertionError("unreachable")


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` so a reader never sees a partial file.

    Args:
        path: the file to write.
        data: its bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def download_image(folder: Path, image: str) -> None:
    """Download one image of the pinned commit into `folder`, unless it is cached already.

    Args:
        folder: the cache folder.
        image: the image's file name."""
    target = folder / image
    if target.is_file():
        return
    data = fetch(raw_url(image))
    if image_mime_type(data) is None:
        raise ValueError(f"{raw_url(image)} is not a JPEG or PNG image (got {data[:40]!r}).")
    write_atomically(target, data)


def download_puzzle(folder: Path, puzzle: str) -> None:
    """Download `<puzzle>.json` and its images; the JSON is written last, marking completion.

    Args:
        folder: the cache folder.
        puzzle: the puzzle name."""
    import json

    url = raw_url(f"{puzzle}.json")
    data = fetch(url)
    images: list[str] = []
    for line in data.decode("utf-8").splitlines():
        if not line.strip():
            continue
        try:
            image = json.loads(line)["image"]
        except (ValueError, TypeError, KeyError) as error:
            raise ValueError(f"{url} is not the AlgoPuzzleVQA JSON lines file.") from error
        if not isinstance(image, str) or not IMAGE_PATH.fullmatch(image):
            raise ValueError(f"{url}: unexpected image path {image!r}.")
        images.append(image)
    pool = ThreadPoolExecutor(max_workers=DOWNLOAD_WORKERS)
    try:
        list(pool.map(lambda image: download_image(folder, image), images))
    finally:  # on the first failure, drop the queued downloads instead of waiting for them
        pool.shutdown(wait=False, cancel_futures=True)
    write_atomically(folder / f"{puzzle}.json", data)


def download_github(puzzles: list[str]) -> Path:
    """The cache folder, holding the pinned commit's files of `puzzles` (downloaded if missing).

    Args:
        puzzles: the puzzle names wanted.

    Returns:
        The cache folder."""
    from http.client import HTTPException

    folder = cache_folder()
    missing = [p for p in puzzles if not (folder / f"{p}.json").is_file()]
    reason = unreachable(raw_url("")) if missing else None
    if reason:
        raise SourceError(
            f"Cannot reach GitHub ({reason}) to download AlgoPuzzleVQA "
            f"({', '.join(missing)}) from {GITHUB_REPO} at commit {GITHUB_COMMIT}, and it is "
            f"not cached in {folder}. Use a local copy of its {GITHUB_FOLDER} folder with "
            "-T source=/path/to/AlgoPuzzleVQA/data, or -T source=sample for the 36 bundled "
            "instances."
        )
    for puzzle in missing:
        try:
            download_puzzle(folder, puzzle)
        except (OSError, HTTPException, ValueError) as error:
            raise SourceError(
                f"Could not download AlgoPuzzleVQA ({puzzle}) from GitHub, "
                f"{GITHUB_REPO} at commit {GITHUB_COMMIT}, folder {GITHUB_FOLDER}: {error}. "
                f"Check the network and rerun (finished puzzles stay cached in {folder}); "
                f"or use a local copy of that folder with -T source=/path/to/AlgoPuzzleVQA/data "
                f"(e.g. from a clone of https://github.com/{GITHUB_REPO}); "
                "or -T source=sample for the 36 bundled instances."
            ) from error
    return folder


def resolve_source(source: str, puzzles: list[str]) -> Path:
    """The local repository-layout folder of `source` ("github", "sample" or a folder path).

    Args:
        source: `github`, `sample` or a folder path.
        puzzles: the puzzle names wanted (downloaded or checked present).

    Returns:
        The data folder."""
    if source == "github":
        return download_github(puzzles)
    if source == "sample":
        return sample_folder()
    path = Path(source).expanduser() if isinstance(source, str) and source.strip() else None
    if path is None or not path.is_dir():
        raise ValueError(
            f"Unknown AlgoPuzzleVQA source {source!r}{did_you_mean(source, ('github', 'sample'))}. "
            f"Valid sources: 'github' (default; the "
            f"authors' files at {GITHUB_REPO}@{GITHUB_COMMIT[:7]}, cached), 'sample' (36 bundled "
            "instances), or the path of a folder in the repository layout "
            "(AlgoPuzzleVQA/data: <puzzle>.json and images/<puzzle>/<puzzle>_NNNN.jpg)."
        )
    folder = data_folder(path)
    if folder is None:
        raise ValueError(
            f"{path} holds no <puzzle>.json files (checked it, data/ and AlgoPuzzleVQA/data/); "
            "pass the AlgoPuzzleVQA/data folder of the authors' repository."
        )
    return folder.resolve()
