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
