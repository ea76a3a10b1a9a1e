"""Build the shipped per-puzzle verdicts of the published SPaRC runs (published_runs/data).

Reads every `*_details.csv` of the authors' result folders at pinned commits, either from a local
clone (`--git-dir REPO=PATH`) or downloaded from raw.githubusercontent.com, checks each file's
sha256 against the shipped `runs.csv` when it exists (`--check`), and writes:

- `runs.csv`: one row per run (id, protocol, prompt, model, n, solved, source repo, commit,
  path, sha256);
- `verdicts.csv`: one row per test puzzle (id, level) and one 0/1 column per run (empty: not run).

Only the facts needed for paired comparisons are kept (puzzle id, level, solved); the source
files themselves (times, paths, issues) are not copied. Run:
    python benchmarks/build_published_verdicts.py --git-dir lkaesberg/sparc-gym-analysis=PATH ...
    python benchmarks/build_published_verdicts.py --download --check
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import subprocess
import sys
import urllib.request
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "inspect_sparc" / "published_runs" / "data"

#: repo -> (pinned commit, folder of the *_details.csv files, run id prefix)
SOURCES = {
    "lkaesberg/sparc-gym-analysis": (
        "aad1f50f6f82e6721ace89da804c34138bb2cfe0",
        "results/spatial_gym/",
        "gym-analysis",
    ),
    "lkaesberg/sparc-train": (
        "b8cb304650c968396ceeb5c8e403d6a912262914",
        "analyze/results/sparc/",
        "train",
    ),
}
#: Files whose verdicts are identical to a run already taken from the first repo: left out.
SAME_AS = {
    "analyze/results/sparc/Qwen_Qwen3-14B_details.csv": "gym-analysis/Qwen_Qwen3-14B",
    "analyze/results/sparc/Qwen_Qwen3-4B_details.csv": "gym-analysis/Qwen_Qwen3-4B",
}
#: The display names the packaged totals use (report/data/sparc_published.csv), by file prefix.
MODELS = {
    "openai_gpt-oss-120b": "GPT-OSS 120B",
    "nvidia_Llama-3_3-Nemotron-Super-49B-v1_5": "Nemotron 49B",
    "allenai_Olmo-3.1-32B-Think": "OLMo 3.1 32B",
    "deepseek-ai_DeepSeek-R1-Distill-Qwen-32B": "R1 Distill 32B",
    "google_gemma-3-27b-it": "Gemma 3 27B",
    "mistralai_Magistral-Small-2507": "Magistral Small",
    "Qwen_Qwen3-VL-32B-Thinking": "Qwen 3 VL 32B",
    "9Tobi_ragen_sparc_qwen3_4B_CW3": "Qwen 3 4B (FT)",
    "astar_ablation_baseline2": "A* (path-finding agent, ignores rules)",
    "random_ablation_baseline1": "Random agent",
}
SUFFIXES = [  # file-name suffix -> (protocol, prompt), longest first
    ("_gym_traceback", ("gym_traceback", "default")),
    ("_gym_no-reason", ("gym", "no-reason")),
    ("_gym_visual", ("gym_visual", "gym_visual")),
    ("_no-reason", ("single_shot", "no-reason")),
    ("_gym", ("gym", "default")),
]


def model_name(prefix: str) -> str:
    """A file's model as shown: the packaged name, else `Qwen 3 14B`, `Qwen3-14B-SPaRC-SFT`."""
    if prefix in MODELS:
        return MODELS[prefix]
    if prefix.startswith("Qwen_Qwen3-"):
        return "Qwen 3 " + prefix.removeprefix("Qwen_Qwen3-")
    return prefix.split("_", 1)[1] if "_" in prefix else prefix


