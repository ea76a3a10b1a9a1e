"""The environment and datasets in the training stacks people run: stable-baselines3 (its
checker, PPO in a SubprocVecEnv, sb3-contrib's MaskablePPO) and TRL's GRPOTrainer (the
docs/training.md example, on a tiny model made here: nothing is downloaded). Slow (torch) and
skipped where a stack is not installed: `pip install -e ".[train-sb3,train-trl]"`, then
`pytest -m slow tests/train/test_heavy_stacks.py`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import gymnasium
import pytest
from tiny_model import tiny_model

import inspect_sparc.train  # noqa: F401 - registers the environment
from inspect_sparc.train import ENV_ID

pytestmark = pytest.mark.slow
DOC = Path(__file__).resolve().parents[2] / "docs" / "training.md"


def test_sb3_checker_accepts_the_vector_observation_without_warnings():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env

    env = gymnasium.make(ENV_ID, puzzles="sample", observation="vector").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)
    with pytest.warns(UserWarning):  # the parity default: int codes up to 65,535
        check_env(gymnasium.make(ENV_ID, puzzles="sample").unwrapped)


def test_maskable_ppo_learns_on_the_environment_without_a_wrapper():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    env = gymnasium.make(ENV_ID, puzzles="sample", observation="vector", max_steps=50)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0)
    model.learn(128)
    observation, _ = env.reset(seed=1)
    masks = get_action_masks(env)
    action, _ = model.predict(observation, action_masks=masks)
    assert masks[int(action)]  # a masked policy picks a legal move


def test_ppo_in_subproc_vec_env_on_a_generated_set(tmp_path):
    pytest.importorskip("stable_baselines3")
    script = tmp_path / "train_ppo.py"
    script.write_text(
        textwrap.dedent(
            """
            from inspect_sparc.core import sources
            sources.GENERATED_SET_SIZE = 4
            import gymnasium
            import inspect_sparc.train
            from stable_baselines3 import PPO
            from stable_baselines3.common.vec_env import SubprocVecEnv

            def make():
                return gymnasium.make("inspect_sparc/SPaRC-v0", puzzles="generated:3",
                                      observation="vector", max_steps=50)

            if __name__ == "__main__":
                envs = SubprocVecEnv([make, make])
                PPO("MlpPolicy", envs, n_steps=32, batch_size=32, n_epochs=1).learn(64)
                envs.close()
                print("trained")
            """
        ),
        encoding="utf-8",
    )
    env = dict(os.environ, INSPECT_SPARC_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=400, env=env
    )
    assert done.returncode == 0 and done.stdout.split()[-1] == "trained", done.stderr[-3000:]
    assert done.stderr.count("generating the 4 puzzles") == 1  # one builder, the other waited


def test_the_sb3_example_of_the_docs_trains(tmp_path):
    pytest.importorskip("sb3_contrib")
    block = re.search(
        r"<!-- tested: sb3 -->\n```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S
    )
    assert block, "docs/training.md has no SB3 example marked for this test"
    script = tmp_path / "docs_sb3.py"
    shrink = "from inspect_sparc.core import sources\nsources.GENERATED_SET_SIZE = 4\n"
    script.write_text(shrink + block.group(1) + '    print("trained")\n', encoding="utf-8")
    env = dict(os.environ, INSPECT_SPARC_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=400, env=env
    )
    assert done.returncode == 0 and done.stdout.split()[-1] == "trained", done.stderr[-3000:]


def test_the_trl_example_of_the_docs_trains(tmp_path, monkeypatch):
    pytest.importorskip("trl")
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- tested: trl -->\n```python\n(.*?)```", text, re.DOTALL)
    assert block, "docs/training.md has no TRL example marked for this test"
    model = tiny_model(tmp_path / "tiny")
    code = block.group(1).replace('"Qwen/Qwen3-0.6B"', repr(model))  # the one change
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INSPECT_SPARC_CACHE_DIR", str(tmp_path / "cache"))
    scope: dict = {"__name__": "docs_example"}
    exec(compile(code, str(DOC), "exec"), scope)
    history = scope["trainer"].state.log_history
    assert scope["trainer"].state.global_step == 3
    logged = [entry for entry in history if "rewards/rule_reward/mean" in entry]
    assert logged and all("rewards/sparc_reward/mean" in entry for entry in logged)
