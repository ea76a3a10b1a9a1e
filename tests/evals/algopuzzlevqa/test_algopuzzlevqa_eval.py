"""End-to-end evals with mockllm on the 36 shipped instances: protocol, reading, metrics, epochs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, cast

import eval_runs
from algopuzzlevqa_helpers import image_bytes, mock_output, pixels_sha256, reference_protocol
from eval_runs import metrics_of
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import ContentImage, ContentText, get_model
from inspect_ai.scorer import Score

from inspect_sparc.core.algopuzzlevqa.ontology import CATEGORIES
from inspect_sparc.core.algopuzzlevqa.puzzles import PUZZLES
from inspect_sparc.evals.algopuzzlevqa.dataset import algopuzzlevqa_dataset
from inspect_sparc.evals.algopuzzlevqa.tasks import TASK_VERSION, algopuzzlevqa

REFERENCE = reference_protocol()
SAMPLES: dict[str, Sample] = {
    cast(str, sample.id): sample
    for sample in algopuzzlevqa_dataset(source="sample", max_image_size=0)
}
BY_PROMPT = {sample.input[0].text: sample for sample in SAMPLES.values()}  # type: ignore[union-attr]
"""First prompt text -> its sample, to let the mock model answer as a test needs."""

NO_LETTER: str = REFERENCE["clock_0023"]["followup_after_first_reply"]["first_reply"]
"""The reference's first reply with no letter ("I could not decide between the options.")."""


def id_of(sample: Sample) -> str:
    """A sample's id (every AlgoPuzzleVQA sample has its image's name)."""
    return cast(str, sample.id)


def metadata_of(item: Sample | Score) -> dict[str, Any]:
    """The metadata of a sample or score (every one here has some)."""
    assert item.metadata is not None
    return item.metadata


def explanation_of(score: Score) -> str:
    """A score's explanation (the scorer always gives one)."""
    assert score.explanation is not None
    return score.explanation


def scorer_score(sample: EvalSample) -> Score:
    """The score the eval's one scorer gave a logged sample."""
    assert sample.scores is not None
    return sample.scores["algopuzzlevqa_scorer"]


def value_of(score: Score) -> dict[str, Any]:
    """A score's value: the scorer's dict of `correct` and `follow_up`."""
    return cast("dict[str, Any]", score.value)


def gold(sample_id: str) -> str:
    letter: str = metadata_of(SAMPLES[sample_id])["answer_letter"]
    return letter


def wrong(letter: str) -> str:
    """Another option letter than `letter` (A or B, so it exists for two options too)."""
    return "B" if letter == "A" else "A"


def first_reply(sample_id: str) -> str:
    """The scripted first reply, per puzzle."""
    puzzle: str = metadata_of(SAMPLES[sample_id])["puzzle"]
    letter = gold(sample_id)
    return {
        "board_tile": "Both colours count 14, so the answer is (C).",  # (C) names no option
        "clock": NO_LETTER,  # no capital A-D at all
        "n_queens": "I cannot tell.",  # no letter, twice
        "calendar": "Days are counted modulo seven.",  # D only inside "Days"
        "maze": f"(A) and (B) look close; counting the path gives ({letter}).",
    }.get(puzzle, f"The answer is {letter}")


def run(
    model_outputs, tmp_path: Path, task_args: dict[str, Any] | None = None, **kwargs
) -> EvalLog:
    """Eval the bundled sample against a mock model answering with `model_outputs`."""
    model = get_model("mockllm/model", custom_outputs=model_outputs)
    task = algopuzzlevqa(source="sample", **(task_args or {}))
    return eval_runs.run(task, model, tmp_path, **kwargs)


