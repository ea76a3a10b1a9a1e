"""Train a causal language model with TRL's GRPOTrainer on fresh generated SPaRC puzzles, the
SPaRC authors' recipe (loss `dr_grpo`, rewards not scaled, 4 generations per prompt, the reward
split into parts) on this package's rule engine, then evaluate the checkpoint with Inspect on
held-out generated puzzles and on the test split: train and evaluate in one run.

    pip install -e ".[train-trl]"
    python benchmarks/recipe_grpo.py --model Qwen/Qwen3-0.6B --out grpo-sparc    # one GPU

Writes to `--out`: `train.jsonl` and `held_out.jsonl` (the puzzles; no held-out grid is a
training grid, none a test grid), `final/` (the checkpoint and its tokenizer),
`log_history.json` (what the trainer logged: `rewards/<part>/mean` at every step),
`completions.jsonl` (every completion the trainer scored, with its step and rewards) and
`logs/` (the two Inspect evaluations, read by `python -m inspect_sparc.report`). The
evaluations are the commands it prints, e.g.

    inspect eval inspect_sparc/sparc --model hf/grpo-sparc/final -T source=grpo-sparc/held_out.jsonl

The rewards are `inspect_sparc.train.reward_parts.REWARD_PARTS` with `REWARD_WEIGHTS`
(docs/training.md#grpo-the-authors-recipe).
"""

from __future__ import annotations

import argparse
import functools
import json
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from command_line import arguments, needs, run_main

NEEDS = ("inspect_sparc", "trl", "transformers", "torch", "datasets")
INSTALL = 'pip install -e ".[train-trl]"'


def options(parser: argparse.ArgumentParser) -> None:
    """The model, the sets and the trainer's sizes (defaults: the one-GPU configuration)."""
    parser.add_argument("--model", default="Qwen/Qwen3-0.6B", help="hub id or local folder")
    parser.add_argument("--out", default="grpo-sparc", help="output folder")
    parser.add_argument("--train", type=int, default=2000, help="training puzzles (levels 1-2)")
    parser.add_argument("--held-out", type=int, default=200, help="held-out puzzles (levels 1-2)")
    parser.add_argument("--seed", type=int, default=0, help="the trainer's seed")
    parser.add_argument(
        "--max-steps", type=int, default=100, help="optimizer steps (authors': 100)"
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=16,
        help="completions an optimizer step, 4 a prompt, at most 4 a forward pass",
    )
    parser.add_argument("--max-completion-length", type=int, default=4096)
    parser.add_argument("--learning-rate", type=float, default=1e-6)
    parser.add_argument("--cpu", action="store_true", help="train and evaluate on the CPU")
    parser.add_argument("--eval-limit", type=int, help="evaluate on this many puzzles of each set")
    parser.add_argument(
        "--test-source",
        default="modelscope",
        help="the test split's source for the second evaluation (sample: offline)",
    )
    parser.add_argument("--max-tokens", type=int, help="the evaluations' --max-tokens")
    parser.add_argument("--no-eval", action="store_true", help="train only")


def write_sets(args: argparse.Namespace, out: Path) -> tuple[Any, Path]:
    """The training dataset (levels 1-2, `generated:100`) and the held-out file (`generated:200`,
    no grid shared with training), both written under `out`."""
    from inspect_sparc.train import prompt_dataset

    train = prompt_dataset("generated:100", n=args.train, level=[1, 2])
    held_out = prompt_dataset(
        "generated:200", n=args.held_out, level=[1, 2], exclude=train["puzzle"]
    )
    for name, rows in (("train", train), ("held_out", held_out)):
        with open(out / f"{name}.jsonl", "w", encoding="utf-8") as file:
            file.writelines(record + "\n" for record in rows["puzzle"])
    print(
        f"{len(train)} training puzzles (generated:100), {len(held_out)} held out "
        f"(generated:200, no grid shared): {out}/train.jsonl, {out}/held_out.jsonl",
        flush=True,
    )
    return train.shuffle(seed=args.seed), out / "held_out.jsonl"


