"""The paper's ontology: the mapping against the transcribed table, and the per-category metrics."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from algopuzzlevqa_helpers import REFERENCE, mock_output
from inspect_ai import eval
from inspect_ai.model import get_model

from inspect_sparc.core.algopuzzlevqa.ontology import CATEGORIES, ONTOLOGY
from inspect_sparc.core.algopuzzlevqa.puzzles import PUZZLES
from inspect_sparc.evals.algopuzzlevqa.dataset import algopuzzlevqa_dataset
from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa

FAMILIES = {"colour": "visual", "position": "visual", "shape_size": "visual", "text": "visual"}


def transcription() -> dict[str, set[str]]:
    """Puzzle -> metric names, read from the markdown table in the reference fixture."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in (REFERENCE / "ontology.md").read_text().splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ]
    header, *body = rows
    names = [f"{FAMILIES.get(name, 'algorithmic')}_{name}" for name in header[1:]]
    return {
        row[0]: {n for n, flag in zip(names, row[1:], strict=True) if flag == "1"} for row in body
    }


def test_mapping_equals_the_transcribed_table() -> None:
    table = transcription()
    assert {puzzle: set(categories) for puzzle, categories in ONTOLOGY.items()} == table
    assert set(ONTOLOGY) == set(PUZZLES)
    assert len(CATEGORIES) == 11 and CATEGORIES[0] == "visual_colour"
    assert "visual_shape_size" in CATEGORIES and "algorithmic_boolean_logic" in CATEGORIES


def test_samples_carry_their_puzzles_categories() -> None:
    table = transcription()
    for sample in algopuzzlevqa_dataset(source="sample", max_image_size=0):
        assert sample.metadata is not None
        assert set(sample.metadata["categories"]) == table[sample.metadata["puzzle"]]


def test_category_metrics_equal_a_hand_computation(tmp_path: Path) -> None:
    # Scripted run: every clock and maze instance right, board_tile_0057 right, the rest wrong.
    right = {"clock_0023", "clock_0065", "maze_0012", "maze_0057", "board_tile_0057"}
    dataset = algopuzzlevqa_dataset(source="sample")
    by_prompt = {sample.input[0].text: sample for sample in dataset}  # type: ignore[union-attr]

    def answer(messages, tools, tool_choice, config):
        sample = by_prompt[messages[0].text]
        assert sample.metadata is not None
        gold = sample.metadata["answer_letter"]
        return mock_output(f"({gold if sample.id in right else 'AB'[gold == 'A']})")

    model = get_model("mockllm/model", custom_outputs=answer)
    [log] = eval(algopuzzlevqa(source="sample"), model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success" and log.results is not None
    values = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    # By hand from the table (2 instances per puzzle): board_tile has colour, position,
    # arithmetic, boolean_logic; clock position, shape_size, text, arithmetic; maze colour,
    # position, arithmetic, graphs, optimization, search.
    hand = {
        "visual_colour": Fraction(3, 16),  # 8 puzzles; board_tile 1 + maze 2
        "visual_position": Fraction(5, 36),  # all 18
        "visual_shape_size": Fraction(2, 16),  # 8 puzzles; clock 2
        "visual_text": Fraction(2, 12),  # 6 puzzles; clock 2
        "algorithmic_arithmetic": Fraction(5, 36),  # all 18
        "algorithmic_boolean_logic": Fraction(1, 16),  # 8 puzzles; board_tile 1
        "algorithmic_combinatorics": Fraction(0, 4),  # map, number_slide
        "algorithmic_graphs": Fraction(2, 10),  # 5 puzzles; maze 2
        "algorithmic_optimization": Fraction(2, 18),  # 9 puzzles; maze 2
        "algorithmic_search": Fraction(2, 20),  # 10 puzzles; maze 2
        "algorithmic_sets": Fraction(0, 6),  # chain_link, number_slide, think_dot
    }
    assert list(hand) == list(CATEGORIES)
    assert {name: values[name] for name in CATEGORIES} == {
        name: float(value) for name, value in hand.items()
    }
    assert values["accuracy"] == 5 / 36
