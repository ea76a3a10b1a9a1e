"""The pinned GitHub source, with the network replaced by the shipped files."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspect_sparc.core.algopuzzlevqa import sources
from inspect_sparc.core.sources import SourceError
from inspect_sparc.evals.algopuzzlevqa.dataset import algopuzzlevqa_dataset

PREFIX = (
    "https://raw.githubusercontent.com/declare-lab/LLM-PuzzleTest/"
    "9b3a074cca0cfe3f06ef57acae425992fe98a8fb/AlgoPuzzleVQA/data/"
)


class FakeGitHub:
    """Serves the shipped folder at the pinned commit's raw URLs and records each request."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.urls: list[str] = []

    def __call__(self, url: str) -> bytes:
        self.urls.append(url)
        assert url.startswith(PREFIX), url
        return (self.folder / url.removeprefix(PREFIX)).read_bytes()


def offline(url: str) -> bytes:
    """A fetch that fails as it does without a network."""
    raise OSError("<urlopen error [Errno -2] Name or service not known>")


@pytest.fixture(autouse=True)
def github_reachable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick reachability check passes: each test's fake `fetch` decides what happens."""
    monkeypatch.setattr(sources, "unreachable", lambda endpoint: None)


def test_download_fills_cache_in_repository_layout(
    fixture_data: Path, isolated_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeGitHub(fixture_data)
    monkeypatch.setattr(sources, "fetch", fake)
    # each sample's input is a list of messages (the union with `str` says it could be text)
    remote = [(s.id, s.target, s.input[0].content) for s in algopuzzlevqa_dataset()]  # type: ignore[union-attr]
    local = [
        (s.id, s.target, s.input[0].content)  # type: ignore[union-attr]
        for s in algopuzzlevqa_dataset(source=str(fixture_data))
    ]  # the same text and the same resized image (cached by content)
    assert remote == local
    assert len(fake.urls) == 18 + 36
    folder = sources.cache_folder()
    assert folder.is_relative_to(isolated_cache)
    assert (folder / "images/maze/maze_0012.jpg").read_bytes() == (
        fixture_data / "images/maze/maze_0012.jpg"
    ).read_bytes()
    image = algopuzzlevqa_dataset(max_image_size=0)[0].input[0].content[1].image  # type: ignore[union-attr]
    assert Path(image).is_relative_to(folder)


def test_rerun_works_offline_from_cache(
    fixture_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sources, "fetch", FakeGitHub(fixture_data))
    algopuzzlevqa_dataset(puzzle=["maze", "clock"])
    monkeypatch.setattr(sources, "fetch", offline)
    assert len(algopuzzlevqa_dataset(puzzle="maze,clock")) == 4
    with pytest.raises(SourceError):
        algopuzzlevqa_dataset(puzzle="calendar")


def test_only_chosen_puzzles_are_downloaded(
    fixture_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeGitHub(fixture_data)
    monkeypatch.setattr(sources, "fetch", fake)
    algopuzzlevqa_dataset(puzzle="rubiks_cube")
    assert sorted(url.removeprefix(PREFIX) for url in fake.urls) == [
        "images/rubiks_cube/rubiks_cube_0050.jpg",
        "images/rubiks_cube/rubiks_cube_0057.jpg",
        "rubiks_cube.json",
    ]


def test_network_failure_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sources, "fetch", offline)
    with pytest.raises(SourceError) as caught:
        algopuzzlevqa_dataset()
    message = str(caught.value)
    assert "declare-lab/LLM-PuzzleTest" in message and "9b3a074" in message
    assert "source=/path/to/AlgoPuzzleVQA/data" in message and "source=sample" in message
    assert isinstance(caught.value, RuntimeError)


def test_unreachable_github_fails_before_any_download(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeGitHub(Path("/nonexistent"))
    monkeypatch.setattr(sources, "fetch", fake)
    monkeypatch.setattr(sources, "unreachable", lambda endpoint: "raw.githubusercontent.com:443")
    with pytest.raises(SourceError, match="Cannot reach GitHub.*source=sample"):
        algopuzzlevqa_dataset(puzzle="maze")
    assert fake.urls == []


def test_half_downloaded_puzzle_is_not_taken_as_cached(
    fixture_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeGitHub(fixture_data)

    def fail_on_second_image(url: str) -> bytes:
        if url.endswith("maze_0057.jpg"):
            raise ConnectionResetError("connection reset")
        return fake(url)

    monkeypatch.setattr(sources, "fetch", fail_on_second_image)
    with pytest.raises(SourceError, match="connection reset"):
        algopuzzlevqa_dataset(puzzle="maze")
    assert not (sources.cache_folder() / "maze.json").exists()
    monkeypatch.setattr(sources, "fetch", fake)
    assert len(algopuzzlevqa_dataset(puzzle="maze")) == 2


def test_non_image_content_is_rejected(fixture_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeGitHub(fixture_data)

    def lfs_pointer(url: str) -> bytes:
        if url.endswith(".jpg"):
            return b"version https://git-lfs.github.com/spec/v1\noid sha256:0\n"
        return fake(url)

    monkeypatch.setattr(sources, "fetch", lfs_pointer)
    with pytest.raises(SourceError, match="is not a JPEG or PNG image"):
        algopuzzlevqa_dataset(puzzle="clock")


def test_fetch_reports_http_errors_without_retrying(monkeypatch: pytest.MonkeyPatch) -> None:
    import urllib.error
    import urllib.request

    calls: list[str] = []

    def not_found(request: urllib.request.Request, timeout: float) -> None:
        calls.append(request.full_url)
        raise urllib.error.HTTPError(request.full_url, 404, "Not Found", None, None)  # type: ignore[arg-type]

    monkeypatch.setattr(urllib.request, "urlopen", not_found)
    with pytest.raises(urllib.error.HTTPError):
        sources.fetch(sources.raw_url("clock.json"))
    assert calls == [PREFIX + "clock.json"]
