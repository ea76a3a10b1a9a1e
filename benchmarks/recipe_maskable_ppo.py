"""Train MaskablePPO on generated level-1 puzzles and compare it with random legal moves on a
held-out generated set (no grid shared with the training set, none a test-split grid).

    pip install -e ".[train-sb3]" scipy
    python benchmarks/recipe_maskable_ppo.py          # about 10 minutes on one CPU core
    python benchmarks/recipe_maskable_ppo.py --train 20 --held-out 30 --timesteps 256  # a check

Prints each policy's solve rate on the held-out puzzles with a 95% Wilson interval, and the
exact McNemar test on the puzzles one policy solves and the other does not (paired: the same
puzzles). docs/training.md gives the figures of one run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from command_line import arguments, needs, run_main

#: The modules the recipe imports beyond the package, and the line that installs them.
NEEDS = ("inspect_sparc", "sb3_contrib", "torch", "scipy")
INSTALL = 'pip install -e ".[train-sb3]" scipy'


def solve_flags(env: Any, records: Sequence[dict], choose: Callable[[Any, Any], int]) -> list[bool]:
    """Whether one episode of each record ends solved, the action picked by `choose`."""
    flags = []
    for record in records:
        observation, info = env.reset(options={"puzzle": record})
        done = False
        while not done:
            action = choose(observation, env.action_masks())
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        flags.append(bool(info["solved"]))
    return flags


def summary(name: str, flags: Sequence[bool]) -> str:
    """`name: k/n solved = p (95% Wilson a-b)`."""
    from scipy.stats import binomtest

    k, n = sum(flags), len(flags)
    interval = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return (
        f"{name}: {k}/{n} solved = {k / n:.3f} (95% Wilson {interval.low:.3f}-{interval.high:.3f})"
    )


def mcnemar(first: Sequence[bool], second: Sequence[bool]) -> str:
    """The exact McNemar test: a binomial test on the discordant puzzles."""
    from scipy.stats import binomtest

    only_first = sum(a and not b for a, b in zip(first, second, strict=True))
    only_second = sum(b and not a for a, b in zip(first, second, strict=True))
    discordant = only_first + only_second
    p = binomtest(only_first, discordant).pvalue if discordant else 1.0
    return (
        f"paired (exact McNemar): PPO alone solves {only_first}, random alone {only_second}, "
        f"two-sided p = {p:.2g}"
    )


def options(parser: argparse.ArgumentParser) -> None:
    """The sizes and the seed (the defaults are the documented run's)."""
    parser.add_argument("--train", type=int, default=500, help="training puzzles (level 1)")
    parser.add_argument("--held-out", type=int, default=300, help="held-out puzzles (level 1)")
    parser.add_argument("--timesteps", type=int, default=50_000, help="PPO environment steps")
    parser.add_argument("--seed", type=int, default=0, help="PPO's and the random policy's seed")


def main(args: argparse.Namespace) -> None:
    """Build the sets, train, evaluate both policies on the held-out set, print the figures."""
    import torch
    from sb3_contrib import MaskablePPO

    from inspect_sparc.train.dataset import prompt_records
    from inspect_sparc.train.env import SparcEnv

    torch.set_num_threads(1)
    started = time.monotonic()

    train = prompt_records("generated:1", args.train, 1, False, 1)
    held_out = prompt_records("generated:2", args.held_out, 1, False, 1, exclude=train)
    print(
        f"{len(train)} training and {len(held_out)} held-out level-1 puzzles (no grid shared), "
        f"built in {time.monotonic() - started:.0f} s"
    )
    started = time.monotonic()

    settings = {"observation": "vector", "dead_end": "terminated", "max_steps": 100}
    env = SparcEnv(puzzles=train, **settings)
    model = MaskablePPO(  # few, large minibatches: the update, not the game, costs the time
        "MlpPolicy", env, n_steps=1024, batch_size=256, n_epochs=4, seed=args.seed, device="cpu"
    )
    model.learn(total_timesteps=args.timesteps)
    print(f"trained {args.timesteps} steps in {time.monotonic() - started:.0f} s")

    evaluation = SparcEnv(puzzles=held_out, **settings)
    ppo = solve_flags(
        evaluation,
        held_out,
        lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0]),
    )
    rng = random.Random(args.seed)
    chance = solve_flags(
        evaluation, held_out, lambda obs, mask: rng.choice([a for a in range(4) if mask[a]])
    )
    print(summary("MaskablePPO", ppo))
    print(summary("random legal moves", chance))
    print(mcnemar(ppo, chance))
    print(f"total {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    chosen = arguments(__doc__, options)
    needs(*NEEDS, install=INSTALL)
    run_main(main, chosen)
