"""SPaRC for training: reward functions, a Gymnasium environment and prompt datasets, on the rule
engine that scores the evaluations (docs/training.md).

    from inspect_sparc.train import prompt_dataset, rule_reward, sparc_reward
    import gymnasium
    env = gymnasium.make("inspect_sparc/SPaRC-v0", puzzles="generated:0")

Importing this package registers `inspect_sparc/SPaRC-v0` with Gymnasium when Gymnasium is
installed (the `train` extra). The environment and the datasets are imported on first use, so
the reward functions need neither Gymnasium nor `datasets`. Pure logic: no Inspect imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.runtime.lazy import lazy_exports
from inspect_sparc.train.rewards import rule_reward, sparc_reward

#: The Gymnasium id of the environment (defined here only).
ENV_ID = "inspect_sparc/SPaRC-v0"
ENTRY_POINT = "inspect_sparc.train.env:SparcEnv"

#: Exported name -> the module that defines it, imported on first use.
EXPORTS = {
    "SparcEnv": "inspect_sparc.train.env",
    "prompt_dataset": "inspect_sparc.train.dataset",
    "check_no_test_grids": "inspect_sparc.core.generate.leakage",
}

__all__ = ["ENV_ID", "SparcEnv", "check_no_test_grids", "prompt_dataset", "rule_reward"]
__all__ += ["sparc_reward"]

if TYPE_CHECKING:
    from inspect_sparc.core.generate.leakage import check_no_test_grids
    from inspect_sparc.train.dataset import prompt_dataset
    from inspect_sparc.train.env import SparcEnv


def register() -> bool:
    """Register the environment with Gymnasium (once); False when Gymnasium is not installed.

    Returns:
        Whether `inspect_sparc/SPaRC-v0` is registered."""
    try:
        from gymnasium.envs.registration import register as gym_register
        from gymnasium.envs.registration import registry
    except ImportError:
        return False
    if ENV_ID not in registry:
        gym_register(id=ENV_ID, entry_point=ENTRY_POINT)
    return True


__getattr__ = lazy_exports(__name__, EXPORTS)


register()
