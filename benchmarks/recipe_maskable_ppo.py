"""Train MaskablePPO on generated puzzles of levels 1-2 and compare it with random legal moves on
held-out generated puzzles of levels 1, 2 and 3 (no grid shared with the training set, none a
test-split grid), level by level.

    pip install -e ".[train-sb3]" scipy matplotlib
    python benchmarks/recipe_maskable_ppo.py --plot docs/training_recipe_curve.png
    python benchmarks/recipe_maskable_ppo.py --train 40 --held-out 30 --timesteps 2048  # a check

The policy is SB3's MLP over the one-hot vector observation (`--policy cnn`: a small
convolutional network over the same planes, read out at the agent's position; tried, not
better at this budget: docs/training.md). Prints the seeds and sizes, then for each held-out
level each policy's solve rate
with a 95% Wilson interval and the exact McNemar test on the puzzles one policy solves and the
other does not (paired: the same puzzles), and the wall and CPU time. `--plot PATH` draws the
held-out solve rate against training steps. docs/training.md gives the figures of one run.
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
#: The environment's settings, for training and evaluation alike.
SETTINGS: dict[str, Any] = {"observation": "vector", "dead_end": "terminated", "max_steps": 100}
#: The training and held-out sources (generated sets; the held-out one excludes the training
#: grids and draws further).
TRAIN_SOURCE, HELD_OUT_SOURCE = "generated:1", "generated:2"


def agent_cnn(observation_space: Any, channels: int = 64) -> Any:
    """A features extractor (SB3's `BaseFeaturesExtractor`) for the one-hot vector: the planes
    through three 3x3 convolutions, then the features at the agent's position, their maximum
    over the grid, and the agent's and E's coordinates (one-hot planes make both readable)."""
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    from inspect_sparc.train.observations import BINARY_CHANNELS, vector_length

    side = next(s for s in range(1, 64) if vector_length(s) == observation_space.shape[0])
    planes = observation_space.shape[0] // (side * side)
    agent, end = BINARY_CHANNELS.index("agent"), BINARY_CHANNELS.index("end")

    class AgentCnn(BaseFeaturesExtractor):  # type: ignore[misc]
        """Convolutions over the planes, read out where the agent stands."""

        def __init__(self, space: Any) -> None:
            super().__init__(space, features_dim=2 * channels + 4)
            layers: list[torch.nn.Module] = []
            for width in (planes, channels, channels):
                layers += [torch.nn.Conv2d(width, channels, 3, padding=1), torch.nn.ReLU()]
            self.convolutions = torch.nn.Sequential(*layers)
            axis = torch.arange(side, dtype=torch.float32) / (side - 1)
            self.register_buffer("xs", axis.repeat(side, 1))
            self.register_buffer("ys", axis[:, None].repeat(1, side))

        def forward(self, observations: Any) -> Any:
            grid = observations.reshape(-1, planes, side, side)
            features = self.convolutions(grid)
            here = grid[:, agent : agent + 1]
            at_agent = (features * here).sum(dim=(2, 3))
            pooled = features.amax(dim=(2, 3))
            where = [
                (grid[:, p] * axis).sum(dim=(1, 2))
                for p in (agent, end)
                for axis in (self.xs, self.ys)
            ]
            return torch.cat([at_agent, pooled, torch.stack(where, dim=1)], dim=1)

    return AgentCnn


def build_sets(args: argparse.Namespace) -> tuple[list[dict], dict[int, list[dict]]]:
    """The training puzzles (levels 1-2, half each) and the held-out ones, `--held-out` a level."""
    from inspect_sparc.train.dataset import prompt_records

    started = time.monotonic()
    train = prompt_records(TRAIN_SOURCE, args.train, [1, 2], False, args.workers)
    held_out = {
        level: prompt_records(
            HELD_OUT_SOURCE, args.held_out, level, False, args.workers, exclude=train
        )
        for level in args.levels
    }
    sizes = ", ".join(f"{len(v)} of level {k}" for k, v in held_out.items())
    print(
        f"{len(train)} training puzzles ({TRAIN_SOURCE}, levels 1-2), held out ({HELD_OUT_SOURCE}, "
        f"no grid shared with training): {sizes}; built in {time.monotonic() - started:.0f} s",
        flush=True,
    )
    return train, held_out


def solve_flags(
    records: Sequence[dict], choose: Callable[[Any, Any], Any], batch: int = 512
) -> list[bool]:
    """Whether one episode of each record ends solved; `choose(observations, masks)` picks the
    actions of all running episodes at once (one batched forward pass per step)."""
    from inspect_sparc.train.env import SparcEnv

    flags: list[bool] = []
    for first in range(0, len(records), batch):
        chunk = records[first : first + batch]
        envs = [SparcEnv(**SETTINGS) for _ in chunk]
        observations = [
            env.reset(options={"puzzle": r})[0] for env, r in zip(envs, chunk, strict=True)
        ]
        solved, running = [False] * len(chunk), list(range(len(chunk)))
        while running:
            masks = [envs[i].action_masks() for i in running]
            actions = choose([observations[i] for i in running], masks)
            still = []
            for i, action in zip(running, actions, strict=True):
                observations[i], _, terminated, truncated, info = envs[i].step(int(action))
                if terminated or truncated:
                    solved[i] = bool(info["solved"])
                else:
                    still.append(i)
            running = still
        flags += solved
    return flags


def policy_chooser(model: Any) -> Callable[[Any, Any], Any]:
    """The trained policy's choice (deterministic, masked) for a batch of episodes."""
    import numpy as np

    def choose(observations: Any, masks: Any) -> Any:
        actions, _ = model.predict(
            np.stack(observations), action_masks=np.stack(masks), deterministic=True
        )
        return actions

    return choose


def random_chooser(seed: int) -> Callable[[Any, Any], Any]:
    """Random legal moves from a seeded generator."""
    rng = random.Random(seed)
    return lambda _, masks: [rng.choice([a for a in range(4) if m[a]]) for m in masks]


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of k successes in n (scipy)."""
    from scipy.stats import binomtest

    interval = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return float(interval.low), float(interval.high)


def summary(name: str, flags: Sequence[bool]) -> str:
    """`name: k/n solved = p (95% Wilson a-b)`."""
    k, n = sum(flags), len(flags)
    low, high = wilson(k, n)
    return f"{name}: {k}/{n} solved = {k / n:.3f} (95% Wilson {low:.3f}-{high:.3f})"


def mcnemar(first: Sequence[bool], second: Sequence[bool]) -> str:
    """The exact McNemar test: a two-sided binomial test on the discordant puzzles."""
    from scipy.stats import binomtest

    only_first = sum(a and not b for a, b in zip(first, second, strict=True))
    only_second = sum(b and not a for a, b in zip(first, second, strict=True))
    discordant = only_first + only_second
    p = binomtest(only_first, discordant).pvalue if discordant else 1.0
    return (
        f"paired (exact McNemar): PPO alone solves {only_first}, random alone {only_second}, "
        f"two-sided p = {p:.4g}"
    )


def options(parser: argparse.ArgumentParser) -> None:
    """The sizes, seeds and knobs (the defaults are the documented run's)."""
    parser.add_argument("--train", type=int, default=4000, help="training puzzles (levels 1-2)")
    parser.add_argument("--held-out", type=int, default=300, help="held-out puzzles per level")
    parser.add_argument(
        "--levels",
        type=lambda t: [int(v) for v in t.split(",")],
        default=[1, 2, 3],
        help="held-out levels (default 1,2,3)",
    )
    parser.add_argument("--timesteps", type=int, default=400_000, help="PPO environment steps")
    parser.add_argument("--envs", type=int, default=16, help="environments stepped together")
    parser.add_argument("--policy", choices=("mlp", "cnn"), default="mlp", help="the network")
    parser.add_argument("--channels", type=int, default=32, help="the CNN's channels a layer")
    parser.add_argument(
        "--reward",
        choices=("solution", "rules"),
        default="solution",
        help="the environment's final reward (Spatial-Gym's, or rule_reward)",
    )
    parser.add_argument("--seed", type=int, default=0, help="PPO's and the random policy's seed")
    parser.add_argument(
        "--evaluations",
        type=int,
        default=8,
        help="points of the learning curve (held-out evaluations while training)",
    )
    parser.add_argument(
        "--curriculum",
        type=int,
        default=0,
        help="train on the level-1 training puzzles alone for this many steps first (0: none)",
    )
    parser.add_argument("--workers", type=int, default=1, help="generator processes")
    parser.add_argument(
        "--plot", help="write the learning curve to this PNG (needs pip install matplotlib)"
    )


def make_envs(args: argparse.Namespace, puzzles: list[dict]) -> Any:
    """`--envs` copies of the environment over `puzzles`, seeded from `--seed`, stepped together."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from inspect_sparc.train.env import SparcEnv

    def make(index: int) -> Callable[[], Any]:
        def build() -> Any:
            env = SparcEnv(puzzles=puzzles, reward=args.reward, **SETTINGS)
            env.reset(seed=args.seed * 1000 + index)
            return env

        return build

    return DummyVecEnv([make(i) for i in range(args.envs)])


def first_puzzles(args: argparse.Namespace, train: list[dict]) -> list[dict]:
    """The puzzles training starts on: the level-1 ones under `--curriculum`, else all."""
    return [r for r in train if int(r["difficulty_level"]) == 1] if args.curriculum else train


def make_model(args: argparse.Namespace, train: list[dict]) -> Any:
    """MaskablePPO on `--envs` copies of the environment over the training puzzles (the
    level-1 ones first under `--curriculum`)."""
    from sb3_contrib import MaskablePPO

    envs = make_envs(args, first_puzzles(args, train))
    policy_kwargs: dict[str, Any] = {}
    if args.policy == "cnn":
        policy_kwargs = {
            "features_extractor_class": agent_cnn(envs.observation_space, args.channels),
            "net_arch": [64],
        }
    return MaskablePPO(
        "MlpPolicy",
        envs,
        n_steps=max(2048 // args.envs, 8),
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        ent_coef=0.01,
        gamma=0.99,
        seed=args.seed,
        device="cpu",
        policy_kwargs=policy_kwargs,
    )


def learn_to(args: argparse.Namespace, model: Any, steps: int, train: list[dict]) -> None:
    """Train until `steps` environment steps; under `--curriculum`, on every training puzzle
    once the curriculum's steps are done."""
    switch = args.curriculum
    if switch and model.num_timesteps < switch < steps:
        model.learn(total_timesteps=switch - model.num_timesteps, reset_num_timesteps=False)
    if (
        switch
        and model.num_timesteps >= switch
        and len(model.get_env().get_attr("records")[0]) < len(train)
    ):
        model.set_env(make_envs(args, train))
        print(f"  from {model.num_timesteps} steps on: every training puzzle", flush=True)
    model.learn(total_timesteps=steps - model.num_timesteps, reset_num_timesteps=False)


def learn_with_curve(
    args: argparse.Namespace, model: Any, held_out: dict[int, list[dict]], train: list[dict]
) -> list[tuple[int, int, list[bool]]]:
    """Train for `--timesteps`, evaluating on the held-out sets at `--evaluations` points:
    (steps, level, flags) for each point and level, the untrained policy's first."""
    curve = []
    marks = [round(args.timesteps * (i + 1) / args.evaluations) for i in range(args.evaluations)]
    started, done = time.monotonic(), 0
    for mark in [0, *marks]:
        if mark > 0 and mark <= done:
            continue  # a rollout overshot this point: it was measured already
        if mark > done:
            learn_to(args, model, mark, train)
            done = model.num_timesteps
        rates = []
        for level, records in held_out.items():
            flags = solve_flags(records, policy_chooser(model))
            curve.append((done, level, flags))
            rates.append(f"level {level} {sum(flags)}/{len(flags)}")
        print(
            f"  {done:>8} steps ({time.monotonic() - started:.0f} s): held-out solved "
            + ", ".join(rates),
            flush=True,
        )
    return curve


def plot(
    path: str, curve: list[tuple[int, int, list[bool]]], chance: dict[int, list[bool]], title: str
) -> None:
    """The held-out solve rate against training steps, level by level, with 95% Wilson bands
    and the random legal moves' rate (dashed, its band shaded)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7.5, 4.5), dpi=120)
    for index, level in enumerate(chance):
        colour = f"C{index}"
        points = [(s, f) for s, lv, f in curve if lv == level]
        steps = [s for s, _ in points]
        rates = [sum(f) / len(f) for _, f in points]
        bands = [wilson(sum(f), len(f)) for _, f in points]
        axes.plot(steps, rates, "o-", color=colour, label=f"MaskablePPO, level {level}")
        axes.fill_between(
            steps, [b[0] for b in bands], [b[1] for b in bands], color=colour, alpha=0.15
        )
        k, n = sum(chance[level]), len(chance[level])
        low, high = wilson(k, n)
        axes.axhline(
            k / n,
            color=colour,
            linestyle="--",
            linewidth=1,
            label=f"random legal moves, level {level}",
        )
        axes.axhspan(low, high, color=colour, alpha=0.06)
    axes.set_xlabel("training steps")
    axes.set_ylabel("held-out puzzles solved (95% Wilson)")
    axes.set_ylim(bottom=0)
    axes.set_title(title, fontsize=9)
    axes.legend(fontsize=7, loc="upper left")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    print(f"learning curve: {path}")


def main(args: argparse.Namespace) -> None:
    """Build the sets, train with held-out evaluations, compare with random legal moves."""
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    wall, cpu = time.monotonic(), time.process_time()
    print(
        f"seeds: PPO and random legal moves {args.seed}; puzzles {TRAIN_SOURCE} (training), "
        f"{HELD_OUT_SOURCE} (held out); policy {args.policy}, reward {args.reward}, "
        f"{args.timesteps} steps, {args.envs} environments"
        + (f", level 1 alone for the first {args.curriculum} steps" if args.curriculum else ""),
        flush=True,
    )
    train, held_out = build_sets(args)
    model = make_model(args, train)
    curve = learn_with_curve(args, model, held_out, train)
    final = {level: flags for steps, level, flags in curve if steps == model.num_timesteps}
    chance = {
        level: solve_flags(records, random_chooser(args.seed))
        for level, records in held_out.items()
    }
    for level in held_out:
        print(f"held-out level {level}:")
        print("  " + summary(f"MaskablePPO, {model.num_timesteps} steps", final[level]))
        print("  " + summary("random legal moves", chance[level]))
        print("  " + mcnemar(final[level], chance[level]))
    print(f"total {time.monotonic() - wall:.0f} s wall, {time.process_time() - cpu:.0f} s CPU")
    if args.plot:
        title = (
            f"MaskablePPO ({args.policy}) on {len(train)} generated puzzles of levels 1-2, "
            f"seed {args.seed}; {args.held_out} held-out puzzles a level"
        )
        plot(args.plot, curve, chance, title)


if __name__ == "__main__":
    chosen = arguments(__doc__, options)
    needs(*NEEDS, install=INSTALL)
    if chosen.plot:
        needs("matplotlib", install="pip install matplotlib")
    run_main(main, chosen)
