"""The package's offline model, `inspect_sparc/replay`: a fixed answer with its usage set (so no
tokenizer download), scored as any model's answer; a misspelled model name stops at once."""

from __future__ import annotations

from typing import Any, cast

import pytest
from inspect_ai import eval
from inspect_ai.model import get_model

from inspect_sparc import sparc
from inspect_sparc.evals.errors import PlainValueError
from inspect_sparc.evals.replay import DEFAULT_ANSWER


def test_its_answer_goes_through_generate_and_the_scorer(sparc_records, tmp_path):
    """Answered with a puzzle's stored solution, that puzzle is solved and the others are not:
    the verdicts are the scorer's own, on the model's text."""
    record = sparc_records[0]
    path = ", ".join(f"({p['x']}, {p['y']})" for p in record["solutions"][0]["path"])
    model = get_model("inspect_sparc/replay", answer=f"#### {path}")
    [log] = eval(sparc(source="sample"), model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success" and log.samples
    solved = {
        str(s.id)
        for s in log.samples
        if s.scores and cast("dict[str, Any]", s.scores["sparc_scorer"].value)["correct"]
    }
    assert record["id"] in solved and len(solved) < len(log.samples)
    for sample in log.samples:
        usage = sample.output.usage
        assert usage is not None and usage.output_tokens == len(path.split()) + 1
        assert isinstance(sample.input, list)
        assert usage.input_tokens >= len(sample.input[-1].text.split())


def test_by_default_it_answers_with_no_path(tmp_path):
    [log] = eval(
        sparc(source="sample", level=1), model="inspect_sparc/replay",
        log_dir=str(tmp_path), display="none",
    )  # fmt: skip
    assert log.samples and {s.output.completion for s in log.samples} == {DEFAULT_ANSWER}
    assert log.results is not None and log.results.scores[0].metrics["accuracy"].value == 0


def test_a_misspelled_model_name_stops_with_the_name_meant():
    with pytest.raises(PlainValueError, match=r"no model 'replai' \(did you mean 'replay'\?\)"):
        get_model("inspect_sparc/replai")


#: An answer `-M answer=` cannot carry: Inspect reads `#` as a YAML comment, splits on commas.
PATH_ANSWER = "The path:\n#### (0,0), (1,0)"


@pytest.mark.parametrize(
    ("model_args", "message"),
    [
        ({"answr": "x"}, r"takes no -M argument 'answr' \(did you mean 'answer'\?\)"),
        ({"answer": None}, r"-M answer was read as None, not as text .* -M answer_file=PATH"),
        ({"answer": ["(0", "0)"]}, r"read as \['\(0', '0\)'\], not as text"),
        ({"answer": "  "}, "the replay answer is empty"),
        ({"answer_file": "/nonexistent/answer.txt"}, "cannot read it"),
        ({"answer": "x", "answer_file": "/dev/null"}, "not both"),
    ],
)
def test_an_answer_it_cannot_use_stops_before_any_run(model_args, message):
    with pytest.raises(PlainValueError, match=message):
        get_model("inspect_sparc/replay", **model_args)


@pytest.fixture(scope="module")
def cli_runs(tmp_path_factory):
    """`inspect eval` with the answer from a file (-M answer_file, --model-config) and with a
    -M name the model does not take, in the display modes that show errors differently."""
    import json
    import os
    import sys

    from commands import run_together

    folder = tmp_path_factory.mktemp("replay")
    (folder / "answer.txt").write_text(PATH_ANSWER, encoding="utf-8")
    # a YAML double-quoted string (JSON's quoting): \n is the line break
    (folder / "model.yaml").write_text(f"answer: {json.dumps(PATH_ANSWER)}\n", encoding="utf-8")
    runs = {
        "answer_file": ["-M", f"answer_file={folder / 'answer.txt'}"],
        "model-config": ["--model-config", str(folder / "model.yaml")],
        **{
            f"answr {' '.join(mode)}": ["-M", "answr=x", *mode]
            for mode in (["--display", "full"], ["--display", "none"], ["--json"])
        },
    }
    commands = {}
    for name, args in runs.items():
        log_dir = folder / name.replace(" ", "_")
        command = [sys.executable, "-m", "inspect_ai", "eval", "inspect_sparc/sparc", "-T"]
        command += ["source=sample", "--limit", "1", "--model", "inspect_sparc/replay", *args]
        if "--display" not in args and "--json" not in args:
            command += ["--display", "none"]
        commands[name] = ([*command, "--log-dir", str(log_dir)], {"env": dict(os.environ)})
    return folder, run_together(commands, timeout=300)


@pytest.mark.parametrize("name", ["answer_file", "model-config"])
def test_an_answer_with_commas_and_lines_comes_from_a_file(cli_runs, name):
    from inspect_ai.log import list_eval_logs, read_eval_log

    folder, results = cli_runs
    assert results[name].returncode == 0, results[name].stderr
    [info] = list_eval_logs(str(folder / name))
    log = read_eval_log(info)
    assert log.samples and log.samples[0].output.completion == PATH_ANSWER


@pytest.mark.parametrize("mode", ["--display full", "--display none", "--json"])
def test_a_model_argument_it_does_not_take_stops_with_one_line(cli_runs, mode):
    result = cli_runs[1][f"answr {mode}"]
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0 and len(lines) == 1, result.stderr
    assert "takes no -M argument 'answr' (did you mean 'answer'?)" in lines[0]
    assert "Traceback" not in result.stderr + result.stdout