def describe(stem: str) -> tuple[str, str, str]:
    """(protocol, prompt, model) of a details file's stem (`Qwen_Qwen3-14B_gym_no-reason`)."""
    if stem.startswith("astar_"):
        return "baseline_astar", "", model_name(stem)
    if stem.startswith("random_"):
        return "baseline_random", "", model_name(stem)
    for suffix, (protocol, prompt) in SUFFIXES:
        if stem.endswith(suffix):
            return protocol, prompt, model_name(stem.removesuffix(suffix))
    return "single_shot", "default", model_name(stem)


def list_files(repo: str, git_dir: str | None) -> list[str]:
    commit, folder, _ = SOURCES[repo]
    if git_dir is None:  # the runs.csv shipped names them
        with (DATA / "runs.csv").open() as handle:
            return [r["path"] for r in csv.DictReader(handle) if r["source_repo"] == repo] + [
                p for p in SAME_AS if p.startswith(folder)
            ]
    out = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", commit, folder],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return sorted(p for p in out if p.endswith("_details.csv") and "/archive/" not in p)


def read_file(repo: str, path: str, git_dir: str | None) -> bytes:
    commit = SOURCES[repo][0]
    if git_dir is not None:
        return subprocess.run(
            ["git", "--git-dir", git_dir, "show", f"{commit}:{path}"],
            capture_output=True,
            check=True,
        ).stdout
    url = f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git-dir", action="append", default=[], metavar="REPO=PATH")
    parser.add_argument("--download", action="store_true", help="read the files from GitHub")
    parser.add_argument(
        "--check", action="store_true", help="fail if a file's sha256 differs from runs.csv"
    )
    args = parser.parse_args(argv)
    git_dirs = dict(item.split("=", 1) for item in args.git_dir)
    if not args.download and set(git_dirs) != set(SOURCES):
        parser.error(f"give --download or --git-dir for each of {', '.join(SOURCES)}")
    known = {}
    if (DATA / "runs.csv").exists():
        with (DATA / "runs.csv").open() as handle:
            known = {r["path"] + r["source_repo"]: r["sha256"] for r in csv.DictReader(handle)}
    runs, verdicts, levels = [], {}, {}
    for repo, (commit, _folder, prefix) in SOURCES.items():
        for path in list_files(repo, git_dirs.get(repo)):
            if path in SAME_AS:
                continue
            data = read_file(repo, path, git_dirs.get(repo))
            digest = hashlib.sha256(data).hexdigest()
            if args.check and known.get(path + repo, digest) != digest:
                print(f"sha256 differs from runs.csv: {repo} {path}", file=sys.stderr)
                return 1
            stem = path.rsplit("/", 1)[1].removesuffix("_details.csv")
            run_id = f"{prefix}/{stem}"
            rows = list(csv.DictReader(io.StringIO(data.decode())))
            verdicts[run_id] = {r["Puzzle ID"]: int(r["Solved"] == "PASS") for r in rows}
            for r in rows:
                if levels.setdefault(r["Puzzle ID"], int(r["Difficulty"])) != int(r["Difficulty"]):
                    raise ValueError(f"{run_id}: level of {r['Puzzle ID']} differs")
            protocol, prompt, model = describe(stem)
            solved = sum(verdicts[run_id].values())
            runs.append(
                [run_id, protocol, prompt, model, len(rows), solved, repo, commit, path, digest]
            )
            print(f"{run_id}: {solved}/{len(rows)}", file=sys.stderr)
    DATA.mkdir(parents=True, exist_ok=True)
    with (DATA / "runs.csv").open("w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(
            [
                "run_id",
                "protocol",
                "prompt",
                "model",
                "n",
                "solved",
                "source_repo",
                "commit",
                "path",
                "sha256",
            ]
        )
        writer.writerows(runs)
    ids = sorted(levels, key=lambda p: (levels[p], p))
    with (DATA / "verdicts.csv").open("w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["puzzle_id", "level", *(r[0] for r in runs)])
        for pid in ids:
            writer.writerow([pid, levels[pid], *(verdicts[r[0]].get(pid, "") for r in runs)])
    print(f"wrote {len(runs)} runs x {len(ids)} puzzles to {DATA}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
