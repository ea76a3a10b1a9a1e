"""Real verifiers rollouts of both environments against a local OpenAI-compatible server (the
stand-in, a scripted model): `vf-eval` in a fresh process, the taskset's own tool-less harness
run by uv in the subprocess runtime, and the rewards it records equal to the reward functions
called directly. Slow; skipped without the `train-verifiers` extra or without `uv`.

The harness is a PEP 723 script that uv provisions with six packages. Each rollout runs twice:
uv installing them from the registry, and uv reading only a wheelhouse, offline, as
docs/training.md's `harness packages` block says (the block run as written, downloading the
wheels from the registry into a temporary folder). Without the package registry, set
INSPECT_SPARC_VF_WHEELHOUSE to a folder of their wheels built that way: the rollouts then use
it and skip the registry.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from inspect_sparc.core.episode.stepper import ACTION_NAMES, path_actions
from inspect_sparc.core.generate.generator import generate_puzzles
from inspect_sparc.core.prompts.single_shot import SYSTEM_PROMPT, user_prompt
from inspect_sparc.core.puzzle.answer import format_path
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.train import rule_reward, sparc_reward

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from openai_stand_in import stand_in_server

pytestmark = pytest.mark.slow
pytest.importorskip("verifiers.v1")
VF_EVAL = shutil.which("vf-eval", path=str(Path(sys.executable).parent))
if shutil.which("uv", path=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}") is None:
    pytest.skip("verifiers' harness needs uv (pip install uv)", allow_module_level=True)


def short_puzzles(count: int) -> list[dict[str, Any]]:
    """Generated level-1 puzzles with the shortest solutions (few turns for the gym)."""
    records = generate_puzzles(12, 38, 1)
    return sorted(records, key=lambda r: len(parse_puzzle(r).solutions[0]))[:count]


def opening_record(body: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any]:
    """The puzzle a request is about: the one whose user prompt opens the first user turn."""
    first = next(m["content"] for m in body["messages"] if m["role"] == "user")
    return next(r for r in records if first.startswith(user_prompt(r, "paper")))


DOC = Path(__file__).resolve().parents[2] / "docs" / "training.md"


def doc_block(name: str) -> list[str]:
    """The lines of docs/training.md's bash block marked `<!-- tested: NAME -->`."""
    import re

    text = DOC.read_text(encoding="utf-8")
    block = re.search(rf"<!-- tested: {name} -->\n```bash\n(.*?)```", text, re.DOTALL)
    assert block, f"docs/training.md has no bash block marked {name}"
    return block.group(1).strip().splitlines()


def wheelhouse_environment(wheelhouse: str) -> dict[str, str]:
    """The documented `export` line's variables, the wheelhouse folder put in."""
    export = next(line for line in doc_block("harness packages") if line.startswith("export "))
    pairs = (item.split("=", 1) for item in export.removeprefix("export ").split())
    return {key: value.replace("$PWD/wheelhouse", wheelhouse) for key, value in pairs}


@pytest.fixture(scope="module")
def documented_wheelhouse(tmp_path_factory) -> dict[str, str]:
    """The `harness packages` block run as written by bash in a fresh folder (its `pip` this
    Python's): the wheels downloaded there, and the UV_ variables its `export` line sets."""
    folder = tmp_path_factory.mktemp("harness")
    script = "\n".join(["set -e", *doc_block("harness packages"), "env"])
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        ["bash", "-c", script], cwd=folder, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert list((folder / "wheelhouse").glob("*.whl"))
    exported = wheelhouse_environment(str(folder / "wheelhouse"))
    variables = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    assert {key: variables[key] for key in exported} == exported  # what the shell exported
    return exported


@pytest.fixture(params=["registry", "wheelhouse"])
def harness_env(request) -> dict[str, str]:
    """The variables under which uv provisions the harness: none (it installs from the
    registry), or the documented wheelhouse route (INSPECT_SPARC_VF_WHEELHOUSE's folder when
    set, and then no registry route)."""
    given = os.environ.get("INSPECT_SPARC_VF_WHEELHOUSE")
    if request.param == "registry":
        if given:
            pytest.skip("INSPECT_SPARC_VF_WHEELHOUSE is set: no registry")
        return {}
    return (
        wheelhouse_environment(given) if given else request.getfixturevalue("documented_wheelhouse")
    )


