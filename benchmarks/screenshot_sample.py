"""Screenshot a sample's scoring tab in `inspect view`, in headless Chromium (a real browser).

    python benchmarks/screenshot_sample.py LOG_DIR OUT_DIR [--sample ID ...] [--height PX]
                                           [--width PX]

Starts `inspect view` on LOG_DIR (one log in it), clicks each sample (default: the first two
whose explanation holds a picture), opens its SCORING tab (or `--tab Messages`...) and saves
`<id>_scoring.png` (the whole page) and `<id>_scoring_picture.png` (the first image on it) in
OUT_DIR; prints what the page shows (image count, natural size, decoded or not). Then stops
the server.

Needs Chromium and Playwright, which are not project dependencies:
`apt-get install chromium` and `pip install playwright` (the system Chromium is used).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from screenshot_view import view_server  # the sibling script (run from benchmarks/ or root)


def shoot(
    url: str,
    out: Path,
    samples: list[str],
    tab: str = "Scoring",
    height: int = 1100,
    width: int = 1400,
) -> None:
    """Open each sample's `tab` and screenshot it (a window `width` by `height` pixels)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium"), args=["--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(url)
        page.wait_for_load_state("networkidle")
        page.get_by_text("SAMPLES", exact=False).first.wait_for()
        for sample in samples:
            page.goto(url)
            page.wait_for_load_state("networkidle")
            page.get_by_text(sample, exact=True).first.click()
            page.get_by_role("tab", name=tab).first.click()
            page.wait_for_timeout(1500)
            name = tab.lower()
            page.screenshot(path=str(out / f"{sample}_{name}.png"), full_page=True)
            images = page.locator("img[src^='data:image']")
            print(f"{sample}: {images.count()} image(s) in the {name} tab")
            if images.count():
                image = images.first
                wide, high, complete = image.evaluate(
                    "i => [i.naturalWidth, i.naturalHeight, i.complete]"
                )
                print(f"  first image {wide}x{high}, decoded: {complete and wide > 0}")
                image.screenshot(path=str(out / f"{sample}_{name}_picture.png"))
        browser.close()


def samples_with_pictures(log_dir: str, count: int = 2) -> list[str]:
    """Ids of the first samples of the newest log whose explanation holds a picture."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    newest = list_eval_logs(log_dir)[0]
    found = []
    for sample in read_eval_log(newest).samples or []:
        explanations = [score.explanation or "" for score in (sample.scores or {}).values()]
        if any("](data:image/" in text for text in explanations):
            found.append(str(sample.id))
    return found[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log_dir")
    parser.add_argument("out_dir")
    parser.add_argument("--sample", action="append", default=[], help="sample id (repeatable)")
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    parser.add_argument("--tab", default="Scoring", help="sample tab: Scoring, Messages, ...")
    parser.add_argument("--height", type=int, default=1100, help="window height in pixels")
    parser.add_argument("--width", type=int, default=1400, help="window width in pixels")
    args = parser.parse_args()
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with view_server(Path(args.log_dir), args.port) as base:
        samples = args.sample or samples_with_pictures(args.log_dir)
        shoot(base + "/", out, samples, args.tab, args.height, args.width)


if __name__ == "__main__":
    from command_line import run_main  # the sibling helper (a script's folder is on its path)

    run_main(main)