def recorded(function: Callable[..., list[float]], sink: Path) -> Callable[..., list[float]]:
    """`function` (same name, so TRL logs it as itself), writing each completion it scores, with
    the trainer's step and the reward, as a line of `sink`."""
    from inspect_sparc.train.rewards import completion_text

    @functools.wraps(function)
    def scored(completions: list[Any], puzzle: Any, **kwargs: Any) -> list[float]:
        rewards = function(completions, puzzle, **kwargs)
        state = kwargs.get("trainer_state")
        step = state.global_step + 1 if state is not None else None  # the step being made
        with open(sink, "a", encoding="utf-8") as file:
            for completion, record, reward in zip(completions, puzzle, rewards, strict=True):
                line = {
                    "step": step,
                    "reward": function.__name__,
                    "value": reward,
                    "completion": completion_text(completion),
                    "puzzle": record,
                }
                file.write(json.dumps(line) + "\n")
        return rewards

    return scored


def train(args: argparse.Namespace, out: Path, dataset: Any) -> Path:
    """GRPO on `dataset` with the reward parts; the checkpoint and the logs under `out`."""
    from trl import GRPOConfig, GRPOTrainer

    from inspect_sparc.train.reward_parts import REWARD_PARTS, REWARD_WEIGHTS

    sink = out / "completions.jsonl"
    sink.unlink(missing_ok=True)
    config = GRPOConfig(
        output_dir=str(out / "trainer"),
        loss_type="dr_grpo",  # the authors' loss
        scale_rewards="none",  # the authors' (and Dr. GRPO's) choice
        num_generations=4,
        per_device_train_batch_size=min(args.batch, 4),
        gradient_accumulation_steps=max(args.batch // 4, 1),
        max_completion_length=args.max_completion_length,
        learning_rate=args.learning_rate,
        max_steps=args.max_steps,
        reward_weights=list(REWARD_WEIGHTS),
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        seed=args.seed,
        use_cpu=args.cpu,
        bf16=not args.cpu,
        gradient_checkpointing=not args.cpu,
    )
    trainer = GRPOTrainer(
        model=args.model,
        reward_funcs=[recorded(part, sink) for part in REWARD_PARTS],
        args=config,
        train_dataset=dataset,
    )
    started = time.monotonic()
    trainer.train()
    final = out / "final"
    trainer.save_model(str(final))
    trainer.processing_class.save_pretrained(str(final))
    (out / "log_history.json").write_text(json.dumps(trainer.state.log_history, indent=1))
    print(
        f"trained {trainer.state.global_step} steps in {time.monotonic() - started:.0f} s; "
        f"checkpoint {final}",
        flush=True,
    )
    return final


def evaluate(args: argparse.Namespace, out: Path, final: Path, held_out: Path) -> None:
    """`inspect eval inspect_sparc/sparc` on the checkpoint: the held-out set, then the test
    split; each command printed before it runs."""
    common = ["--model", f"hf/{final}", "--log-dir", str(out / "logs"), "--display", "plain"]
    if args.cpu:
        common += ["-M", "device=cpu"]
    if args.eval_limit:
        common += ["--limit", str(args.eval_limit)]
    if args.max_tokens:
        common += ["--max-tokens", str(args.max_tokens)]
    for source in (str(held_out), args.test_source):
        command = ["inspect", "eval", "inspect_sparc/sparc", *common, "-T", f"source={source}"]
        print("$ " + shlex.join(command), flush=True)
        inspect = str(Path(sys.executable).with_name("inspect"))
        subprocess.run([inspect, *command[1:]], check=True)


def main(args: argparse.Namespace) -> None:
    """Build the sets, train, save, evaluate."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(
        f"model {args.model}; seed {args.seed}; {args.max_steps} steps of {args.batch} "
        f"completions; output {out}",
        flush=True,
    )
    dataset, held_out = write_sets(args, out)
    final = train(args, out, dataset)
    if not args.no_eval:
        evaluate(args, out, final, held_out)


if __name__ == "__main__":
    chosen = arguments(__doc__, options)
    needs(*NEEDS, install=INSTALL)
    run_main(main, chosen)
