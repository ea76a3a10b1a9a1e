"""Every relative link in the repository's markdown reaches a file, and every `#anchor` a heading
there, as GitHub names it (the changelog's links into docs/ once pointed at docs/docs/...)."""

from __future__ import annotations

import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: A fenced code block (its contents are commands, not links).
FENCE = re.compile(r"^```.*?^```", flags=re.S | re.M)
#: An inline link or image: `[text](target)` or `[text](target "title")`.
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
#: A URL with a scheme (https:, mailto:): checked by no test here (the hubs are unreachable).
ABSOLUTE = re.compile(r"^[a-z][a-z0-9+.-]*:", flags=re.I)


def markdown_files() -> list[str]:
    """The tracked markdown files, relative to the repository's root."""
    listed = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return listed.stdout.split()


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    """The anchors of `path`'s headings (a repeated one gets `-1`, `-2`, ...) and HTML ids."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    for line in text.splitlines():
        heading = re.match(r"#{1,6}\s+(.*)", line)
        if heading:
            slug = github_slug(heading.group(1))
            found.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
            seen[slug] = seen.get(slug, 0) + 1
        found.update(re.findall(r'<a (?:name|id)="([^"]+)"', line))
    return frozenset(found)


def broken_links(name: str) -> list[str]:
    """The relative links of markdown file `name` whose file or anchor does not exist."""
    source = ROOT / name
    text = FENCE.sub("", source.read_text(encoding="utf-8"))
    broken = []
    for target in LINK.findall(text):
        if ABSOLUTE.match(target):
            continue
        path, _, fragment = target.partition("#")
        destination = (source.parent / path).resolve() if path else source
        if not destination.exists():
            broken.append(f"{target} (no such file)")
        elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
            broken.append(f"{target} (no such heading)")
    return broken


def test_github_slugs_of_headings_with_punctuation_and_code():
    assert (
        github_slug("Log size and time beside upstream and Inspect's floor")
        == "log-size-and-time-beside-upstream-and-inspects-floor"
    )
    assert github_slug("`sparc_gym` scores") == "sparc_gym-scores"


def test_a_link_to_a_missing_file_or_heading_is_found(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "a.md").write_text("# A heading\n\n[ok](#a-heading) [x](b.md) [y](#nope)\n")
    assert broken_links("a.md") == ["b.md (no such file)", "#nope (no such heading)"]


@pytest.mark.parametrize("name", markdown_files())
def test_every_relative_link_resolves(name):
    assert broken_links(name) == []
