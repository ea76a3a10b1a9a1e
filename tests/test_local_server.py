"""Tasks against a local OpenAI-compatible server, through the real `inspect eval` CLI.

A stand-in server (tests/openai_stand_in.py) plays a scripted model: for `sparc_agent` it makes
real tool calls (the first legal move each turn, one broken-JSON call in the first turn), for
`sparc` it answers the stored solution. Each way docs/models.md gives to reach such a server is
run end to end, and so is the failure it replaces (`openai/<name>` goes to the Responses API).
The expected episodes come from the gym environment on the same moves.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

from inspect_ai.log import read_eval_log
from openai_stand_in import stand_in_server

from inspect_sparc.core.episode.stepper import Stepper, moves_text
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.agent.tasks import sparc_agent
from inspect_sparc.evals.sparc.single_shot.tasks import sparc

LIMIT = 2
MAX_STEPS = 6
LEGAL = re.compile(r"Legal Actions: \[(\d)=(\w+)")
#: What the first turn sends besides its move: arguments cut short, as a real model sent them.
BROKEN = '{"direction": "up"'


def text_of(message: dict[str, Any]) -> str:
    content = message.get("content") or ""
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))


def first_legal_mover(body: dict[str, Any]) -> dict[str, Any]:
    """A model that moves to the first legal position each turn (read from the latest state in
    the conversation), adding one broken call to its first turn."""
    messages = body["messages"]
    [*_, (_, direction)] = LEGAL.findall("\n".join(text_of(m) for m in messages))
    turn = len(messages)

    def call(index: int, arguments: str) -> dict[str, Any]:
        function = {"name": "move", "arguments": arguments}
        return {"id": f"call_{turn}_{index}", "type": "function", "function": function}

    calls = [call(1, f'{{"direction": "{direction.lower()}"}}')]
    if not any(m["role"] == "tool" for m in messages):
        calls.insert(0, call(0, BROKEN))
    return {"role": "assistant", "content": "", "tool_calls": calls}


def greedy_episode(record: dict[str, Any]) -> Stepper:
    """The episode of always taking the first legal move (the scripted model's)."""
    env = Stepper(parse_puzzle(record), max_steps=MAX_STEPS)
    while not env.done:
        env.step(env.legal_actions()[0])
    return env


def inspect_eval(
    args: list[str], env: dict[str, str], log_dir: Path
) -> subprocess.CompletedProcess[str]:
    """`inspect eval ...` in a fresh process, with no OpenAI settings but those given."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "VLLM_"))}
    command = [sys.executable, "-m", "inspect_ai", "eval", *args]
    command += ["--limit", str(LIMIT), "--log-dir", str(log_dir), "--display", "none"]
    return subprocess.run(
        command, capture_output=True, text=True, timeout=120, env={**clean, **env}
    )


def only_log(log_dir: Path):
    [path] = log_dir.glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "success", log.error
    return log


def check_agent_run(log, server) -> None:
    """Every episode is the first-legal walk, played by tool calls; the broken call counted."""
    records = {
        s.id: cast("dict[str, Any]", s.metadata)["puzzle"]
        for s in sparc_agent(source="sample").dataset
    }
    assert len(log.samples) == LIMIT
    for sample in log.samples:
        env = greedy_episode(records[sample.id])
        [score] = sample.scores.values()
        assert score.metadata["moves"] == moves_text(env.history)
        assert score.value["steps"] == score.value["tool_calls"] == env.steps
        assert score.value["malformed_tool_calls"] == 1 and score.value["turns"] == env.steps
    posts = [(path, body) for method, path, body in server.requests if method == "POST"]
    assert {path for path, _ in posts} == {"/v1/chat/completions"}
    assert all([t["function"]["name"] for t in body["tools"]] == ["move"] for _, body in posts)
    assert len(posts) == sum(s.scores[next(iter(s.scores))].value["turns"] for s in log.samples)


AGENT = ["inspect_sparc/sparc_agent", "-T", "source=sample", "-T", f"max_steps={MAX_STEPS}"]


def test_openai_api_provider_with_its_base_url_plays_the_agent(tmp_path):
    with stand_in_server(first_legal_mover) as server:
        env = {"LOCAL_BASE_URL": server.base_url, "LOCAL_API_KEY": "none"}
        args = [*AGENT, "--model", "openai-api/local/stand-in", "--temperature", "0.3"]
        result = inspect_eval(args, env, tmp_path)
        assert result.returncode == 0, result.stderr
        check_agent_run(only_log(tmp_path), server)
        assert {body.get("temperature") for _, _, body in server.requests} == {0.3}


def test_vllm_provider_on_a_running_server_plays_the_agent(tmp_path):
    with stand_in_server(first_legal_mover) as server:
        env = {"VLLM_BASE_URL": server.base_url}
        result = inspect_eval([*AGENT, "--model", "vllm/stand-in"], env, tmp_path)
        assert result.returncode == 0, result.stderr
        check_agent_run(only_log(tmp_path), server)


def solution_answers() -> dict[str, str]:
    """Each sample's user message -> an answer giving its stored solution."""
    answers = {}
    for sample in sparc(source="sample").dataset:
        assert not isinstance(sample.input, str)
        [user] = [m for m in sample.input if m.role == "user"]
        answers[user.text] = f"The path is:\n#### {sample.target}"
    return answers


def test_openai_provider_without_the_responses_api_runs_single_shot(tmp_path):
    answers = solution_answers()

    def answer(body: dict[str, Any]) -> dict[str, Any]:
        [user] = [m for m in body["messages"] if m["role"] == "user"]
        return {"role": "assistant", "content": answers[text_of(user)]}

    with stand_in_server(answer) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "none"}
        args = ["inspect_sparc/sparc", "-T", "source=sample", "--model", "openai/stand-in"]
        args += ["-M", "responses_api=false", "--temperature", "0.3"]
        result = inspect_eval(args, env, tmp_path)
        assert result.returncode == 0, result.stderr
        log = only_log(tmp_path)
        [scores] = log.results.scores
        assert scores.metrics["accuracy"].value == 1.0
        assert server.paths() == ["/v1/chat/completions"] * LIMIT
        # the caveat docs/models.md gives: the name is taken for OpenAI's newest model
        assert all("temperature" not in body for _, _, body in server.requests)


def test_openai_provider_sends_an_unknown_name_to_the_responses_api(tmp_path):
    """The failure the docs route around: a 404 from a server with no `/v1/responses`."""
    with stand_in_server(first_legal_mover) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "none"}
        inspect_eval([*AGENT, "--model", "openai/stand-in"], env, tmp_path)
        [path] = tmp_path.glob("*.eval")
        log = read_eval_log(str(path))
        assert log.status == "error" and log.error is not None and "404" in log.error.message
        assert "/v1/responses" in server.paths()
        assert "/v1/chat/completions" not in server.paths()
