"""Screenshot a log in `inspect view` (headless Chromium): what users see, metric names included.

Starts `inspect view` on a free port, opens one log (and optionally one of its samples), saves a
PNG, and stops the server it started. Needs Playwright and a Chromium binary (neither is a
project dependency):

    apt-get install -y chromium && pip install playwright
    python benchmarks/screenshot_view.py --log-dir logs --log sparc --out /tmp/sparc_header.png
    python benchmarks/screenshot_view.py --log-dir logs --log algopuzzlevqa --sample clock_0001 \
        --out /tmp/sample.png
    python benchmarks/screenshot_view.py --log-dir logs --log sparc --click "All scoring" \
        --out /tmp/sparc_scoring.png
    python benchmarks/screenshot_view.py --log-dir logs --log sparc --click "All scoring" \
        --scroll-x 700 --out /tmp/sparc_scoring_rules.png  # the rule-break group, further right
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def newest_log(log_dir: Path, fragment: str) -> Path:
    """The most recent `.eval`/`.json` log in `log_dir` whose file name contains `fragment`."""
    logs = [p for p in log_dir.iterdir() if p.suffix in (".eval", ".json") and fragment in p.name]
    if not logs:
        raise SystemExit(f"no log matching {fragment!r} in {log_dir}")
    return max(logs, key=lambda p: p.stat().st_mtime)


def wait_for_server(url: str, server: subprocess.Popen, timeout: float = 60.0) -> None:
    """Block until `url` answers (or fail if the server exits or `timeout` passes)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"inspect view exited with code {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"inspect view did not answer at {url} within {timeout:.0f} s")


@contextmanager
def view_server(log_dir: Path, port: int = 0) -> Iterator[str]:
    """Run `inspect view` on `log_dir` (a free port by default) and yield its base URL; the
    server is stopped on exit."""
    port = port or free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "inspect_ai", "view", "--log-dir", str(log_dir)]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_server(base, server)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def view_url(base: str, log: Path | None, sample: str | None, epoch: int) -> str:
    """The viewer route of a log, of one sample of it, or (no log) of the log list."""
    if log is None:
        return f"{base}/#/logs/"
    route = f"/logs/{quote(log.name)}"
    if sample is not None:
        route += f"/samples/sample/{quote(sample, safe='')}/{epoch}/"
    return f"{base}/#{route}"


def screenshot(
    url: str,
    out: Path,
    width: int,
    height: int,
    wait_text: str | None,
    click: str | None,
    scroll_x: int = 0,
) -> None:
    """Open `url` in headless Chromium (clicking `click`, if given, then scrolling every
    horizontally scrollable box `scroll_x` pixels right), save a screenshot to `out`."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(url, wait_until="networkidle")
            if wait_text:
                page.get_by_text(wait_text, exact=False).first.wait_for(timeout=30_000)
            if click:
                page.get_by_text(click, exact=False).first.click(timeout=30_000)
            if scroll_x:
                page.wait_for_timeout(500)
                page.evaluate(
                    """x => document.querySelectorAll('*').forEach(e => {
                        if (e.scrollWidth > e.clientWidth + 4) e.scrollLeft = x; })""",
                    scroll_x,
                )
            page.wait_for_timeout(1_500)  # let the header settle (fonts, metric layout)
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log-dir", type=Path, required=True, help="folder `inspect view` serves")
    parser.add_argument("--log", default="", help="part of the log file name (e.g. the task)")
    parser.add_argument("--list", action="store_true", help="shoot the log list, not one log")
    parser.add_argument("--sample", help="sample id to open (default: the log's header only)")
    parser.add_argument("--epoch", type=int, default=1, help="epoch of --sample (default 1)")
    parser.add_argument("--out", type=Path, required=True, help="PNG to write")
    parser.add_argument("--port", type=int, default=0, help="port for inspect view (default: free)")
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--click", help="text of a link to click first (e.g. 'All scoring')")
    parser.add_argument(
        "--scroll-x", type=int, default=0, help="scroll wide boxes right (e.g. the scoring detail)"
    )
    parser.add_argument("--wait-text", help="text to wait for before the shot (default: task name)")
    args = parser.parse_args()

    log_dir = args.log_dir.resolve()
    log = None if args.list else newest_log(log_dir, args.log)
    with view_server(log_dir, args.port) as base:
        url = view_url(base, log, args.sample, args.epoch)
        screenshot(
            url,
            args.out,
            args.width,
            args.height,
            args.wait_text or (None if args.list else args.log) or None,
            args.click,
            args.scroll_x,
        )
        print(f"{url} -> {args.out}")


if __name__ == "__main__":
    from command_line import run_main  # the sibling helper (a script's folder is on its path)

    run_main(main)
