"""The SPaRC prompts, byte-identical to `sparc-puzzle` 0.7.0: single-shot and step-by-step."""
