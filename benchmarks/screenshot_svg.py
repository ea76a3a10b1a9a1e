"""Does `inspect view` show an SVG data URI in a score explanation or metadata? Ask Chromium.

    python benchmarks/screenshot_svg.py OUT_DIR [--port N]

Writes a one-sample log whose score explanation holds the same small drawing twice, as an SVG
data URI and as a lossless WebP one (and the SVG URI again in the score's metadata), opens the
sample's Scoring tab in `inspect view` (headless Chromium), prints each image the page shows
(type, decoded size) and saves `svg_check.png` in OUT_DIR. Needs Chromium and Playwright (not
project dependencies): `apt-get install chromium` and `pip install playwright`.
"""

from __future__ import annotations

import argparse
import base64
import io
import shutil
import tempfile
from pathlib import Path

from screenshot_view import view_server  # the sibling script (run from benchmarks/ or root)

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="90">'
    '<rect width="160" height="90" fill="#1c3733"/>'
    '<rect x="20" y="20" width="50" height="50" fill="#4ba78a"/>'
    '<rect x="90" y="20" width="50" height="50" fill="none" stroke="#ff00a0" stroke-width="5"/>'
    '<text x="80" y="14" fill="#c4d6d0" font-size="12" text-anchor="middle">1 3</text></svg>'
)


def drawing_uris() -> tuple[str, str]:
    """The same drawing as an SVG and as a lossless WebP data URI."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (160, 90), (28, 55, 51))
    draw = ImageDraw.Draw(image)
    draw.rectangle((20, 20, 69, 69), fill=(75, 167, 138))
    draw.rectangle((90, 20, 139, 69), outline=(255, 0, 160), width=5)
    buffer = io.BytesIO()
    image.save(buffer, format="WEBP", lossless=True)
    svg = "data:image/svg+xml;base64," + base64.b64encode(SVG.encode()).decode()
    webp = "data:image/webp;base64," + base64.b64encode(buffer.getvalue()).decode()
    return svg, webp


def write_log(log_dir: Path) -> None:
    """One sample scored with both pictures in its explanation, the SVG also in metadata."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, mean, scorer
    from inspect_ai.solver import generate

    svg, webp = drawing_uris()

    @scorer(metrics=[mean()])
    def pictured():
        async def score(state, target):
            explanation = f"SVG:\n\n![svg]({svg})\n\nWebP:\n\n![webp]({webp})"
            return Score(value=0, explanation=explanation, metadata={"svg": f"![svg]({svg})"})

        return score

    output = ModelOutput.from_content(model="mockllm/model", content="an answer")
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tiktoken
    model = get_model("mockllm/model", custom_outputs=[output])
    task = Task(dataset=[Sample(id="svg_check", input="a question")], solver=generate(),
                scorer=pictured())  # fmt: skip
    [log] = eval(task, model=model, log_dir=str(log_dir), display="none")
    assert log.status == "success", log.error


def shoot(url: str, out: Path) -> None:
    """Open the sample's Scoring tab, report every inline image, save a screenshot."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=shutil.which("chromium"), args=["--no-sandbox"]
        )
        page = browser.new_page(viewport={"width": 1200, "height": 800})
        page.goto(url)
        page.wait_for_load_state("networkidle")
        page.get_by_text("svg_check", exact=True).first.click()
        page.get_by_role("tab", name="Scoring").first.click()
        page.wait_for_timeout(1500)
        page.screenshot(path=str(out / "svg_check.png"), full_page=True)
        shown = page.evaluate(
            """() => [...document.querySelectorAll('img')].map(
                i => [i.getAttribute('src').slice(0, 26), i.naturalWidth, i.naturalHeight])"""
        )
        text = page.inner_text("body")
        print(f"images on the Scoring tab: {shown or 'none'}")
        print(f"'data:image/svg+xml' shown as text: {'data:image/svg+xml' in text}")
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    args = parser.parse_args()
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        write_log(Path(folder))
        with view_server(Path(folder), args.port) as base:
            shoot(base + "/", out)
    print(f"screenshot: {out / 'svg_check.png'}")


if __name__ == "__main__":
    from command_line import run_main  # the sibling helper (a script's folder is on its path)

    run_main(main)
