"""Reports built from the same logs are the same before and after a change of the report's code:
the fixed logs under `tests/fixtures/report_golden/logs/` rebuilt and compared with the
fingerprint kept beside them (every table file and the page's text; `golden.py` writes both).
A change that means to change the page rewrites the fingerprint in a commit of its own."""

from __future__ import annotations

import difflib

import pytest
from golden import FINGERPRINT, LOGS, fingerprint

pytestmark = pytest.mark.slow


def test_the_report_of_the_fixed_logs_matches_its_fingerprint(tmp_path):
    pytest.importorskip("matplotlib")
    built = fingerprint(LOGS, tmp_path / "report")
    kept = FINGERPRINT.read_text(encoding="utf-8")
    diff = list(difflib.unified_diff(kept.splitlines(), built.splitlines(), "kept", "built", n=1))
    assert not diff, "\n".join(diff[:80])
