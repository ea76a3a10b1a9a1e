"""Every custom metric through Inspect's real epoch reduction (`pytest_inspect_evals.metrics`).

A metric receives the score the epoch reducer leaves, not the one the scorer returned. These tests
feed the metrics the values our scorers really return (real puzzles, real answers, real gym
episodes) through a real eval: equal epochs must change nothing under `mean` and `mode`, and
disagreeing epochs must give the mean over each sample's epochs, as the README promises.
"""

from __future__ import annotations

import math
import random

import pytest

# pytest-inspect-evals needs Python 3.11+; the dev extra installs it only there.
pytest.importorskip("pytest_inspect_evals", reason="pytest-inspect-evals needs Python 3.11+")
from pytest_inspect_evals.metrics import (
    assert_agreeing_epochs_change_nothing,
    run_metrics,
)

from inspect_sparc.contract.scores import BREAK_METRICS, CORRECT
from inspect_sparc.core.episode.baselines import astar_policy, random_policy, run_policy
from inspect_sparc.core.puzzle.answer import format_path
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.algopuzzlevqa.metrics import membership_accuracy
from inspect_sparc.evals.metrics import (
    accuracy,
    accuracy_by_level,
    grouped_accuracy,
    key_means,
    key_ratios,
    stderr,
)
from inspect_sparc.evals.sparc.episode_scorer import (
    chance_level,
    episode_ending_rates,
    episode_metrics,
    score_episode,
    step_counts,
)
from inspect_sparc.evals.sparc.scorer import (
    invalid_path_rate,
    rule_break_rates,
    score_answer,
    sparc_metrics,
)


