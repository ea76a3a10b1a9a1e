"""Building a generated set never hangs nor crashes where a process pool cannot run: each case
in a fresh Python process, with a timeout (a hang fails the test instead of stalling the suite).

The sets are shrunk to 4 puzzles of 2 worker processes (by the scripts themselves and
$INSPECT_SPARC_GENERATOR_WORKERS), so that a pool is asked for as with the real 500, and built
by the pure-Python search (no compile time).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TIMEOUT_S = 240
SHRINK = """
from inspect_sparc.core import sources
sources.GENERATED_SET_SIZE = 4
"""


def run_script(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    """Run `body` as a script file (so that spawned workers would re-import it) with the cache
    and the worker count set; fail on a timeout or a non-zero exit."""
    script = tmp_path / "user_script.py"
    script.write_text(textwrap.dedent(SHRINK) + textwrap.dedent(body), encoding="utf-8")
    env = dict(os.environ, INSPECT_SPARC_CACHE_DIR=str(tmp_path / "cache"))
    env["INSPECT_SPARC_GENERATOR_WORKERS"] = "2"
    env["INSPECT_SPARC_SEARCH"] = "python"  # 4 small puzzles: no time for numba's compile
    try:
        done = subprocess.run(
            [sys.executable, str(script)],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            env=env,
            cwd=tmp_path,
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"the script hung for {TIMEOUT_S} s; stderr: {str(error.stderr)[-2000:]}")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def test_an_unguarded_script_builds_in_this_process(tmp_path):
    done = run_script(
        tmp_path,
        """
        import gymnasium
        import inspect_sparc.train
        # allow_test: the guard's first read of the hub caches imports their clients (seconds)
        env = gymnasium.make("inspect_sparc/SPaRC-v0", puzzles="generated:3", allow_test=True)
        print("records", len(env.unwrapped.records))
        """,
    )
    assert done.stdout.split() == ["records", "4"]
    assert "in this process, not 2" in done.stderr and "__main__" in done.stderr
    assert done.stderr.count("generating the 4 puzzles") == 1


def test_a_guarded_script_still_uses_the_pool(tmp_path):
    done = run_script(
        tmp_path,
        """
        from inspect_sparc.core.generate.generator import generate_puzzles, pool_blocker

        if __name__ == "__main__":
            print(pool_blocker(), len(generate_puzzles(2, 3, 1, workers=2)))
        """,
    )
    assert done.stdout.split() == ["None", "2"]
    assert "in this process" not in done.stderr


def test_daemon_workers_build_once_and_share_the_cache(tmp_path):
    # SB3's SubprocVecEnv, DataLoader workers and multiprocessing pools run daemon processes
    done = run_script(
        tmp_path,
        """
        import multiprocessing

        def build(queue):
            queue.put(len(sources.load_records("generated:3")))

        if __name__ == "__main__":
            context = multiprocessing.get_context("spawn")
            queue = context.Queue()
            workers = [context.Process(target=build, args=(queue,), daemon=True) for _ in "ab"]
            for worker in workers:
                worker.start()
            print(sorted(queue.get(timeout=200) for _ in workers))
            for worker in workers:
                worker.join()
        """,
    )
    assert done.stdout.strip() == "[4, 4]"
    assert "daemon process" in done.stderr
    assert done.stderr.count("generating the 4 puzzles") == 1  # the other waited on the lock


@pytest.mark.slow
def test_an_eval_from_an_unguarded_script_finishes(tmp_path):
    done = run_script(
        tmp_path,
        f"""
        from inspect_ai import eval
        from inspect_sparc.evals.sparc.single_shot.solvers import search_solver
        from inspect_sparc.evals.sparc.single_shot.tasks import sparc

        logs = eval(sparc(source="generated:5"), model="mockllm/model", solver=search_solver(),
                    limit=2, log_dir={str(tmp_path / "logs")!r}, display="none")
        print(logs[0].status, len(logs[0].samples))
        """,
    )
    assert done.stdout.split()[-2:] == ["success", "2"]
    assert "in this process, not 2" in done.stderr
