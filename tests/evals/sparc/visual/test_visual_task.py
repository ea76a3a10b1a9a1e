"""sparc_visual end to end: what the model is sent (image, then text), and scores as sparc."""

from __future__ import annotations

import base64
import copy
import io
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import resolve_sample_attachments
from inspect_ai.model import ContentImage, ContentText, get_model
from mock_outputs import mock_output
from PIL import Image
from sparc.prompts import PROMPT_REGISTRY

from inspect_sparc.core.picture.image import FONT_PATH, puzzle_png
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.scorer import score_answer
from inspect_sparc.evals.sparc.visual.tasks import TASK_VERSION, sparc_visual

PUZZLES = "tests/fixtures/sparc/puzzles.jsonl"


def recording_model(answer_for, seen: list[Any]):
    """A mockllm model that records every message list it is sent and answers per puzzle."""

    def respond(messages, tools, tool_choice, config):
        seen.append(messages)
        return mock_output(answer_for(messages[-1].content[-1].text))

    return get_model("mockllm/model", custom_outputs=respond)


def pixels(data_uri: str) -> tuple[str, tuple[int, int], bytes]:
    header, encoded = data_uri.split(",", 1)
    assert header == "data:image/png;base64"
    image = Image.open(io.BytesIO(base64.b64decode(encoded)))
    return image.mode, image.size, image.tobytes()


def test_the_model_gets_the_reference_messages_and_scores_match_sparc(
    tmp_path, sparc_records, sparc_by_id, sparc_answers, monkeypatch
):
    # the reference renderer, made to find the shipped font, is the oracle for the pixels
    from sparc_visualization.fonts import load_plot_font
    from sparc_visualization.plot import get_puzzle_image

    for module in ("text_plot", "path_cell_annotation_plot"):
        monkeypatch.setattr(
            f"sparc_visualization.plots.{module}.load_plot_font",
            lambda size, preferred_path=None: load_plot_font(size, str(FONT_PATH)),
        )
    task = sparc_visual(source=PUZZLES, level=5, plot="path_cell_annotated", prompt="corrected")
    texts = {s.input[1].content: s.id for s in task.dataset}
    answers = {a["puzzle_id"]: a["response"] for a in sparc_answers}
    seen: list = []
    model = recording_model(lambda text: answers.get(texts[text], "no idea"), seen)
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert log.eval.task_version == TASK_VERSION
    assert log.eval.task_args["plot"] == "path_cell_annotated"
    assert log.eval.metadata["renderer"] == "sparc-visualization 0.2.2"

    assert len(seen) == len(task.dataset) == sum(r["difficulty_level"] == 5 for r in sparc_records)
    for messages in seen:
        system, user = messages
        record = sparc_by_id[texts[user.content[-1].text]]
        reference = PROMPT_REGISTRY["single_shot_visual"](copy.deepcopy(record))
        assert system.role == "system" and system.content == reference["system"]
        image, text = user.content
        assert isinstance(image, ContentImage) and isinstance(text, ContentText)
        assert text.text == reference["user"]
        expected = base64.b64decode(
            get_puzzle_image(record, plot_type="path_cell_annotated", base_64_image=True)
        )
        assert pixels(image.image) == pixels(
            "data:image/png;base64," + base64.b64encode(expected).decode()
        )

    for sample in log.samples:
        ours = sample.scores["sparc_scorer"]
        expected = score_answer(parse_puzzle(sparc_by_id[sample.id]), sample.output.completion)
        assert ours.value == expected.value and ours.answer == expected.answer
    answered = [s for s in log.samples if s.id in answers]
    assert len(answered) >= 3  # real model answers, not only "no idea"


def test_the_image_is_in_the_log_once_per_sample(tmp_path, sparc_records):
    from inspect_ai.log import read_eval_log

    task = sparc_visual(source=PUZZLES, level=1)
    model = get_model("mockllm/model", custom_outputs=lambda *a: mock_output("no path"))
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none", limit=2)
    sample = read_eval_log(log.location).samples[0]
    images = [v for v in sample.attachments.values() if v.startswith("data:image/png")]
    assert len(images) == 1
    resolved = resolve_sample_attachments(sample)
    record = next(r for r in sparc_records if r["id"] == sample.id)
    uri = resolved.messages[1].content[0].image
    assert base64.b64decode(uri.split(",", 1)[1]) == puzzle_png(record, "original")

    [without] = eval(
        task, model=model, log_dir=str(tmp_path / "no"), display="none", limit=2, log_images=False
    )
    sample = read_eval_log(without.location).samples[0]
    assert not any(v.startswith("data:image/png") for v in sample.attachments.values())


def test_bad_arguments_fail_before_any_loading():
    with pytest.raises(ValueError, match="original, start_end_marked"):
        sparc_visual(source="/nonexistent.jsonl", plot="orignal")
    with pytest.raises(ValueError, match="prompt_engineering"):
        sparc_visual(source="/nonexistent.jsonl", prompt="engineering")


def test_registered_for_inspect_eval():
    from inspect_ai._util.registry import registry_lookup

    import inspect_sparc._registry  # noqa: F401

    assert registry_lookup("task", "inspect_sparc/sparc_visual") is not None
    assert registry_lookup("solver", "inspect_sparc/prepend_puzzle_image") is not None
