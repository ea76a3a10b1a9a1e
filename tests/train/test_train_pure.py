"""`inspect_sparc.train` is pure: importing and using it loads no Inspect; Gymnasium finds the
environment from a fresh process."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
import gymnasium
# Gymnasium's `module:id` form imports the package (registering the id) in a fresh process
env = gymnasium.make("inspect_sparc.train:inspect_sparc/SPaRC-v0", puzzles="sample")
from inspect_sparc.train import check_no_test_grids, prompt_dataset, rule_reward, sparc_reward
from inspect_sparc.train.puzzles import load_puzzles
records = load_puzzles("sample")[:2]
env.reset(seed=0)
env.step(0)
rule_reward(["#### (0,0)"], records[0])
prompt_dataset(records, allow_test=True)
print("inspect_ai" in sys.modules)
"""


def test_training_interfaces_load_no_inspect():
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"