def test_paper_protocol_end_to_end(tmp_path: Path) -> None:
    first_calls: dict[str, list[Any]] = {}
    follow_ups: dict[str, list[Any]] = {}

    def answer(messages, tools, tool_choice, config):
        assert len(messages) == 1 and messages[0].role == "user"  # always one single-turn prompt
        text = messages[0].text
        if text in BY_PROMPT:
            sample_id = id_of(BY_PROMPT[text])
            first_calls[sample_id] = messages[0].content
            return mock_output(first_reply(sample_id))
        sample_id = next(
            s for p, s in ((p, id_of(s)) for p, s in BY_PROMPT.items()) if text.startswith(p)
        )
        follow_ups[sample_id] = messages[0].content
        if metadata_of(SAMPLES[sample_id])["puzzle"] == "n_queens":
            return mock_output("I still cannot tell.")
        return mock_output(f"({gold(sample_id)})")

    log = run(answer, tmp_path)

    # What was sent: the reference's text first, then its resized pixels as a PNG.
    assert len(first_calls) == 36
    for sample_id, content in first_calls.items():
        text, image = content
        assert isinstance(text, ContentText) and isinstance(image, ContentImage)
        assert text.text == REFERENCE[sample_id]["prompt_describe"]
        assert image.image.startswith("data:image/png;base64,")
        size, kind, digest = pixels_sha256(image_bytes(image.image))
        assert [list(size), kind, digest] == [
            REFERENCE[sample_id]["sent_size"],
            "PNG",
            REFERENCE[sample_id]["sent_png_pixels_sha256"],
        ]
    # The follow-up: asked exactly when the first reply held no capital A-D, as one new prompt.
    assert sorted(follow_ups) == sorted(s for s in SAMPLES if s.startswith(("clock", "n_queens")))
    for sample_id, content in follow_ups.items():
        text, image = content
        if sample_id.startswith("clock"):
            assert text.text == REFERENCE[sample_id]["followup_after_first_reply"]["prompt"]
        assert image.image == first_calls[sample_id][1].image

    # The reading: (C) of two options reads as (A); "Days" reads as (D).
    expected = {
        sample_id: int(
            {"board_tile": gold(sample_id) == "A", "calendar": gold(sample_id) == "D"}.get(
                metadata_of(sample)["puzzle"], not sample_id.startswith("n_queens")
            )
        )
        for sample_id, sample in SAMPLES.items()
    }
    assert log.samples is not None and len(log.samples) == 36
    scores = {s.id: scorer_score(s) for s in log.samples}
    assert {i: value_of(score)["correct"] for i, score in scores.items()} == expected
    values = metrics_of(log)
    assert values["accuracy"] == sum(expected.values()) / 36
    assert set(values) == {"accuracy", "stderr", *PUZZLES, *CATEGORIES}

    tile = scores["board_tile_0057"]
    assert tile.answer == "C" and metadata_of(tile)["first_option_fallback"] is True
    assert "parenthesised (C), which names no option, so the first option (A) 'No'" in (
        explanation_of(tile)
    )
    calendar = scores["calendar_0059"]
    assert (calendar.answer, metadata_of(calendar)["rule"], metadata_of(calendar)["word"]) == (
        "D",
        "in_word",
        "Days",
    )
    assert "bare capital D inside the word 'Days'" in explanation_of(calendar)
    clock = next(s for s in log.samples if s.id == "clock_0023")
    assert [m.role for m in clock.messages] == ["user", "assistant", "user", "assistant"]
    assert clock.messages[2].text == REFERENCE["clock_0023"]["followup_after_first_reply"]["prompt"]
    assert explanation_of(scores["clock_0023"]).startswith("Read from the follow-up reply (paper")
    queens = scores["n_queens_0011"]
    assert queens.value == {"correct": 0, "follow_up": 1} and queens.answer == ""
    assert "no option letter found" in explanation_of(queens)
    assert log.eval.task_version == TASK_VERSION == "2-C"
    assert log.plan.config.temperature == 0.0


def test_strict_protocol_end_to_end(tmp_path: Path) -> None:
    def answer(messages, tools, tool_choice, config):
        sample = BY_PROMPT[messages[0].text]
        if len(messages) == 1:
            return mock_output(first_reply(id_of(sample)))
        assert [m.role for m in messages] == ["user", "assistant", "user"]  # a chat turn
        letters = "(A) (B)" if metadata_of(sample)["puzzle"] == "board_tile" else "(A) (B) (C) (D)"
        assert messages[2].text == f"Therefore, among {letters}, the answer is:"
        if metadata_of(sample)["puzzle"] == "n_queens":
            return mock_output("I still cannot tell.")
        return mock_output(f"({gold(id_of(sample))})")

    log = run(answer, tmp_path, {"extraction": "strict"}, limit=18)
    assert log.samples is not None and len(log.samples) == 18
    scores = {s.metadata["puzzle"]: scorer_score(s) for s in log.samples}
    follow_ups = {p for p, score in scores.items() if value_of(score)["follow_up"]}
    assert follow_ups == {"board_tile", "calendar", "clock", "n_queens"}
    wrong_ones = {p for p, score in scores.items() if not value_of(score)["correct"]}
    assert wrong_ones == {"n_queens"}
    assert explanation_of(scores["calendar"]).startswith("Read from the follow-up reply (strict")
    assert metadata_of(scores["board_tile"])["first_letter"] == "C"


def test_limit_36_gives_two_of_each_puzzle(tmp_path: Path) -> None:
    log = run(lambda *args: mock_output("(A)"), tmp_path, {"max_image_size": 0}, limit=36)
    assert log.samples is not None
    counts = Counter(sample.metadata["puzzle"] for sample in log.samples)
    assert counts == {name: 2 for name in PUZZLES}


def test_metrics_under_epochs(tmp_path: Path) -> None:
    calls: Counter[str] = Counter()

    def alternate(messages, tools, tool_choice, config):
        text = messages[0].text
        letter = gold(id_of(BY_PROMPT[text]))
        calls[text] += 1
        return mock_output(f"({letter})" if calls[text] == 1 else f"({wrong(letter)})")

    log = run(alternate, tmp_path, {"max_image_size": 0}, epochs=2)
    values = metrics_of(log)
    assert values["accuracy"] == 0.5
    assert {name: values[name] for name in PUZZLES} == {name: 0.5 for name in PUZZLES}
    assert {name: values[name] for name in CATEGORIES} == {name: 0.5 for name in CATEGORIES}
    assert log.samples is not None and len(log.samples) == 72


def test_a_limit_during_the_paper_follow_up_keeps_the_first_exchange(tmp_path: Path) -> None:
    log = run(
        lambda *args: mock_output(NO_LETTER),
        tmp_path,
        {"max_image_size": 0},
        limit=1,
        token_limit=3,  # each mock call uses 2 tokens: the follow-up's reply crosses the limit
    )
    assert log.samples is not None
    sample = log.samples[0]
    assert sample.limit is not None and sample.limit.type == "token"
    assert [m.role for m in sample.messages][:3] == ["user", "assistant", "user"]
    assert sample.messages[1].text == NO_LETTER
    assert sample.messages[2].text.endswith("Therefore, among (A) (B) (C) (D), the answer is:")
