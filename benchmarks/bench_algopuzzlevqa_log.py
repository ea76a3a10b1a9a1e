"""An AlgoPuzzleVQA run's log size with the original images and with the authors' 1024-px PNGs.

    python benchmarks/bench_algopuzzlevqa_log.py

Measured on the 36 real instances bundled with the package (two per puzzle), then extrapolated
to the full 1,800 (100 per puzzle): each puzzle's images share their size and style, so 50 times
the 36 is the full run's mix. The log size is fitted as fixed + per-sample from runs of 18 and 36
samples (a mock model replying ~2,000 characters, like a 512-token answer); log attachments are
deduplicated by content, so repeating images to fake 1,800 samples would undercount. Also prints
the image bytes sent and the one-off resizing time (cached afterwards). Asserts nothing.

Needs the base install only (`pip install -e .` or `pip install -e ".[dev]"`).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from command_line import arguments, needs, run_main

FULL = 1800
REPLY = (
    "Let me describe the image first. The grid shows several coloured cells and a few labels. " * 22
    + "Therefore the answer is (B)."
)


def log_size(samples: int, max_image_size: int, log_dir: Path) -> int:
    """Bytes of the `.eval` log of a mockllm run over the first `samples` bundled instances."""
    from inspect_ai import eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa

    def reply(*args: object) -> ModelOutput:
        output = ModelOutput.from_content(model="mockllm/model", content=REPLY)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    folder = log_dir / f"{samples}-{max_image_size}"
    model = get_model("mockllm/model", custom_outputs=reply)
    task = algopuzzlevqa(source="sample", max_image_size=max_image_size)
    [log] = eval(task, model=model, limit=samples, log_dir=str(folder), display="none")
    assert log.status == "success", log.error
    return sum(path.stat().st_size for path in folder.glob("*.eval"))


def main() -> None:
    """Print image bytes, resize time and log sizes, measured and extrapolated."""
    from inspect_sparc.core.algopuzzlevqa.images import resized_copies
    from inspect_sparc.core.algopuzzlevqa.sources import sample_folder

    originals = sorted(sample_folder().glob("images/*/*.jpg"))
    scale = FULL / len(originals)
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        os.environ["INSPECT_SPARC_CACHE_DIR"] = str(root / "cache")
        started = time.perf_counter()
        copies = resized_copies(originals, root / "cache" / "algopuzzlevqa", 1024)
        resize_s = time.perf_counter() - started
        original_bytes = sum(path.stat().st_size for path in originals)
        sent_bytes = sum(path.stat().st_size for path in copies.values())
        print(f"{len(originals)} bundled instances, extrapolated x{scale:g} to {FULL}")
        print(
            f"one-off resize ({os.cpu_count()} cores, then cached): {resize_s:.1f} s for "
            f"{len(originals)}, ~{resize_s * scale / 60:.1f} min for {FULL}"
        )
        print(
            f"image bytes  original {original_bytes / 1e6:6.1f} MB  resized PNG "
            f"{sent_bytes / 1e6:6.1f} MB  ratio {sent_bytes / original_bytes:.2f}  "
            f"(x{scale:g}: {original_bytes * scale / 1e6:.0f} MB vs "
            f"{sent_bytes * scale / 1e6:.0f} MB)"
        )
        results = {}
        for max_image_size, label in (
            (0, "original files (max_image_size=0)"),
            (1024, "1024-px PNG (default)"),
        ):
            small = log_size(18, max_image_size, root / "logs")
            large = log_size(36, max_image_size, root / "logs")
            per_sample = (large - small) / 18
            full = small + per_sample * (FULL - 18)
            results[max_image_size] = full
            print(
                f"log {label:34s} 18: {small / 1e6:5.2f} MB  36: {large / 1e6:5.2f} MB  "
                f"per sample {per_sample / 1e3:6.1f} KB  -> {FULL}: ~{full / 1e6:.0f} MB"
            )
        print(f"full-run log, resized / original: {results[1024] / results[0]:.2f}")


if __name__ == "__main__":
    arguments(__doc__)
    needs("inspect_sparc", "PIL")
    run_main(main)
