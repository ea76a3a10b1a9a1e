"""Mistakes a user makes on the command line end in one clear message, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from inspect_sparc import algopuzzlevqa, sparc, sparc_agent, sparc_gym, sparc_hard, sparc_visual
from inspect_sparc.core.puzzle import RecordError
from inspect_sparc.downloads import SourceError
from inspect_sparc.evals.errors import PlainRecordError, PlainSourceError, PlainValueError


def inspect_eval(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "inspect_ai", "eval", *args, "--model", "mockllm/model"]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=120, env={**os.environ, **env}
    )


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["inspect_sparc/sparc", "-T", "level=7"], {}, "level must be one of 1, 2, 3, 4, 5"),
        # the default hub, offline and not cached: fails at once, naming the other hub
        (
            ["inspect_sparc/sparc_gym"],
            {"MODELSCOPE_OFFLINE": "1", "MODELSCOPE_CACHE": "/nonexistent/ms-cache"},
            "try the other hub (-T source=huggingface)",
        ),
    ],
)
def test_the_cli_prints_the_message_alone(tmp_path, args, env, message):
    result = inspect_eval(*args, "--log-dir", str(tmp_path), **env)
    output = " ".join((result.stdout + result.stderr).split())
    assert result.returncode != 0
    assert message in output
    assert "Traceback" not in output and len((result.stdout + result.stderr).splitlines()) < 12


@pytest.mark.parametrize(
    ("build", "kind", "plain"),
    [
        (lambda: sparc(level=0), ValueError, PlainValueError),
        (lambda: sparc_hard(prompt="correct"), ValueError, PlainValueError),
        (lambda: sparc(source="sampel"), ValueError, PlainValueError),
        (lambda: sparc(source="/nonexistent/records.jsonl"), SourceError, PlainSourceError),
        (lambda: sparc_gym(max_steps=0, source="sample"), ValueError, PlainValueError),
        (lambda: sparc_visual(plot="nope", source="sample"), ValueError, PlainValueError),
        (lambda: sparc_agent(observation="video", source="sample"), ValueError, PlainValueError),
        (lambda: algopuzzlevqa(puzzle="nope", source="sample"), ValueError, PlainValueError),
    ],
)
def test_task_errors_keep_their_type_and_are_marked_plain(build, kind, plain):
    with pytest.raises(kind) as raised:
        build()
    assert isinstance(raised.value, plain) and raised.value.message == str(raised.value)


def test_a_bad_record_is_a_plain_record_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "difficulty_level": 9}\n', encoding="utf-8")
    with pytest.raises(RecordError) as raised:
        sparc(source=str(bad))
    assert isinstance(raised.value, PlainRecordError)