@pytest.fixture(autouse=True)
def offline_token_counts(monkeypatch):
    """The helpers run `mockllm/model` without `usage`, whose token count would download
    tiktoken's encoding file; count text offline (tokens are not what these tests check)."""
    import inspect_ai.model._model as model_module

    monkeypatch.setattr(model_module, "count_text_tokens", lambda text: max(1, len(text) // 4))


@pytest.fixture(scope="module")
def sparc_scores(sparc_records):
    """Real `sparc` scores: per puzzle, a solved answer and one wrong answer, with its level."""
    solved, wrong, metadata = [], [], []
    for record in sparc_records[:6]:
        puzzle = parse_puzzle(record)
        solution = puzzle.solutions[0]
        solved.append(score_answer(puzzle, format_path(solution)).value)
        # a wrong answer: the solution with its last step dropped (misses E, breaks rules)
        wrong.append(score_answer(puzzle, format_path(solution[:-1])).value)
        metadata.append({"level": record["difficulty_level"]})
    return solved, wrong, metadata


def test_sparc_metrics_agree_across_equal_epochs(sparc_scores):
    solved, wrong, metadata = sparc_scores
    mixed = [s if i % 2 else w for i, (s, w) in enumerate(zip(solved, wrong, strict=True))]
    # the task's own metrics: accuracy, stderr, invalid_path_rate, accuracy_by_level,
    # rule_break_rates
    assert_agreeing_epochs_change_nothing(sparc_metrics(), mixed, metadata=metadata)
    # and the generic ones that rebuild metrics of logs before task version 1-C
    metrics = [
        accuracy(),
        stderr(),
        grouped_accuracy("level", name_template="level_{group}"),
        invalid_path_rate(),
        key_means(BREAK_METRICS),
    ]
    mixed = [s if i % 2 else w for i, (s, w) in enumerate(zip(solved, wrong, strict=True))]
    assert_agreeing_epochs_change_nothing(metrics, mixed, metadata=metadata)


def test_sparc_metrics_take_the_mean_over_disagreeing_epochs(sparc_scores):
    solved, wrong, metadata = sparc_scores
    # each puzzle solved in 1 of 3 epochs: every per-puzzle mean is 1/3
    epochs = [[s, w, w] for s, w in zip(solved, wrong, strict=True)]
    metrics = [accuracy(), accuracy_by_level(), invalid_path_rate(), rule_break_rates()]
    result = run_metrics(metrics, epochs, metadata=metadata)
    assert result["accuracy"] == pytest.approx(1 / 3)
    for level in {m["level"] for m in metadata}:
        assert result[f"level_{level}"] == pytest.approx(1 / 3)
    expected_invalid = sum(w["invalid_path"] for w in wrong) * 2 / 3 / len(wrong)
    assert result["invalid_path_rate"] == pytest.approx(expected_invalid)
    for name, key in BREAK_METRICS.items():
        assert result[name] == pytest.approx(sum(w[key] for w in wrong) * 2 / 3 / len(wrong))


@pytest.fixture(scope="module")
def gym_scores(sparc_records):
    """Real `sparc_gym` scores: an A* episode and a random walk per puzzle, with its level (whole
    `Score`s: the chance level is in their metadata)."""
    astar, walks, metadata = [], [], []
    for index, record in enumerate(sparc_records[:6]):
        puzzle = parse_puzzle(record)
        astar.append(score_episode(run_policy(puzzle, astar_policy(puzzle, random.Random(0)))))
        walks.append(score_episode(run_policy(puzzle, random_policy(random.Random(index)))))
        metadata.append({"level": record["difficulty_level"]})
    return astar, walks, metadata


def test_gym_metrics_agree_across_equal_epochs(gym_scores):
    astar, walks, metadata = gym_scores
    # episode_metrics(): accuracy, stderr, accuracy_by_level, episode_ending_rates, step_counts,
    # chance_level, rule_break_rates
    scores = astar[:3] + walks[3:]
    assert_agreeing_epochs_change_nothing(episode_metrics(), scores, metadata=metadata)


def test_gym_rates_take_the_mean_over_disagreeing_epochs(gym_scores):
    astar, walks, metadata = gym_scores
    epochs = [[a, w] for a, w in zip(astar, walks, strict=True)]
    metrics = [episode_ending_rates(), step_counts(), chance_level()]
    result = run_metrics(metrics, epochs, metadata=metadata)
    pairs = list(zip(astar, walks, strict=True))
    for name, key in (("dead_end_rate", "dead_end"), ("reached_end_rate", "reached_end")):
        assert result[name] == pytest.approx(
            sum((a.value[key] + w.value[key]) / 2 for a, w in pairs) / 6
        )
    assert result["mean_steps"] == pytest.approx(
        sum((a.value["steps"] + w.value["steps"]) / 2 for a, w in pairs) / 6
    )
    chances = [a.metadata["chance_probability"] for a in astar]
    assert chances == [w.metadata["chance_probability"] for w in walks]  # the puzzle's
    assert result["chance"] == pytest.approx(sum(chances) / 6)


def test_gym_step_shares_pool_steps_over_disagreeing_epochs(gym_scores):
    astar, walks, metadata = gym_scores
    shares = key_ratios({"illegal_action_rate": ("illegal", "steps")})
    epochs = [[a, w] for a, w in zip(astar, walks, strict=True)]
    result = run_metrics([shares], epochs, metadata=metadata)
    # the mean reducer halves both sums alike, so the pooled share is over all epochs' steps
    pairs = list(zip(astar, walks, strict=True))
    illegal = sum(a.value["illegal"] + w.value["illegal"] for a, w in pairs)
    steps = sum(a.value["steps"] + w.value["steps"] for a, w in pairs)
    assert result["illegal_action_rate"] == pytest.approx(illegal / steps)


def test_membership_accuracy_through_the_reducer():
    metadata = [
        {"categories": ["visual_colour", "visual_position"]},
        {"categories": ["visual_position"]},
        {"categories": ["visual_colour"]},
    ]
    scores = [{"correct": 1, "follow_up": 0}, {"correct": 0, "follow_up": 0}]
    scores.append({"correct": 1, "follow_up": 1})
    metric = membership_accuracy(names=["visual_colour", "visual_position", "graphs"])
    assert_agreeing_epochs_change_nothing([metric], scores, metadata=metadata)
    right, wrong = {"correct": 1, "follow_up": 0}, {"correct": 0, "follow_up": 0}
    result = run_metrics(
        [metric], [[right, wrong], [wrong, wrong], [right, right]], metadata=metadata
    )
    assert result["visual_colour"] == pytest.approx((0.5 + 1.0) / 2)
    assert result["visual_position"] == pytest.approx((0.5 + 0.0) / 2)
    assert "graphs" not in result


def test_tool_use_through_the_reducer():
    from inspect_sparc.evals.sparc.agent.scorer import tool_use

    scores = [
        {"tool_calls": 6, "turns": 7, "no_tool_turns": 1},
        {"tool_calls": 3, "turns": 3, "no_tool_turns": 0},
    ]
    assert_agreeing_epochs_change_nothing([tool_use()], scores)
    # one episode's epochs disagree: the mean reducer averages each count first
    quiet = {"tool_calls": 2, "turns": 4, "no_tool_turns": 2}
    result = run_metrics([tool_use()], [[scores[0], quiet], [scores[1], scores[1]]])
    assert result["tool_calls_per_episode"] == pytest.approx(((6 + 2) / 2 + 3) / 2)
    assert result["no_tool_call_rate"] == pytest.approx(((1 + 2) / 2) / ((7 + 4) / 2 + 3))


def test_malformed_tool_use_through_the_epoch_reducer():
    from inspect_sparc.evals.sparc.agent.scorer import malformed_tool_use

    scores = [
        {"tool_calls": 6, "malformed_tool_calls": 2},
        {"tool_calls": 3, "malformed_tool_calls": 0},
    ]
    assert_agreeing_epochs_change_nothing([malformed_tool_use()], scores)
    # one episode's epochs disagree: the mean reducer averages each count first
    noisy = {"tool_calls": 4, "malformed_tool_calls": 6}
    result = run_metrics([malformed_tool_use()], [[scores[0], noisy], [scores[1], scores[1]]])
    assert result["malformed_tool_calls_per_episode"] == pytest.approx(((2 + 6) / 2 + 0) / 2)
    malformed, moves = (2 + 6) / 2 + 0, (6 + 4) / 2 + 3
    assert result["malformed_tool_call_rate"] == pytest.approx(malformed / (malformed + moves))
    silent = run_metrics([malformed_tool_use()], [[{"tool_calls": 0, "malformed_tool_calls": 0}]])
    assert math.isnan(silent["malformed_tool_call_rate"])


def test_split_accuracy_through_the_reducer(monkeypatch):
    # a subset run's headline metrics over GPT-OSS 120B's published verdicts on informative:50;
    # the helper names its samples s0, s1, ...: they are read as the subset's puzzle ids
    from shipped_csvs import GPT_OSS, published_on, shipped

    import inspect_sparc.evals.metrics as metrics_module
    from inspect_sparc.evals.metrics import split_accuracy, split_accuracy_by_level
    from inspect_sparc.published_runs.frames import subset_estimates

    subset = "informative:50"
    verdicts = published_on(subset, GPT_OSS)
    ids = list(verdicts)
    levels = shipped("verdicts.csv").set_index("puzzle_id")["level"]
    real_ids = metrics_module.puzzle_values
    monkeypatch.setattr(
        metrics_module,
        "puzzle_values",
        lambda scores, key=CORRECT: {ids[int(k[1:])]: v for k, v in real_ids(scores, key).items()},
    )
    solved = [{CORRECT: int(verdicts[pid])} for pid in ids]
    metadata = [{"level": int(levels[pid])} for pid in ids]
    metrics = [split_accuracy(subset), split_accuracy_by_level(subset)]
    assert_agreeing_epochs_change_nothing(metrics, solved, metadata=metadata, reducers=["mean"])
    # every puzzle but the first failed in a second epoch: the estimate of the per-puzzle means
    wrong = {CORRECT: 0}
    epochs = [[s, wrong] if i else [s, s] for i, s in enumerate(solved)]
    result = run_metrics(metrics, epochs, metadata=metadata)
    halves = [1.0] + [0.5] * (len(solved) - 1)
    means = {pid: s[CORRECT] * h for pid, s, h in zip(ids, solved, halves, strict=True)}
    expected = subset_estimates(means, subset)[0]
    assert result["accuracy"] == pytest.approx(expected.value)
    assert result["accuracy_ci95_low"] == pytest.approx(expected.low)
    assert result["subset_accuracy"] == pytest.approx(sum(means.values()) / len(means))
