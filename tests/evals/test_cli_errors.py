"""Mistakes a user makes on the command line end in one clear message, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from commands import run_together

from inspect_sparc import algopuzzlevqa, sparc, sparc_agent, sparc_gym, sparc_hard, sparc_visual
from inspect_sparc.core.puzzle.parse import RecordError
from inspect_sparc.evals.errors import (
    PlainRecordError,
    PlainSourceError,
    PlainTypeError,
    PlainValueError,
)
from inspect_sparc.runtime.downloads import SourceError

LEVEL = "level must be one of 1, 2, 3, 4, 5, a list of them (-T level=1,2) or None for all levels"
#: A misspelled argument name, which Inspect alone would drop with a warning (all 500 puzzles run).
LEVLE = "sparc takes no argument 'levle' (did you mean 'level'?)"
#: Another task's argument, which Inspect alone would drop (`sparc_hard` ran level 5 anyway).
HARD_LEVEL = (
    "sparc_hard takes no argument 'level' (sparc, sparc_gym, sparc_visual, sparc_agent take it)"
)
#: Every display mode `inspect eval --display` offers, and `--json` (which implies `none`).
DISPLAYS = ["full", "rich", "plain", "log", "none", "conversation"]
OUTPUTS = [["--display", mode] for mode in DISPLAYS] + [["--json"]]
RUNS = {
    # a bad argument, in every display mode
    **{
        "level " + " ".join(output): (["inspect_sparc/sparc", "-T", "level=7", *output], {}, LEVEL)
        for output in OUTPUTS
    },
    # a misspelled argument name (checked before any download): every display mode is in
    # SLOW_RUNS, the default suite takes two (the hook that prints the line is the same)
    **{
        "levle " + " ".join(output): (["inspect_sparc/sparc", "-T", "levle=5", *output], {}, LEVLE)
        for output in (["--display", "plain"], ["--json"])
    },
    # another task's argument: the same one-line error as a misspelled name, which is checked
    # in every mode above; here the richest, the quietest and --json
    **{
        "hard level " + " ".join(output): (
            ["inspect_sparc/sparc_hard", "-T", "level=3", *output],
            {},
            HARD_LEVEL,
        )
        for output in (["--display", "full"], ["--display", "none"], ["--json"])
    },
    # the default hub, offline and not cached: fails at once, naming the other hub
    "offline hub --display none": (
        ["inspect_sparc/sparc_gym", "--display", "none"],
        {"MODELSCOPE_OFFLINE": "1", "MODELSCOPE_CACHE": "/nonexistent/ms-cache"},
        "try the other hub (-T source=huggingface)",
    ),
}


#: The misspelled name in the other display modes (slow: about 3 s of CPU a run).
SLOW_RUNS: dict[str, tuple[list[str], dict[str, str], str]] = {
    "levle " + " ".join(output): (["inspect_sparc/sparc", "-T", "levle=5", *output], {}, LEVLE)
    for output in OUTPUTS
    if "levle " + " ".join(output) not in RUNS
}


def run_all(
    runs: dict[str, tuple[list[str], dict[str, str], str]], tmp_path_factory
) -> dict[str, subprocess.CompletedProcess[str]]:
    """Every run of `runs` through the real `inspect eval`, started together (each is ~3 s of
    CLI start-up, mostly waiting on imports)."""
    commands = {}
    for name, (args, env, _) in runs.items():
        log_dir = str(tmp_path_factory.mktemp("logs"))
        command = [sys.executable, "-m", "inspect_ai", "eval", *args, "--model", "mockllm/model"]
        commands[name] = ([*command, "--log-dir", log_dir], {"env": {**os.environ, **env}})
    return run_together(commands, timeout=180)


@pytest.fixture(scope="module")
def cli_runs(tmp_path_factory) -> dict[str, subprocess.CompletedProcess[str]]:
    return run_all(RUNS, tmp_path_factory)


@pytest.mark.parametrize("name", list(RUNS))
def test_the_cli_prints_the_message_alone_on_stderr(cli_runs, name):
    """Scripts and CI run with `--display none` or `--json`: the error must show there too."""
    check_one_line(cli_runs[name], RUNS[name][2])


@pytest.mark.slow
def test_a_misspelled_name_is_one_line_in_every_display_mode(tmp_path_factory):
    results = run_all(SLOW_RUNS, tmp_path_factory)
    for name, (_, _, message) in SLOW_RUNS.items():
        check_one_line(results[name], message)


def check_one_line(result: subprocess.CompletedProcess[str], message: str) -> None:
    """A non-zero status and `message` as the one line on stderr, nothing on stdout."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0
    assert len(lines) == 1 and message in lines[0], result.stderr  # one line, not wrapped
    assert "Traceback" not in result.stderr and message not in result.stdout
    assert result.stdout.strip() == ""  # under --json stdout holds JSON records only


