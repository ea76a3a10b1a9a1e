"""The page in headless Chromium at 1280 and 1920 px: no console errors, every figure loaded,
no clipped table (slow; needs the `chromium` binary and the `playwright` package, no browser
download; CI has neither)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("chromium") is None, reason="no chromium binary"),
]


def test_page_opens_without_console_errors(report, tmp_path):
    pytest.importorskip("playwright")
    sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
    from screenshot_report import WIDTHS, check_widths

    assert check_widths(report.index, tmp_path / "page") == []
    for width in WIDTHS:
        assert (tmp_path / f"page-{width}.png").stat().st_size > 10_000
