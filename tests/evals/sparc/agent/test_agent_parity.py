"""The same moves give the same path, ending and verdict in `sparc_agent` and `sparc_gym`.

Each puzzle gets a reproducible action list (the stored solution with illegal and unreadable
tries for half the puzzles, a random walk for the others): `sparc_gym` plays it as `Final: N`
replies, `sparc_agent` as `move` calls, and every gym score field must match exactly.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from agent_scripts import Player, gym_replay, replay_policy, scripted_actions
from inspect_ai import eval

from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.agent.tasks import sparc_agent
from inspect_sparc.evals.sparc.gym.tasks import sparc_gym

#: All 500 puzzles of the published test split (a path is a `source`).
TEST_SPLIT = Path(__file__).parents[3] / "fixtures" / "sparc" / "test_split.jsonl.gz"
#: Score fields only the agent protocol has.
AGENT_ONLY = ("tool_calls", "turns", "no_tool_turns", "malformed_tool_calls")


def scores_by_sample(log) -> dict[str | int, Any]:
    assert log.status == "success", log.error
    return {sample.id: next(iter(sample.scores.values())) for sample in log.samples}


def check_parity(
    source: str, tmp_path, traceback: bool = False, limit: int | None = None
) -> Counter[str]:
    """Run both tasks on the same actions; assert equal scores; return the endings seen."""
    args: dict[str, Any] = {"source": source, "traceback": traceback}
    agent_task, gym_task = sparc_agent(**args), sparc_gym(**args)
    order = {sample.id: n for n, sample in enumerate(agent_task.dataset)}
    cache: dict[str | int, list[int | None]] = {}

    def actions_for(state):
        if state.sample_id not in cache:
            puzzle = parse_puzzle(state.metadata["puzzle"])
            cache[state.sample_id] = scripted_actions(puzzle, order[state.sample_id], traceback)
        return cache[state.sample_id]

    options: dict[str, Any] = {"log_dir": str(tmp_path), "display": "none", "limit": limit}
    options["max_connections"] = 50
    [agent_log] = eval(agent_task, model=Player(replay_policy(actions_for)).model(), **options)
    [gym_log] = eval(gym_task, model=gym_replay(actions_for), **options)
    agent, gym = scores_by_sample(agent_log), scores_by_sample(gym_log)
    assert agent.keys() == gym.keys() and agent
    endings: Counter[str] = Counter()
    for sample_id, expected in gym.items():
        score = agent[sample_id]
        value = {k: v for k, v in score.value.items() if k not in AGENT_ONLY}
        assert value == expected.value, sample_id
        assert score.answer == expected.answer, sample_id
        assert score.explanation == expected.explanation, sample_id
        assert {k: score.metadata[k] for k in expected.metadata} == expected.metadata
        steps = len(cache[sample_id])
        assert score.value["tool_calls"] == score.value["steps"] == steps, sample_id
        endings[expected.metadata["ended"]] += 1
        endings["solved"] += expected.value["correct"]
        endings["backtracks"] += expected.value["backtracks"]
    return endings


def test_same_moves_same_scores_on_sample_puzzles(tmp_path):
    endings = check_parity("sample", tmp_path, limit=3)
    assert endings["solved"] and endings["dead_end"]


@pytest.mark.slow
def test_same_moves_same_scores_with_traceback(tmp_path):
    endings = check_parity("sample", tmp_path, traceback=True)
    assert endings["solved"] and endings["backtracks"] > 0


@pytest.mark.slow
def test_same_moves_same_scores_on_all_500_test_puzzles(tmp_path):
    endings = check_parity(str(TEST_SPLIT), tmp_path)
    assert sum(endings[e] for e in ("reached_end", "dead_end", "step_limit")) == 500
    assert endings["solved"] > 100 and endings["dead_end"] > 50
