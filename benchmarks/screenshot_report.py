"""Open a report's index.html in headless Chromium at 1280 and 1920 px: no console errors,
every figure loaded, no clipped table (no table wider than its box, no cell text cut, no word
split across lines, no horizontal scroll of the page; folded tables are checked opened), and
a full-page screenshot per width (folded tables closed, as the page loads). Needs `chromium`
(apt) and `playwright` (pip), no browser download:

    python benchmarks/screenshot_report.py sparc-report/ [SHOT_PREFIX]

Needs pip install playwright (and apt-get install chromium).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from command_line import arguments, fail, needs

WIDTHS = (1280, 1920)

#: Per table: its caption file name, its box's width and its content's width; every cell
#: whose text is wider than the cell; then, with words kept whole, every cell or table that
#: would overflow (a word the page splits across lines).
CLIPPED = """() => {
  const out = [];
  document.querySelectorAll('.table-wrap').forEach((wrap) => {
    const name = wrap.previousElementSibling ? wrap.previousElementSibling.textContent : '?';
    if (wrap.scrollWidth > wrap.clientWidth + 1)
      out.push(`table wider than its box (${wrap.scrollWidth} > ${wrap.clientWidth}): ${name}`);
    wrap.querySelectorAll('th, td').forEach((cell) => {
      if (cell.scrollWidth > cell.clientWidth + 1)
        out.push(`cell text cut in ${name}: ${cell.textContent.slice(0, 40)}`);
    });
  });
  // a word split across lines: without break-word its cell would overflow (one layout pass)
  const keep = document.createElement('style');
  keep.textContent = 'th, td { overflow-wrap: normal !important; word-break: normal !important; }';
  document.head.appendChild(keep);
  document.querySelectorAll('.table-wrap').forEach((wrap) => {
    const name = wrap.previousElementSibling ? wrap.previousElementSibling.textContent : '?';
    if (wrap.scrollWidth > wrap.clientWidth + 1)
      out.push(`table fits only by splitting words: ${name}`);
    wrap.querySelectorAll('th, td').forEach((cell) => {
      if (cell.scrollWidth > cell.clientWidth + 1)
        out.push(`word split in ${name}: ${cell.textContent.slice(0, 40)}`);
    });
  });
  keep.remove();
  const page = document.documentElement;
  if (page.scrollWidth > window.innerWidth + 1)
    out.push(`page scrolls sideways (${page.scrollWidth} > ${window.innerWidth})`);
  return out;
}"""

#: Open (true) or close (false) every folded table (`<details>`).
OPEN_FOLDED = "(open) => document.querySelectorAll('details').forEach((d) => { d.open = open; })"


def check_page(index: Path, screenshot: Path, width: int = WIDTHS[0]) -> list[str]:
    """Problems found on the page at `width` px (empty when it is fine); writes `screenshot`."""
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"))
        page = browser.new_page(viewport={"width": width, "height": 900})
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
        # folded tables are checked opened (nothing hidden may be clipped), shot as they load
        page.evaluate(OPEN_FOLDED, True)
        problems += [f"{width} px: {p}" for p in page.evaluate(CLIPPED)]
        page.evaluate(OPEN_FOLDED, False)
        page.screenshot(path=str(screenshot), full_page=True)
        browser.close()
    return problems


def check_widths(index: Path, prefix: Path) -> list[str]:
    """`check_page` at every width of `WIDTHS`; screenshots `<prefix>-<width>.png`."""
    found: list[str] = []
    for width in WIDTHS:
        found += check_page(index, prefix.with_name(f"{prefix.name}-{width}.png"), width)
    return found


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("report", nargs="?", type=Path, default=Path("sparc-report"))
    parser.add_argument("prefix", nargs="?", type=Path, help="default: REPORT/screenshot")


if __name__ == "__main__":
    options = arguments(__doc__, _options)
    needs("playwright", install="pip install playwright (and apt-get install chromium)")
    if shutil.which("chromium") is None:
        fail("needs chromium on PATH: apt-get install chromium")
    out, prefix = options.report, options.prefix or options.report / "screenshot"
    if not (out / "index.html").is_file():
        fail(f"no index.html in {out}: build a report first (python -m inspect_sparc.report)")
    found = check_widths(out / "index.html", prefix)
    shots = ", ".join(f"{prefix}-{w}.png" for w in WIDTHS)
    print(
        "\n".join(found)
        or f"OK at {WIDTHS} px: no console error, every figure loaded, no clipped table, no "
        f"split word; {shots}"
    )
    sys.exit(1 if found else 0)
