"""End-to-end evals with mockllm on the 36 shipped instances: protocol, metrics, epochs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from algopuzzlevqa_helpers import fixture_records, last_user_text, mock_output
from inspect_ai import eval
from inspect_ai.log import EvalLog, resolve_sample_attachments
from inspect_ai.model import ContentImage, ContentText, get_model

from inspect_sparc.algopuzzlevqa.prompts import build_prompt
from inspect_sparc.algopuzzlevqa.puzzles import PUZZLES
from inspect_sparc.algopuzzlevqa.tasks import algopuzzlevqa

GOLD = {
    build_prompt(r["question"], r["options"]): (
        r["_puzzle"],
        "ABCD"[r["options"].index(r["answer"])],
    )
    for r in fixture_records()
}
"""Prompt text -> (puzzle, gold letter), to let the mock model answer as a test needs."""


def wrong(letter: str, puzzle: str) -> str:
    """Another option letter than `letter`."""
    return "B" if letter == "A" else "A"


def metrics(log: EvalLog) -> dict[str, float]:
    """Every metric of the log's (single) scorer, by name."""
    assert log.results is not None
    return {name: m.value for name, m in log.results.scores[0].metrics.items()}


def run(model_outputs, tmp_path: Path, **kwargs) -> EvalLog:  # noqa: ANN001
    """Eval the bundled sample against a mock model answering with `model_outputs`."""
    model = get_model("mockllm/model", custom_outputs=model_outputs)
    [log] = eval(
        algopuzzlevqa(source="sample"), model=model, log_dir=str(tmp_path), display="none", **kwargs
    )
    assert log.status == "success", log.error
    return log


def test_eval_protocol_follow_up_and_per_puzzle_metrics(tmp_path: Path) -> None:
    seen_images: list[str] = []

    def answer(messages, tools, tool_choice, config):  # noqa: ANN001, ANN202
        first = messages[0].content
        image, text = first
        assert isinstance(image, ContentImage) and isinstance(text, ContentText)
        seen_images.append(image.image.split(",")[0])
        puzzle, gold = GOLD[text.text]
        if len(messages) > 1:  # the follow-up turn
            assert messages[1].role == "assistant" and messages[2].role == "user"
            if puzzle == "board_tile":
                assert last_user_text(messages) == "Therefore, among (A) (B), the answer is:"
                return mock_output(f"({gold})")
            assert last_user_text(messages) == "Therefore, among (A) (B) (C) (D), the answer is:"
            return mock_output(f"({wrong(gold, puzzle)})")
        if puzzle == "board_tile":
            return mock_output("Both colours count 14, so the answer is (C).")  # not an option
        if puzzle == "clock":
            return mock_output("The event starts at 8:56.")  # no letter at all
        if puzzle == "calendar":
            return mock_output(f"(A) and (B) look close; the answer is ({wrong(gold, puzzle)}).")
        if puzzle == "maze":
            return mock_output(f"Counting the path: ({gold}).")
        return mock_output(f"Let me describe the image. ... Answer: {gold}")

    log = run(answer, tmp_path)
    values = metrics(log)
    assert values["accuracy"] == 16 / 18
    assert 0 < values["stderr"] < 1
    expected = {name: 1.0 for name in PUZZLES} | {"clock": 0.0, "calendar": 0.0}
    assert {name: values[name] for name in PUZZLES} == expected
    assert set(values) == {"accuracy", "stderr", *PUZZLES}
    assert set(seen_images) == {"data:image/jpeg;base64", "data:image/png;base64"}

    assert log.samples is not None and len(log.samples) == 36
    by_id = {sample.id: sample for sample in log.samples}
    tile = by_id["board_tile_0057"]
    assert [m.role for m in tile.messages] == ["user", "assistant", "user", "assistant"]
    assert tile.messages[2].text == "Therefore, among (A) (B), the answer is:"
    image = resolve_sample_attachments(tile).input[0].content[0]  # type: ignore[index, union-attr]
    assert image.image.startswith("data:image/jpeg;base64,")  # viewable in `inspect view`
    score = tile.scores["algopuzzlevqa_scorer"]
    assert score.value == {"correct": 1, "follow_up": 1}
    assert score.answer == "B"
    assert score.explanation == ("Extracted (B) 'Yes'; gold (B) 'Yes'; follow-up needed; correct.")
    assert score.metadata["first_letter"] == "C"

    clock = by_id["clock_0023"].scores["algopuzzlevqa_scorer"]
    assert clock.value == {"correct": 0, "follow_up": 1}
    assert "gold (C) '8:56'" in clock.explanation
    assert clock.metadata["first_letter"] is None

    maze = by_id["maze_0012"]
    assert [m.role for m in maze.messages] == ["user", "assistant"]
    assert maze.scores["algopuzzlevqa_scorer"].explanation == (
        "Extracted (C) '5'; gold (C) '5'; follow-up not needed; correct."
    )
    assert log.eval.task_version == "1-A"
    assert log.plan.config.temperature == 0.0


def test_unreadable_follow_up_is_incorrect(tmp_path: Path) -> None:
    log = run(lambda *args: mock_output("I cannot tell."), tmp_path, limit=2)
    assert metrics(log)["accuracy"] == 0.0
    assert log.samples is not None
    score = log.samples[0].scores["algopuzzlevqa_scorer"]
    assert score.answer == ""
    assert score.explanation.startswith("Extracted no option letter found")
    assert len(log.samples[0].messages) == 4


def test_limit_36_gives_two_of_each_puzzle(tmp_path: Path) -> None:
    log = run(lambda *args: mock_output("(A)"), tmp_path, limit=36)
    assert log.samples is not None
    counts = Counter(sample.metadata["puzzle"] for sample in log.samples)
    assert counts == {name: 2 for name in PUZZLES}


def test_metrics_under_epochs(tmp_path: Path) -> None:
    calls: Counter[str] = Counter()

    def alternate(messages, tools, tool_choice, config):  # noqa: ANN001, ANN202
        text = messages[0].content[1].text
        puzzle, gold = GOLD[text]
        calls[text] += 1
        return mock_output(f"({gold})" if calls[text] == 1 else f"({wrong(gold, puzzle)})")

    log = run(alternate, tmp_path, epochs=2)
    values = metrics(log)
    assert values["accuracy"] == 0.5
    assert {name: values[name] for name in PUZZLES} == {name: 0.5 for name in PUZZLES}
    assert log.samples is not None and len(log.samples) == 72