def vf_eval(
    tmp_path: Path, base_url: str, records: list[dict[str, Any]], line: int, harness: dict[str, str]
) -> list[dict[str, Any]]:
    """Run the documented `vf-eval` line (`line` of the block) on the records in a fresh
    process, its file, model and URL replaced by the test's, uv under `harness`'s variables;
    its episodes from traces.jsonl."""
    import shlex

    source = tmp_path / "fresh.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    documented = doc_block("verifiers rollouts")[line]
    replaced = {"fresh.jsonl": str(source), "http://127.0.0.1:8080/v1": base_url}
    command = [replaced.get(word, word) for word in shlex.split(documented)]
    command[0] = VF_EVAL or command[0]
    env = {**os.environ, "LOCAL_API_KEY": "local", "UV_CACHE_DIR": str(tmp_path / "uv")}
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
    env |= harness
    result = subprocess.run(
        [*command, "-o", str(tmp_path / "out")],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    [traces] = (tmp_path / "out").glob("*/traces.jsonl")
    episodes = [json.loads(line) for line in traces.read_text(encoding="utf-8").splitlines()]
    [log] = (tmp_path / "out").glob("*/logs/attempt_1/eval.log")
    return [dict(e, log=log.read_text(encoding="utf-8")) for e in episodes]


def test_the_documented_wheelhouse_holds_the_harness_packages():
    """The `pip download` line names the packages of verifiers' chat program, no more."""
    import shlex

    from verifiers.v1.harnesses.utils.launch import CHAT_PROGRAM

    download = next(line for line in doc_block("harness packages") if "pip download" in line)
    documented = [
        w for w in shlex.split(download)[2:] if not w.startswith("-") and w != "wheelhouse"
    ]
    declared = json.loads(CHAT_PROGRAM.split("# dependencies = ")[1].splitlines()[0])
    assert documented == declared
    assert wheelhouse_environment("/w") == {
        "UV_FIND_LINKS": "/w",
        "UV_DEFAULT_INDEX": "",
        "UV_OFFLINE": "1",
    }


def reward(trace: dict[str, Any]) -> float:
    """A recorded trace's reward as verifiers sums it: each score times its weight."""
    return float(sum(r["score"] * r["weight"] for r in trace["rewards"].values()))


def logged_rewards(episodes: list[dict[str, Any]]) -> list[str]:
    """The rewards verifiers logged for the rollouts (`rollout done: ... reward=1.000`)."""
    done = [line for line in episodes[0]["log"].splitlines() if "rollout done" in line]
    return sorted(line.split("reward=")[1].split()[0] for line in done)


def test_a_single_turn_rollout_scores_as_the_reward_functions(tmp_path, harness_env):
    records = short_puzzles(2)
    solved, wrong = records
    replies = {
        solved["id"]: f"Reasoning ...\n#### {format_path(parse_puzzle(solved).solutions[0])}",
        wrong["id"]: f"#### {format_path(parse_puzzle(wrong).solutions[0][:-1])}",
    }

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        return {"role": "assistant", "content": replies[opening_record(body, records)["id"]]}

    with stand_in_server(respond) as server:
        episodes = vf_eval(tmp_path, server.base_url, records, 0, harness_env)
    assert len(episodes) == 2
    for episode in episodes:
        [trace] = episode["traces"]
        reply = replies[episode["task"]["data"]["id"]]
        puzzle = episode["task"]["data"]["puzzle"]
        assert trace["rewards"]["sparc_reward"]["score"] == sparc_reward([reply], puzzle)[0]
        assert trace["rewards"]["rule_reward"]["score"] == rule_reward([reply], puzzle)[0]
        assert reward(trace) == sparc_reward([reply], puzzle)[0]
    assert sorted(reward(t) for e in episodes for t in e["traces"]) == [0.0, 1.0]
    assert logged_rewards(episodes) == ["0.000", "1.000"]
    requests = [body for _, path, body in server.requests if path.endswith("/chat/completions")]
    for body in requests:  # the tool-less harness: the task's prompts, no tools offered
        assert not body.get("tools")
        system, user = body["messages"][:2]
        assert system == {"role": "system", "content": SYSTEM_PROMPT}
        assert user["content"] == user_prompt(opening_record(body, records), "paper")


def losing_walk(record: dict[str, Any]) -> list[str]:
    """Legal moves that end the game unsolved (a dead end, or E by a wrong path): the first
    such random walk, played on the gym itself."""
    import random

    from inspect_sparc.core.episode.stepper import Stepper

    rng = random.Random(0)
    while True:
        game, moves = Stepper(parse_puzzle(record), False, 100), []
        while not game.done:
            moves.append(rng.choice(game.legal_actions()))
            game.step(moves[-1])
        if not game.solved:
            return [ACTION_NAMES[a] for a in moves]


def test_a_gym_rollout_earns_the_games_reward_and_logs_it(tmp_path, harness_env):
    """One game won (its last reply also holds `#### <solution>`: still +1, not 2), one lost
    (a walk into a dead end or the wrong way to E: -1, not 0); each logged with its reward."""
    records = short_puzzles(2)
    won, lost = records
    moves = [ACTION_NAMES[a] for a in path_actions(parse_puzzle(won).solutions[0])]
    path = f"#### {format_path(parse_puzzle(won).solutions[0])}"
    losing = losing_walk(lost)

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        turn = sum(1 for m in body["messages"] if m["role"] == "assistant")
        if opening_record(body, records)["id"] == lost["id"]:
            return {"role": "assistant", "content": f"{path}\nFinal: {losing[turn]}"}
        last = turn == len(moves) - 1
        text = f"{path}\nFinal: {moves[turn]}" if last else f"Final: {moves[turn]}"
        return {"role": "assistant", "content": text}

    with stand_in_server(respond) as server:
        episodes = vf_eval(tmp_path, server.base_url, records, 1, harness_env)
    by_id = {e["task"]["data"]["id"]: e["traces"][0] for e in episodes}
    assert by_id[won["id"]]["rewards"]["gym_reward"]["score"] == 1.0
    sparc = by_id[won["id"]]["rewards"]["sparc_reward"]
    assert (sparc["score"], sparc["weight"]) == (1.0, 0.0)
    assert reward(by_id[won["id"]]) == 1.0
    assert reward(by_id[lost["id"]]) == -1.0
    assert by_id[won["id"]]["info"]["gym_ended"] == "reached_end"
    assert logged_rewards(episodes) == ["-1.000", "1.000"]


EVAL_WITH_OPENAI_API = """
import os, sys
sys.path.insert(0, {tests!r})
from inspect_ai import eval
from openai_stand_in import stand_in_server
from inspect_sparc import sparc

with stand_in_server(lambda body: {{"role": "assistant", "content": "#### (0,0)"}}) as server:
    os.environ |= {{"LOCAL_BASE_URL": server.base_url, "LOCAL_API_KEY": "local"}}
    eval(sparc(source="sample"), model="openai-api/local/stand-in", limit=1, display="none")
"""


def test_inspects_openai_provider_beside_the_extra_fails_in_one_line_naming_the_cause(tmp_path):
    """The extra's openai < 3 is too old for Inspect's OpenAI-compatible provider, which then
    fails with display="none" printing nothing; the package says why, in one line."""
    from importlib.metadata import version

    if int(version("openai").split(".")[0]) >= 3:
        pytest.skip("openai >= 3 here: Inspect's provider works")
    code = EVAL_WITH_OPENAI_API.format(tests=str(Path(__file__).resolve().parents[1]))
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if "inspect-sparc:" in line]
    assert len(lines) == 1 and f"openai {version('openai')} is installed" in lines[0]
    assert "train-verifiers extra" in lines[0] and "openai<3" in lines[0]
