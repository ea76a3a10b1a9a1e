"""Open a report's index.html in headless Chromium: no console errors, every figure loaded,
full-page screenshot written. Needs `chromium` (apt) and `playwright` (pip), no browser
download: `python benchmarks/screenshot_report.py sparc-report/ [shot.png]`."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def check_page(index: Path, screenshot: Path) -> list[str]:
    """Problems found on the page (empty when it is fine); writes `screenshot`."""
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"))
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        page.on(
            "console",
            lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None,
        )
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
        page.goto(index.resolve().as_uri())
        page.wait_for_load_state("load")
        images = page.eval_on_selector_all(
            "img", "els => els.map(e => [e.alt, e.complete && e.naturalWidth > 0])"
        )
        problems += [f"figure not loaded: {alt}" for alt, ok in images if not ok]
        if not images:
            problems.append("no figures on the page")
        page.screenshot(path=str(screenshot), full_page=True)
        browser.close()
    return problems


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "sparc-report")
    shot = Path(sys.argv[2] if len(sys.argv) > 2 else out / "screenshot.png")
    found = check_page(out / "index.html", shot)
    print("\n".join(found) or f"OK: no console errors, every figure loaded; {shot}")
    sys.exit(1 if found else 0)