@pytest.mark.parametrize(
    ("build", "kind", "plain"),
    [
        (lambda: sparc(level=0), ValueError, PlainValueError),
        (lambda: sparc_hard(prompt="correct"), ValueError, PlainValueError),  # type: ignore[arg-type]  # an invalid value on purpose
        (lambda: sparc(source="sampel"), ValueError, PlainValueError),
        (lambda: sparc(source="/nonexistent/records.jsonl"), SourceError, PlainSourceError),
        (lambda: sparc_gym(max_steps=0, source="sample"), ValueError, PlainValueError),
        (lambda: sparc_visual(plot="nope", source="sample"), ValueError, PlainValueError),
        (lambda: sparc_agent(observation="video", source="sample"), ValueError, PlainValueError),  # type: ignore[arg-type]  # an invalid value on purpose
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


#: Every SPaRC and AlgoPuzzleVQA task, with the argument each one is given misspelled.
TASKS = [
    (sparc, "levle", "level"),
    (sparc_hard, "sorce", "source"),
    (sparc_gym, "max_step", "max_steps"),
    (sparc_agent, "observaton", "observation"),
    (sparc_visual, "plott", "plot"),
    (algopuzzlevqa, "puzle", "puzzle"),
]


@pytest.mark.parametrize(("build", "typo", "meant"), TASKS)
def test_a_misspelled_argument_name_stops_every_task_naming_the_one_meant(build, typo, meant):
    """From Python as from `-T`: Inspect itself would drop the name and run every puzzle."""
    with pytest.raises(TypeError) as raised:
        build(**{typo: 1, "source": "sample"})
    message = str(raised.value)
    assert isinstance(raised.value, PlainTypeError) and "\n" not in message
    assert f"takes no argument {typo!r} (did you mean {meant!r}?)" in message


def test_a_misspelled_argument_name_stops_inspects_eval(tmp_path):
    """`eval()` by task name goes through Inspect's own argument matching, as `-T` does."""
    from inspect_ai import eval

    with pytest.raises(TypeError, match=r"did you mean 'level'\?"):
        eval(
            "inspect_sparc/sparc", task_args={"levle": 5, "source": "sample"},
            model="mockllm/model", log_dir=str(tmp_path), display="none",
        )  # fmt: skip
    assert not list(tmp_path.iterdir())  # stopped before any sample ran


@pytest.mark.parametrize(
    ("task", "args", "message"),
    [
        ("sparc", {"max_steps": 5}, "sparc takes no argument 'max_steps' (sparc_gym, sparc_agent"),
        ("sparc_visual", {"traceback": True}, "'traceback' (sparc_gym, sparc_agent take it)"),
        ("sparc_gym", {"extraction": "strict"}, "'extraction' (algopuzzlevqa takes it)"),
        ("algopuzzlevqa", {"level": 2}, "'level' (sparc, sparc_gym, sparc_visual, sparc_agent"),
    ],
)
def test_another_tasks_argument_stops_naming_the_tasks_that_take_it(task, args, message):
    """`-T` goes through Inspect's registry, which alone would drop the name with a warning."""
    from inspect_ai._eval.registry import task_create

    with pytest.raises(TypeError) as raised:
        task_create(f"inspect_sparc/{task}", source="sample", **args)
    assert isinstance(raised.value, PlainTypeError) and message in str(raised.value)
